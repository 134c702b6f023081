"""The table clock on the hardware: what the LEDs, the signal, the ring frame and the
buzzer show for a clock (`hardware.timerview`, `Station.show_timer`, `Station.sound`),
on gpiozero's mock pins and over `loop://` and a pty; the seat buttons' reports, from
the firmware's debounce (`seatbuttons`) and parser to the host's link."""

from __future__ import annotations

import time

import pytest
from gpiozero import Device

import hardware
from hardware.firmware import ringproto
from hardware.firmware.seatbuttons import SeatButtons
from hardware.mock import FakeRing, recording_factory
from hardware.ring import RingLink, frame_of
from hardware.timerview import TimerShown, lights, tick_due, twelfths_left
from tests.test_hw_outputs import tones_of, wait_silent
from tests.test_hw_ring import ring_section, wait
from tests.test_hw_support import MainThread, section

CLOCK_PINS = [4, 17, 27, 22, 5, 6, 13, 19, 26, 20, 23, 24]


def shown(**changes):
    values = {"seats": 4, "active": 1, "remaining_ms": 300_000, "full_ms": 600_000,
              "level": "ok", "running": True, "drain": False}
    values.update(changes)
    return TimerShown(**values)


@pytest.fixture
def factory():
    Device.pin_factory = recording_factory()
    yield Device.pin_factory
    Device.pin_factory.reset()


def station_for(factory, **changes):
    changes.setdefault("ring__enabled", False)
    return hardware.setup(section(**changes), MainThread(), pin_factory=factory)


def lit(factory):
    return {i for i, pin in enumerate(CLOCK_PINS) if factory.pin(pin).state}


# -- what each part shows (pure) -----------------------------------------------------------
def test_a_draining_ring_counts_every_started_twelfth():
    assert twelfths_left(600_000, 600_000) == 12
    assert twelfths_left(599_999, 600_000) == 12
    assert twelfths_left(550_000, 600_000) == 11
    assert twelfths_left(1, 600_000) == 1  # the last LED goes out at zero, not before
    assert twelfths_left(0, 600_000) == 0
    assert twelfths_left(-5_000, 600_000) == 0
    out = lights(shown(drain=True, active=None, remaining_ms=150_000), 12)
    assert out.leds == frozenset(range(3))


def test_the_active_seat_lights_its_own_led_and_seats_share_leds_when_many():
    assert lights(shown(seats=4, active=0)).leds == {0}
    assert lights(shown(seats=4, active=2)).leds == {6}
    assert lights(shown(seats=8, active=7)).leds == {10}
    # more seats than LEDs: seats share them, as the dial's positions do
    assert lights(shown(seats=8, active=7), leds=4).leds == {3}
    assert lights(shown(seats=8, active=6), leds=4).leds == {3}


def test_the_signal_goes_green_yellow_red_and_blinks_over_and_paused():
    assert lights(shown(level="ok")).signal == {"green"}
    assert lights(shown(level="warn")).signal == {"green", "red"}  # yellow
    assert lights(shown(level="danger")).signal == {"red"}
    over = lights(shown(level="over", remaining_ms=-3_000))
    assert (over.signal, over.blink) == ({"red"}, "fast")
    assert lights(shown(running=False)).blink == "slow"
    assert lights(shown()).blink == ""


def test_the_ring_frame_is_protocol_1_and_its_own_parser_reads_it():
    frame = lights(shown(seats=4, active=2, remaining_ms=100_000, full_ms=600_000,
                         level="warn")).ring
    body = ringproto.unseal(ringproto.encode_state(1, frame.dial, frame.time, frame.mode,
                                                   frame.pending, list(frame.treasures)))
    state = ringproto.parse_state(body)
    # the marker on the active seat, the signal's colour two twelfths (the time left) on
    assert (state["dial"], state["time"], state["mode"], state["pending"]) == (12, 6, "play", 0)
    assert state["treasures"] == [("yellow", 2)]
    paused = lights(shown(running=False)).ring
    assert (paused.mode, paused.pending) == ("play", 1)  # a paused clock glows faintly
    assert lights(shown(remaining_ms=-1, level="over")).ring.mode == "lost"  # all red
    assert lights(None).ring.mode == "idle"


def test_ticks_come_once_in_each_of_the_last_seconds_of_a_running_clock():
    assert tick_due(shown(remaining_ms=5_000), 5) == 5
    assert tick_due(shown(remaining_ms=4_001), 5) == 5
    assert tick_due(shown(remaining_ms=4_000), 5) == 4
    assert tick_due(shown(remaining_ms=5_001), 5) is None
    assert tick_due(shown(remaining_ms=3_000, running=False), 5) is None
    assert tick_due(shown(remaining_ms=0), 5) is None
    assert tick_due(shown(remaining_ms=3_000), 0) is None


