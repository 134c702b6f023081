"""Castor's trick tracker: the "check your cards" note a card the settings did not
expect leaves in the note line is whole, never cut at its top and bottom, at 800x480
and 1280x720, in English and in French (its longest)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_ui_castor import new_game

pytestmark = pytest.mark.ui


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_the_check_your_cards_note_is_whole(launch: Any, language: str,
                                            size: tuple[int, int]) -> None:
    from tests.legibility import problems
    from ui.widgets.text_height import text_height

    ui = launch(language=language)
    ui.resize(*size)
    new_game(ui, 3)
    ui.tap("play.tricks")
    ui.tap("tricks.colour.green")
    ui.tap("tricks.value.other")
    for digit in "19":
        ui.tap(f"keypad.{digit}")
    ui.tap("keypad.ok")
    assert ui.dialog == "check"
    ui.tap("check.ok")
    assert ui.dialog is None and ui.screen == "castor_tricks"
    ui.pump(3)
    note = ui.visible("tricks.say")
    assert note.text.startswith("Check your cards" if language == "en" else "Vérifiez")
    needed = text_height(note, note.width)
    assert needed <= note.height + 1, (needed, note.height, note.text)
    assert problems(ui.app.root) == [], size
    ui.screenshot(f"castor-check-note-{language}-{size[0]}x{size[1]}")
    ui.resize(800, 480)
