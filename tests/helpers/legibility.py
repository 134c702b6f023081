"""Pr. Evil's legibility checks on top of the shared ones (`tests/legibility.py`): key
figures (the instruction, recovered and lost, the treasures' minutes) at 26 px cap
height, and every text at 4.5:1 on what is drawn behind it, not only buttons' text.

Numbers are pixels of the 800x480 design times the app's scale (dp = sp = 1 px)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ui import theme


def _shown(widget: Any) -> bool:
    node = widget
    while node is not None:
        if getattr(node, "opacity", 1) <= 0:
            return False
        if node.parent is node:
            break
        node = node.parent
    return widget.get_root_window() is not None and widget.width > 0 and widget.height > 0


def labels(root: Any) -> Iterator[Any]:
    from kivy.uix.label import Label

    for widget in root.walk(restrict=True):
        if isinstance(widget, Label) and str(widget.text).strip() and _shown(widget):
            yield widget


def backdrop(label: Any) -> theme.Rgba:
    """The fill drawn right behind a label: its own (a button), a chip's, a dialog's
    panel, or the screen's background."""
    from ui.dialogs import Dialog

    node = label
    while node is not None:
        if hasattr(node, "_color") and hasattr(node, "_fill"):  # a Tap: its fill as drawn
            return tuple(node._color.rgba)  # type: ignore[return-value]
        paint = getattr(node, "_paint", None)
        if paint is not None and hasattr(paint, "rgba"):  # a phase chip, a treasure
            return tuple(paint.rgba)  # type: ignore[return-value]
        if isinstance(getattr(node, "fill", None), tuple):  # a badge, a treasure button
            return node.fill  # type: ignore[no-any-return]
        if isinstance(node, Dialog):
            return theme.PANEL
        if node.parent is node:
            break
        node = node.parent
    return theme.BACKGROUND


def problems(root: Any, scale: float, key_figures: Iterable[str] = ()) -> list[str]:
    """Everything under `root` that a player could not read or touch: the shared check
    (`tests/legibility.py`: text size, fit, touch targets, buttons' contrast), plus the
    key figures' 26 px cap height and every text's contrast on what is drawn behind it
    (a chip, a treasure's colour, a dialog's panel, the screen)."""
    from tests import legibility as shared

    keys = set(key_figures)
    found = shared.problems(root, scale)
    for label in labels(root):
        tid = getattr(label, "tid", "") or f"<{type(label).__name__} {label.text!r}>"
        if tid in keys and label.font_size * theme.CAP_RATIO < theme.KEY_FIGURE_CAP * scale - 0.01:
            found.append(f"{tid}: key figure of {label.font_size * theme.CAP_RATIO:.1f} px cap")
        ink = label.disabled_color if label.disabled else label.color
        ratio = theme.contrast(tuple(ink), backdrop(label))
        if ratio < 4.5:
            found.append(f"{tid}: contrast {ratio:.2f} on what is behind it")
        keys.discard(tid)
    found += [f"{tid}: key figure not shown" for tid in sorted(keys)]
    return found
