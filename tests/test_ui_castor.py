"""Le Castor en cavale through the real app under Xvfb, by simulated touches only."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from companion.i18n import load_catalog
from tests.uidriver import Driver

pytestmark = [pytest.mark.ui, pytest.mark.usefixtures("instant_release")]

SCREENS = Path(__file__).resolve().parents[1] / "ui" / "screens"



# -- helpers: what a person at the table does -------------------------------------------
def type_name(ui: Driver, seat: int, name: str) -> None:
    ui.tap(f"setup.name.{seat}")
    assert ui.dialog == "keyboard"
    ui.tap("keyboard.clear")
    for letter in name.upper():
        ui.tap(f"keyboard.{letter}")
    ui.tap("keyboard.ok")


def new_game(ui: Driver, players: int, agents: dict[int, int] | None = None) -> None:
    """Home -> setup -> play with the default names ("Player 1"...).
    `agents`: seat -> how many taps on its agent button."""
    ui.tap("home.game.castor")
    assert ui.screen == "castor_setup"
    while not ui.has(f"setup.name.{players - 1}"):
        ui.tap("setup.add")
    for seat, taps in (agents or {}).items():
        for _ in range(taps):
            ui.tap(f"setup.agent.{seat}")
    ui.tap("setup.start")
    assert ui.screen == "castor_play"


def set_value(ui: Driver, tid: str, value: int) -> None:
    """Steppers for small changes, the keypad for the rest."""
    current = int(ui.text(tid))
    if abs(value - current) <= 3:
        while current != value:
            ui.tap(f"{tid}.{'plus' if value > current else 'minus'}")
            current = int(ui.text(tid))
        return
    ui.tap(tid)
    assert ui.dialog == "keypad"
    for _ in str(current) if current else "":
        ui.tap("keypad.del")
    for digit in str(value):
        ui.tap(f"keypad.{digit}")
    ui.tap("keypad.ok")
    assert ui.dialog is None
    assert ui.text(tid) == str(value)


def fill_sheet(ui: Driver, plan: list[int], green: list[int], yellow: list[int]) -> None:
    assert ui.screen == "castor_sheet"
    for field, values in (("plan", plan), ("green", green), ("yellow", yellow)):
        for seat, value in enumerate(values):
            set_value(ui, f"sheet.{field}.{seat}", value)


def enter_round(ui: Driver, plan: list[int], green: list[int], yellow: list[int]) -> None:
    ui.tap("play.sheet")
    fill_sheet(ui, plan, green, yellow)
    ui.tap("sheet.ok")
    assert ui.dialog is None


def play_card(ui: Driver, colour: str, value: int) -> None:
    ui.tap(f"tricks.colour.{colour}")
    ui.tap(f"tricks.value.{value}")
    assert ui.dialog is None, ui.text("error.text") if ui.dialog == "error" else ui.dialog


def board(ui: Driver, players: int) -> dict[str, list[str]]:
    """What the scoreboard shows: per player the last round's cell, total and medals."""
    rounds = len(ui.app.session.state.rounds)
    return {
        "cells": [ui.text(f"board.cell.{seat}.{rounds}") for seat in range(players)],
        "totals": [ui.text(f"board.total.{seat}") for seat in range(players)],
        "medals": [ui.text(f"board.medals.{seat}") for seat in range(players)],
    }


