"""How the table clock writes times: pure, so the tests read what a player reads."""

from __future__ import annotations

MINUS = "\u2212"  # a true minus sign: as wide as the digits' plus, unlike a hyphen


def clock_text(ms: int) -> str:
    """A time left as a clock shows it: 4:05, 1:02:03. Whole seconds, counted up
    (1 ms left shows 0:01: 0:00 only at zero); overtime with a minus sign, counted
    down (-0:01 once a full second is over)."""
    if ms < 0:
        return MINUS + _hms(-ms // 1000)
    return _hms(-(-ms // 1000))


def elapsed_text(ms: int) -> str:
    """A time spent (turns, pauses): 0:42, 1:02:03, counted down to whole seconds."""
    return _hms(max(ms, 0) // 1000)


def _hms(seconds: int) -> str:
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"
