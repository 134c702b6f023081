"""Durations as the presets write them: `90s`, `5m`, `1h30m`, `1h5m30s`.

One unit letter per part, largest first, each unit at most once; after a larger unit the
minutes and seconds stay below 60 (`1h99m` is a typo, not 2h39m), and alone any number
goes (`90s`, `90m`). The whole is above 0 and at most 24 hours. Anything else is
refused with a message that says what is wrong, so `check-config` can name it.
"""

from __future__ import annotations

import re
from typing import Any

from companion.messages import Message, msg

MAX_MS = 24 * 3600 * 1000
_PARTS = re.compile(r"^(?:(\d{1,6})h)?(?:(\d{1,6})m)?(?:(\d{1,6})s)?$")


class DurationError(ValueError):
    """A text that is not a duration; `message` says why, for the table."""

    def __init__(self, message: Message) -> None:
        self.message = message
        super().__init__(message.key)


def parse_duration(value: Any) -> int:
    """The duration in milliseconds; DurationError saying what is wrong otherwise."""
    if isinstance(value, bool) or not isinstance(value, str):
        raise DurationError(msg("clock.config.duration_text", found=str(value)[:20]))
    text = value.strip()
    if text.startswith("-"):
        raise DurationError(msg("clock.config.duration_negative", found=text[:20]))
    match = _PARTS.match(text)
    if not text or match is None:
        raise DurationError(msg("clock.config.duration_form", found=text[:20]))
    hours, minutes, seconds = (int(g) if g is not None else None for g in match.groups())
    if minutes is not None and hours is not None and minutes >= 60:
        raise DurationError(msg("clock.config.duration_part", found=text[:20], unit="m"))
    if seconds is not None and (hours is not None or minutes is not None) and seconds >= 60:
        raise DurationError(msg("clock.config.duration_part", found=text[:20], unit="s"))
    total = ((hours or 0) * 3600 + (minutes or 0) * 60 + (seconds or 0)) * 1000
    if total <= 0:
        raise DurationError(msg("clock.config.duration_zero", found=text[:20]))
    if total > MAX_MS:
        raise DurationError(msg("clock.config.duration_long", found=text[:20]))
    return total


def format_duration(ms: int) -> str:
    """The shortest text `parse_duration` reads back as `ms` (whole seconds)."""
    seconds = ms // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    text = (f"{hours}h" if hours else "") + (f"{minutes}m" if minutes else "") + (
        f"{secs}s" if secs else "")
    return text or "0s"
