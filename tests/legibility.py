"""What a player at 1 m needs from a screen, checked on the live widgets:

- every label's text fits its box: rendered again at the label's width with no height
  limit (Kivy reports a clipped label's texture at its box size, hiding the cut), it
  needs no more height than the label has, and no more width than it has;
- no text a player reads under `MIN_TEXT` (at the app's scale);
- every touch target at least `MIN_TOUCH` both ways (at the app's scale);
- a button's text at 4.5:1 on its fill, in its current state.

Labels that shorten on purpose (a long player name ends in "…") are not a cut.
"""

from __future__ import annotations

from typing import Any


def _shown(widget: Any) -> bool:
    if widget.get_root_window() is None or widget.width <= 1 or widget.height <= 1:
        return False
    node, seen = widget, set()
    while node is not None and id(node) not in seen:  # the window is its own parent
        seen.add(id(node))
        if getattr(node, "opacity", 1) == 0:
            return False
        node = node.parent
    return True


def _needed(label: Any) -> tuple[float, float]:
    """The size the label's text needs at its width (height not limited)."""
    from kivy.uix.label import Label

    width = label.text_size[0] if label.text_size[0] else None
    probe = Label(text=label.text, font_size=label.font_size, font_name=label.font_name,
                  bold=label.bold, italic=label.italic, markup=label.markup,
                  padding=label.padding, line_height=label.line_height,
                  halign=label.halign, text_size=(width, None))
    probe.texture_update()
    return probe.texture_size[0], probe.texture_size[1]


def problems(root: Any, scale: float | None = None) -> list[str]:
    from kivy.app import App
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.label import Label

    from ui import theme

    if scale is None:
        scale = float(getattr(App.get_running_app(), "scale", 1.0))
    found: list[str] = []
    for widget in root.walk(restrict=True):
        if not _shown(widget):
            continue
        name = getattr(widget, "tid", "") or type(widget).__name__
        if isinstance(widget, ButtonBehavior):
            least = theme.MIN_TOUCH * scale - 1
            if widget.width < least or widget.height < least:
                found.append(f"{name}: touch target {widget.width:.0f}x{widget.height:.0f}")
        if not isinstance(widget, Label) or not str(widget.text).strip():
            continue
        if widget.font_size < theme.MIN_TEXT * scale - 0.5:
            found.append(f"{name}: text {widget.font_size:.0f} px < {theme.MIN_TEXT * scale:.0f}")
        if not widget.shorten:
            width, height = _needed(widget)
            if height > widget.height + 1 or width > widget.width + 1:
                found.append(f"{name}: {width:.0f}x{height:.0f} of text in "
                             f"{widget.width:.0f}x{widget.height:.0f} ({widget.text[:30]!r})")
        fill = getattr(widget, "_fill", None)
        if fill is not None:
            if widget.disabled:
                ink, behind = widget.disabled_color, theme.disabled(fill)
            else:
                ink, behind = widget.color, fill
            ratio = theme.contrast(tuple(ink), tuple(behind))
            if ratio < 4.5:
                found.append(f"{name}: contrast {ratio:.1f}:1")
    return found
