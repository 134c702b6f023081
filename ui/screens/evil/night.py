"""Pr. Evil in History and Statistics: the table's outcome, treasures and difficulty."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.app import App

from ui.screens.night.games import NightScreens

if TYPE_CHECKING:
    from companion.night.history import GameLine
    from companion.night.stats import KindStats


class EvilScreens(NightScreens):
    def outcome_parts(self, line: GameLine) -> list[str] | None:
        from ui.screens.night.history import difficulty_name, seat_name

        app = App.get_running_app()
        parts: list[str] = []
        if line.outcome in ("won", "lost"):
            parts.append(app.tr(f"night.outcome.{line.outcome}"))
        if line.recovered is not None or line.lost is not None:
            parts.append(app.tr("night.ui.treasures",
                                recovered=app.tr("night.ui.n_recovered", n=line.recovered or 0),
                                lost=app.tr("night.ui.n_lost", n=line.lost or 0)))
        if line.difficulty:
            parts.append(app.tr("night.ui.difficulty",
                                difficulty=difficulty_name(line.difficulty)))
        parts.append(", ".join(seat_name(s) for s in line.seats))
        return parts

    def stat_lines(self, screen: Any, ks: KindStats) -> list[str]:
        # co-operative: the table wins or loses together; wins per player say nothing
        app = App.get_running_app()
        return [app.tr("night.ui.kind_coop", record=screen.coop_text(ks.coop)),
                app.tr("night.ui.kind_treasures",
                       recovered=app.tr("night.ui.n_recovered", n=ks.recovered),
                       lost=app.tr("night.ui.n_lost", n=ks.lost))]


NIGHT = EvilScreens()
