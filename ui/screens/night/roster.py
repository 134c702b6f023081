"""Players: the roster kept across games. Add, rename, recolour, retire, bring back.

A refused name (empty, taken, a retired player's) shows the domain's message in the
error dialog and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion.messages import CompanionError
from companion.night import roster
from ui import theme
from ui.dialogs import Dialog, NameKeyboard, confirm_loss, open_dialog
from ui.screens.night.common import PALETTE, hex_rgba, player_rgba, scroll_list, top_bar
from ui.screens.page import PageScreen
from ui.widgets.basics import Tap, Text, follow_height


def attempt(action: Callable[[], Any]) -> bool:
    """Run a roster change; a refusal becomes the error dialog."""
    app = App.get_running_app()
    try:
        action()
    except CompanionError as exc:
        app.show_error(exc.message)
        return False
    return True


class NightRosterScreen(PageScreen):
    def refresh(self) -> None:
        app = App.get_running_app()
        self.box.clear_widgets()
        add = Tap(app.tr("night.ui.add_player"), tid="players.add", background=theme.SUCCESS,
                  size_hint_x=None, width=dp(200))
        add.bind(on_release=lambda _b: self.add_player())
        self.box.add_widget(top_bar(app.tr("night.ui.players_title"), "players", extra=[add]))
        everyone = roster.players(app.journal, include_retired=True)
        active = [p for p in everyone if not p.retired]
        retired = [p for p in everyone if p.retired]
        scroller, rows = scroll_list(6)
        if not everyone:
            rows.add_widget(Text(app.tr("night.ui.no_players"), size=18, color=theme.MUTED,
                                 tid="players.empty", size_hint_y=None, height=dp(60)))
        for i, player in enumerate(active + retired):
            if player.retired and (i == 0 or not (active + retired)[i - 1].retired):
                rows.add_widget(Text(app.tr("night.ui.retired_players"), size=theme.SIZE_SMALL,
                                     color=theme.MUTED, size_hint_y=None, height=dp(28)))
            rows.add_widget(self.row(i, player))
        self.box.add_widget(scroller)

    def row(self, i: int, player: roster.RosterPlayer) -> BoxLayout:
        app = App.get_running_app()
        row = follow_height(BoxLayout(spacing=dp(6)), theme.touch(56))
        swatch = Tap("", tid=f"players.{i}.colour", size_hint_x=None, width=dp(72),
                     background=player_rgba(player.id, player.colour))
        swatch.bind(on_release=lambda _b: self.choose_colour(player))
        name = Tap(player.name, tid=f"players.{i}.name", size=22,
                   color=theme.MUTED if player.retired else theme.TEXT)
        name.bind(on_release=lambda _b: self.rename(player))
        key = "night.ui.bring_back" if player.retired else "night.ui.retire"
        toggle = Tap(app.tr(key), tid=f"players.{i}.retire", size=theme.SIZE_SMALL,
                     size_hint_x=None, width=dp(170))
        toggle.bind(on_release=lambda _b: self.toggle_retired(player))
        for widget in (swatch, name, toggle):
            row.add_widget(widget)
        return row

    # -- actions ---------------------------------------------------------------------
    def add_player(self) -> None:
        app = App.get_running_app()

        def done(name: str) -> None:
            count = len(roster.players(app.journal, include_retired=True))
            colour = PALETTE[count % len(PALETTE)]
            attempt(lambda: roster.add(app.journal, name, colour))
            self.refresh()

        open_dialog(NameKeyboard(app.tr("night.ui.new_player"), "", done))

    def rename(self, player: roster.RosterPlayer) -> None:
        app = App.get_running_app()

        def done(name: str) -> None:
            if name != player.name:
                attempt(lambda: roster.rename(app.journal, player.id, name))
            self.refresh()

        open_dialog(NameKeyboard(app.tr("night.ui.rename", name=player.name), player.name,
                                 done))

    def toggle_retired(self, player: roster.RosterPlayer) -> None:
        """Bringing back is immediate; retiring asks first and says what changes."""
        app = App.get_running_app()
        change = roster.unretire if player.retired else roster.retire

        def apply() -> None:
            attempt(lambda: change(app.journal, player.id))
            self.refresh()

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
            attempt(lambda: roster.recolour(app.journal, player.id, code))
            self.refresh()

        open_dialog(dialog)
