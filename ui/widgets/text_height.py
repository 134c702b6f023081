"""How tall a wrapped label would be, without drawing it.

Kivy lays a wrapped text out word by word (one font measurement per word) and then
renders it into a texture; fitting a card tries several type sizes, and doing both for
each try was most of a roll's work. Here only the layout runs, and its result is kept:
the same text at the same size and width is measured once per process."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

#: (text, font, size, bold, width) -> height; the card's texts repeat turn after turn
_KEPT: OrderedDict[tuple[Any, ...], float] = OrderedDict()
KEEP = 2048


def _font_measure(core: Any, text: str) -> tuple[float, int, int, int] | None:
    """`text` measured by the font alone, as Kivy's layout counts it: its width on one
    line, a line's height (times `line_height`, whole pixels) and the padding across
    and up (Kivy keeps four values, left, top, right, bottom, and counts each pair in
    whole pixels); None when the options ask for Kivy's layout (lines, markup,
    shortening, a line limit, another text provider)."""
    options = core.options
    if not text or "\n" in text or options.get("markup") or options.get("shorten") \
            or options.get("max_lines") or type(core).__name__ != "LabelSDL2":
        return None
    left, top, right, bottom = options["padding"]
    measured, line = core.get_extents(text)
    return (measured, int(line * float(options.get("line_height") or 1.0)),
            int(left + right), int(top + bottom))


def _one_line(core: Any, text: str, width: float) -> float | None:
    """The height of a text that fits on one line, from the font's measure of it alone;
    None when it may wrap or only Kivy's layout can tell (a new text each action, the
    score pad's headline: most of fitting it was its layout)."""
    found = _font_measure(core, text)
    if found is None:
        return None
    measured, line, across, up = found
    if measured > int(width) - across - 1:  # a pixel short of the edge: may wrap
        return None
    return float(line + up)


def surely_taller(label: Any, text: str, width: float, height: float) -> bool:
    """True when `text`, wrapped at `width` with `label`'s font, surely needs more
    lines than `height` holds: its width on one line is more than those lines can
    take (the score pad's headline naming seven players waiting, in a header two lines
    high). One measure of the font where a layout makes one a word; False when only a
    layout can tell."""
    core = label._label
    found = _font_measure(core, text)
    if found is None or found[1] <= 0:
        return False
    measured, line, across, up = found
    lines = max(1, int((height - up) // line))
    # a wrapped line is at most the width; a break drops its space, and splitting may
    # move a pixel of kerning: a pixel a line to spare
    space = core.get_extents(" ")[0]
    return measured - (lines - 1) * space > lines * (int(width) - across + 1)


def text_height(label: Any, width: float) -> float:
    """The height of `label`'s texture once wrapped at `width` with its current font;
    as Kivy's own layout gives it (the label's core text, layout only)."""
    core = label._label  # Kivy's text provider behind the widget, options up to date
    options = core.options
    key = (label.text, options.get("font_name"), options.get("font_size"),
           options.get("bold"), options.get("italic"), options.get("line_height"),
           tuple(options.get("padding") or ()), round(width, 2))
    found = _KEPT.get(key)
    if found is not None:
        _KEPT.move_to_end(key)
        return found
    if not label.text:
        height = 0.0
    elif (one := _one_line(core, label.text, width)) is not None:
        height = one
    else:
        kept = core.text_size
        core.text_size = (width, None)
        try:
            height = float(core.render()[1])  # the layout alone: no texture is made
        finally:
            core.text_size = kept
    _KEPT[key] = height
    if len(_KEPT) > KEEP:
        _KEPT.popitem(last=False)
    return height
