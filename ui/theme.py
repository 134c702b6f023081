"""The design system: sizes, spacing and colours for a screen read from a metre away.

Every number here is in pixels of the 800x480 design (the official 7" Pi screen, where
Kivy's dp and sp are 1 px); `scale` grows them on 1280x800 and 1920x1080 screens so a
layout keeps its proportions (`ui.widgets.basics` applies it to text and fixed rows).
Screens take their sizes and colours from here, never from literals, so one change
here reaches every game. docs/architecture.md ("Design system") shows the scale.
"""

from __future__ import annotations

from kivy.metrics import dp

Rgba = tuple[float, float, float, float]

DESIGN_SIZE = (800, 480)

# -- touch ---------------------------------------------------------------------------
MIN_TOUCH = 48  # px, both directions: the smallest touch target (a fingertip)
ROW = 56  # a list row or a dialog's button row
HEADER = 56  # every screen's top bar: Back at its left, the title, the screen's own buttons
BACK_WIDTH = 120  # the header's Back: the same place and size on every screen

# -- type scale (font sizes in px at 800x480) ----------------------------------------
#: Roboto's capital height as a share of its font size: a key figure of 26 px cap
#: height needs a font of 26 / 0.71 = 37 px
CAP_RATIO = 0.71
KEY_FIGURE_CAP = 26  # px: the dial's numerals, dice, scores, totals, the instruction
MIN_TEXT = 18  # px: nothing a player must read is smaller
SIZE_SMALL = 18  # secondary text: hints, counts, the history's second line
SIZE_BODY = 20  # sentences, list rows
SIZE_BUTTON = 22  # button labels, dialog titles
SIZE_TITLE = 26  # screen titles
#: what the table acts on, below the headline (a turn card's effects, a trick's cards):
#: cap height 20.6 px >= 20, read from a seat
SIZE_ACT = 29
ACT_CAP = 20  # px: the cap height of such a line, at the least
SIZE_FIGURE = 38  # key figures (cap height 27 px)
SIZE_DISPLAY = 56  # the one number a screen is about (a die, an outcome)
#: the table clock's time left, read from every seat: cap height 94 px, three and a half
#: times a key figure's (a 1:23:45 still fits 800 px across, its line 480 px high)
SIZE_CLOCK = 132

# -- spacing (px) --------------------------------------------------------------------
SPACE_XS = 4
SPACE_S = 8
SPACE_M = 12
SPACE_L = 16
SPACE_XL = 24
RADIUS = 8

# -- colours: every text/background pair below is at least 4.5:1 (WCAG AA) -----------
BACKGROUND: Rgba = (0.10, 0.11, 0.14, 1)
PANEL: Rgba = (0.17, 0.18, 0.22, 1)  # cards and dialog bodies: opaque
TEXT: Rgba = (0.96, 0.96, 0.96, 1)  # on BACKGROUND, PANEL, BUTTON, DANGER, SUCCESS
MUTED: Rgba = (0.70, 0.72, 0.76, 1)  # secondary text, disabled labels
INK: Rgba = (0.08, 0.08, 0.10, 1)  # text on light fills (ACCENT, yellow)
ACCENT: Rgba = (0.98, 0.76, 0.20, 1)  # the selected state: INK on ACCENT, never white
SELECTED = ACCENT
DANGER: Rgba = (0.72, 0.16, 0.14, 1)  # destructive actions (abandon, retire, restore)
SUCCESS: Rgba = (0.12, 0.48, 0.22, 1)  # the action that moves the game on
BUTTON: Rgba = (0.28, 0.30, 0.36, 1)  # a button at rest
# the same meanings as text on BACKGROUND or PANEL (the fills above are too dark for it)
SUCCESS_TEXT: Rgba = (0.42, 0.84, 0.50, 1)  # a victory's title
DANGER_TEXT: Rgba = (1.00, 0.48, 0.42, 1)  # a defeat's title
OVERLAY: Rgba = (0, 0, 0, 0.6)  # dims the screen around an open dialog (never its body)
OUTLINE: Rgba = (0.55, 0.57, 0.62, 1)  # a dialog's frame, so it stands out of the dim

# Treasure colours: saturated enough on a cheap panel, always paired with a letter.
COLOURS: dict[str, Rgba] = {
    "red": (0.80, 0.16, 0.16, 1),
    "green": (0.18, 0.66, 0.30, 1),
    "blue": (0.16, 0.38, 0.86, 1),
    "mauve": (0.52, 0.30, 0.72, 1),
    "yellow": (0.95, 0.80, 0.18, 1),
}
FALLBACK_COLOUR: Rgba = (0.6, 0.6, 0.6, 1)


def scale_for(width: float, height: float) -> float:
    """How much bigger than the 800x480 design this window is (never smaller than 1)."""
    return max(1.0, min(width / DESIGN_SIZE[0], height / DESIGN_SIZE[1]))


def touch(height: float = MIN_TOUCH) -> float:
    return dp(max(height, MIN_TOUCH))


def colour(name: str) -> Rgba:
    return COLOURS.get(name, FALLBACK_COLOUR)


# -- contrast (WCAG 2.x) -------------------------------------------------------------
_LUMINANCES: dict[tuple[float, ...], float] = {}  # the app's few colours, computed once


def luminance(rgba: Rgba) -> float:
    """Relative luminance of an sRGB colour (alpha ignored: fills here are opaque).
    Kept per colour: a button works out its text colour from it at every new fill (a
    list's rows re-told as it scrolls)."""
    key = tuple(rgba[:3])
    known = _LUMINANCES.get(key)
    if known is not None:
        return known

    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in key)
    value = 0.2126 * r + 0.7152 * g + 0.0722 * b
    if len(_LUMINANCES) < 4096:
        _LUMINANCES[key] = value
    return value


def contrast(fg: Rgba, bg: Rgba) -> float:
    """The WCAG contrast ratio of text `fg` on `bg` (1 to 21)."""
    hi, lo = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def text_on(bg: Rgba) -> Rgba:
    """The text colour that reads best on a fill: light text on dark, INK on light;
    on a mid-tone fill (a player's colour) where neither reaches 4.5:1, pure white
    or black."""
    best = TEXT if contrast(TEXT, bg) >= contrast(INK, bg) else INK
    if contrast(best, bg) >= 4.5:
        return best
    white, black = (1.0, 1.0, 1.0, 1.0), (0.0, 0.0, 0.0, 1.0)
    return white if contrast(white, bg) >= contrast(black, bg) else black


def blend(a: Rgba, b: Rgba, t: float) -> Rgba:
    """`a` moved a share `t` towards `b`, opaque."""
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t,
            a[2] + (b[2] - a[2]) * t, 1)


def pressed(fill: Rgba) -> Rgba:
    """A button under the finger: further from its text colour (darker under light
    text, lighter under dark text), so the text keeps its contrast."""
    away = (0, 0, 0, 1) if luminance(text_on(fill)) > 0.5 else (1, 1, 1, 1)
    return blend(fill, away, 0.25)


def disabled(fill: Rgba) -> Rgba:
    """A disabled button: opaque (nothing behind shows through), halfway to the panel."""
    return blend(fill, PANEL, 0.6)


def disabled_text(fill: Rgba) -> Rgba:
    """A disabled button's text: dimmed, yet still 4.5:1 on the dimmed fill."""
    behind = disabled(fill)
    return MUTED if contrast(MUTED, behind) >= 4.5 else text_on(behind)
