"""The moment of a press, as every clock command carries it (`at`): the monotonic clock
in ms, read once at the edge. `source` is what reads it: the tests put a fake clock
there, so what they check never depends on how fast the machine runs."""

from __future__ import annotations

import time
from collections.abc import Callable


def monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


source: Callable[[], int] = monotonic_ms


def now() -> int:
    return source()
