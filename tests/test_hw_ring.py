"""The LED ring over a pseudo-terminal, with the firmware's own parser on the far side."""

from __future__ import annotations

import itertools
import time

import pytest

from hardware.clockview import ClockView, view_of
from hardware.firmware import ringproto
from hardware.mock import FakeRing
from hardware.ring import CONNECTED, DISCONNECTED, LOOPBACK, SILENT, RingLink
from tests.test_hw_support import evil_session, play_a_game, section


def ring_section(port, **changes):
    ring = section()["ring"]
    ring.update(port=str(port), retry_interval=0.1, ack_timeout=0.2, ready_timeout=1.0)
    ring.update(changes)
    return ring


@pytest.fixture
def fake(tmp_path):
    device = FakeRing(tmp_path)
    device.plug()
    yield device
    device.close()


def decoded(state):
    """What the device must hold for a game state, derived independently of hardware/."""
    treasures = [(c, None if t is None else t.steps)
                 for c, t in zip(state.params.colours, state.slots, strict=True)]
    return {"dial": state.params.dial_steps, "time": state.time,
            "mode": state.outcome or "play", "pending": state.pending_powers,
            "treasures": treasures}


def without_seq(frame):
    return {k: v for k, v in frame.items() if k != "seq"}


def wait(predicate, timeout=2.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not predicate():
        time.sleep(0.005)
    return predicate()


def test_the_device_holds_the_clock_after_every_event(fake):
    link = RingLink(ring_section(fake.path))
    session = evil_session(seed=3)
    try:
        for state in [session.state, *play_a_game(session, 25)]:
            link.send(view_of(state))
            assert link.wait_acked(1.0)
            assert without_seq(fake.state) == decoded(state)
        assert link.snapshot()["handshake"] == {"protocol": 1, "pixels": 24,
                                                "firmware": "fake-1"}
    finally:
        link.close()


def test_cable_pulled_mid_game_and_plugged_back(fake):
    link = RingLink(ring_section(fake.path))
    session = evil_session()
    try:
        states = play_a_game(session, 3)
        link.send(view_of(states[-1]))
        assert link.wait_acked(1.0)
        fake.unplug()
        assert wait(lambda: link.status == DISCONNECTED, 1.0)
        more = play_a_game(session, 4)  # the game goes on while the ring is away
        link.send(view_of(more[-1]))
        assert not link.acked
        fake.plug()
        plugged = time.monotonic()
        assert fake.wait_for(lambda s: s is not None and without_seq(s) == decoded(more[-1]),
                             timeout=1.0)
        assert time.monotonic() - plugged < 1.0
        assert link.status == CONNECTED
    finally:
        link.close()


def test_a_device_that_reboots_gets_the_state_again(fake):
    link = RingLink(ring_section(fake.path))
    try:
        view = ClockView(12, 4, (("red", 3),), "play", 0)
        link.send(view)
        assert link.wait_acked(1.0)
        fake.device.state = None  # power glitch: it forgot, and says READY again
        fake.write(fake._ready())
        assert fake.wait_for(lambda s: s is not None and s["time"] == 4, timeout=1.0)
    finally:
        link.close()


def test_garbage_from_the_device_is_survived(fake):
    link = RingLink(ring_section(fake.path))
    try:
        link.send(ClockView(12, 1, (("red", 5),), "play", 0))
        assert link.wait_acked(1.0)
        fake.write(b"\x00\xff\x03garbage\r\n" + b"A" * 500 + b"\nACK 99*0000\nREADY x\n")
        fake.write(ringproto.seal("ACK notanumber").encode())
        link.send(ClockView(12, 2, (("red", 4),), "play", 0))
        assert link.wait_acked(1.0)
        assert fake.state["time"] == 2
        assert link.snapshot()["stats"]["garbage"] >= 3
        assert link.status == CONNECTED
    finally:
        link.close()


def test_loop_round_trip():
    link = RingLink(ring_section("loop://"))
    try:
        view = ClockView(12, 7, (("red", 2), ("green", None), ("blue", 9)), "play", 1)
        link.send(view)
        assert link.wait_acked(1.0)
        assert link.status == LOOPBACK
        body = ringproto.unseal(link.snapshot()["last_frame"])
        frame = ringproto.parse_state(body)
        assert (frame["time"], frame["pending"], frame["treasures"]) == (
            7, 1, [("red", 2), ("green", None), ("blue", 9)])
    finally:
        link.close()


def test_no_device_at_start_then_plugged(tmp_path):
    fake = FakeRing(tmp_path)
    link = RingLink(ring_section(fake.path))
    try:
        start = time.monotonic()
        link.send(ClockView(12, 5, (), "play", 0))  # never blocks
        assert time.monotonic() - start < 0.5  # opening waits up to ready_timeout (1 s)
        assert wait(lambda: link.status == DISCONNECTED, 1.0)
        problem = link.snapshot()["problem"]
        assert problem.key == "hardware.ring.open_failed"
        assert problem.params["port"] == str(fake.path)
        fake.plug()
        assert fake.wait_for(lambda s: s is not None and s["time"] == 5, timeout=1.0)
    finally:
        link.close()
        fake.close()


def test_the_journal_says_what_went_wrong_in_words(tmp_path, caplog):
    """What `journalctl -u table-companion` shows: a sentence, not `Message('...')`."""
    fake = FakeRing(tmp_path)
    caplog.set_level("INFO", logger="hardware.ring")
    link = RingLink(ring_section(fake.path))
    try:
        assert wait(lambda: link.status == DISCONNECTED, 1.0)
        assert wait(lambda: any("LED ring" in r.getMessage() for r in caplog.records), 1.0)
    finally:
        link.close()
        fake.close()
    [line] = [r.getMessage() for r in caplog.records if "LED ring" in r.getMessage()]
    assert f"cannot open the LED ring on {fake.path}: " in line
    assert "Message(" not in line and "hardware.ring." not in line


def test_a_silent_device_is_reported_and_retried(tmp_path):
    fake = FakeRing(tmp_path, answer=False)
    fake.plug()
    link = RingLink(ring_section(fake.path, ready_timeout=0.3))
    try:
        assert wait(lambda: link.status == SILENT, 2.0)
        assert link.snapshot()["problem"].key == "hardware.ring.no_ready"
        fake.answer = True  # it wakes up: the next attempt connects
        link.send(ClockView(12, 6, (), "play", 0))
        assert link.wait_acked(2.0)
        assert fake.state["time"] == 6
    finally:
        link.close()
        fake.close()


def test_spy_url_logs_the_traffic(fake, tmp_path):
    log = tmp_path / "spy.txt"
    link = RingLink(ring_section(f"spy://{fake.path}?file={log}"))
    try:
        link.send(ClockView(12, 8, (), "play", 0))
        assert link.wait_acked(1.0)
    finally:
        link.close()
    assert "STATE 1" in log.read_text() or "53 54 41 54 45" in log.read_text()


def test_a_missing_port_is_tried_less_and_less_often():
    # each try scans the USB ports: a table without a ring must not pay that twice a second
    tries: list[float] = []

    def opener(*_args, **_kwargs):
        tries.append(time.monotonic())
        raise OSError("no such device")

    link = RingLink(ring_section("hwgrep://2e8a:0005", retry_interval=0.05, retry_max=0.2),
                    opener=opener)
    try:
        time.sleep(1.2)
    finally:
        link.close()
    gaps = [b - a for a, b in itertools.pairwise(tries)]
    assert link.status == DISCONNECTED
    assert 5 <= len(tries) <= 9  # 0.05 + 0.1 + 0.2 + 0.2 ...: not 24 tries at 0.05 s
    assert gaps[1] > gaps[0] * 1.5 and max(gaps) < 0.3
