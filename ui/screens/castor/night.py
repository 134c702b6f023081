"""Castor in Statistics (the medals handed out) and on the home screen (the round)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.app import App

from ui.screens.night.games import NightScreens

if TYPE_CHECKING:
    from companion.night.stats import KindStats


class CastorScreens(NightScreens):
    def stat_lines(self, screen: Any, ks: KindStats) -> list[str]:
        return [App.get_running_app().tr("night.ui.kind_medals", n=ks.medals)]

    def progress(self, summary: dict[str, Any],
                 setup: dict[str, Any] | None = None) -> str | None:
        return str(App.get_running_app().tr("core.ui.progress_round",
                                            n=summary.get("turn", 1)))


NIGHT = CastorScreens()
