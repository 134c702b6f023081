"""On a Raspberry Pi (known from its device tree) mock pins are a fault: said on screen
and in the log, with what to do. Off a Pi they are the normal desktop set-up."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import pytest

import hardware
from companion.i18n import Translator
from hardware import gpiochips, pins
from tests.helpers import gpiotree
from tests.test_hw_support import MainThread, section

PI5 = b"Raspberry Pi 5 Model B Rev 1.0\x00"


@pytest.fixture
def board(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Make this machine look like a board whose GPIO cannot be opened."""
    from gpiozero import Device

    def make(model: bytes | None, chips: int = 0, reason: str = "can not open gpiochip"):
        model_file = tmp_path / "model"
        if model is not None:
            model_file.write_bytes(model)
        dev, sys = gpiotree.make(tmp_path / "tree", gpiotree.PI5_CHIP0[:chips])
        monkeypatch.setattr(pins, "MODEL_FILE", model_file)
        monkeypatch.setattr(gpiochips, "DEV", dev)
        monkeypatch.setattr(gpiochips, "SYS", sys)
        monkeypatch.setattr(pins, "_said_mocked", False)
        monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
        monkeypatch.setattr(Device, "pin_factory", None)

        def no_gpio(_choice: str) -> Any:
            raise OSError(reason)

        monkeypatch.setattr(pins, "_real_factory", no_gpio)

    return make


def text(message: Any) -> str:
    return Translator("en").message(message)


def test_the_model_comes_from_the_device_tree(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_bytes(PI5)
    assert pins.pi_model(model) == "Raspberry Pi 5 Model B Rev 1.0"
    model.write_bytes(b"QEMU Virtual Machine\x00")
    assert pins.pi_model(model) is None
    assert pins.pi_model(tmp_path / "absent") is None


def test_a_pi_on_mock_pins_is_an_error_in_the_log_with_what_to_do(
        board, caplog: pytest.LogCaptureFixture) -> None:
    board(PI5, chips=0)
    with caplog.at_level(logging.WARNING):
        station = hardware.setup(section(), MainThread())
    try:
        assert station.mocked
        assert station.gpio_problem is not None
        said = text(station.gpio_problem)
        assert "Raspberry Pi 5 Model B Rev 1.0" in said
        assert "can not open gpiochip" in said  # the reason
        assert "/dev/gpiochip" in said  # what to do: none here
        assert station.gpio_problem in station.problems
        errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
        assert any("No GPIO on this Raspberry Pi 5" in e for e in errors)
        assert any("/dev/gpiochip" in e for e in errors)  # the journal says what to do
    finally:
        station.close()


def test_what_to_do_follows_what_is_missing(board, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    board(PI5, chips=1)  # the RP1, the header's chip
    chip = str(tmp_path / "tree/dev/gpiochip0")
    monkeypatch.setattr(os, "access", lambda *_a, **_k: False)
    assert "usermod -aG gpio" in text(pins.gpio_problem("x"))
    assert chip in text(pins.gpio_problem("x"))
    monkeypatch.setattr(os, "access", lambda *_a, **_k: True)
    monkeypatch.setattr(pins.importlib.util, "find_spec", lambda _name: None)
    assert "python3-lgpio" in text(pins.gpio_problem("x"))


def test_off_a_pi_the_mock_is_quiet(board, caplog: pytest.LogCaptureFixture) -> None:
    board(None)
    with caplog.at_level(logging.WARNING):
        station = hardware.setup(section(), MainThread())
    try:
        assert station.mocked and station.gpio_problem is None
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    finally:
        station.close()


def test_mock_pins_asked_for_on_a_pi_are_no_fault(board) -> None:
    board(PI5)
    station = hardware.setup(section(pin_factory="mock"), MainThread())
    try:
        assert station.mocked and station.gpio_problem is None
    finally:
        station.close()


@pytest.mark.ui
@pytest.mark.parametrize(("language", "said"), [("en", "No GPIO on this Raspberry Pi 5"),
                                                ("fr", "Pas de GPIO sur ce Raspberry Pi 5")])
def test_the_screen_says_it_on_a_pi(board, launch, language: str, said: str) -> None:
    board(PI5, chips=0)
    driver = launch(language)
    app = driver.app
    from kivy.clock import Clock

    # as `companion` does after the first frame (load_hardware)
    app.hardware = hardware.setup(app.settings, lambda fn: Clock.schedule_once(lambda _dt: fn()))
    app._wire_hardware()
    driver.pump(3)
    assert driver.has("gpio_problem")
    shown = driver.visible("gpio_problem.text").text
    assert said in shown and "/dev/gpiochip" in shown
    driver.screenshot(f"pi-without-gpio-{language}")
    driver.tap("gpio_problem.ok")
    assert not driver.has("gpio_problem")


@pytest.mark.ui
@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_screen_names_the_chips_seen_when_none_is_the_headers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, launch, language: str) -> None:
    """A Pi 5 whose kernel shows the SoC's chips but not the RP1: the dialog names
    every chip seen and what to do, and fits the screen."""
    from gpiozero import Device
    from kivy.clock import Clock

    soc_only = [chip for chip in gpiotree.PI5_11_TO_15 if chip[1] != "pinctrl-rp1"]
    dev, sys = gpiotree.make(tmp_path / "tree", soc_only, chip_class=True)
    (tmp_path / "model").write_bytes(PI5)
    monkeypatch.setattr(pins, "MODEL_FILE", tmp_path / "model")
    monkeypatch.setattr(gpiochips, "DEV", dev)
    monkeypatch.setattr(gpiochips, "SYS", sys)
    monkeypatch.setattr(pins, "_said_mocked", False)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)
    driver = launch(language)
    app = driver.app
    app.hardware = hardware.setup(app.settings, lambda fn: Clock.schedule_once(lambda _dt: fn()))
    app._wire_hardware()
    driver.pump(3)
    assert driver.has("gpio_problem")
    shown = driver.visible("gpio_problem.text")
    for number in (11, 12, 14, 15):
        assert f"gpiochip{number} (gpio-brcmstb@" in shown.text
    assert "pinctrl-rp1" in shown.text and "doctor --report" in shown.text
    dialog = driver.visible("gpio_problem")
    assert shown.y >= dialog.y and shown.top <= dialog.top
    from ui.widgets.text_height import text_height

    assert text_height(shown, shown.width) <= shown.height  # all of it shown, none cut off
    driver.screenshot(f"pi-without-header-chip-{language}")
    app.hardware.close()
