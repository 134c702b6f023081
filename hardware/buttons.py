"""The physical buttons: each accepted press becomes one call on the UI's main thread.

gpiozero calls back on its own threads, so a callback here only hands a function to
`dispatch_on_main`; what the press does (roll, undo, confirm) runs there, exactly as a
touch would. Debouncing is done here, not by the pin driver: the mock pins ignore
`bounce_time`, and this rule is the same everywhere. A press counts only when the button
was released and quiet for `debounce` seconds before it, so the chatter of a press and
of its release never adds a press.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from hardware.validate import NOT_FITTED

log = logging.getLogger(__name__)
BUTTONS = ("roll", "undo", "ok")
Dispatch = Callable[[Callable[[], None]], None]


class Buttons:
    def __init__(self, section: Mapping[str, Any], factory: Any, dispatch_on_main: Dispatch,
                 on_press: Callable[[str], None]) -> None:
        from gpiozero import Button

        self.debounce = float(section["debounce"])
        self.pins = {n: p for n, p in section["pins"].items() if p != NOT_FITTED}
        self._dispatch = dispatch_on_main
        self._on_press = on_press
        self._lock = threading.Lock()
        self._last_edge: dict[str, float] = {}
        self.accepted = dict.fromkeys(self.pins, 0)
        self.ignored = dict.fromkeys(self.pins, 0)
        self.devices: dict[str, Any] = {}
        for name, pin in self.pins.items():
            button = Button(pin, pull_up=section["pull_up"], bounce_time=None,
                            pin_factory=factory)
            button.when_pressed = lambda _d=None, n=name: self._edge(n, pressed=True)
            button.when_released = lambda _d=None, n=name: self._edge(n, pressed=False)
            self.devices[name] = button

    def _edge(self, name: str, pressed: bool) -> None:
        # runs on a gpiozero thread: decide, then only hand over to the main thread
        now = time.monotonic()
        with self._lock:
            last = self._last_edge.get(name)
            self._last_edge[name] = now
            if not pressed:
                return
            if last is not None and now - last < self.debounce:
                self.ignored[name] += 1
                return
            self.accepted[name] += 1
        self._dispatch(lambda: self._on_press(name))

    def is_pressed(self, name: str) -> bool:
        return name in self.devices and bool(self.devices[name].is_pressed)

    def close(self) -> None:
        for button in self.devices.values():
            button.close()
