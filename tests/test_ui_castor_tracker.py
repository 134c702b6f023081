"""Castor's trick tracker played as a table plays it, by touches in the real app: whole
tracked rounds with 3 and 5 players (and the taps each trick takes), the round's
reveal, the mid-round score sheet that asks before it replaces tracked tricks, every
question undone from itself, and the tracked trick back after SIGKILL, pixel for pixel."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.test_ui_castor import new_game, play_card
from tests.uidriver import Driver

pytestmark = [pytest.mark.ui, pytest.mark.usefixtures("instant_release")]

REPO = Path(__file__).resolve().parents[1]
FIGURES = ("plan", "green", "yellow", "bonus", "malus", "total", "medal")


class Taps:
    """Counts the table's taps on the tracker."""

    def __init__(self, ui: Driver) -> None:
        self.ui = ui
        self.count = 0

    def tap(self, tid: str) -> None:
        self.count += 1
        self.ui.tap(tid)

    def card(self, colour: str, value: int) -> None:
        """A card as the table enters it: its value alone when the keypad already shows
        its colour (the colour led), else its colour, then its value."""
        chosen = self.ui.text(f"tricks.colour.{colour}").startswith("▶")
        if not chosen:
            self.tap(f"tricks.colour.{colour}")
        self.tap(f"tricks.value.{value}")
        assert self.ui.dialog is None, self.ui.dialog

    def trick(self, cards: list[tuple[str, int]], plan: int) -> int:
        before = self.count
        for colour, value in cards:
            self.card(colour, value)
        self.tap(f"tricks.plan.{plan}")
        return self.count - before


def revealed(ui: Driver, players: int) -> list[list[str]]:
    return [[ui.text(f"revealed.{f}.{seat}") for f in FIGURES] for seat in range(players)]


# -- whole rounds ---------------------------------------------------------------------------
#: three players, each trick in playing order from its leader (Player 1 leads the
#: first); the winner leads the next: the highest mauve, else the highest of the colour led
ROUND_3 = [
    ([("blue", 18), ("blue", 1), ("green", 1)], 6),  # Player 1 (18 blue)
    ([("green", 16), ("green", 2), ("green", 3)], 5),  # Player 1
    ([("yellow", 16), ("yellow", 1), ("mauve", 1)], 4),  # Player 3: the only mauve
    ([("blue", 2), ("blue", 3), ("blue", 4)], 3),  # Player 3 leads, Player 2 wins
    ([("green", 4), ("green", 5), ("yellow", 2)], 2),  # Player 2 leads, Player 3 wins
    ([("yellow", 3), ("yellow", 4), ("yellow", 5)], 1),  # Player 3 leads, Player 2 wins
    ([("mauve", 2), ("mauve", 3), ("blue", 5)], 1),  # Player 2 leads, Player 3 wins
    ([("blue", 6), ("blue", 7), ("green", 6)], 2),  # Player 3 leads, Player 1 wins
    ([("blue", 8), ("blue", 9), ("blue", 10)], 3),  # Player 1 leads, Player 3 wins
    ([("yellow", 6), ("yellow", 7), ("yellow", 8)], 4),  # Player 3 leads, Player 2 wins
    ([("green", 7), ("green", 8), ("green", 9)], 5),  # Player 2 leads, Player 1 wins
    ([("blue", 11), ("mauve", 4), ("blue", 12)], 6),  # Player 1 leads, Player 2 (mauve)
]
#: who leads each trick (the winner of the one before)
LEADERS_3 = [1, 1, 1, 3, 2, 3, 2, 3, 1, 3, 2, 1]


