"""The dice tray through the real app under Xvfb, by simulated touches only."""

from __future__ import annotations

from typing import Any

import pytest

from companion.night import history
from tests.uidriver import Driver

pytestmark = pytest.mark.ui


def faces(ui: Driver) -> list[str]:
    out = []
    i = 0
    while ui.visible(f"play.die.{i}") is not None:
        out.append(ui.visible(f"play.die.{i}").face)
        i += 1
    return out


def bar_total(ui: Driver, tid: str) -> int:
    total, i = 0, 0
    while ui.visible(f"{tid}.value.{i}") is not None:
        total += int(ui.text(f"{tid}.value.{i}"))
        i += 1
    return total


def test_roll_lock_reroll_undo_redo_and_put_away(launch: Any) -> None:
    ui = launch()
    ui.tap("home.tray")
    assert ui.screen == "tray_setup"
    assert ui.find("traysetup.roll").disabled
    ui.tap("traysetup.add.d6")
    ui.tap("traysetup.add.d6")
    ui.tap("traysetup.add.d20")
    assert ui.text("traysetup.add.d6") == "d6  ×2"
    assert ui.text("traysetup.note") == "In the tray (3/10): d6, d6, d20"
    ui.screenshot("tray-setup-800x480")
    ui.tap("traysetup.roll")
    assert ui.screen == "tray_play"
    first = faces(ui)
    assert len(first) == 3 and all(f.isdigit() for f in first)
    assert 1 <= int(first[0]) <= 6 and 1 <= int(first[2]) <= 20
    assert ui.text("play.total") == f"Total {sum(map(int, first))}"
    assert ui.text("play.history.0").startswith("1. ")
    assert bar_total(ui, "play.dist") == 2  # the d6 distribution: two d6 rolled once

    # lock the first and the last die: a re-roll keeps their faces
    ui.tap("play.die.0")
    ui.tap("play.die.2")
    assert "d6 locked" in ui.text("play.die.0")
    assert ui.text("play.roll") == "Re-roll unlocked (1)"
    ui.tap("play.roll")
    second = faces(ui)
    assert (second[0], second[2]) == (first[0], first[2])
    assert ui.text("play.history.0").startswith(
        f"2. ({first[0]}) {second[1]} ({first[2]}) = ")
    assert ui.text("play.history.1").startswith("1. ")
    assert bar_total(ui, "play.dist") == 3
    ui.screenshot("tray-play-800x480")

    # undo takes the re-roll back (the dice show the first roll), redo gives it again
    ui.tap("play.undo")
    assert faces(ui) == first
    assert ui.text("play.history.0").startswith("1. ")
    ui.tap("play.redo")
    assert faces(ui) == second

    # every die locked: rolling is refused on screen (the button is off)
    ui.tap("play.die.1")
    assert ui.find("play.roll").disabled
    ui.tap("play.die.0")

    # a die from the config (Fudge): faces as symbols, its own distribution
    ui.tap("play.add.fudge")
    assert faces(ui)[3] == "–"  # not rolled yet
    ui.tap("play.roll")
    assert faces(ui)[3] in ("+", "○", "−")
    assert ui.text("play.total") == ""  # no sum with a symbol die
    ui.tap("play.dist.kind")
    ui.tap("play.dist.kind")
    assert ui.text("play.dist.kind").startswith("Fudge: 1 roll ")
    assert bar_total(ui, "play.dist") == 1
    ui.screenshot("tray-fudge-800x480")
    ui.resize(1280, 800)
    ui.screenshot("tray-play-1280x800")
    ui.resize(800, 480)

    # put away: home, nothing to resume, and the tray is not a game in the history
    game_id = ui.app.session.game_id
    ui.tap("play.close")
    assert ui.screen == "home"
    assert not ui.has(f"home.resume.{game_id}")
    assert ui.app.journal.game(game_id).finished
    assert history.games(ui.app.journal) == []
    log = [m.key for line in history.log(ui.app.journal, game_id) for m in line.details]
    assert log.count("night.tray.say.rolled_total") == 2 and "night.tray.say.closed" in log


