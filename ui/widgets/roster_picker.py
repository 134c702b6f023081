"""Pick the night's players from the roster in a tap each, for a game's setup.

Tapping a player adds them in the next seat (the number on the button); tapping them
again takes them out. OK hands the roster ids in seat order to `on_done`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView

from companion.night import roster
from ui import theme
from ui.dialogs import Dialog, open_dialog
from ui.widgets.basics import Tap, Text
from ui.widgets.charts import player_rgba


class RosterPicker(Dialog):
    def __init__(self, on_done: Callable[[list[int]], None], minimum: int = 1,
                 maximum: int = 99) -> None:
        app = App.get_running_app()
        super().__init__(app.tr("night.ui.pick_title"), "roster")
        self.on_done = on_done
        self.minimum, self.maximum = minimum, maximum
        self.players = roster.players(app.journal)
        self.chosen: list[int] = []
        self.buttons_by_id: dict[int, Tap] = {}
        if not self.players:
            self.add(Text(app.tr("night.ui.pick_empty"), size=18, tid="roster.empty",
                          halign="center"))
        else:
            scroller = ScrollView(do_scroll_x=False, bar_width=dp(6))
            grid = GridLayout(cols=3, spacing=dp(6), size_hint_y=None)
            grid.bind(minimum_height=grid.setter("height"))
            for i, player in enumerate(self.players):
                button = Tap(player.name, tid=f"roster.pick.{i}", size=20, size_hint_y=None,
                             height=theme.touch(56))
                button.bind(on_release=lambda _b, pid=player.id: self.toggle(pid))
                self.buttons_by_id[player.id] = button
                grid.add_widget(button)
            scroller.add_widget(grid)
            self.add(scroller)
        self.count = self.add(Text("", size=theme.SIZE_SMALL, tid="roster.count", color=theme.MUTED,
                                   size_hint_y=None, height=dp(28), halign="center"))
        row = self.buttons([(app.tr("core.ui.cancel"), "roster.cancel", self.dismiss),
                            (app.tr("core.ui.ok"), "roster.ok", self.done)])
        self.ok = row.children[0]
        self.default = self.done
        self.refresh()

    def toggle(self, player_id: int) -> None:
        if player_id in self.chosen:
            self.chosen.remove(player_id)
        elif len(self.chosen) < self.maximum:
            self.chosen.append(player_id)
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        for player in self.players:
            button = self.buttons_by_id[player.id]
            if player.id in self.chosen:
                seat = self.chosen.index(player.id) + 1
                button.text = f"{seat}. {player.name}"
                button.set_background(player_rgba(player.id, player.colour))
            else:
                button.text = player.name
                button.set_background(theme.BUTTON)
        self.count.text = app.tr("night.ui.pick_count", n=len(self.chosen),
                                 low=self.minimum, high=self.maximum)
        self.ok.disabled = not self.minimum <= len(self.chosen) <= self.maximum

    def done(self) -> None:
        if not self.minimum <= len(self.chosen) <= self.maximum:
            return
        self.dismiss()
        self.on_done(list(self.chosen))


def pick_players(on_done: Callable[[list[dict[str, Any]]], None], minimum: int,
                 maximum: int) -> RosterPicker:
    """Open the picker; `on_done` gets the setup's player entries
    (`{"name": ..., "roster_id": ...}`, seat order)."""
    app = App.get_running_app()

    def chosen(ids: list[int]) -> None:
        on_done(roster.setup_players(app.journal, ids))

    picker = RosterPicker(chosen, minimum, maximum)
    open_dialog(picker)
    return picker
