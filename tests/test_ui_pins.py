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


def test_undo_with_nothing_to_undo_does_what_the_disabled_undo_does(launch: Any) -> None:
    ui = launch(hardware=True, seed=4)
    new_game(ui, minutes=40)
    assert ui.app.root.get_screen("evil_play").undo_button.disabled
    ui.tap("play.pins")
    ui.tap("pins.undo")  # UNDO (the pin is "not fitted": the virtual path)
    ui.pump(4)
    assert ui.dialog is None and ui.app.session.steps == []
    ui.tap("pins.roll")
    ui.wait_until(lambda: len(ui.app.session.steps) == 1)
    answer_dialogs(ui, 40)
    ui.tap("pins.undo")
    ui.wait_until(lambda: ui.app.session.steps == [])
    assert ui.app.session.can_redo()


def enter_physical_roll(ui: Any, professor: str, colour: str, clock: str) -> None:
    ui.tap("play.adjust")
    ui.tap("adjust.enter_roll")
    for die, face in (("professor", professor), ("colour", colour), ("clock", clock)):
        ui.tap(f"enter_roll.{die}.{face}")
    ui.tap("enter_roll.ok")


def test_the_roll_button_under_the_power_choice_leaves_it_open(launch: Any) -> None:
    ui = launch(hardware=True, seed=4)
    new_game(ui, minutes=55)
    enter_physical_roll(ui, "chevron1", "red", "clock2")  # XII -> II
    enter_physical_roll(ui, "chevron2", "blue", "clock2")  # II -> IV: passes III
    assert ui.dialog == "power"
    before = ui.app.session.state
    press_pin(ui, "roll")  # the physical ROLL button while the table decides
    assert ui.dialog == "power" and ui.app.session.state == before  # nothing behind it
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
    # the frame of the roll, once it is durable (the commit ends on the writer thread)
    ui.wait_until(lambda: ui.app.session.can_undo())
    state = ui.app.session.state
    assert state.time != 0 and ui.text("play.turn").startswith("Turn 2")
    assert [p.state for p in clock_pins(ui)] == [True] + [False] * 11  # still XII
    EventLoop.idle()  # the next frame: the LEDs
    assert [p.state for p in clock_pins(ui)] == [i == state.time for i in range(12)]


