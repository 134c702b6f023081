"""Pick the night's players from the roster in a tap each, for a game's setup.

Tapping a player adds them in the next seat (the number on the button); tapping them
again takes them out. OK hands the roster ids in seat order to `on_done`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.recycleview.views import RecycleDataViewBehavior

from companion.night import roster
from ui import theme
from ui.dialogs import Dialog, open_dialog
from ui.widgets.basics import Tap, Text
from ui.widgets.charts import player_rgba
from ui.widgets.long_list import Item, LongList

COLS = 3  # players side by side


class PickRow(RecycleDataViewBehavior, BoxLayout):
    """A row of roster players in the picker, each a button with their name and their
    seat once chosen. Built for the rows in view only, and re-told for whichever
    players scroll into it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(spacing=dp(6), **kwargs)
        self.ids_shown: list[int | None] = [None] * COLS
        self.picks = []
        for col in range(COLS):
            # one line, cut with an ellipsis: a long name (24 characters) and its seat
            # number never overflow a third of the dialog
            button = Tap("", size=20, shorten=True, shorten_from="right")
            button.bind(on_release=lambda _b, c=col: self._toggle(c))
            self.picks.append(button)
            self.add_widget(button)

    def refresh_view_attrs(self, rv: Any, index: int, data: dict[str, Any]) -> None:
        players: tuple[roster.RosterPlayer, ...] = data["players"]
        for col, button in enumerate(self.picks):
            if col >= len(players):  # the last row's empty places
                self.ids_shown[col] = None
                button.text, button.tid, button.opacity, button.disabled = "", "", 0, True
                continue
            player, seat = players[col], data["seats"][col]
            self.ids_shown[col] = player.id
            button.tid = f"roster.pick.{data['first'] + col}"
            button.opacity, button.disabled = 1, False
            if seat is None:
                button.text = player.name  # tidied here, when the row is shown
                button.set_background(theme.BUTTON)
            else:
                button.text = f"{seat}. {player.name}"
                button.set_background(player_rgba(player.id, player.colour))

    def _toggle(self, col: int) -> None:
        dialog = App.get_running_app().dialog
        player_id = self.ids_shown[col]
        if isinstance(dialog, RosterPicker) and player_id is not None:
            dialog.toggle(player_id)


class RosterPicker(Dialog):
    def __init__(self, on_done: Callable[[list[int]], None], minimum: int = 1,
                 maximum: int = 99) -> None:
        app = App.get_running_app()
        super().__init__(app.tr("night.ui.pick_title"), "roster")
        self.on_done = on_done
        self.minimum, self.maximum = minimum, maximum
        self.chosen: list[int] = []
        self.place_of: dict[int, tuple[int, int]] = {}  # player id -> (row, column)
        # any number of players: the rows in view are built, a page is read a frame
        self.players_list = LongList(spacing=6)
        pages = roster.pages(app.journal, size=COLS * (roster.PAGE // COLS))  # whole rows
        self.players_list.feed(self._rows(pages))
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

    def _rows(self, pages: Iterator[list[roster.RosterPlayer]]) -> Iterator[list[Item]]:
        """The roster's pages as rows of `COLS` players (pages hold whole rows)."""
        for page in pages:
            rows = []
            for start in range(0, len(page), COLS):
                players = tuple(page[start:start + COLS])
                row = len(self.place_of) // COLS
                for col, player in enumerate(players):
                    self.place_of[player.id] = (row, col)
                rows.append({"viewclass": "PickRow", "base": theme.touch(56),
                             "players": players, "seats": (None,) * len(players),
                             "first": row * COLS})
            yield rows

    def toggle(self, player_id: int) -> None:
        before = list(self.chosen)
        if player_id in self.chosen:
            self.chosen.remove(player_id)
        elif len(self.chosen) < self.maximum:
            self.chosen.append(player_id)
        # only the rows where a seat changed are told again
        for pid in {*before, *self.chosen}:
            seat = self.chosen.index(pid) + 1 if pid in self.chosen else None
            row, col = self.place_of[pid]
            seats = list(self.players_list.data[row]["seats"])
            if seats[col] != seat:
                seats[col] = seat
                self.players_list.update(row, seats=tuple(seats))
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
