"""The physical buttons: each accepted press becomes one call on the UI's main thread.

gpiozero calls back on its own threads, so a callback here only hands a function to
`dispatch_on_main`; what the press does (roll, undo, confirm) runs there, exactly as a
touch would. Debouncing is done here, not by the pin driver: the mock pins ignore
`bounce_time`, and these rules are the same everywhere:

- a press counts once the button has been held `min_press` seconds without a break
  (a glitch on the line, a spark, a 0.5 ms spike, is not a press); it acts then, with
  no other delay;
- after an accepted press is released, a new press within `debounce` seconds of the
  last release edge is the contacts bouncing, not a second press.

Only edge times are compared, never the time a callback or a timer thread runs: each
edge is timed by the pin's own timestamp (gpiozero hands every pin callback the edge's
`ticks`: lgpio's kernel timestamp on a Pi, the mock pin's time of the change), so a
0.5 ms glitch is 0.5 ms however late a busy machine runs its callbacks. A press held at
least `min_press` counts even when the timer runs late (its release then accepts it);
a timer that wakes while the line reads released leaves the decision to that release
edge, whose callback may not have run yet.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from hardware.validate import NOT_FITTED

log = logging.getLogger(__name__)
BUTTONS = ("roll", "undo", "ok")
Dispatch = Callable[[Callable[[], None]], None]
MIN_PRESS = 0.005  # seconds, when the config does not say


@dataclass
class _Line:
    """What one button's edges have said so far."""

    edges: int = 0  # every edge: a pending press checks that none came since it
    pressed_at: float | None = None  # the press edge waiting to be held long enough
    down: bool = False  # an accepted press not yet released
    quiet_until: float = float("-inf")  # press edges before this: bounces of a release
    timer: threading.Timer | None = None


class Buttons:
    def __init__(self, section: Mapping[str, Any], factory: Any, dispatch_on_main: Dispatch,
                 on_press: Callable[[str], None]) -> None:
        from gpiozero import Button

        self.debounce = float(section["debounce"])
        self.min_press = float(section.get("min_press", MIN_PRESS))
        self.pins = {n: p for n, p in section["pins"].items() if p != NOT_FITTED}
        self._dispatch = dispatch_on_main
        self._on_press = on_press
        self._factory = factory
        self._epoch = factory.ticks()  # ticks are opaque: seconds are counted from here
        self._lock = threading.Lock()
        self._lines = {name: _Line() for name in self.pins}
        self.accepted = dict.fromkeys(self.pins, 0)
        #: accepted presses the main thread has acted on (a timer thread may accept a
        #: press and hand it over a moment later: this counts what it has done)
        self.handled = dict.fromkeys(self.pins, 0)
        self.ignored = dict.fromkeys(self.pins, 0)
        self.devices: dict[str, Any] = {}
        # the pins keep only a weak reference to their callback: held here
        self._handlers: dict[str, Callable[[Any, Any], None]] = {}
        pull_up = bool(section["pull_up"])
        for name, pin in self.pins.items():
            button = Button(pin, pull_up=pull_up, bounce_time=None, pin_factory=factory)
            own = button.pin.when_changed  # the device's own bookkeeping (is_pressed)

            def changed(ticks: Any, state: Any, n: str = name, own: Any = own) -> None:
                own(ticks, state)
                # wired to ground with the pull-up: low is pressed
                self._edge(n, pressed=bool(state) != pull_up, at=self._seconds(ticks))

            button.pin.when_changed = self._handlers[name] = changed
            self.devices[name] = button

    def _seconds(self, ticks: Any) -> float:
        return float(self._factory.ticks_diff(ticks, self._epoch))

    def _now(self) -> float:
        return self._seconds(self._factory.ticks())

    def _edge(self, name: str, pressed: bool, at: float) -> None:
        # runs on a gpiozero thread: decide, then only hand over to the main thread.
        # `at`: the edge's own time, not this callback's
        now = at
        accept = False
        with self._lock:
            line = self._lines[name]
            line.edges += 1
            if line.timer is not None:
                line.timer.cancel()
                line.timer = None
            if pressed:
                if now < line.quiet_until:
                    self.ignored[name] += 1  # the contacts bouncing after a release
                elif self.min_press <= 0:
                    accept = self._accept(name, line)
                else:
                    line.pressed_at = now
                    line.timer = threading.Timer(self.min_press, self._held,
                                                 (name, line.edges))
                    line.timer.daemon = True
                    line.timer.start()
            else:
                if line.pressed_at is not None:
                    if now - line.pressed_at >= self.min_press:
                        accept = self._accept(name, line)  # held long enough; timer late
                    else:
                        self.ignored[name] += 1  # a glitch, not a press
                    line.pressed_at = None
                if line.down or now < line.quiet_until:
                    line.quiet_until = now + self.debounce
                line.down = False
        if accept:
            self._dispatch(lambda: self._handle(name))

    def _held(self, name: str, edges: int) -> None:
        # a timer thread, `min_press` after a press edge
        with self._lock:
            line = self._lines[name]
            if line.edges != edges or line.pressed_at is None:
                return  # an edge came since: the release decided already
            if self._now() - line.pressed_at < self.min_press:
                return  # woken early (or a test's clock): the release will decide
            if not self.devices[name].is_pressed:
                return  # released already, its edge not told yet: that edge decides
            accept = self._accept(name, line)
        if accept:
            self._dispatch(lambda: self._handle(name))

    def _handle(self, name: str) -> None:
        # on the main thread: what the press does, then counted
        try:
            self._on_press(name)
        finally:
            self.handled[name] += 1

    def _accept(self, name: str, line: _Line) -> bool:
        line.pressed_at = None
        line.down = True
        line.timer = None
        self.accepted[name] += 1
        return True

    def quiet(self, name: str) -> bool:
        """A press starting now would count: not inside a release's bounce time."""
        with self._lock:
            return self._now() >= self._lines[name].quiet_until

    def is_pressed(self, name: str) -> bool:
        return name in self.devices and bool(self.devices[name].is_pressed)

    def close(self) -> None:
        with self._lock:
            for line in self._lines.values():
                if line.timer is not None:
                    line.timer.cancel()
                    line.timer = None
        for button in self.devices.values():
            button.close()
