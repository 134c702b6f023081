"""The score pad's rounds sheet through the real app under Xvfb, by simulated touches
only: an ad-hoc pad of four players played to its end, round 2 corrected while the
table is on round 5, in English and French."""

from __future__ import annotations

from typing import Any

import pytest

from tests.uidriver import Driver

pytestmark = pytest.mark.ui

NAMES = ["Ann", "Bob", "Cy", "Dee"]


@pytest.fixture(autouse=True)
def instant_release() -> Any:
    """Buttons release on touch-up (Kivy otherwise holds a quick tap's release)."""
    from kivy.config import Config

    before = Config.get("graphics", "min_state_time")
    Config.set("graphics", "min_state_time", "0")
    yield
    Config.set("graphics", "min_state_time", before)


# -- what a person at the table does -------------------------------------------------------
def type_name(ui: Driver, seat: int, name: str) -> None:
    ui.tap(f"setup.name.{seat}")
    assert ui.dialog == "keyboard"
    ui.tap("keyboard.clear")
    for letter in name.upper():
        ui.tap(f"keyboard.{letter}")
    ui.tap("keyboard.ok")


def key(ui: Driver, text: str) -> None:
    """Type `text` on the keypad: digits, "+", "±"."""
    for ch in text:
        ui.tap({"+": "keypad.plus", "±": "keypad.pm"}.get(ch, f"keypad.{ch}"))


def enter(ui: Driver, text: str) -> None:
    key(ui, text)
    ui.tap("keypad.enter")
    assert ui.dialog is None, ui.text("error.text") if ui.dialog == "error" else ui.dialog


def cell(ui: Driver, row: str, seat: int) -> str:
    """The cell of the row labelled `row` (a round's number, a category's name) shown
    now: cells are tagged by their place on the page."""
    for k in range(20):
        label = ui.visible(f"sheet.label.{k}")
        if label is None:
            break
        if label.text == row:
            return f"sheet.cell.{k}.{seat}"
    raise AssertionError(f"no row {row!r} on the page")


def totals(ui: Driver, players: int = 4) -> list[str]:
    return [ui.text(f"sheet.total.{seat}") for seat in range(players)]


def start_four(ui: Driver) -> None:
    """Home -> score pad -> four named players, the start player chosen -> the sheet."""
    ui.tap("home.game.pad")
    assert ui.screen == "pad_setup"
    ui.tap("setup.add")
    ui.tap("setup.add")
    for seat, name in enumerate(NAMES):
        type_name(ui, seat, name)
    ui.tap("setup.start_player")  # drawn -> Ann
    ui.tap("setup.start")
    assert ui.screen == "pad_play"


# -- the tests -----------------------------------------------------------------------------
def test_an_ad_hoc_pad_starts_in_two_taps(launch: Any) -> None:
    ui = launch()
    ui.tap("home.game.pad")
    ui.tap("setup.start")
    assert ui.screen == "pad_play"
    state = ui.app.session.state
    assert [p.name for p in state.players] == ["Player 1", "Player 2"]
    assert state.start_drawn
    assert ui.text("keypad.who") == "Player 1 · Round 1"


