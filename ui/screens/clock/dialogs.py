"""The play screen's dialog: time added to or taken from one seat's bank (a handicap
mid-game, a fault forgiven), or the seat put out of the game (skipped from then on).
Each tap is one journaled `Adjust` or `Eliminate`, undoable."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.gridlayout import GridLayout

from ui import theme
from ui.dialogs import Dialog, open_dialog
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
        bank.text = app.tr("clockui.adjust_bank", name=seat.name,
                           time=clock_text(seat.remaining_ms))

    def pick(index: int) -> None:
        chosen["seat"] = index
        show()

    def change(delta: int) -> None:
        screen.adjust(chosen["seat"], delta)  # shown once saved (`screen.also_draw`)

    for i, seat in enumerate(view.seats):
        button = Tap(seat.name, size=theme.SIZE_BODY, tid=f"clockadjust.seat.{i}",
                     shorten=True, size_hint_y=None, height=theme.touch(theme.ROW))
        button.bind(on_release=lambda _b, k=i: pick(k))
        buttons.append(button)
        seats.add_widget(button)
    dialog.add(seats)
    dialog.add(bank)
    dialog.buttons([(step_text(d), f"clockadjust.step.{k}", lambda d=d: change(d))
                    for k, d in enumerate(STEPS_MS)])
    dialog.buttons([(app.tr("clockui.eliminate"), "clockadjust.out",
                     lambda: screen.eliminate(chosen["seat"])),
                    (app.tr("clockui.done"), "clockadjust.done", dialog.dismiss)])
    dialog.default = dialog.dismiss
    show()
    screen.also_draw = show  # the bank as the screen draws it, every change included
    dialog.bind(on_dismiss=lambda *_: setattr(screen, "also_draw", None))
    return open_dialog(dialog)
