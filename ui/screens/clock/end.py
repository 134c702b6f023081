"""The end of a clock session: per player total time, turns, average and longest turn,
overtime, and penalty points when the clock gives them, as the History keeps them; the
table's time, the pauses and the admin time below.
Undo (back to the clock), Home, New clock with the same players."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from ui import theme
from ui.screens.clock.figures import elapsed_text
from ui.screens.game_parts import end_bar
from ui.widgets.basics import Text, follow_height

COLUMNS = ("total", "turns", "average", "longest", "overtime")
ROW = 38  # px at 800x480: a player's row, at most
TABLE_ROOM = 266  # px at 800x480 for the heads and the rows (their gaps included)


class ClockEndScreen(Screen):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.box = BoxLayout(orientation="vertical", padding=dp(theme.SPACE_S),
                             spacing=dp(theme.SPACE_S))
        self.add_widget(self.box)

    def show(self, state: Any) -> None:
        from companion.games.clock.view import stats

        app = App.get_running_app()
        box = self.box
        box.clear_widgets()
        box.add_widget(Text(app.tr("clockui.end_page_title"), size=theme.SIZE_FIGURE,
                            bold=True, tid="end.title", size_hint_y=None, height=dp(52)))
        table = stats(state)
        columns = COLUMNS + (("penalty",) if state.params.at_zero == "penalty" else ())
        # up to eight rows and the heads in what the title, totals and buttons leave
        row = min(ROW, TABLE_ROOM // (len(table.seats) + 1) - theme.SPACE_XS)
        grid = GridLayout(cols=len(columns) + 1, spacing=dp(theme.SPACE_XS),
                          row_force_default=True, row_default_height=dp(row) * app.scale,
                          size_hint_y=None)
        grid.height = (len(table.seats) + 1) * (dp(row) * app.scale + dp(theme.SPACE_XS))
        grid.add_widget(Text("", size=theme.SIZE_SMALL))
        for column in columns:
            grid.add_widget(Text(app.tr(f"clockui.stat.{column}"), size=theme.SIZE_SMALL,
                                 color=theme.MUTED, halign="right", tid=f"end.head.{column}"))
        for i, row in enumerate(table.seats):
            grid.add_widget(Text(row.name, size=theme.SIZE_BODY, bold=True, shorten=True,
                                 tid=f"end.name.{i}"))
            figures = (elapsed_text(row.total_ms), str(row.turns), elapsed_text(row.average_ms),
                       elapsed_text(row.longest_ms), elapsed_text(row.overtime_ms),
                       str(row.penalty))[:len(columns)]
            red = {"overtime": row.overtime_ms > 0, "penalty": row.penalty > 0}
            for column, figure in zip(columns, figures, strict=True):
                grid.add_widget(Text(figure, size=theme.SIZE_BODY, halign="right",
                                     tid=f"end.{column}.{i}",
                                     color=theme.DANGER_TEXT if red.get(column)
                                     else theme.TEXT))
        box.add_widget(grid)
        box.add_widget(Widget())
        box.add_widget(follow_height(Text(
            app.tr("clockui.end_totals", table=elapsed_text(table.duration_ms),
                   pause=elapsed_text(table.pause_ms), admin=elapsed_text(table.admin_ms)),
            size=theme.SIZE_BODY, color=theme.MUTED, tid="end.totals"), 34))
        box.add_widget(follow_height(end_bar("clock", undo_with=self.undo), theme.touch(64)))

    def undo(self) -> None:
        """Undo the Close with the press's time: the time on this page is nobody's."""
        from companion.games.clock.rules import undo_press
        from ui.screens.clock import moment

        at = moment.now()
        App.get_running_app()._act(lambda session: undo_press(session, at))