@pytest.mark.parametrize("language", ["en", "fr"])
def test_four_players_to_the_end_correcting_round_2_on_round_5(launch: Any,
                                                                 language: str) -> None:
    ui = launch(language=language)
    start_four(ui)
    fr = language == "fr"
    round_word = "Manche" if fr else "Round"
    assert ui.text("keypad.who") == f"Ann · {round_word} 1"
    # adding up in the cell: the expression beside its value, the new total before Enter
    key(ui, "3+6+2")
    assert ui.text("keypad.typed") == "3 + 6 + 2 = 11"
    assert ui.text("keypad.preview") == "Total → 11"
    ui.tap("keypad.enter")
    assert ui.text(cell(ui, "1", 0)) == "11"
    # Enter moved on to the next player in seat order
    assert ui.text("keypad.who") == f"Bob · {round_word} 1"
    key(ui, "5±")  # the ± key: minus five
    assert ui.text("keypad.typed") == "\u22125"
    ui.tap("keypad.enter")
    enter(ui, "0")
    enter(ui, "7")
    assert totals(ui) == ["11", "\u22125", "0", "7"]
    rounds = [[4, 8, 1, 9], [10, 2, 2, 2], [3, 3, 3, 3], [6, 0, 5, 1]]
    for values in rounds:
        for value in values:
            enter(ui, str(value))
    assert len(ui.app.session.state.rounds) == 5
    assert totals(ui) == ["34", "8", "11", "22"]
    # on round 5 (complete; round 6 next): round 2's first cell is corrected
    ui.tap(cell(ui, "2", 0))
    assert ui.text("keypad.who") == f"Ann · {round_word} 2"
    assert ui.text("keypad.typed") == "4"
    enter(ui, "14")
    assert ui.text(cell(ui, "2", 0)) == "14"
    assert totals(ui) == ["44", "8", "11", "22"]
    # back to the sheet's own cell: round 6's first player
    assert ui.text("keypad.who") == f"Ann · {round_word} 6"
    # undo and redo work across the correction
    ui.tap("play.undo")
    assert totals(ui)[0] == "34"
    ui.tap("play.redo")
    assert totals(ui)[0] == "44"
    ui.screenshot(f"pad-sheet-{language}-800x480")
    # the standings, by rank, then the end
    ui.tap("play.standings")
    assert ui.screen == "pad_standings"
    assert [ui.text(f"standings.name.{i}") for i in range(4)] == ["Ann", "Dee", "Cy", "Bob"]
    assert [ui.text(f"standings.total.{i}") for i in range(4)] == ["44", "22", "11", "8"]
    ui.screenshot(f"pad-standings-{language}-800x480")
    ui.tap("standings.end")
    assert ui.screen == "pad_end"
    assert ui.text("end.name.0") == "Ann"
    assert ui.text("end.score.0") == "44"
    ui.screenshot(f"pad-end-{language}-800x480")
    # Undo from the end page: back on the sheet, the game goes on
    ui.tap("end.undo")
    assert ui.screen == "pad_play"
    assert not ui.app.session.state.finished


def test_seven_wonders_with_seven_players(launch: Any) -> None:
    """A categories sheet: coins a point per 3, science from its three inputs (the sum
    of the squares plus 7 per complete set), worked out by hand below."""
    ui = launch()
    ui.tap("home.game.pad")
    for _ in range(5):
        ui.tap("setup.add")
    ui.tap("setup.template")
    assert ui.dialog == "templates"
    assert ui.text("templates.7-wonders") == "7 Wonders\n2–7 players · highest wins"
    ui.tap("templates.7-wonders")
    assert ui.text("setup.template").startswith("7 Wonders")
    ui.tap("setup.start")
    assert ui.screen == "pad_play", ui.dialog
    values = {  # category -> per seat s: what is typed
        "military": lambda s: s - 1, "coins": lambda s: 3 * s + 2, "wonder": lambda s: 5,
        "civilian": lambda s: 10 + s, "commerce": lambda s: 0, "guilds": lambda s: s,
        "gear": lambda s: 1, "tablet": lambda s: 1, "compass": lambda s: s % 2}
    for category, typed in values.items():
        for seat in range(7):
            assert ui.text("keypad.who").startswith(f"Player {seat + 1} · "), category
            value = typed(seat)
            enter(ui, f"{-value}±" if value < 0 else str(value))
    # total = (s-1) + s + 5 + (10+s) + 0 + s + science, science 10 with a compass, else 2
    expected = [4 * s + 14 + (10 if s % 2 else 2) for s in range(7)]
    assert totals(ui, 7) == [str(t) for t in expected]
    ui.screenshot("pad-7-wonders-800x480")
    ui.tap("play.standings")
    assert [ui.text(f"standings.total.{i}") for i in range(7)] == \
        ["44", "40", "36", "32", "28", "24", "16"]
    ui.tap("standings.end")
    assert ui.screen == "pad_end"
    assert ui.text("end.name.0") == "Player 6"

