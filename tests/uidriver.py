"""Drive the real Kivy app as a person would: taps on what the screen shows.

Touches go through the window like a finger's (`UnitTestTouch`), so a modal dialog
catches them exactly as on the Pi. Needs a display: the tests run under xvfb-run.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ARTIFACTS = Path(os.environ.get("TEST_ARTIFACTS", "test-artifacts")) / "screenshots"


class Driver:
    def __init__(self, app: Any) -> None:
        from kivy.base import EventLoop

        self.app = app
        self._loop = EventLoop

    # -- time ----------------------------------------------------------------------
    def pump(self, frames: int = 3) -> None:
        for _ in range(frames):
            self._loop.idle()

    def wait(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self._loop.idle()

    def wait_until(self, condition: Callable[[], bool], timeout: float = 5.0) -> None:
        end = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > end:
                raise AssertionError("the screen never reached the expected state")
            self._loop.idle()

    # -- looking ---------------------------------------------------------------------
    @property
    def surface(self) -> Any:
        """What a finger can reach: the open dialog if there is one, else the screen."""
        return self.app.dialog if self.app.dialog is not None else self.app.root

    def find(self, tid: str) -> Any:
        """A widget a finger can reach now."""
        from ui.widgets.basics import find

        return find(self.surface, tid)

    def visible(self, tid: str) -> Any:
        """A widget the eye can read: in the dialog, or on the screen behind it."""
        from ui.widgets.basics import find

        return find(self.surface, tid) or find(self.app.root, tid)

    def has(self, tid: str) -> bool:
        widget = self.find(tid)
        return widget is not None and widget.get_root_window() is not None

    def text(self, tid: str) -> str:
        widget = self.visible(tid)
        assert widget is not None, f"nothing tagged {tid!r} on screen"
        return str(widget.text)

    @property
    def screen(self) -> str:
        return str(self.app.root.current)

    @property
    def dialog(self) -> str | None:
        return None if self.app.dialog is None else str(self.app.dialog.tid)

    # -- touching --------------------------------------------------------------------
    def tap(self, tid: str, settle: bool = True, patient: bool = True) -> None:
        from kivy.tests.common import UnitTestTouch

        # a finger touches what has been drawn (and a screen switching holds both the
        # screen going and the one coming, with the same tags)
        self.switched()
        widget = self.find(tid)
        drawn = None
        if widget is None and self.app.dialog is not None and hasattr(self.app.dialog, "locate"):
            drawn = self.app.dialog.locate(tid)  # a key drawn on a canvas (VKeyboard)
        assert widget is not None or drawn is not None, \
            f"nothing tagged {tid!r} can be touched now " \
            f"(screen {self.screen}, dialog {self.dialog})"
        assert widget is None or not widget.disabled, f"{tid!r} is disabled"
        if patient and getattr(widget, "rolls", False):
            # a person waits for a roll's result before rolling again (`may_roll`)
            self.wait_until(self.app.may_roll)
        x, y = drawn if widget is None else widget.to_window(*widget.center)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        self.pump(1)
        touch.touch_up()
        self.pump(3)
        # a quick tap's release is held for min_state_time on the clock: let it happen
        if widget is not None:
            self.wait(float(getattr(widget, "min_state_time", 0)))
        if settle:
            self.settle()

    def settle(self, timeout: float = 30.0) -> None:
        """Wait for the work a tap started on a worker thread (the action's commit,
        history, statistics, exports) to be handed back and shown."""
        import sys

        if self.app.busy or self.app.saving:  # with the writer thread
            self.wait_until(lambda: not self.app.busy and not self.app.saving, timeout)
            self.pump(2)
        background = sys.modules.get("ui.background")  # imported by the first such work
        if background is not None and background.busy():
            self.wait_until(lambda: not background.busy(), timeout)
            self.pump(2)
        # a hand-back in the last frame pumped may have switched the screen just now
        self.switched(timeout)

    def switched(self, timeout: float = 5.0) -> None:
        """Wait for a screen switch in progress to end. Kivy's ScreenManager takes no
        touch while its transition runs, and even `NoTransition` runs until the clock's
        next tick: `screen` names the new screen at once, its buttons hear a tap only
        then."""
        self.wait_until(lambda: not self.app.root.transition.is_active, timeout)

    def screenshot(self, name: str) -> Path:
        from kivy.core.window import Window

        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.pump(3)
        target = ARTIFACTS / f"{name}.png"
        written = Path(Window.screenshot(name=str(ARTIFACTS / f"{name}-tmp.png")))
        written.replace(target)
        return target

    def resize(self, width: int, height: int) -> None:
        from kivy.core.window import Window

        Window.size = (width, height)
        self.wait_until(lambda: tuple(Window.size) == (width, height), timeout=3)
        self.wait(0.5)  # the X server and GL settle on the new size
        Window.canvas.ask_update()
        self.pump(5)
