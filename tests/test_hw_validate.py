"""The `hardware` config section: pins, tunes and the serial port are checked."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from companion import config
from companion.i18n import Translator
from hardware.validate import check_port, validate
from tests.helpers.checked import load
from tests.test_hw_support import section


def keys(problems):
    return {(k, m.key) for k, m in problems}


def test_default_map_is_clean_and_avoids_bus_pins(defaults):
    assert validate(section()) == []
    from hardware.validate import BUS_PINS, pin_uses

    used = [p for _, p in pin_uses(section())]
    assert len(used) == len(set(used))
    assert not set(used) & {p for pins in BUS_PINS.values() for p in pins}


def test_pin_used_twice_names_both_uses():
    problems = validate(section(buzzer__pin=4))
    (key, message), = [(k, m) for k, m in problems if m.key == "hardware.config.pin_twice"]
    assert key == "buzzer.pin"
    assert message.params == {"pin": 4, "other": "clock_leds.pins.0"}


def test_pin_not_on_header():
    problems = validate(section(buttons__pins={"roll": 28, "undo": -1, "ok": -1}))
    assert keys(problems) == {("buttons.pins.roll", "hardware.config.pin_missing")}


@pytest.mark.parametrize("pin, bus", [(0, "id_eeprom"), (3, "i2c"), (9, "spi"), (14, "uart")])
def test_reserved_pins_refused_unless_the_bus_is_freed(pin, bus):
    hw = section(buttons__pins={"roll": 21, "undo": pin, "ok": -1})
    problems = validate(hw)
    assert keys(problems) == {("buttons.pins.undo", "hardware.config.pin_reserved")}
    assert problems[0][1].params["pin"] == pin
    hw["free_bus_pins"][bus] = True
    assert validate(hw) == []


def test_disabled_parts_free_their_pins():
    hw = section(clock_leds__enabled=False, buzzer__pin=4)
    assert validate(hw) == []


def test_unknown_tune_and_bad_notes():
    hw = section()
    hw["buzzer"]["play"]["victory"] = "fanfare"
    hw["buzzer"]["tunes"]["roll"] = "C5/8 H5/8 A5/3"
    hw["buzzer"]["tunes"]["defeat"] = "C2/4"
    problems = validate(hw)
    assert ("buzzer.play.victory", "hardware.config.tune_unknown") in keys(problems)
    bad = [m.params["note"] for k, m in problems if m.key == "hardware.config.note_bad"]
    assert bad == ["H5/8", "A5/3"]
    assert ("buzzer.tunes.defeat", "hardware.config.note_range") in keys(problems)
    silent = section()
    silent["buzzer"]["play"]["roll"] = ""
    assert validate(silent) == []


@pytest.mark.parametrize("url", ["/dev/ttyACM0", "loop://", "loop://?logging=debug",
                                 "hwgrep://2e8a:0005", "spy:///dev/ttyACM0?file=x.log",
                                 "socket://localhost:7000", "rfc2217://pi:2217"])
def test_good_ports(url):
    assert check_port(url) is None


@pytest.mark.parametrize("url, key", [
    ("", "hardware.config.url_empty"),
    ("ttyACM0", "hardware.config.url_path"),
    ("usb://pico", "hardware.config.url_scheme"),
    ("hwgrep://", "hardware.config.url_incomplete"),
    ("socket://localhost", "hardware.config.url_host_port"),
])
def test_bad_ports_say_why(url, key):
    problems = validate(section(ring__port=url))
    (name, message), = problems
    assert name == "ring.port"
    assert message.params["url"] == url
    assert message.params["reason"].key == key


def test_a_user_file_error_names_file_line_and_pin(tmp_path: Path):

    user = tmp_path / "config.yaml"
    user.write_text("hardware:\n  buttons:\n    pins: {roll: 2, undo: 21, ok: -1}\n")
    with pytest.raises(config.ConfigError) as err:
        load(user)
    found = {(p.key, p.message.key, p.line) for p in err.value.problems}
    assert ("hardware.buttons.pins.roll", "hardware.config.pin_reserved", 3) in found
    text = [p.format(Translator("fr").message) for p in err.value.problems]
    assert any("GPIO2" in t and "I2C" in t for t in text)


def test_every_message_has_both_translations():
    en, fr = Translator("en"), Translator("fr")
    hw = section(buzzer__pin=4, ring__port="usb://x")
    hw["buzzer"]["play"]["roll"] = "nope"
    hw["buzzer"]["tunes"]["roll"] = "Q1/4"
    hw["buttons"]["pins"]["undo"] = 40
    hw["buttons"]["pins"]["ok"] = 14
    problems = validate(hw)
    assert len(problems) >= 6
    from companion.i18n import load_domain

    flat = {lang: set(load_domain(lang, "hardware")) for lang in ("en", "fr")}
    assert flat["en"] and flat["en"] == flat["fr"]
    for _, message in problems:
        assert en.has(message.key) and fr.has(message.key)
        assert "{" not in fr.message(message)


def test_import_hardware_is_light():
    code = ("import sys, hardware; from companion import config; "
            "config.load(use_default_user_file=False); "
            "print(sorted(m for m in ('gpiozero', 'serial', 'kivy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[1], check=True)
    assert out.stdout.strip() == "[]"


def test_the_app_start_refuses_a_bad_pin_in_the_users_file(tmp_path: Path):
    from ui.main import load_config

    user = tmp_path / "config.yaml"
    user.write_text("hardware:\n  buttons:\n    pins: {roll: 2}\n")
    with pytest.raises(config.ConfigError) as err:
        load_config(user)
    assert [(p.key, p.line) for p in err.value.problems] == [("hardware.buttons.pins.roll", 3)]
    user.write_text("language: fr\n")  # no hardware section: nothing of it is imported
    assert load_config(user).get("language") == "fr"
