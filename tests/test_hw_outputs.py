"""LEDs and buzzer on gpiozero's mock pins, driven by a real Pr. Evil session."""

from __future__ import annotations

import itertools
import statistics
import time

import pytest
from gpiozero import Device

import hardware
from companion.games.evil.commands import MarkLost, MoveTreasure, Roll
from hardware.mock import recording_factory
from hardware.tunes import midi_frequency, parse_tune
from tests.test_hw_support import MainThread, evil_session, play_a_game, section


@pytest.fixture
def factory():
    Device.pin_factory = recording_factory()
    yield Device.pin_factory
    Device.pin_factory.reset()


def station_for(factory, **changes):
    changes.setdefault("ring__enabled", False)
    return hardware.setup(section(**changes), MainThread(), pin_factory=factory)


def history(pin):
    return [bool(s.state) for s in pin.states]


def expected_history(flags):
    out = [False]
    for flag in flags:
        if flag != out[-1]:
            out.append(flag)
    return out


def test_clock_leds_follow_the_time_marker(factory):
    station = station_for(factory)
    session = evil_session()
    station.attach(session)
    states = [session.state, *play_a_game(session, 30)]
    session.undo()
    states.append(session.state)
    pins = [factory.pin(p) for p in section()["clock_leds"]["pins"]]
    assert states[1].time != 0  # the game did move the marker
    for index, pin in enumerate(pins):
        expected = expected_history([s.time == index for s in states])
        assert history(pin) == expected
        pin.assert_states(expected)
    station.detach()
    assert not any(pin.state for pin in pins)
    station.close()


def test_first_roll_lights_the_next_position(factory):
    station = station_for(factory)
    session = evil_session()
    station.attach(session)
    xii, one = factory.pin(4), factory.pin(17)
    session.dispatch(Roll())  # outputs are updated before dispatch returns
    assert session.state.time == 1
    xii.assert_states([False, True, False])
    one.assert_states([False, True])
    station.close()


def test_outputs_follow_later_in_order_when_the_ui_asks(factory):
    """The UI passes `later` (its next frame): the pins change only when it runs, each
    update in turn, so the frame that shows a roll waits for no pin."""
    station = station_for(factory)
    session = evil_session()
    later = MainThread()
    station.attach(session, later=later)
    xii, one, two = factory.pin(4), factory.pin(17), factory.pin(27)
    xii.assert_states([False, True])  # attaching shows the state at once
    session.dispatch(Roll())
    assert session.state.time == 1
    xii.assert_states([False, True])  # not yet: the frame comes first
    session.undo()
    session.redo()
    assert later.drain() == 3
    xii.assert_states([False, True, False, True, False])
    one.assert_states([False, True, False, True])
    assert not two.state
    station.close()


def test_outputs_left_for_later_are_dropped_once_detached(factory):
    station = station_for(factory)
    session = evil_session()
    later = MainThread()
    station.attach(session, later=later)
    session.dispatch(Roll())
    station.detach()  # leaving the game: LEDs off
    later.drain()
    assert not any(factory.pin(p).state for p in section()["clock_leds"]["pins"])
    station.close()


def test_an_output_failure_left_for_later_is_reported_not_raised(factory, caplog):
    from companion.messages import CompanionError

    station = station_for(factory)
    session = evil_session()
    later = MainThread()
    told = []
    station.on_error(told.append)
    station.attach(session, later=later)

    def broken(_update):
        raise CompanionError("hardware.error.part", part="clock", reason="unplugged")

    station.observe = broken
    session.dispatch(Roll())
    later.drain()  # does not raise into the UI's loop
    assert [m.key for m in told] == ["hardware.error.part"]
    station.close()


def half_periods(pin, since):
    """Times between the pin's changes made after `since` (states keep deltas)."""
    absolute, clock = [], pin._last_change
    for state in reversed(pin.states):
        absolute.append(clock)
        clock -= state.timestamp
    absolute.reverse()
    return [b - a for a, b in itertools.pairwise(absolute) if a >= since]


