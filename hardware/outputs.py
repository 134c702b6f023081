"""The GPIO outputs: the 12 clock LEDs, the treasure LEDs, each following a ClockView
(Pr. Evil's dial) or the table clock's lights (`hardware.timerview`)."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from hardware.blinker import Blinker
from hardware.clockview import FAST, OFF, SLOW, STEADY, ClockView, led_index, treasure_mode


class ClockLeds:
    """A gpiozero LEDBoard, one LED per dial position from XII clockwise; the time
    marker's position is lit."""

    def __init__(self, section: Mapping[str, Any], factory: Any) -> None:
        from gpiozero import LEDBoard

        self.pins = list(section["pins"])
        self.board = LEDBoard(*self.pins, active_high=section["active_high"],
                              pin_factory=factory)
        self.lit: int | None = None
        self.lit_set: frozenset[int] = frozenset()

    def show(self, view: ClockView) -> None:
        lit = led_index(view.time, view.dial, len(self.pins)) if view.dial else None
        self.light(frozenset() if lit is None else frozenset({lit}))

    def light(self, lit: frozenset[int]) -> None:
        """Light exactly these LEDs (the table clock's draining ring or active seat)."""
        if lit == self.lit_set:
            return
        self.board.value = tuple(i in lit for i in range(len(self.pins)))
        self.lit_set = lit
        self.lit = min(lit) if lit else None

    def close(self) -> None:
        self.board.close()


class TreasureLeds:
    """Three LEDs, or the three channels of one RGBLED: steady while the treasure is
    safe, blinking when it is close, faster when it is next, off for an empty slot."""

    def __init__(self, section: Mapping[str, Any], factory: Any, blinker: Blinker) -> None:
        from gpiozero import LED, RGBLED

        self.colours = list(section["pins"])
        self.warn, self.urgent = section["warn_steps"], section["urgent_steps"]
        self.rates = {SLOW: float(section["slow_hz"]), FAST: float(section["fast_hz"])}
        self.blinker = blinker
        self.modes = dict.fromkeys(self.colours, OFF)
        self.devices: list[Any] = []
        pins = section["pins"]
        if section["kind"] == "rgb":
            rgb = RGBLED(*(pins[c] for c in self.colours[:3]), active_high=section["active_high"],
                         pwm=False, pin_factory=factory)
            self.devices.append(rgb)
            lock = threading.Lock()
            levels = [0, 0, 0]

            def channel(index: int) -> Any:
                def write(on: bool) -> None:
                    with lock:
                        levels[index] = int(on)
                        rgb.value = tuple(levels)
                return write

            for i, colour in enumerate(self.colours[:3]):
                blinker.add(f"treasure.{colour}", channel(i))
        else:
            for colour in self.colours:
                led = LED(pins[colour], active_high=section["active_high"], pin_factory=factory)
                self.devices.append(led)
                blinker.add(f"treasure.{colour}", lambda on, led=led: led.on() if on else led.off())

    def show(self, view: ClockView) -> None:
        for colour in self.colours:
            mode = treasure_mode(view.steps(colour), self.warn, self.urgent)
            self.modes[colour] = mode
            self.blinker.set(f"treasure.{colour}", mode != OFF, self.rates.get(mode, 0.0))

    def signal(self, colours: frozenset[str], blink: str) -> None:
        """The table clock's signal: these colours lit, steady ("") or blinking at the
        warned ("slow") or urgent ("fast") rate; the others off."""
        rate = {"slow": self.rates[SLOW], "fast": self.rates[FAST]}.get(blink, 0.0)
        mode = {"slow": SLOW, "fast": FAST}.get(blink, STEADY)
        for colour in self.colours:
            on = colour in colours
            self.modes[colour] = mode if on else OFF
            self.blinker.set(f"treasure.{colour}", on, rate if on else 0.0)

    def close(self) -> None:
        for device in self.devices:
            device.close()
