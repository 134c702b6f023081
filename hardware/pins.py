"""Choosing the pin factory: the Pi's GPIO when there is one, gpiozero's mock otherwise.

On a Raspberry Pi the header's GPIO chip is found by its label (`hardware.gpiochips`)
and handed to gpiozero's LGPIOFactory. On a desktop the mock is expected. On a Pi (known
from its device tree) it is a fault: `gpio_problem` says why and what to do, for the
screen and the log.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import warnings
from pathlib import Path
from typing import Any

from companion.messages import Message, msg
from hardware import gpiochips

log = logging.getLogger(__name__)
_said_mocked = False
# Where the kernel names the board; tests and images point it elsewhere.
MODEL_FILE = Path(os.environ.get("COMPANION_DEVICE_TREE_MODEL", "/proc/device-tree/model"))


def pi_model(model_file: Path | None = None) -> str | None:
    """"Raspberry Pi 5 Model B Rev 1.0" on a Pi, None elsewhere."""
    try:
        raw = (model_file or MODEL_FILE).read_bytes()
    except OSError:
        return None
    model = raw.split(b"\0", 1)[0].decode("utf-8", "replace").strip()
    return model if model.startswith("Raspberry Pi") else None


def gpio_problem(reason: str, model_file: Path | None = None) -> Message | None:
    """On a Pi, why its GPIO is not used and what to do; None off a Pi."""
    model = pi_model(model_file)
    if model is None:
        return None
    found = gpiochips.chips()
    if not found:
        fix = msg("hardware.gpio.fix_no_chip")
    elif not any(os.access(chip.path, os.R_OK | os.W_OK) for chip in found):
        fix = msg("hardware.gpio.fix_access", chip=str(found[0].path))
    elif gpiochips.header_chip(found) is None:
        fix = msg("hardware.gpio.fix_no_header",
                  chips=", ".join(chip.describe(lines=False) for chip in found),
                  labels=", ".join(gpiochips.HEADER_LABELS))
    elif importlib.util.find_spec("lgpio") is None:
        fix = msg("hardware.gpio.fix_lgpio")
    else:
        fix = msg("hardware.gpio.fix_other")
    return msg("hardware.gpio.mocked_on_pi", model=model, reason=reason, fix=fix)


def mock_factory() -> Any:
    """gpiozero's MockFactory with PWM-capable pins (the buzzer needs PWM)."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    current = Device.pin_factory
    if isinstance(current, MockFactory):
        # reuse it so tests and the virtual panel see the same pins as the devices
        if not issubclass(current.pin_class, MockPWMPin) and not current.pins:
            current.pin_class = MockPWMPin
        return current
    factory = MockFactory(pin_class=MockPWMPin)
    Device.pin_factory = factory
    return factory


def choose_factory(choice: str = "auto") -> tuple[Any, bool]:
    """(pin factory, mocked). Never raises: without GPIO, the mock is used and the log
    says so once. `last_fallback` then holds why, unless the mock was asked for (config,
    $GPIOZERO_PIN_FACTORY, a factory already set): on a Pi that is a fault to show (see
    `gpio_problem`)."""
    global _said_mocked, last_fallback
    last_fallback = None
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    if choice == "auto" and os.environ.get("GPIOZERO_PIN_FACTORY", "").lower() == "mock":
        choice = "mock"
    if choice == "auto" and Device.pin_factory is not None:
        factory = Device.pin_factory
        return (mock_factory(), True) if isinstance(factory, MockFactory) else (factory, False)
    if choice != "mock":
        try:
            factory = _real_factory(choice)
        except Exception as exc:  # any failure to reach GPIO means: no GPIO here
            reason = str(exc)
        else:
            Device.pin_factory = factory
            return factory, False
    else:
        reason = "asked for in the config"
    if choice != "mock":
        last_fallback = reason
    if not _said_mocked:
        if last_fallback is not None and pi_model() is not None:
            log.error("No GPIO on this %s (%s): using mock pins, the LEDs, buzzer and "
                      "buttons do nothing", pi_model(), reason)
        else:
            log.warning("No GPIO (%s): using gpiozero's mock pins", reason)
        _said_mocked = True
    return mock_factory(), True


last_fallback: str | None = None  # why the last choice fell back to mock, unasked


def _real_factory(choice: str) -> Any:
    from gpiozero import Device

    if (choice in ("auto", "lgpio") and pi_model() is not None
            and not os.environ.get("GPIOZERO_PIN_FACTORY")):
        header = _header_factory()
        if header is not None:
            return header
    if choice == "auto":
        with warnings.catch_warnings(record=True) as fallbacks:
            warnings.simplefilter("always")
            try:
                return Device._default_pin_factory()  # honours $GPIOZERO_PIN_FACTORY
            finally:
                # expected on a desktop; on a Pi each one is a missing piece (a Pi 4
                # on the native factory has no PWM for the buzzer)
                if pi_model() is not None:
                    for fallback in fallbacks:
                        log.warning("GPIO: %s", fallback.message)
    modules = {
        "lgpio": ("gpiozero.pins.lgpio", "LGPIOFactory"),
        "rpigpio": ("gpiozero.pins.rpigpio", "RPiGPIOFactory"),
        "pigpio": ("gpiozero.pins.pigpio", "PiGPIOFactory"),
        "native": ("gpiozero.pins.native", "NativeFactory"),
    }
    module, name = modules[choice]
    return getattr(__import__(module, fromlist=[name]), name)()


def _header_factory() -> Any:
    """On a Pi: gpiozero's lgpio factory on the header's chip, found by label; None
    if lgpio is not installed (then gpiozero's other factories are tried, as before).
    Raises NoHeaderChip when no chip has a header's label (the log names those seen)."""
    found = gpiochips.chips()
    header = gpiochips.header_chip(found)
    if header is None:
        log.warning("GPIO: no chip with the header's label (%s); seen: %s",
                    ", ".join(gpiochips.HEADER_LABELS),
                    ", ".join(chip.describe() for chip in found) or "no /dev/gpiochip*")
        raise gpiochips.NoHeaderChip(found)
    if importlib.util.find_spec("lgpio") is None:
        return None
    log.info("GPIO: the 40-pin header is %s", header.describe())
    return lgpio_factory(header.number)


def lgpio_factory(chip: int) -> Any:
    from gpiozero.pins.lgpio import LGPIOFactory

    return LGPIOFactory(chip=chip)
