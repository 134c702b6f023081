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
                 buttons__min_press=0.005,
                 buttons__pins={"roll": ROLL_PIN, "undo": UNDO_PIN, "ok": OK_PIN})
    station = hardware.setup(hw, main, pin_factory=factory)
    session = evil_session()
    station.attach(session, commands={"roll": Roll})
    yield station, session, main
    station.close()


def press(pin, hold=0.02):
    """A real press: held well past the minimum time."""
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
    for _ in range(5):  # contact chatter on the press: each far shorter than min_press
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


# -- glitches and bounces (the defaults: min_press 5 ms, debounce 100 ms) ----------------
@pytest.fixture
def defaults_rig(factory):
    main = MainThread()
    hw = section(ring__enabled=False, clock_leds__enabled=False,
                 buttons__pins={"roll": ROLL_PIN, "undo": UNDO_PIN, "ok": OK_PIN})
    assert (hw["buttons"]["min_press"], hw["buttons"]["debounce"]) == (0.005, 0.1)
    station = hardware.setup(hw, main, pin_factory=factory)
    session = evil_session()
    station.attach(session, commands={"roll": Roll})
    yield station, session, main
    station.close()


class Clock:
    """The time the mock pins stamp their edges with, moved by the test: edge times
    exactly as written, however busy the machine running the test is."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def pulse(self, pin, hold: float) -> None:
        pin.drive_low()
        self.now += hold
        pin.drive_high()


@pytest.fixture
def clock(monkeypatch):
    """gpiozero's mock pins stamp each edge with this clock (their `monotonic`)."""
    import gpiozero.pins.mock

    edge_clock = Clock()
    monkeypatch.setattr(gpiozero.pins.mock, "monotonic", edge_clock)
    return edge_clock


def pulse_told_late(pin, clock: Clock, hold: float, delay: float) -> None:
    """A press told at once, its release edge `hold` later told `delay` after it (a
    busy machine runs the callback late): the edge keeps its own time."""
    pin.drive_low()
    clock.now += hold
    assert pin._change_state(True)  # the release: stamped now, its callback waits
    clock.now += delay
    pin._call_when_changed()


def test_a_half_millisecond_glitch_is_not_a_press(defaults_rig, factory, clock):
    station, session, main = defaults_rig
    pin = factory.pin(ROLL_PIN)
    for _ in range(20):
        clock.pulse(pin, 0.0005)
        clock.now += 0.2  # far apart: none is the bounce of another
    time.sleep(0.02)  # any timer started meanwhile has run
    assert main.drain() == 0 and rolls(session) == []
    assert station.buttons.accepted["roll"] == 0
    assert station.buttons.ignored["roll"] == 20
    clock.pulse(pin, 0.006)  # just past the minimum: a press
    main.drain()
    assert len(rolls(session)) == 1


def test_roll_dispatches_the_command_the_caller_names(factory, clock):
    """The hardware knows no game: attached without commands, ROLL does nothing (UNDO
    still undoes); given Pr. Evil's `Roll` for it, ROLL rolls; detached, it is unbound."""
    main = MainThread()
    hw = section(ring__enabled=False, clock_leds__enabled=False,
                 buttons__pins={"roll": ROLL_PIN, "undo": UNDO_PIN, "ok": OK_PIN})
    station = hardware.setup(hw, main, pin_factory=factory)
    session = evil_session()
    roll = factory.pin(ROLL_PIN)
    try:
        station.attach(session)
        clock.pulse(roll, 0.05)
        main.drain()
        assert station.buttons.accepted["roll"] == 1 and session.steps == []
        clock.now += 1
        station.attach(session, commands={"roll": Roll})
        clock.pulse(roll, 0.05)
        main.drain()
        assert rolls(session) == [Roll()]
        clock.now += 1
        station.detach()
        clock.pulse(roll, 0.05)
        main.drain()
        assert station.buttons.accepted["roll"] == 3 and rolls(session) == [Roll()]
    finally:
        station.close()


