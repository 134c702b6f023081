"""Sizes and colours for a screen read from a metre away, scaled with the window.

Everything is designed for 800x480 (the official 7" Pi screen); `scale` grows it on
1280x800 and 1920x1080 screens so the layout keeps its proportions.
"""

from __future__ import annotations

from kivy.metrics import dp

DESIGN_SIZE = (800, 480)
MIN_TOUCH = 48  # dp: the smallest touch target

BACKGROUND = (0.10, 0.11, 0.14, 1)
PANEL = (0.17, 0.18, 0.22, 1)
TEXT = (0.96, 0.96, 0.96, 1)
MUTED = (0.70, 0.72, 0.76, 1)
ACCENT = (0.98, 0.76, 0.20, 1)
DANGER = (0.86, 0.24, 0.22, 1)
SUCCESS = (0.24, 0.70, 0.36, 1)
BUTTON = (0.28, 0.30, 0.36, 1)

# Treasure colours: saturated enough on a cheap panel, always paired with a letter.
COLOURS: dict[str, tuple[float, float, float, float]] = {
    "red": (0.88, 0.20, 0.20, 1),
    "green": (0.18, 0.66, 0.30, 1),
    "blue": (0.20, 0.45, 0.92, 1),
    "mauve": (0.60, 0.36, 0.78, 1),
    "yellow": (0.95, 0.80, 0.18, 1),
}
FALLBACK_COLOUR = (0.6, 0.6, 0.6, 1)


def scale_for(width: float, height: float) -> float:
    """How much bigger than the 800x480 design this window is (never smaller than 1)."""
    return max(1.0, min(width / DESIGN_SIZE[0], height / DESIGN_SIZE[1]))


def touch(height: float = MIN_TOUCH) -> float:
    return dp(max(height, MIN_TOUCH))


def colour(name: str) -> tuple[float, float, float, float]:
    return COLOURS.get(name, FALLBACK_COLOUR)
