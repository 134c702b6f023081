"""Choosing the pin factory: the Pi's GPIO when there is one, gpiozero's mock otherwise."""

from __future__ import annotations

import logging
import os
import warnings
from typing import Any

log = logging.getLogger(__name__)
_said_mocked = False


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
    says so once."""
    global _said_mocked
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
    if not _said_mocked:
        log.warning("No GPIO (%s): using gpiozero's mock pins", reason)
        _said_mocked = True
    return mock_factory(), True


def _real_factory(choice: str) -> Any:
    from gpiozero import Device

    if choice == "auto":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the fallbacks are expected on a desktop
            return Device._default_pin_factory()  # honours $GPIOZERO_PIN_FACTORY
    modules = {
        "lgpio": ("gpiozero.pins.lgpio", "LGPIOFactory"),
        "rpigpio": ("gpiozero.pins.rpigpio", "RPiGPIOFactory"),
        "pigpio": ("gpiozero.pins.pigpio", "PiGPIOFactory"),
        "native": ("gpiozero.pins.native", "NativeFactory"),
    }
    module, name = modules[choice]
    return getattr(__import__(module, fromlist=[name]), name)()
