"""The ring's line protocol and pixels, as the Pico runs them (the same files)."""

from __future__ import annotations

import binascii

from hypothesis import given
from hypothesis import strategies as st

from hardware.firmware import ringpixels, ringproto

colours = st.sampled_from(["red", "green", "blue", "yellow"])


def test_crc_is_ccitt_false():
    for data in (b"", b"123456789", b"STATE 1 3 12 5 play 0 red=4"):
        assert ringproto.crc16(data) == binascii.crc_hqx(data, 0xFFFF)


def test_a_frame_as_written_on_the_wire():
    line = ringproto.encode_state(3, 12, 5, "play", 1, [("red", 4), ("green", None)])
    body = "STATE 1 3 12 5 play 1 red=4 green=-"
    assert line == f"{body}*{binascii.crc_hqx(body.encode(), 0xFFFF):04X}\n"


@given(seq=st.integers(0, 10**6), dial=st.integers(2, 24), data=st.data(),
       pending=st.integers(0, 3), mode=st.sampled_from(ringproto.MODES))
def test_state_round_trip(seq, dial, data, pending, mode):
    time = data.draw(st.integers(0, dial - 1))
    treasures = data.draw(st.lists(st.tuples(colours, st.none() | st.integers(1, dial - 1)),
                                   max_size=4))
    line = ringproto.encode_state(seq, dial, time, mode, pending, treasures)
    device = ringproto.Device(24, "t")
    assert device.feed(line.encode()) == [ringproto.seal(f"ACK {seq}")]
    assert device.state == {"seq": seq, "dial": dial, "time": time, "mode": mode,
                            "pending": pending, "treasures": treasures}


@given(garbage=st.binary(max_size=600))
def test_garbage_never_stops_the_device(garbage):
    device = ringproto.Device(12, "t")
    device.feed(garbage)
    line = ringproto.encode_state(7, 12, 0, "play", 0, [("red", 3)])
    replies = device.feed(b"\n" + line.encode())
    assert replies[-1] == ringproto.seal("ACK 7")
    assert device.state["treasures"] == [("red", 3)]


def test_damaged_frames_are_refused_and_the_state_kept():
    device = ringproto.Device(12, "t")
    good = ringproto.encode_state(1, 12, 2, "play", 0, [("red", 3)])
    device.feed(good.encode())
    damaged = good.replace("red=3", "red=4")
    assert device.feed(damaged.encode()) == [ringproto.seal("NAK - checksum")]
    assert device.feed(ringproto.seal("STATE 1 2 12 14 play 0").encode()) == [
        ringproto.seal("NAK - time")]
    assert device.feed(ringproto.seal("STATE 9 2 12 1 play 0").encode()) == [
        ringproto.seal("NAK - version")]
    assert device.state["time"] == 2 and device.frames == 1 and device.rejected == 3


def test_hello_gets_ready_and_long_lines_are_dropped():
    device = ringproto.Device(24, "fw")
    replies = device.feed(b"x" * 1000 + b"\n" + ringproto.seal("HELLO 1").encode())
    assert replies[-1] == ringproto.ready_line(24, "fw")
    assert ringproto.parse_ready(ringproto.unseal(replies[-1])) == (1, 24, "fw")
    assert device._lines.dropped >= 4


def test_pixels_show_time_and_treasures():
    state = {"seq": 1, "dial": 12, "time": 3, "mode": "play", "pending": 0,
             "treasures": [("red", 4), ("green", None), ("blue", 2)]}
    pixels = ringpixels.render(state, 24, now_ms=0, brightness=255)
    assert pixels[6] == ringpixels.TIME  # position 3 of 12 on 24 pixels
    assert pixels[14] == ringpixels.COLOURS["red"]  # position 7
    assert pixels[10] == ringpixels.COLOURS["blue"]  # position 5, lit in the blink's first half
    assert ringpixels.render(state, 24, now_ms=450, brightness=255)[10] == (0, 0, 0)
    assert sum(1 for p in pixels if p != (0, 0, 0)) == 3
    assert set(ringpixels.render(None, 12)) == {ringpixels.IDLE}
