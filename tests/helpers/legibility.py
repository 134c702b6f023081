"""Legibility checks on what the screen shows, as the table sees it: every text at the
minimum size or more (key figures at 26 px cap height), whole in its box, at 4.5:1
contrast on what is drawn behind it, and every touch target 48 px both ways.

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
        fill = getattr(node, "_fill", None)
        if fill is not None and hasattr(fill, "rgba"):  # a phase chip
            return tuple(fill.rgba)  # type: ignore[return-value]
        if isinstance(getattr(node, "fill", None), tuple):  # a badge, a treasure button
            return node.fill  # type: ignore[no-any-return]
        if isinstance(node, Dialog):
            return theme.PANEL
        if node.parent is node:
            break
        node = node.parent
    return theme.BACKGROUND


def text_needs(label: Any) -> tuple[float, float]:
    """The size the label's text needs at its font, wrapped in the width it is given."""
    from kivy.core.text import Label as CoreLabel

    width = label.text_size[0] if label.text_size and label.text_size[0] else None
    core = CoreLabel(text=str(label.text), font_size=label.font_size, bold=label.bold,
                     font_name=label.font_name, text_size=(width, None),
                     halign=label.halign, markup=label.markup, padding=label.padding)
    core.refresh()
    return core.texture.size if core.texture is not None else (0, 0)


def problems(root: Any, scale: float, key_figures: Iterable[str] = ()) -> list[str]:
    """Everything under `root` that a player could not read or touch."""
    from kivy.uix.behaviors import ButtonBehavior

    keys = set(key_figures)
    found: list[str] = []
    for label in labels(root):
        tid = getattr(label, "tid", "") or f"<{type(label).__name__} {label.text!r}>"
        if label.font_size < theme.MIN_TEXT * scale - 0.01:
            found.append(f"{tid}: {label.font_size:.1f} px text")
        if tid in keys and label.font_size * theme.CAP_RATIO < theme.KEY_FIGURE_CAP * scale - 0.01:
            found.append(f"{tid}: key figure of {label.font_size * theme.CAP_RATIO:.1f} px cap")
        if not getattr(label, "shorten", False):
            width, height = text_needs(label)
            if width > label.width + 1 or height > label.height + 1:
                found.append(f"{tid}: needs {width:.0f}x{height:.0f}, has "
                             f"{label.width:.0f}x{label.height:.0f}")
        ink = label.disabled_color if label.disabled else label.color
        ratio = theme.contrast(tuple(ink), backdrop(label))
        if ratio < 4.5:
            found.append(f"{tid}: contrast {ratio:.2f}")
        keys.discard(tid)
    for widget in root.walk(restrict=True):
        if isinstance(widget, ButtonBehavior) and _shown(widget) and \
                min(widget.width, widget.height) < theme.MIN_TOUCH - 0.5:
            found.append(f"{getattr(widget, 'tid', widget)}: touch target "
                             f"{widget.width:.0f}x{widget.height:.0f}")
    found += [f"{tid}: key figure not shown" for tid in sorted(keys)]
    return found