def test_a_whole_tracked_round_with_three_players(launch: Any) -> None:
    # seed: "le joueur ayant joué la carte la plus forte dans la PREMIÈRE COULEUR jouée
    # remporte le tour [...] Si quelqu'un a joué une carte de matière mauve, c'est le
    # joueur ayant joué la carte mauve la plus élevée qui gagne le tour."
    ui = launch()
    new_game(ui, 3)
    taps = Taps(ui)
    taps.tap("play.tricks")
    per_trick = []
    for number, ((cards, plan), leader) in enumerate(zip(ROUND_3, LEADERS_3, strict=True), 1):
        assert ui.text("tricks.title") == f"Round 1\nTrick {number}/12"
        assert ui.text("tricks.status") == f"Player {leader} to play"
        per_trick.append(taps.trick(cards, plan))
    # a trick is 2 taps for its first card, 1 for a card of the colour led, 2 for any
    # other, 1 for the plan card: 4 to 7 taps with three players (7 before the keypad
    # opened on the colour led)
    assert per_trick == [6, 5, 6, 5, 6, 5, 6, 6, 5, 5, 5, 6]
    assert ui.screen == "castor_play" and ui.dialog == "revealed"
    # Player 1: 6+5+2+5 plan, 8 greens; Player 2: 3+1+4+6 plan, no green (bonus 8), 6
    # yellows (malus 8); Player 3: 4+2+1+3 plan, 2 greens, 3 yellows
    assert revealed(ui, 3) == [["18", "8", "0", "·", "·", "18", "★"],
                               ["14", "0", "6", "+8", "−8", "14", "·"],
                               ["10", "2", "3", "·", "·", "10", "·"]]
    ui.screenshot("castor-reveal-3-800x480")
    taps.tap("revealed.ok")
    # 66 taps for the round's tricks (84 before), one to start, one for the reveal
    assert taps.count == 1 + sum(per_trick) + 1 == 68
    assert [ui.text(f"board.cell.{s}.1") for s in range(3)] == ["★ 18", "14", "10"]
    assert ui.text("play.status") == "Round 2: Player 1 leads"


def five_player_round() -> tuple[list[tuple[list[tuple[str, int]], int]], list[int]]:
    """Every one of the 60 action cards once: eleven tricks of one colour (the second
    player plays its highest card and wins, so the lead goes round the table), then
    the last five cards."""
    tricks = []
    colours = ["green", "yellow", "blue", "mauve"] * 2 + ["green", "yellow", "blue"]
    used: dict[str, int] = {}
    for colour in colours:
        low = used.get(colour, 0)
        used[colour] = low + 5
        tricks.append([(colour, low + k) for k in (2, 5, 1, 3, 4)])
    tricks.append([("blue", 16), ("blue", 18), ("blue", 17), ("green", 16), ("yellow", 16)])
    plans = [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]
    return list(zip(tricks, plans, strict=True)), [(k % 5) + 1 for k in range(12)]


def test_a_whole_tracked_round_with_five_players(launch: Any) -> None:
    ui = launch()
    new_game(ui, 5)
    taps = Taps(ui)
    taps.tap("play.tricks")
    tricks, leaders = five_player_round()
    per_trick = []
    for number, ((cards, plan), leader) in enumerate(zip(tricks, leaders, strict=True), 1):
        assert ui.text("tricks.title") == f"Round 1\nTrick {number}/12"
        assert ui.text("tricks.status") == f"Player {leader} to play"
        if number == 12:
            ui.screenshot("castor-tricks-5-800x480")
        per_trick.append(taps.trick(cards, plan))
    # a trick of one colour: 2 + 4 + 1 = 7 taps (11 before); the last, 9
    assert per_trick == [7] * 11 + [9]
    # greens: Player 2 (trick 1), Player 1 (5), Player 5 (9) five each, Player 3 one;
    # yellows: Player 3 (2) five and one, Player 2 (6), Player 1 (10) five each. Four
    # or five players: 5 points of bonus (Player 4, no green) and of malus (Player 3)
    assert revealed(ui, 5) == [["5", "5", "5", "·", "·", "5", "·"],
                               ["6", "5", "5", "·", "·", "6", "·"],
                               ["6", "1", "6", "·", "−5", "1", "·"],
                               ["3", "0", "0", "+5", "·", "8", "★"],
                               ["4", "5", "0", "·", "·", "4", "·"]]
    from tests.legibility import problems

    assert problems(ui.app.dialog) == []
    ui.screenshot("castor-reveal-5-800x480")
    taps.tap("revealed.ok")
    assert taps.count == 1 + 86 + 1  # 132 taps for the tricks before
    assert [ui.text(f"board.medals.{s}") for s in range(5)] == ["0", "0", "0", "★ 1", "0"]


