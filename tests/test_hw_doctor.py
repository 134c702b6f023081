"""`companion doctor` against mock pins and a fake ring."""

from __future__ import annotations

import io
import threading
import time

import pytest
from gpiozero import Device

from hardware import doctor
from hardware.mock import FakeRing, recording_factory


@pytest.fixture
def factory():
    Device.pin_factory = recording_factory()
    yield Device.pin_factory
    Device.pin_factory.reset()


def test_doctor_lights_plays_listens_and_finds_the_ring(factory, tmp_path):
    ring = FakeRing(tmp_path, firmware="pico-9")
    ring.plug()
    user = tmp_path / "config.yaml"
    user.write_text("language: en\nhardware:\n  buttons:\n    pins: {roll: 21, undo: 5, ok: -1}\n"
                    "  clock_leds:\n    pins: [4, 17, 27, 22, 6, 13, 19, 26, 20, 23, 24, 12]\n"
                    "  treasure_leds:\n    pins: {red: 25, green: 16, blue: 7}\n"
                    "  free_bus_pins: {spi: true}\n")
    out = io.StringIO()

    def press_roll():
        deadline = time.monotonic() + 5
        while "Press each button" not in out.getvalue() and time.monotonic() < deadline:
            time.sleep(0.01)
        factory.pin(21).drive_low()
        time.sleep(0.02)  # a real press lasts longer than buttons.min_press
        factory.pin(21).drive_high()

    presser = threading.Thread(target=press_roll)
    presser.start()
    try:
        code = doctor.main(["--mock", "--seconds", "0.5", "--step", "0", "--config", str(user),
                            "--port", str(ring.path)], out=out)
    finally:
        presser.join()
        ring.close()
    text = out.getvalue()
    assert code == 0, text
    assert "mock pins" in text
    for index, pin in enumerate([4, 17, 27, 22, 6, 13, 19, 26, 20, 23, 24, 12]):
        assert f"clock LED {index} (GPIO{pin}) on" in text
        factory.pin(pin).assert_states([False, True, False])
    assert "blue treasure LED (GPIO7) on" in text
    assert "A5 880.0 Hz" in text and "A6 1760.0 Hz" in text
    assert factory.pin(18).tones()[1:] == pytest.approx(
        [880.0 * 2 ** (s / 12) for s in doctor.SCALE])
    assert "ROLL (GPIO21) pressed" in text
    assert "UNDO (GPIO5): no press seen" in text
    assert "handshake: protocol 1, 24 pixels, firmware pico-9" in text
    assert "test frame acknowledged" in text
    assert ring.state["treasures"] == [("red", 3), ("green", 6), ("blue", 9)]


def test_doctor_without_a_ring_says_so_in_french(factory, tmp_path):
    user = tmp_path / "config.yaml"
    user.write_text(f"language: fr\nhardware:\n  ring:\n    port: {tmp_path}/none\n"
                    "    ready_timeout: 0.2\n")
    out = io.StringIO()
    code = doctor.main(["--mock", "--seconds", "0", "--step", "0", "--config", str(user)],
                       out=out)
    text = out.getvalue()
    assert code == 1
    assert "pas d'anneau" in text and f"{tmp_path}/none" in text
    assert "1 problème(s)" in text


def test_doctor_reports_a_bad_config(tmp_path):
    user = tmp_path / "config.yaml"
    user.write_text("hardware:\n  buzzer:\n    pin: 4\n")
    out = io.StringIO()
    assert doctor.main(["--mock", "--config", str(user)], out=out) == 2
    assert "GPIO4" in out.getvalue() and "clock_leds.pins.0" in out.getvalue()
