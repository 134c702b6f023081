"""The screen dimmer, and where the settings screen's choices are kept.

Settings saved from the screen go into the app's own file (`companion.settings`),
layered over the user's config, which the app never writes.

Dimming lowers the backlight after a while without a touch, where the display has
one (`/sys/class/backlight/*`), and blanking switches it off; the first touch brings
it back, and only that.
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
BLANK_KEY = "display.blank_after"  # seconds without a touch; 0: never
DIM_LEVEL = 0.1  # of the maximum brightness when dimmed
# the kernel's bl_power values (FB_BLANK_UNBLANK, FB_BLANK_POWERDOWN)
BL_POWER_ON, BL_POWER_OFF = "0", "4"


# -- dimming and blanking -----------------------------------------------------------------
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
    """Dims every backlight after `seconds` without a touch, and switches it off
    (`bl_power`) after `blank_after` seconds (0: never, for either).

    The touch that wakes a dimmed or blank screen only wakes it: the players cannot see
    what they touch, so it never reaches the app (no roll in the dark). Writing the
    backlight needs the installer's udev rule (group video) and its folder writable in
    the unit; where a write fails nothing is dimmed, and every touch goes through."""

    def __init__(self, seconds: int, root: Path = BACKLIGHT,
                 clock: Any = time.monotonic, blank_after: int = 0) -> None:
        self.seconds = seconds
        self.blank_after = blank_after
        self.root = root
        self.clock = clock
        self.last = clock()
        self.saved: dict[Path, str] = {}  # brightness before dimming, per backlight
        self.blanked: list[Path] = []  # backlights switched off
        self.waking: set[Any] = set()  # the touches that woke the screen, by uid

    @property
    def dimmed(self) -> bool:
        return bool(self.saved)

    @property
    def asleep(self) -> bool:
        return bool(self.saved or self.blanked)

    def touched(self, _window: Any = None, touch: Any = None) -> bool:
        """Window.on_touch_down: True (the touch stops here) when it woke the screen."""
        self.last = self.clock()
        if not self.asleep:
            return False
        for light in self.blanked:
            self._write(light, "bl_power", BL_POWER_ON)
        for light, level in self.saved.items():
            self._write(light, "brightness", level)
        self.saved, self.blanked = {}, []
        if touch is not None:
            self.waking.add(touch.uid)
        return True

    def moved(self, _window: Any, touch: Any) -> bool:
        """Window.on_touch_move: the waking touch's moves stop here too."""
        return touch.uid in self.waking

    def released(self, _window: Any, touch: Any) -> bool:
        """Window.on_touch_up: so does its release (a button never sees it)."""
        if touch.uid in self.waking:
            self.waking.discard(touch.uid)
            return True
        return False

    def tick(self, *_: Any) -> None:
        idle = self.clock() - self.last
        if 0 < self.seconds <= idle and not self.saved:
            for light in backlights(self.root):
                try:
                    level = (light / "brightness").read_text().strip()
                    top = int((light / "max_brightness").read_text().strip())
                except (OSError, ValueError):
                    continue
                if self._write(light, "brightness", str(max(1, int(top * DIM_LEVEL)))):
                    self.saved[light] = level
        if 0 < self.blank_after <= idle and not self.blanked:
            self.blanked = [light for light in backlights(self.root)
                            if (light / "bl_power").exists()
                            and self._write(light, "bl_power", BL_POWER_OFF)]

    @staticmethod
    def _write(light: Path, name: str, value: str) -> bool:
        try:
            (light / name).write_text(value)
        except OSError as exc:  # no permission (udev rule missing): the screen stays lit
            log.warning("cannot set the backlight's %s (%s): %s; see docs/raspberry-pi.md, "
                        "'Dimming and blanking'", name, light, exc)
            return False
        return True
