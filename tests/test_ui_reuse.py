"""What a roll triggers allocates as few widgets as it can: the end screen is built once,
while the table plays, so the roll that ends the game builds no screen, and a roll that
opens no question (or ends the game) makes only the lines of the turn card, which says
what this roll asks of the board. `PlayScreen.open_reused` builds a dialog once per key and opens
that same dialog again, with its changing labels set.

Pr. Evil's power and placement dialogs are built by the roll that opens them: their
buttons and texts depend on the whole state (where each minutes key lands from the time
marker, the clock face a waiting roll lost, the seat order of the power choice), so a
dialog kept from an earlier roll would show the table a wrong landing position."""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_ui_evil import new_game

pytestmark = pytest.mark.ui


def _in_turn_card(widget: Any) -> bool:
    from ui.screens.evil.card import TurnCard

    while widget is not None:
        if isinstance(widget, TurnCard):
            return True
        widget = widget.parent
    return False


def test_a_reused_dialog_is_the_same_one_opened_again_with_its_texts_set(
        launch: Any) -> None:
    from ui.dialogs import Dialog, open_dialog
    from ui.widgets.basics import Text

    ui = launch(seed=3)
    new_game(ui)
    screen = ui.app.root.get_screen("evil_play")
    built: list[Dialog] = []

    def build(text: str) -> Any:
        def make() -> Dialog:
            dialog = Dialog("Reused", "reused")
            dialog.add(Text(text, tid="reused.text"))
            built.append(dialog)
            return open_dialog(dialog)
        return make

    first = screen.open_reused(("reused", 1), build("one"))
    ui.pump(2)
    assert ui.dialog == "reused" and ui.text("reused.text") == "one"
    ui.app.close_dialog()
    ui.pump(2)
    assert ui.app.dialog is None

    again = screen.open_reused(("reused", 1), build("never built"),
                               texts={"reused.text": "two"})
    ui.pump(2)
    assert again is first and ui.app.dialog is first and len(built) == 1
    assert ui.text("reused.text") == "two"
    ui.app.close_dialog()
    ui.pump(2)

    other = screen.open_reused(("reused", 2), build("three"))
    ui.pump(2)
    assert other is not first and len(built) == 2 and ui.text("reused.text") == "three"
    ui.app.close_dialog()