# -- on mock pins ---------------------------------------------------------------------------
def test_clock_leds_and_treasure_leds_follow_the_clock(factory):
    station = station_for(factory)
    red, green = factory.pin(25), factory.pin(12)
    station.show_timer(shown(seats=4, active=1))
    assert lit(factory) == {3}
    assert (bool(green.state), bool(red.state)) == (True, False)
    station.show_timer(shown(seats=4, active=2, level="warn"))
    assert lit(factory) == {6}
    assert (bool(green.state), bool(red.state)) == (True, True)
    station.show_timer(shown(drain=True, active=None, remaining_ms=100_000, level="danger"))
    assert lit(factory) == {0, 1}
    assert (bool(green.state), bool(red.state)) == (False, True)
    station.show_timer(shown(remaining_ms=-2_000, level="over"))
    assert station.blinker.state("treasure.red") == (True, 4.0)  # fast_hz
    assert station.treasures.modes["red"] == "fast"
    station.show_timer(None)
    assert lit(factory) == set()
    assert not green.state and not red.state
    station.close()


def test_an_rgb_led_shows_yellow_as_red_and_green(factory):
    station = station_for(factory, treasure_leds__kind="rgb")
    station.show_timer(shown(level="warn"))
    r, g, b = (factory.pin(p) for p in (25, 12, 16))
    assert (bool(r.state), bool(g.state), bool(b.state)) == (True, True, False)
    station.close()


def test_the_buzzer_ticks_once_per_second_in_the_last_seconds(factory):
    station = station_for(factory, buzzer__tempo=2000, buzzer__ticks=3)
    pin = factory.pin(18)
    tick = tones_of(section()["buzzer"]["tunes"]["tick"])
    pin.frequencies.clear()
    for remaining in (4_200, 3_900, 3_500, 2_900, 2_100, 1_400, 800, 0):
        station.show_timer(shown(remaining_ms=remaining))
        wait_silent(station)
    assert tick == pytest.approx([1760.0], abs=0.01)  # A6
    assert pin.tones() == pytest.approx(tick * 3)  # 3, 2, 1: each once
    station.close()


def test_the_seat_motifs_the_zero_tune_and_no_play_their_notes(factory):
    station = station_for(factory, buzzer__tempo=2000)
    pin = factory.pin(18)
    tunes = section()["buzzer"]["tunes"]
    for kind, seat, name in (("clock_turn", 0, "seat1"), ("clock_turn", 6, "seat7"),
                             ("clock_zero", None, "time_up"), ("clock_no", None, "refused"),
                             ("clock_draw", None, "draw")):
        pin.frequencies.clear()
        station.sound(kind, seat=seat)
        wait_silent(station)
        assert pin.tones() == pytest.approx(tones_of(tunes[name])), name
    assert tones_of(tunes["seat1"]) != tones_of(tunes["seat2"])  # each seat its own
    station.set_mute(True)
    pin.frequencies.clear()
    station.sound("clock_zero")
    time.sleep(0.05)
    assert pin.tones() == []
    station.close()


def test_volume_applies_to_the_clock_sounds(factory):
    station = station_for(factory, buzzer__tempo=2000, buzzer__volume=0.5)
    pin = factory.pin(18)
    station.sound("clock_no")
    wait_silent(station)
    assert {s.state for s in pin.states if s.state} == {0.25}
    station.close()


def test_a_clock_tune_that_is_not_there_is_refused_by_check_config():
    from hardware.validate import validate

    problems = validate(section(buzzer__play={**section()["buzzer"]["play"],
                                              "clock_turn": "motif"}))
    assert [key for key, _ in problems] == ["buzzer.play.clock_turn"]
    assert [key for key, _ in validate(section(buzzer__ticks=90))] == ["buzzer.ticks"]


# -- the ring: frames over loop:// and a pty, seat buttons back ---------------------------------
def test_loop_carries_the_clock_frame():
    link = RingLink(ring_section("loop://"))
    try:
        frame = lights(shown(seats=2, active=1, remaining_ms=50_000, full_ms=600_000)).ring
        link.send(frame)
        assert link.wait_acked(1.0)
        state = ringproto.parse_state(ringproto.unseal(link.snapshot()["last_frame"]))
        assert (state["time"], state["treasures"]) == (6, [("green", 1)])
    finally:
        link.close()


