"""The "check your cards" note, shared by Castor and Mr. Bond.

The rulebooks give card counts, not the numbers printed on them, so a card the game's
settings did not expect is recorded anyway; this note asks the table to look at the
card, and offers to correct the user's settings for the next games (the game in
progress keeps the settings it started with). The note is also in the game's log (the
event is journaled) and in the app's log.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from ui import theme
from ui.dialogs import Dialog, open_dialog
from ui.widgets.basics import Tap, Text

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Fix:
    """One change of the user's settings, offered on the note: `dotted` key, value."""

    label: str  # the button's text, translated
    dotted: str
    value: Any


def log_notes(lines: Sequence[str]) -> None:
    """Every note goes to the app's log, shown in a dialog or only in the say line."""
    for line in lines:
        log.warning("check your cards: %s", line)


def save_setting(dotted: str, value: Any, then: Callable[[], None]) -> None:
    """Through the settings screen's own saving (checked, atomic, off the UI thread,
    reported on screen): `then()` once the file is durable."""
    settings = App.get_running_app().root.get_screen("night_settings")
    settings.change(dotted, value, then)


def check_cards_dialog(title: str, lines: Sequence[str], hint: str, fixes: Sequence[Fix],
                       saved: str, then: Callable[[], Any] | None = None,
                       undo: tuple[str, Callable[[], Any]] | None = None) -> Dialog:
    """The note: what looks wrong, a button per settings fix, OK (the default) goes on;
    `undo` (its label, its action) takes back the action that recorded the card."""
    app = App.get_running_app()
    dialog = Dialog(title, tid="check", subtitle=hint, size_hint=(0.9, 0.86))
    dialog.add(Text("\n".join(lines), size=theme.SIZE_SMALL, tid="check.text", valign="top"))
    buttons: list[Tap] = []

    def fix(index: int) -> None:
        chosen = fixes[index]

        def done() -> None:
            buttons[index].text = saved
            buttons[index].disabled = True

        # refused: the settings screen's message replaces this dialog, nothing is lost
        save_setting(chosen.dotted, chosen.value, done)

    for i, item in enumerate(fixes):
        button = Tap(item.label, tid=f"check.fix.{i}", size=theme.SIZE_SMALL, size_hint_y=None,
                     height=theme.touch(52), background=theme.BUTTON)
        button.bind(on_release=lambda _b, n=i: fix(n))
        buttons.append(button)
        dialog.add(button)
    dialog.add(BoxLayout(size_hint_y=None, height=dp(4)))

    def ok() -> None:
        dialog.dismiss()
        if then is not None:
            then()

    def take_back() -> None:
        dialog.dismiss()
        assert undo is not None
        undo[1]()

    items = [(undo[0], "check.undo", take_back)] if undo is not None else []
    dialog.buttons([*items, (app.tr("core.ui.ok"), "check.ok", ok)], height=52)
    dialog.default = ok
    return open_dialog(dialog)