# -- the score sheet --------------------------------------------------------------------
def test_a_round_by_score_sheet_with_a_bonus_tie(launch: Any) -> None:
    ui = launch()
    ui.tap("home.game.castor")
    ui.tap("setup.add")
    ui.tap("setup.add")
    assert ui.find("setup.add") is not None and not ui.find("setup.add").disabled
    ui.tap("setup.add")
    assert ui.find("setup.add").disabled  # five players at most
    ui.screenshot("castor-setup-5-players-800x480")
    ui.tap("setup.remove.4")
    for seat, name in enumerate(["Anne", "Bob", "Cid", "Dan"]):
        type_name(ui, seat, name)
    ui.tap("setup.agent.1")  # Bob plays Henry B. Belton
    assert ui.text("setup.agent.1").startswith("Henry B. Belton")
    ui.tap("setup.agent.0")  # Anne: Belton is taken, so the next free agent
    assert ui.text("setup.agent.0").startswith("Martha")
    ui.screenshot("castor-setup-800x480")
    ui.tap("setup.start")
    assert ui.screen == "castor_play"
    assert ui.text("play.status") == "Round 1: Anne leads"
    assert ui.text("play.sheet") == "Enter round 1 sheet"
    assert ui.find("play.undo").disabled

    # four players: 5 points of bonus and malus; Anne and Bob tie on the fewest greens
    ui.tap("play.sheet")
    assert ui.screen == "castor_sheet"
    assert ui.text("sheet.title") == "Round 1: score sheet"
    fill_sheet(ui, plan=[10, 8, 6, 3], green=[0, 0, 2, 3], yellow=[1, 3, 0, 0])
    # the preview already applies the bonus (both tied players) and the malus
    assert ui.text("sheet.result.0") == "★ 15\n+5"
    assert ui.text("sheet.result.1") == "8\n+5 −5"
    assert ui.text("sheet.result.2") == "6"
    ui.screenshot("castor-sheet-800x480")
    ui.tap("sheet.ok")
    assert ui.screen == "castor_play"
    shown = board(ui, 4)
    assert shown["cells"] == ["★ 15", "8", "6", "3"]
    assert shown["totals"] == ["15", "8", "6", "3"]
    assert shown["medals"] == ["★ 1", "0", "0", "0"]
    assert ui.text("play.say") == "Round 1: medal for Anne."
    assert ui.text("play.status") == "Round 2: Anne leads"
    ui.screenshot("castor-scoreboard-800x480")

    # round 2: Bob and Cid tie for the round, both take a medal and may lead round 3
    enter_round(ui, plan=[2, 9, 9, 1], green=[2, 1, 1, 3], yellow=[3, 0, 0, 1])
    shown = board(ui, 4)
    assert shown["cells"] == ["-3", "★ 14", "★ 14", "1"]
    assert shown["totals"] == ["12", "22", "20", "4"]
    assert shown["medals"] == ["★ 1", "★ 1", "★ 1", "0"]
    assert ui.text("play.status") == "Round 3: Bob leads (tie: Bob, Cid, the table may choose)"
    ui.resize(1280, 800)
    ui.screenshot("castor-scoreboard-1280x800")
    ui.resize(800, 480)

    ui.tap("play.undo")
    assert ui.text("play.say") == "Undo: the score sheet"
    assert board(ui, 4)["totals"] == ["15", "8", "6", "3"]
    ui.tap("play.redo")
    assert board(ui, 4)["totals"] == ["12", "22", "20", "4"]


def test_an_impossible_sheet_says_why_and_changes_nothing(launch: Any) -> None:
    ui = launch(language="fr")
    new_game(ui, 4)
    assert ui.text("play.status") == "Manche 1 : Joueur 1 commence"
    ui.tap("play.sheet")
    fill_sheet(ui, plan=[0, 0, 0, 0], green=[9, 8, 0, 0], yellow=[0, 0, 0, 0])
    ui.tap("sheet.ok")  # 17 green cards: the deck holds 16
    assert ui.dialog == "error"
    assert "17 cartes vertes" in ui.text("error.text") and "16" in ui.text("error.text")
    ui.screenshot("castor-error-800x480")
    ui.tap("error.ok")
    assert ui.screen == "castor_sheet"  # what was typed is still there to correct
    assert ui.text("sheet.green.0") == "9"
    ui.tap("sheet.cancel")
    assert ui.screen == "castor_play"
    assert ui.text("board.empty") == "Aucune manche"
    assert ui.find("play.undo").disabled  # nothing was recorded
    assert ui.app.session.state.rounds == ()