def test_a_ring_on_protocol_1_shows_the_clock(tmp_path):
    device = FakeRing(tmp_path)
    device.plug()
    station = hardware.setup(section(clock_leds__enabled=False, treasure_leds__enabled=False,
                                     buzzer__enabled=False, buttons__enabled=False,
                                     ring__port=str(device.path), ring__ack_timeout=0.2),
                             MainThread())
    try:
        station.show_timer(shown(seats=3, active=2, remaining_ms=200_000))
        assert station.ring.wait_acked(2.0)
        assert device.state["time"] == 8 and device.state["treasures"] == [("green", 4)]
    finally:
        station.close()
        device.close()


def test_a_ring_of_another_protocol_is_said_incompatible_and_nothing_breaks(tmp_path):
    device = FakeRing(tmp_path, protocol=2)
    device.plug()
    link = RingLink(ring_section(device.path))
    try:
        link.send(lights(shown()).ring)
        assert wait(lambda: link.status == "incompatible")
        assert link.problem is not None and link.problem.key == "hardware.ring.incompatible"
    finally:
        link.close()
        device.close()


def test_seat_presses_reach_the_app_and_a_flood_is_one_press(tmp_path):
    device = FakeRing(tmp_path)
    device.plug()
    main = MainThread()
    station = hardware.setup(section(clock_leds__enabled=False, treasure_leds__enabled=False,
                                     buzzer__enabled=False, buttons__enabled=False,
                                     ring__port=str(device.path)), main)
    pressed: list[str] = []
    station.route(pressed.append)
    try:
        assert wait(lambda: station.ring.status == "connected")
        device.write(ringproto.press_line(2).encode())
        assert wait(lambda: station.ring.snapshot()["stats"]["presses"] == 1)
        main.drain()
        assert pressed == ["seat2"]
        assert station.ring.snapshot()["stats"]["garbage"] == 0
        device.write(ringproto.seal("PRESS 9").encode() + b"PRESS 1*0000\n")
        assert wait(lambda: station.ring.snapshot()["stats"]["garbage"] == 2)  # seat 9, a
        assert station.ring.status == "connected"  # bad checksum: said, nothing pressed
    finally:
        station.close()
        device.close()


def test_a_flooding_device_is_one_press_per_gap(tmp_path):
    """The same seat reported 50 times: one press, the other 49 counted as dropped;
    after `PRESS_GAP` (on the link's clock, a fake one here) the seat presses again."""
    from hardware.ring import PRESS_GAP

    device = FakeRing(tmp_path)
    device.plug()
    now = [100.0]
    seats: list[int] = []
    link = RingLink(ring_section(device.path), on_press=seats.append, clock=lambda: now[0])
    try:
        assert wait(lambda: link.status == "connected")
        device.write(ringproto.press_line(1).encode() * 50)
        assert wait(lambda: link.snapshot()["stats"]["presses_dropped"] == 49)
        now[0] += PRESS_GAP
        device.write(ringproto.press_line(1).encode())
        assert wait(lambda: link.snapshot()["stats"]["presses"] == 2)
        assert seats == [1, 1]
    finally:
        link.close()
        device.close()


def test_the_parser_reads_press_lines_and_refuses_the_rest():
    assert ringproto.parse_press(ringproto.unseal(ringproto.press_line(7))) == 7
    for bad in ("PRESS", "PRESS x", "PRESS 8", "PRESS -1", "PRESS 1 2", "PRES 1"):
        with pytest.raises(ValueError):
            ringproto.parse_press(bad)
    # a host of before the seat buttons ignores them: a line it does not know
    device = ringproto.Device(12, "t")
    assert device.feed(ringproto.press_line(0).encode()) == [ringproto.seal("NAK - unknown")]


# -- the firmware's debounce (host tests) -------------------------------------------------------
def samples(buttons, timeline):
    """Feed (ms, pressed seat set) samples; the seats reported, with their time."""
    out = []
    for now, down in timeline:
        for seat in buttons.sample([s in down for s in range(buttons.seats)], now):
            out.append((now, seat))
    return out


def test_a_press_counts_once_held_and_a_bounce_never_counts_twice():
    buttons = SeatButtons(3, press_ms=5, quiet_ms=60)
    timeline = [(0, {1}), (3, {1}), (5, {1}), (10, {1}), (50, {1}), (51, set()),
                # contacts bouncing after the release: not a second press
                (53, {1}), (54, set()), (70, {1}), (80, {1}), (100, set()),
                # a new press after the quiet time
                (200, {1}), (206, {1}), (300, set())]
    assert samples(buttons, timeline) == [(5, 1), (206, 1)]
    assert buttons.reported == 2


