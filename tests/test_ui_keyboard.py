"""The name keyboard (Kivy's VKeyboard): a short name in about three taps besides its
letters, the placeholder replaced by the first key, a capital by itself, AZERTY in
French, accents in English, shift a single tap (issue 29). Real touches only."""

from __future__ import annotations

from typing import Any

import pytest

from tests.uidriver import Driver

pytestmark = pytest.mark.ui


def open_seat(ui: Driver, game: str = "bond", seat: int = 0) -> None:
    ui.tap(f"home.game.{game}")
    ui.tap(f"setup.name.{seat}")
    assert ui.dialog == "keyboard"


def letter_rows(ui: Driver) -> list[str]:
    """The letters of the keyboard's rows as drawn now, top to bottom."""
    keys = ui.app.dialog.keys
    layout = keys.available_layouts[keys.layout]
    return ["".join(k[1] for k in layout[f"{keys.layout_mode}_{row}"]
                    if k[1] is not None and k[1].isalpha())
            for row in range(1, layout["rows"] + 1)]


@pytest.mark.parametrize(("language", "placeholder"), [("en", "Player 1"),
                                                       ("fr", "Joueur 1")])
def test_the_placeholder_is_a_hint_the_first_key_replaces(launch: Any, language: str,
                                                          placeholder: str) -> None:
    ui = launch(language=language)
    open_seat(ui)
    taps = 1
    assert ui.text("keyboard.value") == placeholder  # shown, as a hint
    for letter in "anne":
        ui.tap(f"keyboard.{letter}")
        taps += 1
    assert ui.text("keyboard.value") == "Anne"  # not "Player 1anne"; a capital by itself
    ui.tap("keyboard.ok")
    taps += 1
    assert ui.text("setup.name.0") == "Anne"
    assert taps - len("anne") == 2  # the seat, then OK: no Clear, no shift


def test_ok_with_nothing_typed_keeps_the_seat_s_placeholder(launch: Any) -> None:
    ui = launch()
    open_seat(ui)
    ui.tap("keyboard.ok")
    assert ui.text("setup.name.0") == "Player 1"


def test_french_is_azerty_with_the_accents_of_names(launch: Any) -> None:
    ui = launch(language="fr")
    open_seat(ui)
    rows = letter_rows(ui)
    assert "azertyuiop" in rows[1] and "qsdfghjklm" in rows[2]
    assert "wxcvbn" in rows[3]
    for letter in "éèçàùêëïôîâü":
        assert ui.app.dialog.locate(f"keyboard.{letter}") is not None, letter
    for letter in "anaïs":
        ui.tap(f"keyboard.{letter}")
    assert ui.text("keyboard.value") == "Anaïs"
    ui.screenshot("keyboard-azerty-fr")


def test_english_is_qwerty_with_accents(launch: Any) -> None:
    ui = launch()
    open_seat(ui)
    rows = letter_rows(ui)
    assert "qwertyuiop" in rows[1] and "asdfghjkl" in rows[2]
    for letter in "zoë":
        ui.tap(f"keyboard.{letter}")
    ui.tap("keyboard. ")
    for letter in "josé":
        ui.tap(f"keyboard.{letter}")
    assert ui.text("keyboard.value") == "Zoë José"
    ui.screenshot("keyboard-qwerty-en")


def test_shift_is_one_tap_for_the_next_key_only(launch: Any) -> None:
    ui = launch()
    open_seat(ui)
    keys = ui.app.dialog.keys
    for letter in "mc":
        ui.tap(f"keyboard.{letter}")
    ui.tap("keyboard.shift")  # one finger, one tap
    ui.pump(2)
    assert keys.layout_mode == "shift" and keys.shift_latched
    ui.tap("keyboard.d")
    ui.pump(2)
    assert keys.layout_mode == "normal" and not keys.shift_latched
    ui.tap("keyboard.o")
    assert ui.text("keyboard.value") == "McDo"
    ui.tap("keyboard.shift")
    ui.tap("keyboard.shift")  # a second tap takes it back
    ui.pump(2)
    assert keys.layout_mode == "normal"
    ui.tap("keyboard.n")
    assert ui.text("keyboard.value") == "McDon"


def test_a_name_typed_at_set_up_is_in_the_roster_once_the_game_starts(launch: Any) -> None:
    from tests.test_ui_night import roster_names

    ui = launch()
    open_seat(ui)
    for letter in "zoé":
        ui.tap(f"keyboard.{letter}")
    ui.tap("keyboard.ok")
    ui.tap("setup.start")
    assert ui.screen == "bond_play"
    ui.tap("play.home")
    ui.tap("home.players")  # Statistics never opened
    assert roster_names(ui) == ["Zoé"]  # "Player 2" stays a guest
