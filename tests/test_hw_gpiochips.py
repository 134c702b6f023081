"""The 40-pin header's GPIO chip is found by its label, whatever its number, and handed
to the pin factory; without it, the message names the chips seen and what to do.

Made-up /dev and /sys trees (tests/helpers/gpiotree.py) stand for a Pi 4, a Pi 3, a
Pi 5 on the three numberings its kernels have used, and a machine without GPIO.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.i18n import Translator
from hardware import gpiochips, pins
from tests.helpers import gpiotree

PI5 = b"Raspberry Pi 5 Model B Rev 1.0\x00"
PI4 = b"Raspberry Pi 4 Model B Rev 1.5\x00"


@pytest.mark.parametrize(("board", "chip_class", "header", "label"), [
    (gpiotree.PI4, False, 0, "pinctrl-bcm2711"),
    (gpiotree.PI3, False, 0, "pinctrl-bcm2835"),
    (gpiotree.PI5_CHIP4, False, 4, "pinctrl-rp1"),
    (gpiotree.PI5_CHIP0, False, 0, "pinctrl-rp1"),
    (gpiotree.PI5_11_TO_15, False, 13, "pinctrl-rp1"),
    (gpiotree.PI5_11_TO_15, True, 13, "pinctrl-rp1"),  # with the 6.17+ chipN class
])
def test_the_header_chip_is_found_by_label(tmp_path: Path, board: gpiotree.Board,
                                           chip_class: bool, header: int, label: str) -> None:
    dev, sys = gpiotree.make(tmp_path, board, chip_class=chip_class)
    found = gpiochips.chips(dev, sys)
    assert [chip.number for chip in found] == sorted(number for number, *_ in board)
    chip = gpiochips.header_chip(found)
    assert chip is not None
    assert (chip.number, chip.label, chip.path) == (header, label, dev / f"gpiochip{header}")
    assert chip.lines == next(lines for number, _, lines, _ in board if number == header)


def test_chips_of_one_device_are_not_told_apart_by_the_legacy_sysfs(tmp_path: Path) -> None:
    """Two chips under one parent device (the Pi 5's SoC banks): which legacy class
    device is which is not known, so no label is guessed; with chipN it is."""
    dev, sys = gpiotree.make(tmp_path / "legacy", gpiotree.PI5_CHIP0)
    labels = {chip.number: chip.label for chip in gpiochips.chips(dev, sys)}
    assert labels == {0: "pinctrl-rp1", 10: None, 11: None, 12: None, 13: None}
    dev, sys = gpiotree.make(tmp_path / "new", gpiotree.PI5_CHIP0, chip_class=True)
    labels = {chip.number: chip.label for chip in gpiochips.chips(dev, sys)}
    assert labels[11] == "gpio-brcmstb@107d508520"


def test_no_gpio_at_all(tmp_path: Path) -> None:
    dev, sys = gpiotree.make(tmp_path, [])
    assert gpiochips.chips(dev, sys) == []
    assert gpiochips.header_chip([]) is None


@pytest.fixture
def board(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """This machine made to look like a Pi with `board`'s chips, and lgpio's factory
    replaced by one that records the chip it is given."""
    from gpiozero import Device

    given: list[int] = []

    def make(model: bytes, chips: gpiotree.Board, sysfs: bool = True) -> list[int]:
        dev, sys = gpiotree.make(tmp_path, chips, sysfs=sysfs)
        (tmp_path / "model").write_bytes(model)
        monkeypatch.setattr(pins, "MODEL_FILE", tmp_path / "model")
        monkeypatch.setattr(gpiochips, "DEV", dev)
        monkeypatch.setattr(gpiochips, "SYS", sys)
        monkeypatch.setattr(pins, "_said_mocked", False)
        monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
        monkeypatch.setattr(Device, "pin_factory", None)
        monkeypatch.setattr(pins.importlib.util, "find_spec", lambda _name: object())
        monkeypatch.setattr(pins.os, "access", lambda *_a, **_k: True)

        def factory(chip: int) -> Any:
            given.append(chip)
            return ("lgpio", chip)

        monkeypatch.setattr(pins, "lgpio_factory", factory)
        return given

    return make


def text(message: Any, language: str = "en") -> str:
    return Translator(language).message(message)


@pytest.mark.parametrize(("chips", "number"), [(gpiotree.PI5_CHIP4, 4),
                                               (gpiotree.PI5_CHIP0, 0),
                                               (gpiotree.PI5_11_TO_15, 13)])
def test_the_pin_factory_is_given_the_header_chip(board, chips: gpiotree.Board,
                                                  number: int) -> None:
    given = board(PI5, chips)
    factory, mocked = pins.choose_factory("auto")
    assert (factory, mocked) == (("lgpio", number), False)
    assert given == [number]
    given.clear()
    pins.choose_factory("lgpio")  # asked for by name in the config: the same chip
    assert given == [number]


def test_a_pi_4_gets_its_bcm2711_chip(board) -> None:
    given = board(PI4, gpiotree.PI4)
    assert pins.choose_factory("auto") == (("lgpio", 0), False)
    assert given == [0]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_without_a_header_chip_the_message_names_the_chips_seen(board, language: str) -> None:
    """A Pi 5 whose kernel shows only the SoC's chips (no RP1): mock pins, and the
    message names every chip seen and the labels looked for."""
    board(PI5, [chip for chip in gpiotree.PI5_11_TO_15 if chip[1] != "pinctrl-rp1"])
    _, mocked = pins.choose_factory("auto")
    assert mocked
    assert "header" in (pins.last_fallback or "")
    said = text(pins.gpio_problem(pins.last_fallback or ""), language)
    for number in (11, 12, 14, 15):
        assert f"gpiochip{number}" in said
    assert "pinctrl-rp1" in said and "pinctrl-bcm2711" in said and "pinctrl-bcm2835" in said
    assert "doctor --report" in said and "apt full-upgrade" in said


def test_chips_whose_labels_nobody_tells_are_listed_as_unknown(board) -> None:
    board(PI5, gpiotree.PI5_CHIP0, sysfs=False)
    _, mocked = pins.choose_factory("auto")
    assert mocked
    said = text(pins.gpio_problem(pins.last_fallback or ""))
    assert "gpiochip0 (?)" in said and "gpiochip13 (?)" in said


def test_no_chip_at_all_says_so(board) -> None:
    board(PI5, [])
    _, mocked = pins.choose_factory("auto")
    assert mocked
    said = text(pins.gpio_problem(pins.last_fallback or ""))
    assert "No /dev/gpiochip* here" in said
