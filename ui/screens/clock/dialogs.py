"""The play screen's dialog: time added to or taken from one seat's bank (a handicap
mid-game, a fault forgiven), the seat put out of the game (skipped from then on), and
the turn order changed. Each is one journaled `Adjust`, `Eliminate` or `Reorder`,
undoable."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.gridlayout import GridLayout

from ui import theme
from ui.dialogs import Dialog, open_dialog
from ui.names import display_name
from ui.screens.clock import moment
from ui.screens.clock.figures import clock_text
from ui.widgets.basics import Tap, Text, follow_height

STEPS_MS = (-60_000, -10_000, 10_000, 60_000)


def step_text(delta_ms: int) -> str:
    app = App.get_running_app()
    sign = "+" if delta_ms > 0 else "\u2212"
    seconds = abs(delta_ms) // 1000
    if seconds >= 60:
        return app.tr("clockui.step_min", sign=sign, n=seconds // 60)
    return app.tr("clockui.step_s", sign=sign, n=seconds)


def adjust_dialog(screen: Any) -> Dialog:
    """Choose a seat (the active one first), then add or take time; the seat's bank is
    shown as it changes."""
    from companion.games.clock.view import clock_view

    app = App.get_running_app()
    dialog = Dialog(app.tr("clockui.adjust_title"), "clockadjust", size_hint=(0.92, 0.9))
    view = clock_view(screen.state, moment.now())
    chosen = {"seat": max(view.active, 0)}
    seats = GridLayout(cols=min(len(view.seats), 4), spacing=dp(theme.SPACE_XS),
                       size_hint_y=None)
    rows = -(-len(view.seats) // seats.cols)
    follow_height(seats, rows * theme.touch(theme.ROW) + (rows - 1) * dp(theme.SPACE_XS))
    buttons: list[Tap] = []
    bank = Text("", size=theme.SIZE_FIGURE, bold=True, halign="center", tid="clockadjust.bank",
                size_hint_y=None, height=dp(52))

    def show() -> None:
        now_view = clock_view(screen.state, moment.now())
        for i, button in enumerate(buttons):
            button.set_background(theme.SELECTED if i == chosen["seat"] else theme.BUTTON)
        seat = now_view.seats[chosen["seat"]]
        bank.text = app.tr("clockui.adjust_bank", name=display_name(seat.name),
                           time=clock_text(seat.remaining_ms))

    def pick(index: int) -> None:
        chosen["seat"] = index
        show()

    def change(delta: int) -> None:
        screen.adjust(chosen["seat"], delta)  # shown once saved (`screen.also_draw`)

    for i, seat in enumerate(view.seats):
        button = Tap(display_name(seat.name), size=theme.SIZE_BODY, tid=f"clockadjust.seat.{i}",
                     shorten=True, size_hint_y=None, height=theme.touch(theme.ROW))
        button.bind(on_release=lambda _b, k=i: pick(k))
        buttons.append(button)
        seats.add_widget(button)
    dialog.add(seats)
    dialog.add(bank)
    steps = dialog.buttons([(step_text(d), f"clockadjust.step.{k}", lambda d=d: change(d))
                            for k, d in enumerate(STEPS_MS)])
    for button in steps.children:  # banks only in a chess clock or a turn timer
        button.disabled = view.mode not in ("bank", "turn")
    def reorder() -> None:
        dialog.dismiss()
        order_dialog(screen)

    dialog.buttons([(app.tr("clockui.eliminate"), "clockadjust.out",
                     lambda: screen.eliminate(chosen["seat"])),
                    (app.tr("clockui.order"), "clockadjust.order", reorder),
                    (app.tr("clockui.done"), "clockadjust.done", dialog.dismiss)])
    dialog.default = dialog.dismiss
    show()
    screen.also_draw = show  # the bank as the screen draws it, every change included
    dialog.bind(on_dismiss=lambda *_: setattr(screen, "also_draw", None))
    return open_dialog(dialog)


def order_dialog(screen: Any) -> Dialog:
    """The turn order from now on: the players tapped one after the other in their new
    order; the last tap sends one `Reorder` (undoable). The order so far is shown."""
    from companion.games.clock import commands as c

    app = App.get_running_app()
    state = screen.state
    dialog = Dialog(app.tr("clockui.order_title"), "clockorder", size_hint=(0.92, 0.8))
    picked: list[int] = []
    shown = Text(app.tr("clockui.order_hint"), size=theme.SIZE_BODY, tid="clockorder.order",
                 size_hint_y=None, height=dp(60))
    grid = GridLayout(cols=min(len(state.seats), 4), spacing=dp(theme.SPACE_XS),
                      size_hint_y=None)
    rows = -(-len(state.seats) // grid.cols)
    follow_height(grid, rows * theme.touch(theme.ROW) + (rows - 1) * dp(theme.SPACE_XS))
    buttons: list[Tap] = []

    def pick(index: int) -> None:
        picked.append(index)
        buttons[index].disabled = True
        shown.text = " → ".join(state.seats[i].name for i in picked)
        if len(picked) == len(state.seats):
            dialog.dismiss()
            App.get_running_app().send(c.Reorder(at=moment.now(), order=tuple(picked)))

    for i, seat in enumerate(state.seats):
        button = Tap(display_name(seat.name), size=theme.SIZE_BODY, tid=f"clockorder.seat.{i}",
                     shorten=True, size_hint_y=None, height=theme.touch(theme.ROW))
        button.bind(on_release=lambda _b, k=i: pick(k))
        buttons.append(button)
        grid.add_widget(button)
    dialog.add(shown)
    dialog.add(grid)
    dialog.buttons([(app.tr("core.ui.cancel"), "clockorder.cancel", dialog.dismiss)])
    dialog.default = dialog.dismiss
    return open_dialog(dialog)
