"""The score pad in History, Statistics and on the home screen: a game is named by
its template and told by rank."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.app import App

from ui.screens.night.games import NightScreens

if TYPE_CHECKING:
    from companion.night.history import GameLine
    from companion.night.stats import KindStats


class PadScreens(NightScreens):
    def title(self, line: GameLine) -> str | None:
        from ui.screens.night.common import template_name

        if not line.template_name:
            return None
        return str(App.get_running_app().tr(
            "night.ui.pad_title", template=template_name(line.template_name,
                                                         line.template or "")))

    def short_title(self, line: GameLine) -> str | None:
        from ui.screens.night.common import template_name

        if not line.template_name:
            return None
        return template_name(line.template_name, line.template or "")

    def outcome_parts(self, line: GameLine) -> list[str] | None:
        from ui.screens.night.history import pad_outcome

        return pad_outcome(line)

    def stat_lines(self, screen: Any, ks: KindStats) -> list[str]:
        return []  # a template's card is the statistics screen's own (`pad_lines`)

    def progress(self, summary: dict[str, Any],
                 setup: dict[str, Any] | None = None) -> str | None:
        """The template in the language on screen, and the round being played on a
        rounds sheet."""
        name = template_in_language(setup or {}, summary)
        if not summary.get("turn"):
            return name
        return str(App.get_running_app().tr("pad.ui.progress", n=summary["turn"],
                                            template=name))


def template_in_language(setup: dict[str, Any], summary: dict[str, Any]) -> str:
    """A score pad game's template in the language on screen, from the set-up's own
    names ({en:, fr:}); the summary's (English) where the set-up has none."""
    from ui.screens.night.common import template_name

    template = setup.get("template")
    name = template.get("name") if isinstance(template, dict) else None
    if isinstance(name, str):
        name = {"": name}
    if not isinstance(name, dict) or not all(isinstance(v, str) for v in name.values()):
        name = None
    return template_name(name, str(summary.get("template_name", "")))


NIGHT = PadScreens()
