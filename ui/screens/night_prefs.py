"""Settings kept in the user's config file, and the screen dimmer.

`save` merges the changes into what the file holds, checks the result with
`companion.config.load` (a refused change leaves the file as it was) and replaces the
file atomically (temporary file, fsync, rename). The change is made in the file's text
(`companion.config_edit`), so its comments and layout stay; a file this cannot edit
safely is written anew, without comments.

Dimming lowers the backlight after a while without a touch, where the display has
one (`/sys/class/backlight/*`); the first touch brings it back.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from companion import config
from companion.config import APP_DIR, USER_FILE, Config
from companion.config_edit import set_values

log = logging.getLogger(__name__)
BACKLIGHT = Path("/sys/class/backlight")
DIM_KEY = "display.dim_after"  # seconds without a touch; 0: never
DIM_LEVEL = 0.1  # of the maximum brightness when dimmed


def config_file(settings: Config) -> Path:
    """The user's file: the one the app read, else where the app would look for it."""
    if settings.user_file is not None:
        return Path(settings.user_file)
    found = config.user_config_path()
    if found is not None:
        return found
    xdg = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(xdg) / APP_DIR / USER_FILE


def nested(dotted: str, value: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    node = out
    parts = dotted.split(".")
    for part in parts[:-1]:
        node = node.setdefault(part, {})
    node[parts[-1]] = value
    return out


def read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""


def read_user(text: str) -> dict[str, Any]:
    data = yaml.safe_load(text)
    return data if isinstance(data, dict) else {}


def edited_text(text: str, changes: Mapping[str, Any], data: Mapping[str, Any]) -> str:
    """The file's `text` with `changes` made in place (its comments and layout kept), or,
    where that cannot be done, `data` written anew."""
    edited = set_values(text, changes)
    with contextlib.suppress(yaml.YAMLError):
        if edited is not None and (yaml.safe_load(edited) or {}) == data:
            return edited
    return yaml.safe_dump(dict(data), allow_unicode=True, sort_keys=False)


def save(path: Path, changes: Mapping[str, Any]) -> dict[str, Any]:
    """Merge `changes` into the file; raises ConfigError (file untouched) or OSError."""
    with contextlib.suppress(ImportError):
        import hardware  # noqa: F401  (registers the hardware section's checks)

    text = read_text(path)
    data = config.merge(read_user(text), changes)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as handle:
        handle.write(edited_text(text, changes, data))
        handle.flush()
        os.fsync(handle.fileno())
    try:
        config.load(tmp, use_default_user_file=False)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    os.replace(tmp, path)
    with contextlib.suppress(OSError):
        fd = os.open(str(path.parent), os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    return data


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
