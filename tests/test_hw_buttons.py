"""Physical buttons: a press is one command, on the main thread, through the session."""

from __future__ import annotations

import threading
import time

import pytest
from gpiozero import Device

import hardware
from companion.games.evil.commands import Roll
from hardware.mock import recording_factory
from tests.test_hw_support import MainThread, evil_session, section

ROLL_PIN, UNDO_PIN, OK_PIN = 21, 5, 6


@pytest.fixture
def factory():
    Device.pin_factory = recording_factory()
    yield Device.pin_factory
    Device.pin_factory.reset()


@pytest.fixture
def rig(factory):
    main = MainThread()
    hw = section(ring__enabled=False, clock_leds__enabled=False, buttons__debounce=0.05,
                 buttons__pins={"roll": ROLL_PIN, "undo": UNDO_PIN, "ok": OK_PIN})
    station = hardware.setup(hw, main, pin_factory=factory)
    session = evil_session()
    station.attach(session)
    yield station, session, main
    station.close()


def press(pin, hold=0.0):
    pin.drive_low()
    time.sleep(hold)
    pin.drive_high()


def rolls(session):
    return [s.command for s in session.steps if isinstance(s.command, Roll)]


def test_a_press_is_one_committed_roll_on_the_main_thread(rig, factory):
    _, session, main = rig
    press(factory.pin(ROLL_PIN))
    assert session.steps == []  # nothing happens on the pin's thread
    assert main.drain() == 1
    assert rolls(session) == [Roll()]
    entries = session.journal.entries(session.game_id)
    assert [(e.verb, e.command) for e in entries] == [("do", {"type": "Roll"})]


def test_a_bouncing_press_rolls_once(rig, factory):
    _, session, main = rig
    pin = factory.pin(ROLL_PIN)
    for _ in range(5):  # contact chatter on the press
        pin.drive_low()
        pin.drive_high()
    pin.drive_low()
    time.sleep(0.1)  # held
    for _ in range(4):  # chatter on the release
        pin.drive_high()
        pin.drive_low()
    pin.drive_high()
    main.drain()
    assert len(rolls(session)) == 1
    time.sleep(0.06)  # released and quiet for the debounce time: a new press counts
    press(pin)
    main.drain()
    assert len(rolls(session)) == 2


def test_presses_from_another_thread_are_never_lost_or_doubled(rig, factory):
    _, session, main = rig
    pin = factory.pin(ROLL_PIN)

    def presses():
        for _ in range(3):
            press(pin, hold=0.01)
            time.sleep(0.07)

    worker = threading.Thread(target=presses)
    worker.start()
    worker.join()
    main.drain()
    assert len(rolls(session)) == 3
    assert len(session.journal.entries(session.game_id)) == 3


def test_undo_and_ok(rig, factory):
    station, session, main = rig
    confirmed = []
    station.bind("ok", lambda: confirmed.append(True))
    press(factory.pin(ROLL_PIN))
    main.drain()
    time.sleep(0.06)
    press(factory.pin(UNDO_PIN))
    main.drain()
    assert session.steps == [] and session.can_redo()
    press(factory.pin(OK_PIN))
    main.drain()
    assert confirmed == [True]


def test_a_refused_press_is_reported_not_raised(rig, factory):
    station, session, main = rig
    errors = []
    station.on_error(errors.append)
    press(factory.pin(UNDO_PIN))  # nothing to undo yet
    main.drain()
    assert [m.key for m in errors] == ["core.error.nothing_to_undo"]
    station.detach()
    press(factory.pin(ROLL_PIN))  # no game: the press does nothing
    main.drain()
    assert session.steps == []


def test_virtual_panel_button_takes_the_pin_path(rig, factory):
    station, session, main = rig
    assert station.mocked
    station.press("roll")
    main.drain()
    assert len(rolls(session)) == 1
    assert station.buttons.accepted["roll"] == 1
    assert station.panel_state()["buttons"]["roll"] == {"pin": ROLL_PIN, "pressed": False}
