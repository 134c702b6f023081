"""Players: the roster kept across games. Add, rename, recolour, retire, bring back.

A refused name (empty, taken, a retired player's) shows the domain's message in the
error dialog and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.recycleview.views import RecycleDataViewBehavior

from companion.journal import Journal
from companion.night import roster
from ui import theme
from ui.dialogs import Dialog, NameKeyboard, confirm_loss, open_dialog
from ui.screens.night.common import PALETTE, hex_rgba, player_rgba, top_bar
from ui.screens.page import PageScreen
from ui.widgets.basics import Tap, Text
from ui.widgets.long_list import Item, LongList


def attempt(change: Callable[[Journal], Any], then: Callable[[], None]) -> None:
    """Make a roster change durable on the writer thread, then `then()` (the list
    drawn again) once it is; a refusal or a failed commit becomes the error dialog."""
    App.get_running_app().write(change, lambda _result: then())


class PlayerRow(RecycleDataViewBehavior, BoxLayout):
    """One roster player: colour, name (tap to rename), retire or bring back. Built for
    the rows in view only, and re-told for whichever player scrolls into it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(spacing=dp(6), **kwargs)
        self.player: roster.RosterPlayer | None = None
        self.swatch = Tap("", size_hint_x=None, width=dp(72))
        self.name_button = Tap("", size=22)
        self.toggle = Tap("", size=theme.SIZE_SMALL, size_hint_x=None, width=dp(170))
        for widget, act in ((self.swatch, "choose_colour"), (self.name_button, "rename"),
                            (self.toggle, "toggle_retired")):
            widget.bind(on_release=lambda _b, a=act: self._act(a))
            self.add_widget(widget)

    def refresh_view_attrs(self, rv: Any, index: int, data: dict[str, Any]) -> None:
        app = App.get_running_app()
        player: roster.RosterPlayer = data["player"]
        i = data["index"]
        self.player = player
        self.swatch.tid = f"players.{i}.colour"
        self.swatch.set_background(player_rgba(player.id, player.colour))
        self.name_button.tid = f"players.{i}.name"
        self.name_button.text = player.name  # tidied here, when the row is shown
        self.name_button.color = theme.MUTED if player.retired else theme.TEXT
        self.toggle.tid = f"players.{i}.retire"
        self.toggle.text = app.tr("night.ui.bring_back" if player.retired
                                  else "night.ui.retire")

    def _act(self, action: str) -> None:
        screen = App.get_running_app().root.get_screen("night_roster")
        if self.player is not None:
            getattr(screen, action)(self.player)


class RosterHeading(RecycleDataViewBehavior, Text):
    """The line above the retired players."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__("", size=theme.SIZE_SMALL, color=theme.MUTED, **kwargs)

    def refresh_view_attrs(self, rv: Any, index: int, data: dict[str, Any]) -> None:
        self.text = data["text"]


def player_items(players: Iterator[list[roster.RosterPlayer]]) -> Iterator[list[Item]]:
    """The Players list's rows, a page at a time: the heading before the first retired
    player, `players.<i>` numbering every player in order."""
    app = App.get_running_app()
    count, retired_seen = 0, False
    for page in players:
        items: list[Item] = []
        for player in page:
            if player.retired and not retired_seen:
                retired_seen = True
                items.append({"viewclass": "RosterHeading", "base": dp(28),
                              "text": app.tr("night.ui.retired_players")})
            items.append({"viewclass": "PlayerRow", "base": theme.touch(56),
                          "player": player, "index": count})
            count += 1
        yield items


class NightRosterScreen(PageScreen):
    def refresh(self) -> None:
        app = App.get_running_app()
        self.box.clear_widgets()
        add = Tap(app.tr("night.ui.add_player"), tid="players.add", background=theme.SUCCESS,
                  size_hint_x=None, width=dp(200))
        add.bind(on_release=lambda _b: self.add_player())
        self.box.add_widget(top_bar(app.tr("night.ui.players_title"), "players", extra=[add]))
        # any number of players: the rows in view are built (and kept from one showing
        # to the next), a page is read a frame
        if getattr(self, "players_list", None) is None:
            self.players_list = LongList(spacing=6)
        self.players_list.feed(player_items(roster.pages(app.journal, include_retired=True)))
        if not self.players_list.data:
            self.box.add_widget(Text(app.tr("night.ui.no_players"), size=18,
                                     color=theme.MUTED, tid="players.empty",
                                     size_hint_y=None, height=dp(60)))
        self.box.add_widget(self.players_list)

    # -- actions ---------------------------------------------------------------------
    def add_player(self) -> None:
        app = App.get_running_app()

        def done(name: str) -> None:
            count = roster.count(app.journal)
            colour = PALETTE[count % len(PALETTE)]
            attempt(lambda journal: roster.add(journal, name, colour), self.refresh)

        open_dialog(NameKeyboard(app.tr("night.ui.new_player"), "", done))

    def rename(self, player: roster.RosterPlayer) -> None:
        app = App.get_running_app()

        def done(name: str) -> None:
            if name != player.name:
                attempt(lambda journal: roster.rename(journal, player.id, name), self.refresh)

        open_dialog(NameKeyboard(app.tr("night.ui.rename", name=player.name), player.name,
                                 done))

    def toggle_retired(self, player: roster.RosterPlayer) -> None:
        """Bringing back is immediate; retiring asks first and says what changes."""
        app = App.get_running_app()
        change = roster.unretire if player.retired else roster.retire

        def apply() -> None:
            attempt(lambda journal: change(journal, player.id), self.refresh)

        if player.retired:
            apply()
            return
        confirm_loss(app.tr("night.ui.retire_title", name=player.name),
                     app.tr("night.ui.retire_loss", name=player.name),
                     app.tr("night.ui.retire"), apply, tid="retire")

    def choose_colour(self, player: roster.RosterPlayer) -> None:
        app = App.get_running_app()
        dialog = Dialog(app.tr("night.ui.colour_title", name=player.name), "colour")
        grid = GridLayout(cols=5, spacing=dp(10))
        for k, code in enumerate(PALETTE):
            mark = "•" if code == player.colour else ""
            swatch = Tap(mark, tid=f"colour.{k}", size=30, background=hex_rgba(code))
            swatch.bind(on_release=lambda _b, c=code: pick(c))
            grid.add_widget(swatch)
        dialog.add(grid)
        dialog.buttons([(app.tr("core.ui.cancel"), "colour.cancel", dialog.dismiss)])
        dialog.default = dialog.dismiss

        def pick(code: str) -> None:
            dialog.dismiss()
            attempt(lambda journal: roster.recolour(journal, player.id, code), self.refresh)

        open_dialog(dialog)