def test_treasure_leds_steady_blink_faster_and_off(factory):
    station = station_for(factory, treasure_leds__slow_hz=10.0, treasure_leds__fast_hz=25.0)
    session = evil_session()
    station.attach(session)
    red, green, blue = factory.pin(25), factory.pin(12), factory.pin(16)
    assert red.state and green.state and blue.state  # 9, 6 and 4 steps: safe, steady
    for _ in range(7):  # red: 9 -> 2 steps
        session.dispatch(MoveTreasure("red", -1))
    assert station.panel_state()["treasures"]["red"] == {"mode": "slow", "on": True,
                                                          "blink_hz": 10.0}
    start = time.monotonic()
    time.sleep(0.5)
    slow = half_periods(red, start)
    session.dispatch(MoveTreasure("red", -1))  # 1 step
    start = time.monotonic()
    time.sleep(0.4)
    fast = half_periods(red, start)
    assert station.panel_state()["treasures"]["red"]["mode"] == "fast"
    session.dispatch(MarkLost("red"))
    assert not red.state and station.panel_state()["treasures"]["red"]["mode"] == "off"
    assert len(slow) >= 6 and len(fast) >= 12
    assert statistics.median(slow) == pytest.approx(0.05, rel=0.35)
    assert statistics.median(fast) == pytest.approx(0.02, rel=0.5)
    changes = len(red.states)
    time.sleep(0.1)
    assert len(red.states) == changes  # off means off: no more toggles
    green.assert_states([False, True])  # never blinked
    station.close()


def test_one_rgb_led_shows_each_treasure_on_its_channel(factory):
    station = station_for(factory, treasure_leds__kind="rgb")
    session = evil_session()
    station.attach(session)
    red, green, blue = factory.pin(25), factory.pin(12), factory.pin(16)
    assert (red.state, green.state, blue.state) == (True, True, True)
    session.dispatch(MarkLost("green"))
    assert (bool(red.state), bool(green.state), bool(blue.state)) == (True, False, True)
    station.close()


def tones_of(text):
    return [midi_frequency(n.midi) for n in parse_tune(text)[0] if n.midi is not None]


def wait_silent(station, timeout=3.0):
    deadline = time.monotonic() + timeout
    time.sleep(0.01)
    while station.buzzer.playing is not None and time.monotonic() < deadline:
        time.sleep(0.01)


def test_each_tune_plays_its_frequencies(factory):
    station = station_for(factory, buzzer__tempo=2000)
    pin = factory.pin(18)
    tunes = section()["buzzer"]["tunes"]
    assert tones_of(tunes["roll"]) == pytest.approx([1318.51, 1567.98, 2093.00], abs=0.01)
    for name, text in tunes.items():
        pin.frequencies.clear()
        station.buzzer.play([name])
        wait_silent(station)
        assert pin.tones() == pytest.approx(tones_of(text)), name
        assert pin.frequencies[-1][1] is None  # silent at the end
    station.close()


def test_events_choose_the_tunes_and_mute_silences(factory):
    station = station_for(factory, buzzer__tempo=2000)
    pin = factory.pin(18)
    tunes = section()["buzzer"]["tunes"]
    session = evil_session()
    station.attach(session)
    pin.frequencies.clear()
    session.dispatch(MarkLost("blue"))
    wait_silent(station)
    assert pin.tones() == pytest.approx(tones_of(tunes["treasure_lost"]))
    pin.frequencies.clear()
    session.dispatch(Roll())
    wait_silent(station)
    assert pin.tones()[:3] == pytest.approx(tones_of(tunes["roll"]))
    pin.frequencies.clear()
    session.undo()  # undo is silent
    station.set_mute(True)
    session.dispatch(Roll())
    time.sleep(0.1)
    assert pin.tones() == []
    station.close()


def test_volume_lowers_the_duty_cycle(factory):
    station = station_for(factory, buzzer__tempo=2000, buzzer__volume=0.5)
    pin = factory.pin(18)
    station.buzzer.play(["roll"])
    wait_silent(station)
    assert {s.state for s in pin.states if s.state} == {0.25}
    station.close()


def test_a_new_tune_interrupts_and_nothing_blocks(factory):
    station = station_for(factory, buzzer__tempo=60)  # a quarter note lasts a second
    pin = factory.pin(18)
    pin.frequencies.clear()
    start = time.monotonic()
    station.buzzer.play(["victory"])
    station.buzzer.play(["defeat"])
    assert time.monotonic() - start < 0.5  # the tunes last seconds: playing never waits
    deadline = time.monotonic() + 1.0  # the tune thread starts the new tune (a loaded CI)
    while station.panel_state()["buzzer"]["tune"] != "defeat" and time.monotonic() < deadline:
        time.sleep(0.01)
    assert station.panel_state()["buzzer"]["tune"] == "defeat"
    assert station.panel_state()["buzzer"]["note"] == "C6"
    station.close()
    assert pin.frequencies[-1][1] is None
