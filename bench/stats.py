"""Summaries of repeated measurements: median, spread, percentiles."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100): a value that was actually measured."""
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def summary(values: Sequence[float]) -> dict[str, Any]:
    """Median and spread of one series (its raw values kept for the JSON output)."""
    if not values:
        raise ValueError("no measurements")
    return {
        "n": len(values),
        "median": statistics.median(values),
        "min": min(values),
        "max": max(values),
        "p99": percentile(values, 99),
        "values": list(values),
    }


def ratio(ours: float, bare: float) -> float | None:
    """ours / bare; None when bare is zero (e.g. no frame drawn by either)."""
    return ours / bare if bare > 0 else None
