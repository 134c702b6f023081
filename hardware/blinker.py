"""One thread that blinks any number of outputs, each at its own rate.

gpiozero's `blink(background=True)` starts a thread per LED and cannot blink the three
channels of one RGBLED independently; this scheduler does both, and sleeps until the
next toggle is due (no polling). A channel's first level is set by the caller's thread,
so outputs are up to date as soon as `set` returns.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

Setter = Callable[[bool], None]


@dataclass
class _Channel:
    setter: Setter
    hz: float = 0.0  # 0: steady
    on: bool = False
    since: float = 0.0  # when the current blink phase started
    level: bool = False


class Blinker:
    def __init__(self) -> None:
        self._channels: dict[str, _Channel] = {}
        self._cond = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="hw-blinker", daemon=True)
        self._thread.start()

    def add(self, name: str, setter: Setter) -> None:
        with self._cond:
            self._channels[name] = _Channel(setter)

    def set(self, name: str, on: bool, hz: float = 0.0) -> None:
        """Steady on/off (hz == 0) or blinking at `hz` starting lit; the same setting
        again keeps the phase, so redrawing an unchanged state is invisible."""
        with self._cond:
            channel = self._channels[name]
            if (channel.on, channel.hz) == (on, hz if on else 0.0):
                return
            channel.on, channel.hz = on, (hz if on else 0.0)
            channel.since = time.monotonic()
            self._write(channel, on)
            self._cond.notify()

    def state(self, name: str) -> tuple[bool, float]:
        """(on, hz) of a channel."""
        channel = self._channels[name]
        return channel.on, channel.hz

    def _write(self, channel: _Channel, level: bool) -> None:
        if channel.level != level:
            channel.setter(level)
        channel.level = level

    def _run(self) -> None:
        with self._cond:
            while not self._closed:
                now = time.monotonic()
                due = None
                for channel in self._channels.values():
                    if not channel.hz:
                        continue
                    half = 0.5 / channel.hz
                    phase = int((now - channel.since) / half)
                    self._write(channel, phase % 2 == 0)
                    next_at = channel.since + (phase + 1) * half
                    due = next_at if due is None else min(due, next_at)
                self._cond.wait(None if due is None else max(due - time.monotonic(), 0.0))

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify()
        self._thread.join(timeout=1.0)