# -- the mid-round sheet ----------------------------------------------------------------------
def test_the_sheet_of_a_tracked_round_asks_before_it_replaces_the_tricks(launch: Any) -> None:
    ui = launch()
    new_game(ui, 3)
    ui.tap("play.tricks")
    for cards, plan in ROUND_3[:2]:
        for colour, value in cards:
            play_card(ui, colour, value)
        ui.tap(f"tricks.plan.{plan}")
    ui.tap("tricks.board")
    tracked = ui.app.session.state.tracking
    # continuing the tricks is the way on; the sheet is a secondary way
    sheet, tricks = ui.find("play.sheet"), ui.find("play.tricks")
    assert tricks._fill != sheet._fill and sheet._fill == ui.app.root.get_screen(
        "castor_play").sheet_button._fill
    from ui import theme

    assert tricks._fill == theme.SUCCESS and sheet._fill == theme.BUTTON
    ui.tap("play.sheet")
    assert ui.dialog == "sheet_confirm"
    assert ui.text("sheet_confirm.text").startswith("Round 1 has 2 tricks tracked so far.")
    ui.app.confirm()  # the hardware OK: Cancel, the tricks are kept
    assert ui.dialog is None and ui.screen == "castor_play"
    assert ui.app.session.state.tracking == tracked
    ui.tap("play.sheet")
    ui.tap("sheet_confirm.cancel")
    assert ui.screen == "castor_play" and ui.app.session.state.tracking == tracked
    ui.tap("play.sheet")
    ui.tap("sheet_confirm.yes")
    assert ui.screen == "castor_sheet"
    # nobody filled it in: no medal, no bonus previewed for everyone
    assert [ui.text(f"sheet.result.{s}") for s in range(3)] == ["", "", ""]
    ui.tap("sheet.plan.0.plus")
    assert ui.text("sheet.result.0") == "★ 9\n+8"  # now it previews
    ui.tap("sheet.cancel")
    assert ui.app.session.state.tracking == tracked  # nothing sent


def test_the_french_sheet_help_is_whole(launch: Any) -> None:
    from tests.legibility import problems

    ui = launch(language="fr")
    new_game(ui, 5)
    ui.tap("play.tricks")
    play_card(ui, "blue", 3)
    ui.tap("tricks.board")
    ui.tap("play.sheet")
    ui.tap("sheet_confirm.yes")
    hint = ui.find("sheet.hint")
    assert hint.text.endswith("Chaque joueur compte sa propre pile.")
    assert problems(ui.app.root) == []  # nothing cut, at 800x480 and after
    assert hint.height >= hint.texture_size[1]


def test_before_any_round_the_board_does_not_offer_to_correct_one(launch: Any) -> None:
    ui = launch()
    new_game(ui, 3)
    assert ui.text("play.say") == ("Enter each round's score sheet at its end, or track its "
                                   "tricks as you play.")