def test_editing_round_1_after_round_2_changes_the_totals(launch: Any) -> None:
    ui = launch()
    new_game(ui, 3)
    # three players: 8 points of bonus and malus
    enter_round(ui, plan=[10, 6, 4], green=[1, 2, 0], yellow=[3, 0, 1])  # Player 3 12
    enter_round(ui, plan=[5, 9, 9], green=[0, 1, 1], yellow=[0, 2, 2])  # Player 1 13
    assert [ui.text(f"board.total.{s}") for s in range(3)] == ["15", "7", "13"]
    assert [ui.text(f"board.medals.{s}") for s in range(3)] == ["★ 1", "0", "★ 1"]
    ui.tap("board.round.1")
    assert ui.screen == "castor_sheet"
    assert ui.text("sheet.title") == "Correct round 1"
    assert ui.text("sheet.plan.0") == "10" and ui.text("sheet.yellow.0") == "3"
    set_value(ui, "sheet.yellow.0", 0)  # no yellow card after all: the malus goes to Player 3
    set_value(ui, "sheet.plan.1", 7)
    ui.tap("sheet.ok")
    # Player 1 now wins round 1 as well: a second medal, the edit decided the game
    assert ui.screen == "castor_end"
    assert ui.text("end.title") == "Victory!"
    assert ui.text("end.text") == "Player 1 wins the game with 2 medals (round 2)."
    ui.tap("end.board")
    assert ui.screen == "castor_play"
    assert [ui.text(f"board.cell.{s}.1") for s in range(3)] == ["★ 10", "7", "4"]
    assert [ui.text(f"board.total.{s}") for s in range(3)] == ["23", "8", "5"]
    assert [ui.text(f"board.medals.{s}") for s in range(3)] == ["★★ 2", "0", "0"]
    assert ui.text("play.status") == "Player 1 won the game"
    assert ui.find("play.sheet").disabled and ui.find("play.tricks").disabled


def test_a_game_to_a_shared_victory_then_undo(launch: Any) -> None:
    ui = launch()
    new_game(ui, 3)
    enter_round(ui, plan=[9, 9, 1], green=[0, 0, 1], yellow=[0, 0, 1])  # Players 1 and 2
    assert ui.screen == "castor_play"
    enter_round(ui, plan=[6, 6, 2], green=[1, 1, 1], yellow=[0, 0, 0])  # Players 1 and 2
    assert ui.screen == "castor_end"
    assert ui.text("end.title") == "Shared victory!"
    assert ui.text("end.text") == ("Player 1, Player 2 share the victory with 2 medals "
                                   "(round 2).")
    assert [ui.text(f"end.name.{k}") for k in range(3)] == ["Player 1", "Player 2", "Player 3"]
    assert [ui.text(f"end.score.{k}") for k in range(3)] == ["★★ 2", "★★ 2", "0"]
    ui.screenshot("castor-victory-800x480")
    ui.tap("end.undo")
    assert ui.screen == "castor_play"
    assert ui.text("play.status") == ("Round 2: Player 1 leads (tie: Player 1, Player 2, "
                                      "the table may choose)")
    ui.tap("play.redo")
    assert ui.screen == "castor_end"
    ui.tap("end.again")
    assert ui.screen == "castor_setup"


def test_the_end_tells_the_story_and_starts_again_with_the_same_players(launch: Any) -> None:
    from tests.legibility import problems

    ui = launch()
    ui.tap("home.game.castor")
    ui.tap("setup.add")
    type_name(ui, 0, "ANNE")
    ui.tap("setup.agent.1")  # Player 2 plays Henry B. Belton
    assert problems(ui.app.root) == []
    ui.tap("setup.start")
    assert problems(ui.app.root) == []
    enter_round(ui, plan=[9, 2, 1], green=[0, 1, 1], yellow=[0, 0, 1])  # Anne 17
    enter_round(ui, plan=[6, 3, 2], green=[0, 1, 1], yellow=[0, 1, 1])  # Anne 14
    assert ui.screen == "castor_end"
    assert ui.text("end.text") == "Anne wins the game with 2 medals (round 2)."
    assert [ui.text(f"end.story.{k}") for k in range(4)] == [
        "2 rounds played", "Round 1: medal for Anne", "Round 2: medal for Anne",
        "Best round: Anne, 17 points (round 1)"]
    assert ui.text("end.detail.0") == "31 points"
    assert problems(ui.app.root) == []
    ui.resize(1280, 800)
    assert problems(ui.app.root) == []
    ui.resize(800, 480)

    # the same seats, names and agents, in the same order: only Start is left to tap
    ui.tap("end.again")
    assert ui.screen == "castor_setup"
    assert [ui.text(f"setup.name.{k}") for k in range(3)] == ["Anne", "Player 2", "Player 3"]
    assert ui.text("setup.agent.1").startswith("Henry B. Belton")
    ui.tap("setup.start")
    assert ui.screen == "castor_play"
    assert [p["name"] for p in ui.app.session.setup["players"]] == [
        "Anne", "Player 2", "Player 3"]