def test_a_roll_that_cannot_be_saved_is_never_shown_nor_played_on_the_leds(
        launch: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The roll's commit is made on the writer thread: when it fails (a full card), no
    frame ever shows the roll, the LEDs never follow, and the screen says why."""
    from kivy.base import EventLoop
    from kivy.core.window import Window
    from kivy.tests.common import UnitTestTouch

    from tests.helpers.writer import on_writer_connection
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
    def failing(journal: Any) -> FailingCommits:  # the writer thread's connection
        journal._db = FailingCommits(journal._db)
        return journal._db

    connection = on_writer_connection(app.writer, failing)
    connection.fail = True
    button = app.root.get_screen("evil_play").roll_button
    touch = UnitTestTouch(*button.to_window(*button.center))
    touch.touch_down()
    ui.pump(1)
    EventLoop._dispatch_input("end", touch)
    ui.wait_until(lambda: ui.dialog == "error")  # the commit failed on the writer thread
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


def press_pin(ui: Any, button: str) -> None:
    """The physical button: its mock pin driven low, held, released; then the main
    loop runs what the press handed to it."""
    buttons = ui.app.hardware.buttons
    assert button in buttons.pins, f"{button} is not fitted"
    accepted, handled = buttons.accepted[button], buttons.handled[button]
    # a finger presses again after the last release's bounce time, never within it
    ui.wait_until(lambda: buttons.quiet(button))
    ui.app.hardware.press(button)  # on mock pins: drives the pin, the real path
    # acted on by the main loop: a press the min_press timer accepts is counted on the
    # timer's thread a moment before it is handed over, so `accepted` is not enough
    ui.wait_until(lambda: buttons.handled[button] == handled + 1)
    assert buttons.accepted[button] == accepted + 1
    ui.settle()  # the action it started made durable and shown
    ui.pump(4)  # what that opens (in the next frame) opened


#: every button fitted (the shipped config fits ROLL only), on the treasure LEDs' pins
ALL_PINS = {"treasure_leds": {"enabled": False},
            "buttons": {"pins": {"roll": 21, "undo": 25, "ok": 12}}}


def old_game_one_loss_from_the_end(path: Any) -> None:
    """A Pr. Evil game written before rules versions (it opens with the "old order"
    note), where the next roll loses the game (seed 7: the roll takes a treasure)."""
    from companion.games.evil import RULES
    from companion.games.evil import commands as c
    from companion.journal import Journal
    from companion.session import Session
    from tests.helpers.evil import setup

    journal = Journal(path)
    old = Session.start(RULES, journal, setup(seed=7, lost_to_lose=2,
                                              treasures={"red": 5, "green": 5, "blue": 5}))
    assert old.state.rules_version == 1
    old.dispatch(c.MarkLost("red"))
    journal.close()


def test_the_roll_button_under_the_old_order_note_never_acts_behind_it(
        launch: Any, tmp_path: Any) -> None:
    """ROLL pressed while a note is open does what a finger could do there: nothing to
    the game behind it. (It used to roll, end the game, and dismissing the note then
    dismissed it again without end.)"""
    path = tmp_path / "old.sqlite3"
    old_game_one_loss_from_the_end(path)
    ui = launch(hardware=True, journal_file=path, hardware_section=ALL_PINS)
    ui.wait_until(lambda: ui.dialog == "old_order" and ui.app.hardware is not None)
    session = ui.app.session
    before = session.state
    for button in ("roll", "undo", "roll"):
        press_pin(ui, button)
        assert ui.dialog == "old_order" and ui.screen == "evil_play"
        assert session.state == before and len(session.steps) == 1
    ui.tap("old_order.ok")  # then what is due: the lost red treasure's replacement
    ui.wait_until(lambda: ui.dialog == "place")
    assert session.state == before
    press_pin(ui, "roll")  # under the keypad too
    assert ui.dialog == "place" and session.state == before
    ui.tap("place.later")
    assert ui.dialog is None
    press_pin(ui, "roll")  # nothing over the screen: the roll, as a touch on ROLL
    ui.wait_until(lambda: ui.screen == "evil_end")
    assert session.state.outcome == "lost" and len(session.steps) == 2
    assert len(ui.app.journal.entries(session.game_id)) == 2
    press_pin(ui, "roll")  # the end screen has no ROLL: nothing happens
    assert ui.screen == "evil_end" and len(session.steps) == 2 and ui.dialog is None


def test_a_button_press_follows_the_screens_own_button(launch: Any) -> None:
    """ROLL and UNDO act as a touch on the play screen's buttons would: not while the
    screen's ROLL is disabled, not on another screen; OK is the dialog's default."""
    ui = launch(hardware=True, seed=4, hardware_section=ALL_PINS)
    new_game(ui, minutes=40)
    ui.wait_until(lambda: ui.app.hardware is not None)
    screen = ui.app.root.get_screen("evil_play")
    screen.roll_button.disabled = True  # as in the frame between a roll and its question
    press_pin(ui, "roll")
    assert ui.app.session.steps == []
    screen.roll_button.disabled = False
    press_pin(ui, "roll")
    assert len(ui.app.session.steps) == 1
    answer_dialogs(ui, 40)
    press_pin(ui, "undo")
    assert ui.app.session.steps == [] and ui.app.session.can_redo()
    ui.tap("play.adjust")
    assert ui.dialog == "adjust"
    press_pin(ui, "undo")  # under a dialog: not for the screen behind it
    assert ui.app.session.can_redo() and ui.dialog == "adjust"
    press_pin(ui, "ok")  # OK: the dialog's own default
    assert ui.dialog != "error"


def test_closing_a_dialog_twice_or_from_its_own_dismissal_is_harmless(launch: Any) -> None:
    from ui.dialogs import message

    ui = launch()
    closed: list[str] = []
    note = message("Note", "A note", tid="note")
    # a handler of the dismissal that closes "the open dialog" again (as the end of a
    # game does): once, no recursion
    def dismissed(*_: Any) -> None:  # (a truthy answer would cancel the dismissal)
        closed.append("note")
        ui.app.close_dialog()

    note.bind(on_dismiss=dismissed)
    ui.app.close_dialog()
    ui.app.close_dialog()
    note.dismiss()
    assert closed == ["note"] and ui.app.dialog is None
    again = message("Again", "Another note", tid="again")
    again.bind(on_dismiss=lambda *_: again.dismiss() and None)
    ui.pump(5)  # laid out
    ui.tap("again.ok")
    assert ui.app.dialog is None and ui.find("again.ok") is None


def test_a_button_keeps_the_screen_awake_and_wakes_it_as_a_touch(
        launch: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A press is the table at work (the screen does not dim under a game played on
    the buttons); on a dimmed screen it wakes it and does nothing else, as a touch."""
    from tests.test_ui_dimming import idle_for
    from ui.screens.night import prefs

    light = tmp_path / "backlight" / "rpi_backlight"  # the 7" screen's, as in /sys
    light.mkdir(parents=True)
    (light / "brightness").write_text("200\n")
    (light / "max_brightness").write_text("255\n")
    (light / "bl_power").write_text("0\n")
    monkeypatch.setattr(prefs, "BACKLIGHT", light.parent)
    ui = launch(hardware=True, seed=4, display={"dim_after": 60, "blank_after": 300})
    new_game(ui, minutes=40)
    ui.wait_until(lambda: ui.app.hardware is not None and ui.app.night_dimmer is not None)
    dimmer = ui.app.night_dimmer
    dimmer.last = dimmer.clock() - 59  # a minute without a touch, nearly
    press_pin(ui, "roll")  # played on the button
    assert len(ui.app.session.steps) == 1
    answer_dialogs(ui, 40)
    dimmer.tick()
    assert (light / "brightness").read_text() == "200\n"  # not dimmed: the press counted
    idle_for(ui, 61)
    assert (light / "brightness").read_text() == "25"
    press_pin(ui, "roll")  # in the dim: wakes the screen, rolls nothing
    assert (light / "brightness").read_text() == "200"
    assert len(ui.app.session.steps) == 1
    press_pin(ui, "roll")  # awake: a press is a press
    assert len(ui.app.session.steps) == 2


def test_the_panel_is_opaque_readable_and_leaves_the_header_in_view(launch: Any) -> None:
    """Issue 29: the desktop Pins panel was see-through (and its text 13 px)."""
    from kivy.graphics import Color

    from tests import screen_audit
    from ui import theme

    ui = launch(hardware=True, seed=4)
    new_game(ui, minutes=40)
    ui.tap("play.pins")
    screen = ui.app.root.get_screen("evil_play")
    panel = screen.pin_panel
    fills = [tuple(i.rgba) for i in panel.canvas.before.children if isinstance(i, Color)]
    assert fills[0] == tuple(theme.PANEL) and fills[0][3] == 1.0
    assert panel.top <= screen.header_bar.y + 0.5  # Home and the counts stay whole
    assert panel.y >= screen.treasure_row.top - 0.5  # the treasures stay reachable
    assert screen_audit.audit(panel, "pins", "en") == []
    ui.screenshot("evil-pins-opaque-800x480")