def test_the_unlocked_dice_tumble_from_touch_down_and_show_the_roll_once_durable(
        launch: Any) -> None:
    from kivy.base import EventLoop
    from kivy.tests.common import UnitTestTouch

    from tests.helpers.writer import Gate, committed_actions

    ui = launch()
    ui.tap("home.tray")
    ui.tap("traysetup.add.d20")
    ui.tap("traysetup.add.d20")
    ui.tap("traysetup.roll")
    app = ui.app
    ui.wait_until(lambda: not app.busy)
    ui.tap("play.die.0")  # locked: it keeps its face while the others tumble
    ui.wait_until(lambda: not app.busy)
    locked, before = faces(ui)[0], faces(ui)
    screen = app.root.get_screen("tray_play")
    actions = committed_actions(app.journal.path)
    gate = Gate(app.writer)  # the card takes its time to sync

    def shown() -> tuple[str, str]:
        return tuple(ui.find(f"play.die.{i}").text.split("[b]")[1].split("[/b]")[0]
                     for i in range(2))

    button = ui.find("play.roll")
    touch = UnitTestTouch(*button.to_window(*button.center))
    touch.touch_down()
    ui.pump(1)
    assert screen.animating  # at once, before the finger lifts
    EventLoop._dispatch_input("end", touch)
    seen = set()
    for _ in range(60):  # being saved: the screen keeps drawing tumbling faces
        EventLoop.idle()
        seen.add(shown())
        assert app.busy and screen.animating and faces(ui) == before
        assert committed_actions(app.journal.path) == actions
        if len({face for _, face in seen}) > 1:
            break
    assert {first for first, _ in seen} == {locked}  # the locked die never tumbles
    assert len({second for _, second in seen}) > 1
    gate.open()
    ui.wait_until(lambda: not app.busy and not screen.animating)
    assert committed_actions(app.journal.path) == actions + 1
    after = faces(ui)
    assert after[0] == locked and shown() == tuple(after)
    state = app.session.state
    assert after[1] == state.params.faces("d20")[state.dice[1].face]


def test_a_press_that_rolls_nothing_puts_the_dice_back(launch: Any) -> None:
    from kivy.tests.common import UnitTestTouch

    from tests.helpers.writer import committed_actions

    ui = launch()
    ui.tap("home.tray")
    ui.tap("traysetup.add.d20")
    ui.tap("traysetup.roll")
    app = ui.app
    ui.wait_until(lambda: app.may_roll() and not app.busy)
    before = ui.find("play.die.0").text
    actions = committed_actions(app.journal.path)
    screen = app.root.get_screen("tray_play")
    button = ui.find("play.roll")
    touch = UnitTestTouch(*button.to_window(*button.center))
    touch.touch_down()
    ui.pump(3)
    assert screen.animating
    touch.touch_move(1, 1)  # the finger slides off ROLL: no roll comes of the press
    touch.touch_up()
    ui.wait_until(lambda: not screen.animating)
    assert ui.find("play.die.0").text == before
    assert committed_actions(app.journal.path) == actions
    # within the guard after a roll, a press tumbles nothing
    app._roll_ready_at = float("inf")
    touch = UnitTestTouch(*button.to_window(*button.center))
    touch.touch_down()
    ui.pump(2)
    assert not screen.animating
    touch.touch_up()
    ui.pump(2)
    assert ui.find("play.die.0").text == before and not app.busy


def test_the_tray_in_french_and_a_refused_action(launch: Any) -> None:
    ui = launch(language="fr")
    ui.tap("home.tray")
    assert ui.text("traysetup.title").startswith("Piste de dés")
    ui.tap("traysetup.add.d100")
    ui.tap("traysetup.roll")
    assert 1 <= int(faces(ui)[0]) <= 100
    assert ui.text("play.roll") == "Lancer (1)"
    # the d100's distribution is drawn in ten groups of faces
    assert [ui.text(f"play.dist.label.{i}") for i in (0, 1, 9)] == ["1", "11", "91"]
    # the tray is full at the configured count: the add buttons turn off
    for _ in range(9):
        ui.tap("play.add.d4")
    assert ui.find("play.add.d4").disabled
    # unlocking a die that is not locked is refused by the rules, said in French
    ui.app.root.get_screen("tray_play").toggle(0, True)
    ui.pump(3)
    assert ui.dialog == "error"
    assert ui.text("error.text") != "" and "night." not in ui.text("error.text")
    ui.tap("error.ok")
    assert ui.dialog is None
    ui.screenshot("tray-play-fr-800x480")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_tray_is_legible_at_800x480_and_1280x800(launch: Any, language: str) -> None:
    """Every label fits its box, no text under 18 px, every target 48 px both ways,
    every button's text at 4.5:1 (a locked die too)."""
    from tests.legibility import problems

    ui = launch(language=language)
    ui.tap("home.tray")
    ui.tap("traysetup.add.d6")
    ui.tap("traysetup.add.d20")
    assert problems(ui.app.root) == []
    ui.tap("traysetup.roll")
    ui.tap("play.die.0")  # locked: the selected colour with dark text
    for size in ((800, 480), (1280, 800)):
        ui.resize(*size)
        assert problems(ui.app.root) == [], size
    ui.resize(800, 480)