def test_the_french_end_screen_counts_in_french(launch: Any) -> None:
    """One medal to win: « 1 médaille », never « 1 médailles »."""
    from tests.legibility import problems

    ui = launch(language="fr", games={"castor": {"medals_to_win": 1}})
    ui.tap("home.game.castor")
    ui.tap("setup.start")
    assert problems(ui.app.root) == []
    enter_round(ui, plan=[9, 2], green=[0, 1], yellow=[0, 1])
    assert ui.screen == "castor_end"
    assert ui.text("end.text") == "Joueur 1 gagne la partie avec 1 médaille (manche 1)."
    assert ui.text("end.story.0") == "1 manche jouée"
    assert ui.text("end.again") == "Rejouer avec les mêmes joueurs"
    assert problems(ui.app.root) == []
    ui.screenshot("castor-end-fr-800x480")


# -- the trick tracker ------------------------------------------------------------------
def test_a_round_through_the_trick_tracker(launch: Any) -> None:
    ui = launch()
    new_game(ui, 2, agents={0: 2, 1: 1})  # Player 1: Martha, Player 2: Belton
    ui.tap("play.tricks")
    assert ui.screen == "castor_tricks"
    assert ui.text("tricks.title") == "Round 1\nTrick 1/12"
    assert ui.text("tricks.act") == "Trumps: mauve"

    # trick 1: Belton's power card: Player 2 decides who leads: Player 2
    ui.tap("tricks.power")
    assert ui.dialog == "power"
    ui.tap("power.belton")
    assert ui.dialog == "leader"
    assert ui.text("leader.title") == "Player 2 chooses who leads this trick"
    ui.tap("leader.1")
    assert ui.text("tricks.status") == "Player 2 to play"
    assert ui.text("tricks.say") == "Henry B. Belton (Player 2): picks the leader"
    assert ui.find("tricks.value.7") is None  # the leader's colour is not guessed
    play_card(ui, "blue", 7)
    assert ui.text("tricks.status") == "Player 1 to play"
    assert ui.text("tricks.act") == "Player 2 is winning (7 blue)"
    # Player 1's keypad opens on the colour led: a card that follows is one tap
    assert ui.text("tricks.colour.blue") == "▶ BLUE"
    # the card on the table is not greyed: card counting is left to memory (a setting)
    assert not ui.find("tricks.value.7").disabled
    ui.tap("tricks.value.9")
    # the highest card of the first colour wins
    assert ui.text("tricks.status") == "Player 1 wins the trick"
    assert ui.text("tricks.act") == "Tap the plan card Player 1 takes"
    ui.tap("tricks.plan.3")
    assert ui.text("tricks.title") == "Round 1\nTrick 2/12"
    assert ui.text("tricks.status") == "Player 1 to play"
    # the power of the trick before is gone: the line says who took the last trick
    assert ui.text("tricks.say") == "Trick 1: Player 1, 3 plan points"

    # trick 2: Martha's power card; Player 1 wins with a mauve and takes the bottom card too
    ui.tap("tricks.power")
    ui.tap("power.martha")
    assert ui.text("tricks.say") == "Martha (Player 1): + bottom plan card"
    play_card(ui, "mauve", 10)
    play_card(ui, "green", 5)
    assert (ui.text("tricks.chip.0.name"), ui.text("tricks.chip.0.card")) == (
        "★ Player 1", "10 mauve")
    ui.screenshot("castor-tricks-800x480")
    ui.tap("tricks.plan.2")
    assert ui.dialog == "extra"
    ui.tap("extra.4")
    assert ui.text("tricks.say") == "Trick 2: Player 1, 6 plan points"  # no stale power

    # trick 3: a complice card makes blue beat mauve for this trick only
    ui.tap("tricks.complice")
    assert ui.dialog == "complice"
    ui.tap("complice.trumps")
    assert ui.dialog == "trumps"
    ui.tap("trumps.blue")
    assert ui.text("tricks.act") == "This trick: blue, then mauve"
    play_card(ui, "mauve", 9)
    assert ui.text("tricks.say") == "This trick: blue, then mauve"  # still in view
    play_card(ui, "blue", 1)
    assert ui.text("tricks.status") == "Player 2 wins the trick"
    ui.tap("tricks.plan.1")
    assert ui.text("tricks.act") == "Trumps: mauve"

    # tricks 4-12: Player 2 leads and wins; Player 2 takes the cards
    plans = [5, 5, 5, 6, 6, 4, 4, 3, 3]
    cards = [(("yellow", 16 - k), ("yellow", 1 + k)) for k in range(5)]
    cards += [(("blue", 18 - k), ("green", 6 + k)) for k in range(4)]
    for trick, ((lead, lead_value), (follow, follow_value)), plan in zip(
            range(4, 13), cards, plans, strict=True):
        assert ui.text("tricks.title") == f"Round 1\nTrick {trick}/12"
        play_card(ui, lead, lead_value)
        play_card(ui, follow, follow_value)
        ui.tap(f"tricks.plan.{plan}")

    # the twelfth trick filled the sheet: Player 1 3 + 2 + 4 plan, 1 green (bonus 8);
    # Player 2 1 + 41 plan, 4 greens, 10 yellows (malus 8); the piles are revealed now
    assert ui.screen == "castor_play"
    assert ui.dialog == "revealed"
    assert ui.text("revealed.title") == "Round 1: the piles are revealed"
    figures = ("plan", "green", "yellow", "bonus", "malus", "total", "medal")
    assert [[ui.text(f"revealed.{f}.{s}") for f in figures] for s in range(2)] == [
        ["9", "1", "0", "+8", "·", "17", "·"], ["42", "4", "10", "·", "−8", "34", "★"]]
    ui.screenshot("castor-round-revealed-800x480")
    ui.tap("revealed.ok")
    assert ui.text("board.round.1") == "R1\ntricks"
    assert [ui.text(f"board.cell.{s}.1") for s in range(2)] == ["17", "★ 34"]
    assert [ui.text(f"board.total.{s}") for s in range(2)] == ["17", "34"]
    assert [ui.text(f"board.medals.{s}") for s in range(2)] == ["0", "★ 1"]
    assert ui.text("play.status") == "Round 2: Player 2 leads"
    ui.tap("board.cell.1.1")  # the tracked round's sheet, as the tricks filled it
    assert [ui.text(f"sheet.{f}.1") for f in ("plan", "green", "yellow")] == ["42", "4", "10"]
    ui.tap("sheet.cancel")

    # undo the last trick: back in the tracker's round, then redo it
    ui.tap("play.undo")
    assert ui.text("play.status") == "Round 1: trick 12/12 in progress"
    assert ui.text("play.tricks") == "Continue tricks"
    ui.tap("play.redo")
    assert [ui.text(f"board.total.{s}") for s in range(2)] == ["17", "34"]


