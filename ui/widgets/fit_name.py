"""A line that names a player, fitted to its width without losing what it says: the
name gives up its last letters ("Clémentine-Ma…"), the rest of the line stays whole.
A screen's texts are short and known; a typed name may take its 24 characters."""

from __future__ import annotations

from kivy.core.text import Label as CoreLabel

#: a name cut to fit ends with this
CUT = "…"


def fit_name(text: str, name: str, width: float, font_size: float, bold: bool = False,
             font_name: str | None = None) -> str:
    """`text` (which holds `name`) as wide as `width` at most, for a label of this font:
    the name cut letter by letter, never the words around it."""
    if not text or width <= 1 or not name or name not in text:
        return text
    options = {"font_size": font_size, "bold": bold}
    if font_name:
        options["font_name"] = font_name
    measure = CoreLabel(**options)
    if measure.get_extents(text)[0] <= width:
        return text
    fitted = text
    for keep in range(len(name) - 1, 0, -1):
        fitted = text.replace(name, name[:keep].rstrip() + CUT, 1)
        if measure.get_extents(fitted)[0] <= width:
            break
    return fitted