# -- every question undone from itself ---------------------------------------------------------
def test_every_castor_question_is_undone_from_itself(launch: Any) -> None:
    ui = launch()
    new_game(ui, 3, agents={0: 2, 1: 1})  # Player 1: Martha, Player 2: Belton
    ui.tap("play.tricks")
    state = ui.app.session.state
    # Belton's power: the choice of leader is asked; its Undo takes the card back
    ui.tap("tricks.power")
    ui.tap("power.belton")
    assert ui.dialog == "leader"
    assert ui.find("leader.close") is None  # the power must be applied, or taken back
    assert ui.text("leader.undo") == "Undo the power card"
    ui.tap("leader.undo")
    assert ui.dialog is None and ui.app.session.state == state
    # a complice's correction follows its note: Undo takes the note back, from each
    for action, dialog in (("trumps", "trumps"), ("leader", "leader"), ("winner", "award"),
                           ("card", "move_from"), ("points", "move_from")):
        if action == "winner":
            play_card(ui, "blue", 4)
        before = ui.app.session.state
        ui.tap("tricks.complice")
        ui.tap(f"complice.{action}")
        assert ui.dialog == dialog, action
        assert ui.app.session.state != before  # the note is recorded
        # what the question takes touches from is out of reach (the dialog is modal)
        assert ui.find("tricks.undo") is None
        ui.tap(f"{dialog}.undo")
        assert ui.dialog is None and ui.app.session.state == before, action
    # and from each step of a card's move: whom it goes to, its colour
    before = ui.app.session.state
    ui.tap("tricks.complice")
    ui.tap("complice.card")
    ui.tap("move_from.1")
    ui.tap("move_to.undo")
    assert ui.dialog is None and ui.app.session.state == before
    ui.tap("tricks.complice")
    ui.tap("complice.card")
    ui.tap("move_from.1")
    ui.tap("move_to.0")
    assert ui.dialog == "move_colour"
    ui.tap("move_colour.undo")
    assert ui.dialog is None and ui.app.session.state == before
    # a card the settings did not expect: the note's Undo takes the card back
    before = ui.app.session.state
    ui.tap("tricks.value.other")
    for digit in "19":
        ui.tap(f"keypad.{digit}")
    ui.tap("keypad.ok")
    assert ui.dialog == "check"
    assert ui.text("check.undo") == "Undo the card played"
    ui.tap("check.undo")
    assert ui.dialog is None and ui.app.session.state == before
    # the reveal's Undo takes the last trick back, to the tracker
    ui.tap("tricks.undo")  # the blue 4 too: the round below starts clean
    for cards, plan in ROUND_3:
        for colour, value in cards:
            play_card(ui, colour, value)
        ui.tap(f"tricks.plan.{plan}")
        if ui.dialog == "extra":  # Martha (Player 1) won: her bottom plan card
            ui.tap("extra.1")
    assert ui.dialog == "revealed"
    assert ui.text("revealed.undo") == "Undo the trick taken"
    ui.tap("revealed.undo")
    assert ui.dialog is None and ui.screen == "castor_tricks"
    assert ui.text("tricks.title") == "Round 1\nTrick 12/12"
    assert ui.text("tricks.status") == "Player 2 wins the trick"
    ui.tap("tricks.redo")
    assert ui.screen == "castor_play"


# -- a power cut mid-trick -----------------------------------------------------------------------
def _child(data: Path, config: Path, out: Path, screen: str, taps: list[str],
           tmp_path: Path) -> tuple[bytes, dict[str, Any], int]:
    env = dict(os.environ, KIVY_HOME=str(tmp_path / "kivy"), KIVY_NO_ARGS="1",
               KIVY_NO_FILELOG="1", KIVY_NO_CONSOLELOG="1", GPIOZERO_PIN_FACTORY="mock",
               XDG_CONFIG_HOME=str(tmp_path / "xdg-empty"))
    env.pop("NOTIFY_SOCKET", None)
    done = subprocess.run([sys.executable, str(REPO / "tests" / "helpers" /
                                               "power_cut_child.py"),
                           str(data), str(config), str(out), screen, *taps],
                          capture_output=True, text=True, env=env, timeout=180, cwd=REPO)
    seen = Path(f"{out}.json")
    assert seen.exists(), done.stdout[-2000:] + done.stderr[-4000:]
    return out.read_bytes(), json.loads(seen.read_text("utf-8")), done.returncode


