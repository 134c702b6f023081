"""The score pad's rounds sheet through the real app under Xvfb, by simulated touches
only: an ad-hoc pad of four players played to its end, round 2 corrected while the
table is on round 5, in English and French; a power cut mid-entry, a player leaving,
a double contact, bad input."""

from __future__ import annotations

from typing import Any

import pytest

from tests.uidriver import Driver

pytestmark = [pytest.mark.ui, pytest.mark.usefixtures("instant_release")]

NAMES = ["Ann", "Bob", "Cy", "Dee"]



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


def head(ui: Driver, seat: int) -> str:
    """A column's head as it reads, without the start player's mark."""
    text = ui.text(f"sheet.name.{seat}")
    return text.split("[/font] ", 1)[1] if text.startswith("[font=") else text


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
    assert ui.text("keypad.preview") == ("Nouveau total : 11" if fr else "New total: 11")
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



def test_a_power_cut_mid_entry_reopens_on_the_same_cell(launch: Any) -> None:
    """What was entered is kept; the digits typed but never entered were never shown
    as a value, and the game reopens on the cell they were typed in."""
    ui = launch()
    start_four(ui)
    for value in ("3", "4", "5", "6", "7", "8"):
        enter(ui, value)
    key(ui, "4")
    assert ui.text("keypad.who") == "Cy · Round 2"
    ui = launch()  # the app starts again on the same journal
    assert ui.screen == "pad_play"
    assert ui.text("keypad.who") == "Cy · Round 2"
    assert ui.text("keypad.typed") == ""
    assert totals(ui) == ["10", "12", "5", "6"]
    assert ui.text(cell(ui, "2", 2)) == "?"
    assert ui.text("play.status") == "Round 2: waiting for Cy, Dee"
    # the hardware buttons: ROLL is the keypad's Enter, UNDO the screen's Undo
    key(ui, "9")
    ui.app.press("roll")
    ui.settle()
    assert ui.text(cell(ui, "2", 2)) == "9"
    ui.app.press("undo")
    ui.settle()
    assert ui.text(cell(ui, "2", 2)) == "?"
    # home lists the game with its template and the round being played
    ui.tap("play.home")
    resume = next(w for w in ui.app.root.current_screen.walk()
                  if str(getattr(w, "tid", "")).startswith("home.resume."))
    assert "Rounds: highest wins, round 2" in resume.text


