"""Pick the night's players from the roster in a tap each, for a game's setup.

Tapping a player adds them in the next seat (the number on the button); tapping them
again takes them out. OK hands the roster ids in seat order to `on_done`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.recycleview.views import RecycleDataViewBehavior

from companion.night import roster
from ui import theme
from ui.dialogs import Dialog, open_dialog
from ui.widgets.basics import Tap, Text
from ui.widgets.charts import player_rgba
from ui.widgets.long_list import Item, LongList


class PickButton(RecycleDataViewBehavior, Tap):
    """A roster player in the picker: their name, with their seat once chosen. Built
    for the buttons in view only, and re-told for whichever player scrolls into it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__("", size=20, **kwargs)
        self.player_id: int | None = None
        self.bind(on_release=lambda _b: self._toggle())

    def refresh_view_attrs(self, rv: Any, index: int, data: dict[str, Any]) -> None:
        player: roster.RosterPlayer = data["player"]
        seat: int | None = data["seat"]
        self.player_id = player.id
        self.tid = f"roster.pick.{index}"
        if seat is None:
            self.text = player.name  # tidied here, when the button is shown
            self.set_background(theme.BUTTON)
        else:
            self.text = f"{seat}. {player.name}"
            self.set_background(player_rgba(player.id, player.colour))

    def _toggle(self) -> None:
        dialog = App.get_running_app().dialog
        if isinstance(dialog, RosterPicker) and self.player_id is not None:
            dialog.toggle(self.player_id)


class RosterPicker(Dialog):
    def __init__(self, on_done: Callable[[list[int]], None], minimum: int = 1,
                 maximum: int = 99) -> None:
        app = App.get_running_app()
        super().__init__(app.tr("night.ui.pick_title"), "roster")
        self.on_done = on_done
        self.minimum, self.maximum = minimum, maximum
        self.chosen: list[int] = []
        self.index_of: dict[int, int] = {}  # player id -> row, for the rows fed so far
        # any number of players: the buttons in view are built, a page is read a frame
        self.players_list = LongList(cols=3, spacing=6)
        self.players_list.feed(self._items(roster.pages(app.journal)))
        if not self.players_list.data:
            self.add(Text(app.tr("night.ui.pick_empty"), size=18, tid="roster.empty",
                          halign="center"))
        else:
            self.add(self.players_list)
        self.count = self.add(Text("", size=theme.SIZE_SMALL, tid="roster.count", color=theme.MUTED,
                                   size_hint_y=None, height=dp(28), halign="center"))
        row = self.buttons([(app.tr("core.ui.cancel"), "roster.cancel", self.dismiss),
                            (app.tr("core.ui.ok"), "roster.ok", self.done)])
        self.ok = row.children[0]
        self.default = self.done
        self.refresh()

    def _items(self, pages: Iterator[list[roster.RosterPlayer]]) -> Iterator[list[Item]]:
        for page in pages:
            items = []
            for player in page:
                self.index_of[player.id] = len(self.index_of)
                items.append({"viewclass": "PickButton", "base": theme.touch(56),
                              "player": player, "seat": None})
            yield items

    def toggle(self, player_id: int) -> None:
        before = list(self.chosen)
        if player_id in self.chosen:
            self.chosen.remove(player_id)
        elif len(self.chosen) < self.maximum:
            self.chosen.append(player_id)
        # only the buttons whose seat changed are told again
        for pid in {*before, *self.chosen}:
            seat = self.chosen.index(pid) + 1 if pid in self.chosen else None
            index = self.index_of[pid]
            if self.players_list.data[index]["seat"] != seat:
                self.players_list.update(index, seat=seat)
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
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