@pytest.mark.parametrize("language", ["en", "fr"])
def test_after_sigkill_mid_trick_the_same_screen_comes_back(tmp_path: Path,
                                                            language: str) -> None:
    """`companion run` killed with SIGKILL in the middle of a trick (two cards down, the
    second by a touch just before the kill): started again, it shows the same screen,
    pixel for pixel: the trick tracker, not the scoreboard."""
    import signal

    from companion import config as config_module
    from companion.games import rules_for
    from companion.games.castor import commands as c
    from companion.journal import Journal
    from companion.session import Session

    data = tmp_path / "data"
    data.mkdir()
    journal = Journal(data / "journal.sqlite3")
    params = config_module.load(use_default_user_file=False).get("games.castor")
    names = ["Anne", "Bob", "Chloé"]
    session = Session.start(rules_for("castor"), journal, {
        "params": params, "seed": 7, "players": [{"name": n} for n in names]})
    for command in (c.PlayCard("Anne", "blue", 7), c.PlayCard("Bob", "blue", 9),
                    c.PlayCard("Chloé", "green", 3), c.TakeTrick(3),
                    c.PlayCard("Bob", "yellow", 12)):
        session.dispatch(command)
    journal.close()
    config = tmp_path / "config.yaml"
    config.write_text(f"language: {language}\n", encoding="utf-8")
    # Chloé follows Bob's yellow: one tap on the keypad, which opened on yellow
    before, seen_before, code = _child(data, config, tmp_path / "before.rgba",
                                       "castor_tricks", ["tricks.value.6"], tmp_path)
    assert code == -signal.SIGKILL
    after, seen_after, code = _child(data, config, tmp_path / "after.rgba",
                                     "castor_tricks", [], tmp_path)
    assert code == 0
    assert seen_after["screen"] == seen_before["screen"] == "castor_tricks"
    assert seen_after["dialog"] is None
    assert seen_after["texts"] == seen_before["texts"]
    assert seen_after["texts"]["tricks.chip.1.card"] in ("6 yellow", "6 jaune")
    assert len(after) == len(before) > 0
    differ = sum(1 for a, b in zip(before, after, strict=True) if a != b)
    assert differ == 0, f"{differ} bytes differ"


