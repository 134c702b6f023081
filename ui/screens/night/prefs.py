"""The screen dimmer, and where the settings screen's choices are kept.

Settings saved from the screen go into the app's own file (`companion.settings`),
layered over the user's config, which the app never writes.

Dimming lowers the backlight after a while without a touch, where the display has
one (`/sys/class/backlight/*`); the first touch brings it back.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

from companion.config import Config

log = logging.getLogger(__name__)
BACKLIGHT = Path("/sys/class/backlight")
DIM_KEY = "display.dim_after"  # seconds without a touch; 0: never
DIM_LEVEL = 0.1  # of the maximum brightness when dimmed


# -- dimming ---------------------------------------------------------------------------------
def backlights(root: Path = BACKLIGHT) -> list[Path]:
    try:
        return [p for p in sorted(root.iterdir())
                if (p / "brightness").exists() and (p / "max_brightness").exists()]
    except OSError:
        return []


def dimming_available(settings: Config, root: Path = BACKLIGHT) -> bool:
    """A backlight to dim, and a config that can store the delay."""
    return bool(backlights(root)) and isinstance(settings.get(DIM_KEY), int)


class Dimmer:
    """Dims every backlight after `seconds` without a touch (0: never)."""

    def __init__(self, seconds: int, root: Path = BACKLIGHT,
                 clock: Any = time.monotonic) -> None:
        self.seconds = seconds
        self.root = root
        self.clock = clock
        self.last = clock()
        self.saved: dict[Path, str] = {}  # brightness before dimming, per backlight

    @property
    def dimmed(self) -> bool:
        return bool(self.saved)

    def touched(self, *_: Any) -> bool:
        self.last = self.clock()
        if self.saved:
            for light, level in self.saved.items():
                self._write(light, level)
            self.saved = {}
        return False  # the touch goes on to the screen

    def tick(self, *_: Any) -> None:
        if self.seconds <= 0 or self.saved or self.clock() - self.last < self.seconds:
            return
        for light in backlights(self.root):
            try:
                level = (light / "brightness").read_text().strip()
                top = int((light / "max_brightness").read_text().strip())
            except (OSError, ValueError):
                continue
            if self._write(light, str(max(1, int(top * DIM_LEVEL)))):
                self.saved[light] = level

    @staticmethod
    def _write(light: Path, level: str) -> bool:
        try:
            (light / "brightness").write_text(level)
        except OSError as exc:  # no permission (udev rule missing): dimming stays off
            log.warning("cannot set the backlight %s: %s", light, exc)
            return False
        return True
