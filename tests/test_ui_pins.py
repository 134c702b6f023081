"""The hardware seen from the app: mock pins on a desktop, the virtual panel, and a
button press that takes the same path as a touch."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.evil.instructions import roman
from tests.test_ui_evil import answer_dialogs, new_game

pytestmark = pytest.mark.ui


def clock_pins(ui: Any) -> list[Any]:
    station = ui.app.hardware
    return [station.factory.pin(n) for n in station.panel_state()["clock"]["pins"]]


def test_the_panel_shows_the_clock_leds_and_its_roll_button_rolls(launch: Any) -> None:
    ui = launch(hardware=True, seed=4)
    assert ui.app.hardware.mocked
    new_game(ui, minutes=40)
    assert ui.text("play.pins") == "Pins"
    ui.tap("play.pins")
    assert ui.text("pins.clock") == "Clock LED lit: XII"
    assert [p.state for p in clock_pins(ui)] == [True] + [False] * 11
    assert "R: steady" in ui.text("pins.treasures")
    ui.wait_until(lambda: "loopback" in ui.text("pins.ring"))
    ui.screenshot("evil-pins-800x480")

    ui.tap("pins.roll")  # drives the mock ROLL pin: gpiozero thread -> Kivy main loop
    ui.wait_until(lambda: ui.text("play.turn").startswith("Turn 2"))
    state = ui.app.session.state
    assert len(ui.app.session.steps) == 1  # exactly one roll, committed
    answer_dialogs(ui, 40)
    ui.wait_until(lambda: ui.text("pins.clock") == f"Clock LED lit: {roman(state.time)}")
    assert [p.state for p in clock_pins(ui)] == [i == state.time for i in range(12)]

    ui.tap("play.pins")
    assert ui.find("pins.clock") is None


def test_a_refused_button_press_is_said_on_screen(launch: Any) -> None:
    ui = launch(hardware=True, seed=4)
    new_game(ui, minutes=40)
    ui.tap("play.pins")
    ui.tap("pins.undo")  # UNDO with nothing to undo (the pin is "not fitted": virtual path)
    ui.wait_until(lambda: ui.dialog == "error")
    assert ui.text("error.text") == "Nothing to undo."


def enter_physical_roll(ui: Any, professor: str, colour: str, clock: str) -> None:
    ui.tap("play.adjust")
    ui.tap("adjust.enter_roll")
    for die, face in (("professor", professor), ("colour", colour), ("clock", clock)):
        ui.tap(f"enter_roll.{die}.{face}")
    ui.tap("enter_roll.ok")


def test_a_refused_roll_button_does_not_lose_the_power_choice(launch: Any) -> None:
    ui = launch(hardware=True, seed=4)
    new_game(ui, minutes=55)
    enter_physical_roll(ui, "chevron1", "red", "clock2")  # XII -> II
    enter_physical_roll(ui, "chevron2", "blue", "clock2")  # II -> IV: passes III
    assert ui.dialog == "power"
    ui.app.hardware.press("roll")  # the physical ROLL button while the table decides
    ui.wait_until(lambda: ui.dialog == "error")
    assert "before rolling again" in ui.text("error.text")
    ui.tap("error.ok")
    ui.wait_until(lambda: ui.dialog == "power")  # the choice is asked again
    ui.tap("power.Edward Wyre")  # selects; the choice is confirmed on its own button
    assert ui.dialog == "power"
    ui.tap("power.choose")
    assert ui.dialog is None
    assert "Edward Wyre" in ui.text("play.character") or ui.app.session.state.powers_up == (
        "Edward Wyre",)


def test_the_roll_is_drawn_first_and_the_leds_follow_in_the_next_frame(launch: Any) -> None:
    """The frame that shows a roll waits for no pin: the LEDs follow one frame later."""
    from kivy.base import EventLoop
    from kivy.tests.common import UnitTestTouch

    ui = launch(hardware=True, seed=4)
    new_game(ui, minutes=40)
    button = ui.app.root.get_screen("evil_play").roll_button
    touch = UnitTestTouch(*button.to_window(*button.center))
    touch.touch_down()
    ui.pump(1)
    EventLoop._dispatch_input("end", touch)  # as the loop reads a finger's release
    EventLoop.idle()  # the frame of the roll
    state = ui.app.session.state
    assert state.time != 0 and ui.text("play.turn").startswith("Turn 2")
    assert [p.state for p in clock_pins(ui)] == [True] + [False] * 11  # still XII
    EventLoop.idle()  # the next frame: the LEDs
    assert [p.state for p in clock_pins(ui)] == [i == state.time for i in range(12)]


def test_a_roll_that_cannot_be_saved_is_never_shown_nor_played_on_the_leds(
        launch: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The roll's commit is made just before its frame is swapped: when it fails (a full
    card), that frame is never swapped, the LEDs never follow, and the next frame shows
    the turn as it was and why."""
    from kivy.base import EventLoop
    from kivy.core.window import Window
    from kivy.tests.common import UnitTestTouch

    from tests.test_core_held_commit import FailingCommits

    ui = launch(hardware=True, seed=4)
    new_game(ui, minutes=40)
    app = ui.app
    game = app.session.game_id
    before, entries = app.session.state, len(app.journal.entries(game))
    swapped: list[str] = []  # the turn label drawn in each frame that reached the screen
    drawn = [""]
    paint, swap = Window.on_draw, Window.flip

    def draw() -> None:
        drawn[0] = ui.text("play.turn")
        paint()

    def flip() -> None:
        swap()
        swapped.append(drawn[0])

    monkeypatch.setattr(Window, "on_draw", draw)
    monkeypatch.setattr(Window, "flip", flip)
    connection = FailingCommits(app.journal._db)
    monkeypatch.setattr(app.journal, "_db", connection)
    connection.fail = True
    button = app.root.get_screen("evil_play").roll_button
    touch = UnitTestTouch(*button.to_window(*button.center))
    touch.touch_down()
    ui.pump(1)
    EventLoop._dispatch_input("end", touch)
    EventLoop.idle()  # the roll's frame: drawn, its commit failed, never swapped
    assert ui.text("play.turn").startswith("Turn 1") and app.session.state == before
    ui.pump(3)
    assert swapped and all(text.startswith("Turn 1") for text in swapped), swapped
    assert ui.dialog == "error"
    assert ui.text("error.text").startswith("Could not save")
    assert "disk is full" in ui.text("error.text")
    assert [p.state for p in clock_pins(ui)] == [True] + [False] * 11  # still XII
    assert len(app.journal.entries(game)) == entries
    # the card has room again: the same roll is played, saved, shown and followed
    connection.fail = False
    ui.tap("error.ok")
    ui.tap("play.roll")
    answer_dialogs(ui, 40)
    ui.pump(2)
    state = app.session.state
    assert ui.text("play.turn").startswith("Turn 2") and swapped[-1].startswith("Turn 2")
    assert len(app.journal.entries(game)) > entries
    assert [p.state for p in clock_pins(ui)] == [i == state.time for i in range(12)]
