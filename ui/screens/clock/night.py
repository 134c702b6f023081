"""The clock in History: each seat's time."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kivy.app import App

from ui.screens.night.games import NightScreens

if TYPE_CHECKING:
    from companion.night.history import GameLine


class ClockScreens(NightScreens):
    def outcome_parts(self, line: GameLine) -> list[str] | None:
        from ui.screens.night.common import clock_time
        from ui.screens.night.history import seat_name

        tr = App.get_running_app().tr
        return [", ".join(tr("night.ui.seat_score", player=seat_name(s),
                             score=clock_time(s.time_ms)) for s in line.seats)]


NIGHT = ClockScreens()