def test_a_trick_builds_no_widget(launch: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tracker's chips, colours and keys are built once and re-told at every card:
    a tap that built two dozen widgets left cycles for the collector to walk mid-game."""
    from kivy.uix.widget import Widget

    ui = launch()
    new_game(ui, 3)
    # the end screen is built while the table plays, half a second in: not counted
    ui.wait_until(lambda: ui.app.root.get_screen("castor_play").warmed)
    taps = Taps(ui)
    taps.tap("play.tricks")
    taps.trick(*ROUND_3[0])  # the first trick builds what a trick shows
    ui.tap("tricks.colour.mauve")
    ui.tap("tricks.colour.green")
    made: list[Any] = []
    original = Widget.__init__

    def counting(self: Any, **kwargs: Any) -> None:
        made.append(self)
        original(self, **kwargs)

    monkeypatch.setattr(Widget, "__init__", counting)
    for cards, plan in ROUND_3[1:4]:
        taps.trick(cards, plan)
        assert made == [], [type(w).__name__ for w in made]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_audit_holds_the_tracker_to_the_turn_card_s_type_scale(launch: Any,
                                                                   language: str) -> None:
    """The headline a key figure (26 px capitals), the lines the table acts on and the
    cards on the table 20 px capitals: the audit finds nothing, and finds a line made
    smaller."""
    from kivy.metrics import sp

    from tests import screen_audit

    ui = launch(language=language)
    new_game(ui, 3, agents={0: 2})
    ui.tap("play.tricks")
    ui.tap("tricks.power")
    ui.tap("power.martha")
    play_card(ui, "blue", 7)
    screen = ui.app.root.current_screen
    assert screen_audit.audit(screen, "tricks", language, shown="castor_tricks") == []
    act = ui.find("tricks.act")
    act.font_size = sp(24)
    ui.pump(2)
    found = screen_audit.audit(screen, "tricks", language, shown="castor_tricks")
    assert [(v.widget, v.what) for v in found] == [
        ("tricks.act", "acted-on text cap height 17 px < 20")]


def test_stopping_the_tracking_looks_destructive_and_asks(launch: Any) -> None:
    from ui import theme

    ui = launch()
    new_game(ui, 3)
    ui.tap("play.tricks")
    for cards, plan in ROUND_3[:1]:
        for colour, value in cards:
            play_card(ui, colour, value)
        ui.tap(f"tricks.plan.{plan}")
    tracked = ui.app.session.state.tracking
    assert ui.find("tricks.cancel")._fill == theme.DANGER
    ui.tap("tricks.cancel")
    assert ui.dialog == "stop_confirm"
    assert ui.text("stop_confirm.text").startswith(
        "The 1 trick tracked so far in round 1 is dropped")
    ui.app.confirm()  # the hardware OK keeps the tricks
    assert ui.dialog is None and ui.app.session.state.tracking == tracked
    ui.tap("tricks.cancel")
    ui.tap("stop_confirm.yes")
    assert ui.screen == "castor_play" and ui.app.session.state.tracking is None
    ui.tap("play.undo")  # and Undo brings them back
    assert ui.app.session.state.tracking == tracked


@pytest.mark.parametrize("language", ["en", "fr"])
def test_five_long_names_fit_their_chips(launch: Any, language: str) -> None:
    """Issue 29: a chip overflowed with a name of 24 characters (the longest a name may
    be: companion/names.NAME_MAX) at five seats. The name gives up its last letters
    ("Xmmmmmmm…"), on one line, the card under it whole; so does the headline's ("À
    Xmmmmmmmmmmmmmm… de jouer"); the audit finds nothing."""
    from companion.names import NAME_MAX
    from tests import screen_audit
    from ui.widgets.text_height import text_height

    ui = launch(language=language)
    ui.tap("home.game.castor")
    while not ui.has("setup.name.4"):
        ui.tap("setup.add")
    names = []
    for seat, first in enumerate("VWXYZ"):
        ui.tap(f"setup.name.{seat}")
        ui.tap("keyboard.clear")
        for letter in first + "M" * (NAME_MAX - 1):  # wide letters: "Vmmmm…"
            ui.tap(f"keyboard.{letter}")
        ui.tap("keyboard.ok")
        names.append(ui.text(f"setup.name.{seat}"))
    assert all(len(name) == NAME_MAX for name in names), names
    ui.tap("setup.start")
    ui.tap("play.tricks")
    play_card(ui, "blue", 7)
    play_card(ui, "blue", 9)
    width = ui.app.root.width
    for seat in range(5):
        label = ui.find(f"tricks.chip.{seat}.name")
        shown = label.text.removeprefix("★ ")
        assert shown.endswith("…") and names[seat].startswith(shown[:-1]), shown
        assert text_height(label, label.width) <= label.height + 0.5, shown  # one line
        chip = label.parent
        x, _ = chip.to_window(*chip.pos)
        assert x >= 0 and x + chip.width <= width + 1
    status = ui.find("tricks.status")
    assert "…" in status.text and text_height(status, status.width) <= status.height + 0.5
    assert status.text.endswith("to play" if language == "en" else "de jouer"), status.text
    screen = ui.app.root.current_screen
    assert screen_audit.audit(screen, "tricks", language, shown="castor_tricks") == []
    ui.screenshot(f"castor-long-names-{language}-800x480")


def test_the_plan_keys_start_under_the_chips_and_the_bar_stays(launch: Any) -> None:
    """Issue 29: after a complete trick, an empty band (the colours' row, ~48 px) sat
    above the plan keys. The plan keys take that row; the bar under them (Undo, Redo,
    Stop tracking) does not move between a card's tap and a plan card's."""
    ui = launch()
    new_game(ui, 2)
    ui.tap("play.tricks")

    def place(tid: str) -> tuple[float, float, float, float]:
        widget = ui.find(tid)
        x, y = widget.to_window(*widget.pos)
        return (round(x), round(y), round(widget.width), round(widget.height))

    bar = [place(tid) for tid in ("tricks.undo", "tricks.redo", "tricks.cancel")]
    play_card(ui, "blue", 7)
    play_card(ui, "blue", 9)  # the trick is complete: the plan card to tap
    assert ui.has("tricks.plan.1") and not ui.visible("tricks.colour.blue")
    chips = ui.find("tricks.chip.0.card").parent.parent
    key = ui.find("tricks.plan.1")
    chips_bottom = chips.to_window(*chips.pos)[1]
    key_top = key.to_window(key.x, key.top)[1]
    # only the layout's spacing between the chips and the keys, no empty row
    assert 0 <= chips_bottom - key_top <= 2 * ui.app.scale * 4 + 1, (chips_bottom, key_top)
    assert [place(tid) for tid in ("tricks.undo", "tricks.redo", "tricks.cancel")] == bar
    ui.tap("tricks.plan.1")
    assert ui.visible("tricks.colour.blue")  # the next trick: the colours are back
    assert [place(tid) for tid in ("tricks.undo", "tricks.redo", "tricks.cancel")] == bar