def test_a_glitch_whose_callbacks_run_late_is_still_a_glitch(defaults_rig, factory, clock):
    # under load the Python callback of the release ran 5.3 ms after its edge: timed
    # by the callback, a 0.5 ms glitch read as 5.8 ms and rolled
    station, session, main = defaults_rig
    pin = factory.pin(ROLL_PIN)
    for _ in range(10):
        pulse_told_late(pin, clock, 0.0005, 0.0053)
        clock.now += 0.2
    time.sleep(0.02)  # any timer started meanwhile has run
    assert main.drain() == 0 and rolls(session) == []
    assert station.buttons.ignored["roll"] == 10
    pulse_told_late(pin, clock, 0.006, 0.0053)  # a press, its release told late: a press
    main.drain()
    assert len(rolls(session)) == 1 and station.buttons.accepted["roll"] == 1


def test_a_timer_never_accepts_a_press_whose_release_is_not_told_yet(defaults_rig, factory,
                                                                     clock):
    station, session, main = defaults_rig
    buttons = station.buttons
    pin = factory.pin(ROLL_PIN)
    pin.drive_low()
    line = buttons._lines["roll"]
    line.timer.cancel()  # the timer is run by hand below
    clock.now += 0.0005
    assert pin._change_state(True)  # released: the edge is stamped, its callback late
    clock.now += 0.006
    buttons._held("roll", line.edges)  # the timer wakes: the line reads released
    assert main.drain() == 0 and buttons.accepted["roll"] == 0
    pin._call_when_changed()  # the release told at last: a 0.5 ms glitch
    assert main.drain() == 0 and rolls(session) == [] and buttons.ignored["roll"] == 1


def test_a_bounce_70_ms_after_the_release_is_not_a_second_press(defaults_rig, factory,
                                                                clock):
    station, session, main = defaults_rig
    assert station.buttons.debounce == 0.1
    pin = factory.pin(ROLL_PIN)
    clock.pulse(pin, 0.05)
    clock.now += 0.07
    clock.pulse(pin, 0.01)  # longer than min_press, but inside the release's bounce time
    main.drain()
    assert len(rolls(session)) == 1 and station.buttons.ignored["roll"] == 1
    clock.now += 0.15  # quiet since the last release: the next press is a press
    clock.pulse(pin, 0.02)
    main.drain()
    assert len(rolls(session)) == 2


def test_a_normal_press_acts_once_as_soon_as_it_lasted_the_minimum(defaults_rig, factory):
    station, session, main = defaults_rig
    pin = factory.pin(ROLL_PIN)
    handed: list[float] = []
    original = station.buttons._dispatch
    station.buttons._dispatch = lambda fn: (handed.append(time.monotonic()), original(fn))
    started = time.monotonic()
    pin.drive_low()
    deadline = started + 1.0
    while not handed and time.monotonic() < deadline:
        time.sleep(0.0005)
    assert handed, "the press was not handed over while held"
    # acts while still held, min_press after the press edge (plus a timer's wake-up,
    # generous here: the machine running the tests may be busy)
    assert 0.005 <= handed[0] - started < 0.25
    time.sleep(0.2)  # a long hold is still one press
    pin.drive_high()
    main.drain()
    assert len(rolls(session)) == 1 and station.buttons.accepted["roll"] == 1


def test_a_press_counts_when_released_even_if_the_timer_is_late(factory, clock):
    # a busy machine may wake the timer late: the edge times decide, not the timer
    from hardware.buttons import Buttons

    main = MainThread()
    pressed: list[str] = []
    buttons = Buttons({"debounce": 0.1, "min_press": 0.005, "pull_up": True,
                       "pins": {"roll": ROLL_PIN, "undo": -1, "ok": -1}}, factory, main,
                      pressed.append)
    pin = factory.pin(ROLL_PIN)
    pin.drive_low()
    buttons._lines["roll"].timer.cancel()  # the timer never runs in time
    clock.now += 0.006
    pin.drive_high()
    main.drain()
    assert pressed == ["roll"]
    clock.now += 0.003  # then a glitch, right after: shorter than min_press, and a bounce
    clock.pulse(pin, 0.0005)
    main.drain()
    assert pressed == ["roll"]
    buttons.close()


def test_the_times_are_configurable_and_checked() -> None:
    from hardware.validate import validate

    keys = {(k, m.key) for k, m in validate(section(buttons__min_press=0.5,
                                                    buttons__debounce=2))}
    assert ("buttons.min_press", "hardware.config.range") in keys
    assert ("buttons.debounce", "hardware.config.range") in keys
    assert validate(section(buttons__min_press=0.0, buttons__debounce=0.0)) == []
