"""Mr. Bond in Statistics: the best kill and who made it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.app import App

from ui.screens.night.games import NightScreens

if TYPE_CHECKING:
    from companion.night.stats import KindStats


class BondScreens(NightScreens):
    def stat_lines(self, screen: Any, ks: KindStats) -> list[str]:
        if ks.best_kill is None:
            return []
        return [App.get_running_app().tr("night.ui.kind_kill", n=ks.best_kill[0],
                                         who=screen.holders(ks.best_kill[1]))]


NIGHT = BondScreens()
