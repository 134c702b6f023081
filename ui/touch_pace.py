"""The loop's pace while a finger is on the glass.

Kivy reads input once per pass of its loop, and at 60 Hz a pass sleeps up to a frame
(16.7 ms) first: a finger lifted just after a pass waits that long before ROLL (or any
button) even hears of it. While a touch is down, the release is what comes next, so
the loop passes four times as often then: the release is read within ~4 ms. Frames
are still drawn only when something changed (Kivy's `needs_redraw`), and the timed
work (tumbles, animations) keeps its own intervals, so the faster passes cost only
their wake-ups, and only while a finger rests; with no touch down the loop is back at
the configured pace (idle CPU as before)."""

from __future__ import annotations

from typing import Any

#: passes per second while a touch is down (the configured pace is 60)
FAST_FPS = 240.0
#: a touch down longer than this is not a tap (a finger resting, an up never seen):
#: the loop goes back to its pace
HOLD_LIMIT = 10.0


class TouchPace:
    """Bound to the window's `on_touch_down` / `on_touch_up` (never consumes a touch)."""

    def __init__(self, clock: Any, fast: float = FAST_FPS, limit: float = HOLD_LIMIT) -> None:
        self.clock = clock
        self.fast = fast
        self.limit = limit
        self._down: set[Any] = set()
        self._pace: float | None = None  # the configured pace, while the fast one is on
        self._expiry: Any = None

    @property
    def quick(self) -> bool:
        """The loop runs at the fast pace now."""
        return self._pace is not None

    def down(self, _window: Any, touch: Any) -> None:
        self._down.add(touch.uid)
        if self._pace is None:
            pace = float(self.clock._max_fps)  # Kivy reads it at every pass; no setter
            if 0 < pace < self.fast:  # 0: an unpaced loop (benchmarks), nothing to hurry
                self._pace = pace
                self.clock._max_fps = self.fast
                self._expiry = self.clock.schedule_once(self._expire, self.limit)

    def up(self, _window: Any, touch: Any) -> None:
        self._down.discard(touch.uid)
        if not self._down:
            self.rest()

    def _expire(self, _dt: float) -> None:
        self._down.clear()
        self.rest()

    def rest(self) -> None:
        """Back to the configured pace."""
        if self._pace is not None:
            self.clock._max_fps, self._pace = self._pace, None
        if self._expiry is not None:
            self._expiry.cancel()
            self._expiry = None