def test_after_a_restart_the_tracked_round_is_where_it_was(launch: Any,
                                                           tmp_path: Path) -> None:
    ui = launch()
    new_game(ui, 2)
    ui.tap("play.tricks")
    play_card(ui, "green", 3)
    play_card(ui, "mauve", 2)
    ui.tap("tricks.plan.6")
    play_card(ui, "yellow", 4)
    ui = launch()  # the app starts again on the same journal: on the trick tracked
    assert ui.screen == "castor_tricks"
    assert ui.text("tricks.title") == "Round 1\nTrick 2/12"
    assert ui.text("tricks.chip.0.card") == "4 yellow"
    assert ui.text("tricks.status") == "Player 1 to play"
    assert ui.text("tricks.act") == "Player 2 is winning (4 yellow)"


# -- cards the settings did not expect ------------------------------------------------------
def type_number(ui: Driver, number: int) -> None:
    assert ui.dialog == "keypad"
    for digit in str(number):
        ui.tap(f"keypad.{digit}")
    ui.tap("keypad.ok")


def other_card(ui: Driver, colour: str, value: int) -> None:
    ui.tap(f"tricks.colour.{colour}")
    ui.tap("tricks.value.other")
    type_number(ui, value)


def isolated_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The app's own settings file, where the screen saves (the user's config is never
    rewritten)."""
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    target = tmp_path / "settings.yaml"
    monkeypatch.setenv("COMPANION_SETTINGS", str(target))
    return target


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_card_outside_the_settings_is_accepted_with_a_note_and_a_fix_for_next_games(
        launch: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language: str,
        caplog: pytest.LogCaptureFixture) -> None:
    # seed: "60 cartes Action": counts, not the numbers printed; the settings' 1-18 blue
    # is a guess, so a 20 blue is recorded, with a note, never refused
    target = isolated_settings(tmp_path, monkeypatch)
    ui = launch(language=language)
    new_game(ui, 2)
    ui.tap("play.tricks")
    other_card(ui, "blue", 20)
    assert ui.dialog == "check"
    assert ui.app.session.state.tracking.current.cards[-1].value == 20  # recorded first
    if language == "en":
        assert ui.text("check.text") == (
            "Check your cards: 20 blue is outside 1–18 in the settings. Accepted.")
        assert ui.text("check.fix.0") == "Next games: blue cards 1 to 20"
    else:
        assert ui.text("check.text").startswith("Vérifiez vos cartes : 20 bleu")
    ui.screenshot(f"castor-check-cards-{language}-800x480")
    assert [r.message for r in caplog.records if r.name == "ui.screens.castor.checks"] == [
        f"check your cards: {ui.text('check.text')}"]  # and in the app's log
    ui.tap("check.fix.0")  # through the settings' own saving, for the next games only
    assert ui.find("check.fix.0").disabled
    saved = yaml.safe_load(target.read_text())
    blue = next(c for c in saved["games"]["castor"]["colours"] if c["name"] == "blue")
    assert (blue["min"], blue["max"]) == (1, 20)
    ui.tap("check.ok")
    assert ui.dialog is None
    assert ui.text("tricks.chip.0.card") == "20 " + ("blue" if language == "en" else "bleu")
    assert ("Check your cards" if language == "en" else "Vérifiez vos cartes") in ui.text(
        "tricks.say")
    # the game keeps the settings it started with; the next game takes the new ones
    assert ui.app.session.state.params.colour("blue").high == 18
    assert ui.app.root.get_screen("castor_setup").params.colour("blue").high == 20

    # a number no card prints: a clear message, nothing lost, the keypad tried again
    other_card(ui, "blue", 100)
    assert ui.dialog == "error"
    if language == "en":
        assert ui.text("error.text") == (
            "100 cannot be a blue card: cards print a whole number from 0 to 99.")
    ui.tap("error.ok")
    assert len(ui.app.session.state.tracking.current.cards) == 1
    # the settings expect 20 now: the game's log still notes it, no dialog interrupts
    other_card(ui, "blue", 20)
    assert ui.dialog is None
    assert "20" in ui.text("tricks.say")
    assert len([r for r in caplog.records if r.name == "ui.screens.castor.checks"]) == 2

    # a plan card the settings do not list: the keypad, a note, a fix offered
    ui.tap("tricks.plan.other")
    type_number(ui, 7)
    assert ui.dialog == "check"
    if language == "en":
        assert ui.text("check.fix.0") == "Next games: add a plan card worth 7 (21 plan cards)"
    ui.tap("check.ok")
    assert ui.app.session.state.tracking.done[0].plan == 7
    # undo always works, and takes back exactly the last action
    ui.tap("tricks.undo")
    assert ui.app.session.state.tracking.done == ()
    assert len(ui.app.session.state.tracking.current.cards) == 2
    ui.tap("tricks.redo")
    assert ui.app.session.state.tracking.done[0].plan == 7


def test_the_keypad_greys_played_cards_only_when_the_setting_asks(
        launch: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = isolated_settings(tmp_path, monkeypatch)
    ui = launch()
    ui.tap("home.settings")
    assert ui.text("settings.castor.marks") == "Castor: grey the cards already played: off"
    ui.tap("settings.castor.marks")
    assert ui.text("settings.castor.marks") == "Castor: grey the cards already played: on"
    assert yaml.safe_load(target.read_text())["games"]["castor"]["keypad_marks_played"]
    ui.tap("settings.back")
    new_game(ui, 2)
    ui.tap("play.tricks")
    play_card(ui, "green", 8)
    ui.tap("tricks.colour.green")
    assert ui.find("tricks.value.8").color != ui.find("tricks.value.9").color  # greyed
    ui.tap("tricks.value.8")  # greyed, still accepted: the table has the last word
    assert ui.dialog == "check"
    ui.tap("check.ok")
    assert [c.value for c in ui.app.session.state.tracking.current.cards] == [8, 8]


# -- hidden piles -----------------------------------------------------------------------------
def labels(ui: Driver) -> list[str]:
    """Every text the eye can read now: the screen and the open dialog."""
    roots = [ui.app.root.current_screen] + ([ui.app.dialog] if ui.app.dialog else [])
    return [str(w.text) for root in roots for w in root.walk(restrict=True)
            if isinstance(getattr(w, "text", None), str) and w.text]


def test_no_other_players_pile_is_shown_during_a_tracked_round(launch: Any) -> None:
    # seed: "Tu peux consulter la pile des cartes que tu as gagnées, mais pas celle des
    # autres joueurs."
    ui = launch()
    new_game(ui, 3)
    ui.tap("play.tricks")
    # Player 1 wins two tricks with greens and yellows; Player 2 one
    for cards, plan in (([("green", 8), ("yellow", 12), ("green", 3)], 5),
                        ([("green", 11), ("yellow", 6), ("yellow", 2)], 4)):
        for colour, value in cards:
            play_card(ui, colour, value)
        ui.tap(f"tricks.plan.{plan}")
    play_card(ui, "blue", 2)
    play_card(ui, "mauve", 1)
    play_card(ui, "blue", 5)
    ui.tap("tricks.plan.2")
    # Player 1: 9 plan points, 3 greens, 3 yellows; Player 2: 2 points, 1 blue 1 mauve
    tallies = re.compile(r"plan points?:|green cards|yellow cards|\b9\b.*plan|card\(s\)",
                         re.IGNORECASE)
    for where in ("castor_tricks", "castor_play"):
        ui.app.root.current = where
        ui.pump(3)
        texts = labels(ui)
        assert texts and not [t for t in texts if tallies.search(t)], (where, texts)
        assert not ui.has("board.cell.0.1")  # the round is not on the scoreboard yet
    # the sheet of the round being tracked does not show the piles either
    ui.tap("play.sheet")
    ui.tap("sheet_confirm.yes")
    assert [ui.text(f"sheet.{f}.{s}") for f in ("plan", "green", "yellow")
            for s in range(3)] == ["0"] * 9
    ui.tap("sheet.cancel")

    # Player 1 looks at their own pile, after an "only Player 1 looks" step
    ui.tap("play.tricks")
    ui.tap("tricks.piles")
    assert ui.dialog == "piles"
    ui.tap("piles.0")
    assert ui.dialog == "look" and ui.text("look.title") == "Only Player 1 looks"
    assert not [t for t in labels(ui) if tallies.search(t)]
    ui.tap("look.show")
    assert ui.dialog == "pile"
    assert ui.text("pile.title") == "Player 1's pile this round"
    pile = ui.text("pile.text")
    assert pile.startswith("Plan points: 9\n")
    assert "green: 3 cards (3, 8, 11)" in pile and "yellow: 3 cards (2, 6, 12)" in pile
    assert "Player 2" not in pile and "Player 3" not in pile
    ui.screenshot("castor-own-pile-800x480")
    ui.tap("pile.close")
    assert ui.dialog is None


# -- complice cards ---------------------------------------------------------------------------
def test_a_complice_card_is_noted_with_its_corrections_each_undoable(launch: Any) -> None:
    # seed: "Chaque fois, tu verras une indication ou une action à réaliser."
    ui = launch()
    new_game(ui, 2)
    ui.tap("play.tricks")
    ui.tap("tricks.complice")
    assert ui.dialog == "complice"
    ui.screenshot("castor-complice-800x480")
    ui.tap("complice.other")  # the table's own words
    assert ui.dialog == "keyboard"
    for letter in "SWAP":
        ui.tap(f"keyboard.{letter}")
    ui.tap("keyboard.ok")
    assert ui.app.session.state.tracking.current.complice == (("other", "Swap"),)
    assert ui.text("tricks.say").endswith("Complice card: “Swap”.")
    # the complice gives this trick to the lower card
    play_card(ui, "blue", 9)
    play_card(ui, "blue", 4)
    ui.tap("tricks.complice")
    ui.tap("complice.winner")
    assert ui.dialog == "award"
    ui.tap("award.1")
    assert ui.text("tricks.status") == "Player 2 wins the trick"
    ui.tap("tricks.plan.3")
    assert ui.app.session.state.tracking.done[0].winner == 1
    # a won card changes piles: from Player 2 to Player 1
    ui.tap("tricks.complice")
    ui.tap("complice.card")
    assert ui.dialog == "move_from"
    ui.tap("move_from.1")
    assert ui.dialog == "move_to"
    ui.tap("move_to.0")
    ui.tap("move_colour.blue")
    type_number(ui, 9)
    assert ui.dialog is None
    assert ui.text("tricks.say") == "Player 2 gives the 9 blue from their pile to Player 1."
    # plan points change piles; more than the pile holds: a clear message, nothing lost
    ui.tap("tricks.complice")
    ui.tap("complice.points")
    ui.tap("move_from.1")
    ui.tap("move_to.0")
    type_number(ui, 5)
    assert ui.dialog == "error"
    assert "Player 2's pile does not hold 5 plan points" in ui.text("error.text")
    ui.tap("error.ok")
    before = ui.app.session.state
    # every step is its own logged command: undo takes back the last one each time
    ui.tap("tricks.undo")  # the "points" note
    ui.tap("tricks.undo")  # the card moved
    state = ui.app.session.state
    assert state.tracking.current.moves == () and state != before
    ui.tap("tricks.redo")
    assert ui.app.session.state.tracking.current.moves[0].value == 9


def test_every_screen_key_is_in_both_catalogs() -> None:
    named: set[str] = set()
    paths = sorted(SCREENS.glob("castor/*.py"))
    assert paths, "Castor's screens moved?"
    for path in paths:
        named |= set(re.findall(r'"(castor\.ui\.[a-z_.]+)"', path.read_text("utf-8")))
    named |= {f"castor.ui.command.{name}" for name in (
        "EnterSheet", "DeleteRound", "DrawPower", "ChooseLeader", "SetTrumps", "PlayCard",
        "TakeTrick", "CancelTracking", "NoteComplice", "AwardTrick", "MoveCard", "MovePlan")}
    named |= {f"castor.ui.source.{source}" for source in ("tricks", "edited")}
    assert len(named) > 40, "the scan found too few keys"
    for language in ("en", "fr"):
        catalog = load_catalog(language)
        assert sorted(key for key in named if key not in catalog) == [], language


@pytest.mark.parametrize("language", ["en", "fr"])
def test_five_players_are_legible_at_800x480_and_1280x800(launch: Any, language: str) -> None:
    """Every label fits, no text under 18 px, every target 48 px both ways, every
    button's text at 4.5:1: setup, scoreboard, score sheet and trick tracker."""
    from tests.legibility import problems

    def check(where: str) -> None:
        for size in ((800, 480), (1280, 800)):
            ui.resize(*size)
            assert problems(ui.app.root) == [], (where, size)
        ui.resize(800, 480)

    ui = launch(language=language)
    ui.tap("home.game.castor")
    for _ in range(3):
        ui.tap("setup.add")
    ui.tap("setup.agent.0")
    ui.tap("setup.agent.1")
    check("setup")
    ui.tap("setup.start")
    enter_round(ui, plan=[9, 2, 1, 0, 3], green=[0, 1, 1, 2, 2], yellow=[0, 0, 1, 2, 2])
    check("scoreboard")
    ui.tap("board.round.1")
    check("sheet")
    ui.tap("sheet.cancel")
    ui.tap("play.tricks")
    check("tricks")
    ui.screenshot(f"castor-tricks-{language}-800x480")
