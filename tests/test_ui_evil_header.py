"""Pr. Evil after a roll: the header names the player whose turn it now is, and the
headline telling the roller to pass the dice names that same player ("Anne: pass the
dice to Bob, on your left" beside "Turn 2: Bob"), at 800x480 and 1280x720."""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_ui_evil import answer_dialogs, new_game

pytestmark = pytest.mark.ui


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_the_header_and_the_pass_the_dice_headline_name_the_same_next_player(
        launch: Any, language: str, size: tuple[int, int]) -> None:
    from tests.legibility import problems

    ui = launch(language=language, seed=4)
    ui.resize(*size)
    if language == "en":
        new_game(ui, minutes=40)
    else:  # the set-up's own choices
        ui.tap("home.game.evil")
        ui.tap("setup.start")
    assert ui.screen == "evil_play"
    roller = ui.app.session.state.current_player.name
    ui.tap("play.roll")
    answer_dialogs(ui, 40)
    screen = ui.app.root.get_screen("evil_play")
    ui.wait_until(lambda: not screen.animating)
    state = ui.app.session.state
    after = ui.app.translator.name(state.current_player.name)
    assert after != ui.app.translator.name(roller)
    header = ui.text("play.turn")
    assert header.endswith(after), header
    headline = ui.text("play.say")
    said = {"en": f"{ui.app.translator.name(roller)}: pass the dice to {after}, on your left.",
            "fr": f"{ui.app.translator.name(roller)} : passez les dés à {after}, "
                  "votre voisin de gauche."}[language]
    assert headline == said, (header, headline)
    assert problems(ui.app.root) == [], size
    ui.screenshot(f"evil-after-roll-{language}-{size[0]}x{size[1]}")
    ui.resize(800, 480)