def test_a_spike_is_not_a_press_and_seats_are_independent():
    buttons = SeatButtons(4, press_ms=5)
    timeline = [(0, {0}), (2, set()), (10, {0, 3}), (12, {0, 3}), (15, {0, 3}), (16, {3}),
                (40, set())]
    assert samples(buttons, timeline) == [(15, 0), (15, 3)]
    assert buttons.ignored == 1


def test_the_debounce_survives_the_ms_counter_wrapping():
    period = 1 << 30  # MicroPython's ticks_ms wraps here

    def ticks_diff(a, b):
        return ((a - b + period // 2) % period) - period // 2

    buttons = SeatButtons(1, press_ms=5, diff=ticks_diff)
    timeline = [(period - 2, {0}), (1, {0}), (3, {0}), (20, set())]
    assert samples(buttons, timeline) == [(3, 0)]


def test_pr_evil_s_marker_after_a_draining_ring_lights_one_led_only(factory):
    """The clock LEDs go from the table clock (several lit) to Pr. Evil's dial (one):
    the LEDs of the ring go out, the marker's stays."""
    from hardware.clockview import ClockView

    station = station_for(factory)
    station.show_timer(shown(drain=True, active=None, remaining_ms=200_000))
    assert lit(factory) == {0, 1, 2, 3}
    station.clock.show(ClockView(12, 0, (), "play", 0))
    assert lit(factory) == {0}
    station.show_timer(None)
    assert lit(factory) == set()
    station.close()


# -- a Pico that stutters or is unplugged mid-game (issue 31, "Bad input") -----------------------
class ScriptedPort:
    """A serial port whose reads return exactly the chunks given, one per read (a pty may
    merge writes; this one never does), with the firmware's own parser answering the
    host. `pulled`: every read and write raises, as pyserial does for a pulled cable."""

    def __init__(self) -> None:
        import queue

        self.device = ringproto.Device(12, "scripted")
        self.chunks: queue.Queue[bytes] = queue.Queue()
        self.pulled = False
        self.in_waiting = 0

    def write(self, data: bytes) -> int:
        self._alive()
        for reply in self.device.feed(data):
            self.chunks.put(reply.encode())
        return len(data)

    def flush(self) -> None:
        self._alive()

    def read(self, _size: int) -> bytes:
        import queue

        self._alive()
        try:
            return self.chunks.get(timeout=0.02)
        except queue.Empty:
            return b""

    def _alive(self) -> None:
        if self.pulled:
            from serial import SerialException

            raise SerialException("device reports readiness to read but returned no data")

    def close(self) -> None:
        pass


def stuttered_presses() -> list[bytes]:
    """Seats 0, 2, 3 and 4 pressed, in the chunks a stuttering USB link delivers."""
    p0, p2, p3, p4 = (ringproto.press_line(seat).encode() for seat in (0, 2, 3, 4))
    return [p0[:3], p0[3:7], p0[7:9], p0[9:],  # one press cut across four reads
            b"\x00\xff\x07", b"noise\r", b"\n", b"half a li", b"ne\n",  # garbage, half lines
            ringproto.press_line(1).encode()[:-3], p2,  # a line never finished, then a real one
            p3.replace(b"\n", b"\r\n"), b"\r\r\n\n", p4.replace(b"\n", b"\n\r")]  # CR/LF mixes


def test_a_stuttering_device_counts_exactly_its_real_presses(caplog):
    caplog.set_level("INFO", logger="hardware.ring")
    ports: list[ScriptedPort] = []

    def opener(*_args, **_kwargs):
        ports.append(ScriptedPort())
        ports[-1].chunks.put(ports[-1].device.boot().encode())
        return ports[-1]

    ticks = iter(range(0, 10_000, 1))  # a second between reports: no flood here
    seats: list[int] = []
    link = RingLink(ring_section("scripted://"), opener=opener, on_press=seats.append,
                    clock=lambda: float(next(ticks)))
    try:
        assert wait(lambda: link.status == "connected")
        for chunk in stuttered_presses():
            ports[-1].chunks.put(chunk)
        assert wait(lambda: link.snapshot()["stats"]["presses"] == 4)
        link.send(lights(shown()).ring)  # and the link still carries the clock
        assert link.wait_acked(1.0)
        assert seats == [0, 2, 3, 4]
        stats = link.snapshot()["stats"]
        assert (stats["presses_dropped"], stats["garbage"]) == (0, 3)  # noise, half line x2
        assert link.status == "connected" and len(ports) == 1
    finally:
        link.close()
    said = [r.getMessage() for r in caplog.records if "ignoring" in r.getMessage()]
    assert len(said) == 1 and "scripted://" in said[0]  # once, not per line or byte


def test_a_pico_pulled_mid_game_loses_nothing_and_presses_again_once_back(caplog):
    """SerialException on read and on write while the clock's outputs use the link: the
    app's calls never raise, the table is told once, the latest clock is shown on return
    and the seat buttons work again."""
    caplog.set_level("INFO", logger="hardware.ring")
    ports: list[ScriptedPort] = []
    unplugged = [False]
    refused = [0]

    def opener(*_args, **_kwargs):
        if unplugged[0]:
            from serial import SerialException

            refused[0] += 1
            raise SerialException("could not open port /dev/ttyACM0: No such file")
        ports.append(ScriptedPort())
        ports[-1].chunks.put(ports[-1].device.boot().encode())
        return ports[-1]

    main = MainThread()
    station = hardware.setup(section(clock_leds__enabled=False, treasure_leds__enabled=False,
                                     buzzer__enabled=False, buttons__enabled=False,
                                     ring__port="scripted://", ring__retry_interval=0.05,
                                     ring__retry_max=0.05, ring__ack_timeout=0.2),
                             main, ring_opener=opener)
    pressed: list[str] = []
    station.route(pressed.append)
    try:
        station.show_timer(shown(active=1, remaining_ms=300_000))
        assert station.ring.wait_acked(2.0)
        ports[-1].chunks.put(ringproto.press_line(1).encode())
        assert wait(lambda: len(main.queue) == 1)
        unplugged[0], ports[-1].pulled = True, True
        assert wait(lambda: station.ring.status == "disconnected")
        for remaining in (290_000, 280_000, 270_000):  # the clock goes on while it is away
            station.show_timer(shown(active=2, remaining_ms=remaining))
        assert not station.ring.acked
        problem = station.panel_state()["ring"]["problem"]
        assert problem.key in ("hardware.ring.lost", "hardware.ring.open_failed")
        assert wait(lambda: len([r for r in caplog.records
                                 if "cannot open" in r.getMessage()]) == 1)
        assert wait(lambda: refused[0] >= 4)  # more failed opens: none is said again
        unplugged[0] = False
        assert station.ring.wait_acked(2.0)
        latest = ringproto.parse_state(ringproto.unseal(
            frame_of(0, lights(shown(active=2, remaining_ms=270_000)).ring)))
        assert {**ports[-1].device.state, "seq": 0} == latest  # the clock as it is now
        ports[-1].chunks.put(ringproto.press_line(2).encode())
        assert wait(lambda: len(main.queue) == 2)
        main.drain()
        assert pressed == ["seat1", "seat2"]  # the press before the pull is not lost either
        assert station.ring.status == "connected"
    finally:
        station.close()
    said = [r.getMessage() for r in caplog.records if "LED ring" in r.getMessage()]
    assert sum("lost the LED ring" in line for line in said) == 1
    assert sum("cannot open the LED ring" in line for line in said) == 1


def test_seat_presses_work_again_on_a_new_pty_at_the_same_path(tmp_path):
    """The real port: the pty closed mid-game, a new one at the same path, a press."""
    device = FakeRing(tmp_path)
    device.plug()
    main = MainThread()
    station = hardware.setup(section(clock_leds__enabled=False, treasure_leds__enabled=False,
                                     buzzer__enabled=False, buttons__enabled=False,
                                     ring__port=str(device.path), ring__retry_interval=0.1,
                                     ring__ack_timeout=0.2), main)
    pressed: list[str] = []
    station.route(pressed.append)
    try:
        station.show_timer(shown(active=0, remaining_ms=120_000))
        assert station.ring.wait_acked(2.0)
        device.unplug()
        assert wait(lambda: station.ring.status == "disconnected")
        station.show_timer(shown(active=3, remaining_ms=60_000))
        device.plug()
        view = lights(shown(active=3, remaining_ms=60_000)).ring
        assert device.wait_for(lambda s: s is not None and (s["time"], s["treasures"]) == (
            view.time, list(view.treasures)), 2.0)
        device.write(ringproto.press_line(3).encode())
        assert wait(lambda: len(main.queue) == 1)
        main.drain()
        assert pressed == ["seat3"]
    finally:
        station.close()
        device.close()