def test_a_player_who_leaves_stays_visible_and_owes_no_more_cells(launch: Any) -> None:
    ui = launch()
    start_four(ui)
    for value in ("1", "2", "3", "4"):
        enter(ui, value)
    ui.tap("sheet.name.1")
    assert ui.dialog == "player"
    ui.tap("player.leave")
    assert ui.dialog is None
    for value in ("5", "6", "7"):  # Ann, Cy, Dee: Bob owes nothing more
        enter(ui, value)
    assert ui.text("keypad.who") == "Ann · Round 3"
    assert ui.text(cell(ui, "2", 1)) == ""
    ui.tap("play.standings")
    assert [ui.text(f"standings.name.{i}") for i in range(4)] == ["Dee", "Cy", "Ann", "Bob"]
    assert ui.text("standings.rank.3") == "–"
    assert ui.text("standings.note.3") == "left the game"


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_double_contact_within_the_debounce_time_counts_once(
        launch: Any, monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    """"Two identical taps within the debounce time counted once": `games.pad.debounce`
    from the config reaches the keypad; the keypad's clock is the test's (the moments
    of the taps are chosen, not waited for)."""
    import ui.screens.pad.keypad as keypad_module

    now = [1000.0]
    monkeypatch.setattr(keypad_module.time, "monotonic", lambda: now[0])
    ui = launch(language, games={"pad": {"debounce": 0.25}})
    start_four(ui)
    key(ui, "1")
    now[0] += 0.1  # within the debounce: the same tap
    key(ui, "1")
    assert ui.text("keypad.typed") == "1"
    now[0] += 0.1
    key(ui, "2")  # another key is never a repeat
    assert ui.text("keypad.typed") == "12"
    now[0] += 0.3  # after it: a second tap
    key(ui, "2")
    assert ui.text("keypad.typed") == "122"
    now[0] += 0.3
    ui.tap("keypad.enter")
    now[0] += 0.05  # Enter's double contact does not skip the next player
    ui.tap("keypad.enter")
    assert ui.text(cell(ui, "1", 0)) == "122"
    assert ui.text("keypad.who") == ("Bob · Round 1" if language == "en" else
                                     "Bob · Manche 1")


def test_bad_input_is_said_and_loses_nothing(launch: Any) -> None:
    ui = launch()
    start_four(ui)
    enter(ui, "9")
    key(ui, "3+")  # an expression that ends on "+": said before Enter, refused on Enter
    assert ui.text("keypad.preview") != "New total: 3"
    ui.tap("keypad.enter")
    assert ui.dialog == "error"
    ui.tap("error.ok")
    assert ui.text("keypad.typed") == "3 +"  # what was typed is still there
    ui.tap("keypad.del")
    ui.tap("keypad.enter")
    assert ui.dialog is None
    assert totals(ui)[:2] == ["9", "3"]
    ui.tap("keypad.enter")  # nothing typed on Cy's blank: a blank is never a zero
    assert ui.text("keypad.preview") == "Type 0 for no points"
    assert ui.text("keypad.who") == "Cy · Round 1"


def test_teams_of_partners_sitting_opposite(launch: Any) -> None:
    """Four players as two teams, 1+3 against 2+4: a team's score is its members' sum
    (the template's default); both partners share their team's place."""
    ui = launch()
    ui.tap("home.game.pad")
    ui.tap("setup.add")
    assert ui.find("setup.teams").disabled  # three players: no teams to offer
    ui.tap("setup.add")
    for seat, name in enumerate(NAMES):
        type_name(ui, seat, name)
    assert ui.text("setup.teams") == "No teams"
    ui.tap("setup.teams")
    assert ui.text("setup.teams") == "Teams: 1+3 · 2+4"
    ui.tap("setup.start")
    assert ui.app.session.state.teams == ((0, 2), (1, 3))
    for value in ("5", "3", "4", "7"):
        enter(ui, value)
    ui.tap("play.standings")
    names = [ui.text(f"standings.name.{i}") for i in range(4)]
    ranks = [ui.text(f"standings.rank.{i}") for i in range(4)]
    notes = [ui.text(f"standings.note.{i}") for i in range(4)]
    # Bob and Dee: 3 + 7 = 10 against Ann and Cy's 5 + 4 = 9
    assert sorted(names[:2]) == ["Bob", "Dee"] and ranks == ["1", "1", "2", "2"]
    assert notes[:2] == ["team 2 · leads", "team 2 · leads"]
    assert notes[2:] == ["team 1", "team 1"]


def test_six_players_as_two_teams_of_three_or_three_teams_of_two(launch: Any) -> None:
    """Six players: the teams control cycles through every grouping the table can use,
    teams of three among them (3+3 side by side; 2+2+2 every third seat, beside the
    pairs side by side); a team of three's score is its members' sum."""
    ui = launch()
    ui.tap("home.game.pad")
    for _ in range(4):
        ui.tap("setup.add")
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
    for seat, name in enumerate(names):
        type_name(ui, seat, name)
    seen = [ui.text("setup.teams")]
    for _ in range(5):
        ui.tap("setup.teams")
        seen.append(ui.text("setup.teams"))
    assert seen == ["No teams", "Teams: 1+3+5 · 2+4+6", "Teams: 1+2 · 3+4 · 5+6",
                    "Teams: 1+2+3 · 4+5+6", "Teams: 1+4 · 2+5 · 3+6", "No teams"]
    for _ in range(3):
        ui.tap("setup.teams")
    assert ui.text("setup.teams") == "Teams: 1+2+3 · 4+5+6"
    ui.tap("setup.start")
    assert ui.app.session.state.teams == ((0, 1, 2), (3, 4, 5))
    for value in ("5", "3", "4", "7", "1", "2"):
        enter(ui, value)
    ui.tap("play.standings")
    shown = [ui.text(f"standings.name.{i}") for i in range(6)]
    ranks = [ui.text(f"standings.rank.{i}") for i in range(6)]
    notes = [ui.text(f"standings.note.{i}") for i in range(6)]
    # Ann, Bob and Cy: 5 + 3 + 4 = 12 against Dee, Eve and Fay's 7 + 1 + 2 = 10
    assert sorted(shown[:3]) == ["Ann", "Bob", "Cy"] and ranks == ["1"] * 3 + ["2"] * 3
    assert notes[:3] == ["team 1 · leads"] * 3 and notes[3:] == ["team 2"] * 3


def test_a_guest_is_named_in_the_language_on_screen(launch: Any) -> None:
    """Issue 29: a guest has one name everywhere. A pad set up in English with its seats
    unnamed ("Player 1", "Player 2"), the language switched to French in Settings: the
    sheet, the keypad's line, the headline, the standings and the set-up of "New game
    with the same players" say "Joueur 1"; the game keeps the names it was set up with."""
    ui = launch(language="en")
    ui.tap("home.game.pad")
    ui.tap("setup.start_player")  # drawn -> Player 1
    ui.tap("setup.start")
    enter(ui, "5")
    assert ui.text("keypad.who") == "Player 2 · Round 1"
    game = ui.app.session.game_id
    ui.tap("play.home")
    ui.tap("home.settings")
    ui.tap("settings.lang.fr")
    ui.tap("settings.back")
    ui.tap(f"home.resume.{game}")
    assert ui.screen == "pad_play"
    # (Joueur 1, drawn to start, has the start's mark before the name)
    assert [head(ui, seat) for seat in range(2)] == ["Joueur 1", "Joueur 2"]
    # the keypad's one line: "Joueur 2 · Manche 1" is wider than it, the name alone
    assert ui.text("keypad.who") == "Joueur 2"
    assert "Joueur 2" in ui.text("play.status")
    enter(ui, "7")
    ui.tap("play.standings")
    assert [ui.text(f"standings.name.{i}") for i in range(2)] == ["Joueur 2", "Joueur 1"]
    ui.tap("standings.end")
    assert ui.screen == "pad_end"
    ui.tap("end.again")
    assert ui.screen == "pad_setup"
    assert [ui.text(f"setup.name.{seat}") for seat in range(2)] == ["Joueur 1", "Joueur 2"]
    assert [p["name"] for p in ui.app.journal.game(game).setup["players"]] == [
        "Player 1", "Player 2"]


# -- the exact screen after a power cut (issue 29) ----------------------------------------
def _killed_and_started_again(tmp_path: Any, language: str, taps: list[str],
                              screen: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A pad of three players (round 1 played, round 2 begun) in the journal; `companion
    run` taps `taps` on the sheet and is killed with SIGKILL with their result on
    screen, then started again on the same folder until it shows `screen`. Returns what
    each showed (screen, dialog, tagged texts); the frames must be the same, byte for
    byte."""
    import signal

    from companion.games.pad import commands as c
    from companion.games.pad.rules import RULES
    from companion.journal import Journal
    from companion.session import Session
    from tests.pad_helpers import setup
    from tests.test_ui_castor_tracker import _child

    data = tmp_path / "data"
    data.mkdir()
    journal = Journal(data / "journal.sqlite3")
    session = Session.start(RULES, journal, setup("rounds-highest", 3))
    for seat, text in enumerate(("3+6+2", "5", "0", "4")):
        session.dispatch(c.SetCell(seat % 3, seat // 3, None, text))
    journal.close()
    config = tmp_path / "config.yaml"
    config.write_text(f"language: {language}\n", encoding="utf-8")
    before, seen_before, code = _child(data, config, tmp_path / "before.rgba", "pad_play",
                                       taps, tmp_path)
    assert code == -signal.SIGKILL
    after, seen_after, code = _child(data, config, tmp_path / "after.rgba", screen, [],
                                     tmp_path)
    assert code == 0
    assert len(after) == len(before) > 0
    differ = sum(1 for a, b in zip(before, after, strict=True) if a != b)
    assert differ == 0, f"{differ} bytes differ"
    return seen_before, seen_after


@pytest.mark.parametrize("language", ["en", "fr"])
def test_after_sigkill_on_the_standings_the_standings_come_back(tmp_path: Any,
                                                                language: str) -> None:
    """A value entered by touch, the standings opened, the plug pulled: started again,
    the app shows the standings with that value in its total, pixel for pixel, not the
    sheet."""
    before, after = _killed_and_started_again(
        tmp_path, language, ["~keypad.7", "keypad.enter", "~play.standings"],
        "pad_standings")
    assert after["screen"] == before["screen"] == "pad_standings"
    assert after["dialog"] is None
    assert after["texts"] == before["texts"]
    # by hand: Ann 11 + 4 = 15, Bob 5 + 7 = 12 (typed before the kill), Cy 0
    assert [after["texts"][f"standings.total.{i}"] for i in range(3)] == ["15", "12", "0"]


def test_after_sigkill_with_a_players_menu_open_the_menu_comes_back(tmp_path: Any) -> None:
    """A player's menu (leave, eliminated, outright win) open over the sheet at the
    plug: it is open again over the same sheet; closed, the next start shows the
    sheet alone."""
    before, after = _killed_and_started_again(tmp_path, "en", ["~sheet.name.1"],
                                              "pad_play")
    assert after["screen"] == before["screen"] == "pad_play"
    assert after["dialog"] == before["dialog"] == "player"
    assert after["dialog_texts"] == before["dialog_texts"]
    assert after["texts"] == before["texts"]


def test_the_sheet_is_one_grid_with_the_cell_typed_in_drawn_over_it(launch: Any) -> None:
    """The cells are a paper sheet's grid: every cell shown is a square of the panel's
    colour (one drawing instruction of the sheet's), the gaps between show the
    background, and only a cell that looks otherwise (the one typed in, a missing
    score) draws a box of its own, which moves with the keypad's cell."""
    from kivy.core.window import Window
    from kivy.graphics.opengl import GL_RGBA, GL_UNSIGNED_BYTE, glReadPixels

    from ui import theme

    ui = launch()
    start_four(ui)
    enter(ui, "12")
    enter(ui, "7")  # round 1: Ann and Bob scored, Cy typed in, Dee missing
    sheet = ui.app.root.get_screen("pad_play").sheet

    def colour(x: float, y: float) -> tuple[int, ...]:
        Window.canvas.ask_update()
        Window.dispatch("on_draw")
        return tuple(glReadPixels(int(x), int(y), 1, 1, GL_RGBA, GL_UNSIGNED_BYTE))[:3]

    def rgb(rgba: tuple[float, ...]) -> tuple[int, ...]:
        return tuple(round(c * 255) for c in rgba[:3])

    def near(got: tuple[int, ...], want: tuple[int, ...]) -> bool:
        return all(abs(a - b) <= 2 for a, b in zip(got, want, strict=True))

    def corner(tid: str, dx: float = 3, dy: float = 3) -> tuple[float, float]:
        widget = ui.visible(tid)
        assert widget is not None, tid
        x, y = widget.to_window(widget.x, widget.y)
        return x + dx, y + dy  # inside the cell, clear of its figure

    ann, bob, cy = (cell(ui, "1", seat) for seat in range(3))
    for tid in (ann, bob):  # scored: the grid's panel, no box of their own
        assert near(colour(*corner(tid)), rgb(theme.PANEL)), tid
        widget = ui.visible(tid)
        assert widget._rect not in widget.canvas.before.children
    typed_in = ui.visible(cy)
    assert near(colour(*corner(cy)), rgb(theme.SELECTED))
    assert typed_in._rect in typed_in.canvas.before.children
    # the gap between Ann's cell and Bob's is the background's
    x, y = corner(ann)
    gap = ui.visible(ann).width + 1
    assert near(colour(x + gap - 3, y), rgb(theme.BACKGROUND))
    enter(ui, "3")  # Cy scored: the keypad moves on to Dee, and so does the box
    assert near(colour(*corner(cy)), rgb(theme.PANEL))
    assert typed_in._rect not in typed_in.canvas.before.children
    assert near(colour(*corner(cell(ui, "1", 3))), rgb(theme.SELECTED))
    assert len(sheet._grid.indices) == 6 * sum(
        1 for _label, cells in sheet.row_widgets for c in cells if c.opacity)


@pytest.mark.parametrize(("language", "size"), [("en", (1280, 800)), ("fr", (1280, 720))])
def test_after_sigkill_with_eight_players_the_same_headline_and_clock_come_back(
        tmp_path: Any, language: str, size: tuple[int, int]) -> None:
    """Eight players, three still owing round 1 (issue 46, item 16): the headline naming
    them does not fit beside the Clock button, its short form does. A score entered by
    touch, the plug pulled: started again, the app shows the same short headline and
    the Clock button, pixel for pixel (it once opened on the long headline without the
    Clock, given up while the header was still at Kivy's default width)."""
    import signal

    from companion.games.pad import commands as c
    from companion.games.pad.rules import RULES
    from companion.journal import Journal
    from companion.session import Session
    from tests.pad_helpers import template
    from tests.test_ui_castor_tracker import _child

    data = tmp_path / "data"
    data.mkdir()
    journal = Journal(data / "journal.sqlite3")
    players = [{"name": f"Player {seat + 1}"} for seat in range(8)]
    session = Session.start(RULES, journal, {"template": template("rounds-highest"),
                                             "players": players, "start_player": 0,
                                             "start_drawn": False})
    for seat, text in enumerate(("3+6+2", "3", "7", "1")):
        session.dispatch(c.SetCell(seat, 0, None, text))
    journal.close()
    config = tmp_path / "config.yaml"
    width, height = size
    config.write_text(f"language: {language}\n"
                      f"display: {{width: {width}, height: {height}, fullscreen: false}}\n",
                      encoding="utf-8")
    before, seen_before, code = _child(data, config, tmp_path / "before.rgba", "pad_play",
                                       ["~keypad.4", "keypad.enter"], tmp_path)
    assert code == -signal.SIGKILL
    after, seen_after, code = _child(data, config, tmp_path / "after.rgba", "pad_play", [],
                                     tmp_path)
    assert code == 0
    status = {"en": "Round 1: 3 scores missing (?)",
              "fr": "Manche 1 : 3 scores manquants (?)"}[language]
    shown = {key: seen_after["texts"].get(key) for key in ("play.status", "play.clock")}
    assert shown == {key: seen_before["texts"].get(key) for key in shown}
    assert shown == {"play.status": status, "play.clock": "Horloge" if language == "fr"
                     else "Clock"}
    assert seen_after["texts"] == seen_before["texts"]
    differ = sum(1 for a, b in zip(before, after, strict=True) if a != b)
    assert len(after) == len(before) > 0 and differ == 0, f"{differ} bytes differ"
