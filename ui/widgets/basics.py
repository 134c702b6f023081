"""Labels and buttons whose text size follows the app's scale (800x480 = 1)."""

from __future__ import annotations

import weakref
from typing import Any

from kivy.app import App
from kivy.graphics import Color, Rectangle, SmoothRoundedRectangle
from kivy.metrics import sp
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.widget import Widget

from ui import theme
from ui.widgets.kept_texture import KeptLabel


class TouchesWithin:
    """A container whose children all lie inside it: a touch that lands or lifts
    outside it goes by them. Kivy asks every widget of the tree about every touch;
    a button pressed inside still hears its release through the touch's grab."""

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):  # type: ignore[attr-defined]
            return False
        return bool(super().on_touch_down(touch))  # type: ignore[misc]

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is None and not self.collide_point(*touch.pos):  # type: ignore[attr-defined]
            return False
        return bool(super().on_touch_up(touch))  # type: ignore[misc]


class _ScaleFollower:
    """Keeps a widget's text size or height in step with `app.scale`.

    The widget owns its follower and the registry below holds followers weakly, so a
    dialog's buttons die with the dialog. One registry bound once to the app, rather
    than one binding per widget: Kivy keeps dead weak observers until the property
    next changes (a window resize), and each new binding walked all of them."""

    def __init__(self, widget: Widget, attribute: str, base: float) -> None:
        self.widget = weakref.ref(widget)
        self.attribute = attribute
        self.base = base

    def update(self, scale: float) -> None:
        widget = self.widget()
        if widget is not None:
            setattr(widget, self.attribute, self.base * scale)


_FOLLOWERS: weakref.WeakSet[_ScaleFollower] = weakref.WeakSet()


def rescale_all(_app: Any, scale: float) -> None:
    """The app's `scale` changed (the window was resized): every live widget follows."""
    for follower in list(_FOLLOWERS):
        follower.update(scale)


def _follow(widget: Widget, attribute: str, base: float) -> None:
    app = App.get_running_app()
    if app is None or not hasattr(app, "scale"):
        setattr(widget, attribute, base)
        return
    followers = widget.__dict__.setdefault("_scale_followers", [])
    for follower in followers:  # following again (a reused row's new height): new base
        if follower.attribute == attribute:
            follower.base = base
            follower.update(app.scale)
            return
    follower = _ScaleFollower(widget, attribute, base)
    followers.append(follower)
    _FOLLOWERS.add(follower)
    follower.update(app.scale)


def _follow_scale(widget: Widget, size: float) -> None:
    _follow(widget, "font_size", sp(size))


def follow_height(widget: Widget, base: float) -> Widget:
    """A fixed-height row that grows with the window like the text in it."""
    widget.size_hint_y = None
    _follow(widget, "height", base)
    return widget


def follow_width(widget: Widget, base: float) -> Widget:
    """A fixed-width column (a header's Back) that grows with the window."""
    widget.size_hint_x = None
    _follow(widget, "width", base)
    return widget


def _fixed_height(widget: Widget, kwargs: dict[str, Any]) -> None:
    """A label or button given a fixed height or width keeps it in proportion."""
    if kwargs.get("size_hint_y", 1) is None and "height" in kwargs:
        follow_height(widget, kwargs["height"])
    if kwargs.get("size_hint_x", 1) is None and "width" in kwargs:
        follow_width(widget, kwargs["width"])


class Text(KeptLabel):
    """A label that wraps inside its width; with `fit`, as tall as its wrapped text (a
    line that may take one row or three, in a column of such lines)."""

    def __init__(self, text: str = "", size: float = 18, tid: str = "", fit: bool = False,
                 **kwargs: Any) -> None:
        kwargs.setdefault("color", theme.TEXT)
        kwargs.setdefault("halign", "left")
        kwargs.setdefault("valign", "middle")
        super().__init__(text=text, **kwargs)
        self.tid = tid
        _follow_scale(self, size)
        if fit:
            self.size_hint_y = None
            self.bind(width=lambda *_: setattr(self, "text_size", (self.width, None)),
                      texture_size=lambda *_: setattr(self, "height", self.texture_size[1]))
            return
        _fixed_height(self, kwargs)
        self.bind(size=lambda *_: setattr(self, "text_size", (self.width, self.height)))


class Tap(ButtonBehavior, KeptLabel):
    """A touch button: at least 48 dp high, flat opaque colour, large text. A label that
    takes touches rather than Kivy's Button: no theme images, one quad less to draw each.

    Unless the caller fixes a text colour, the text follows the fill (`theme.text_on`):
    light on dark fills, dark on the yellow of the selected state. Pressed and disabled
    states stay opaque and keep 4.5:1 contrast."""

    def __init__(self, text: str = "", size: float = 18, tid: str = "",
                 background: theme.Rgba = theme.BUTTON, **kwargs: Any) -> None:
        self._auto_text = "color" not in kwargs
        kwargs.setdefault("color", theme.text_on(background))
        kwargs.setdefault("halign", "center")
        kwargs.setdefault("valign", "middle")
        kwargs.setdefault("disabled_color", theme.disabled_text(background))
        super().__init__(text=text, **kwargs)
        self.tid = tid
        self._fill = background
        _follow_scale(self, size)
        _fixed_height(self, kwargs)
        with self.canvas.before:
            self._color = Color(*background)
            self._rect = SmoothRoundedRectangle(radius=[theme.RADIUS])
        self.bind(pos=self._redraw, size=self._redraw, state=self._redraw,
                  disabled=self._redraw)
        self.bind(size=lambda *_: setattr(self, "text_size", (self.width - 8, None)))

    #: the action this button started is being saved (the card syncs): it keeps its
    #: pressed look until the action is shown (`CompanionApp.show_working`)
    working = False

    def on_release(self) -> None:
        # after the handlers bound to it: the action they started, if any, is known
        app = App.get_running_app()
        if getattr(app, "busy", False) or getattr(app, "starting", False):
            app.show_working(self)  # (Start: until the new game's row is durable)

    def set_working(self, working: bool) -> None:
        self.working = working
        self._redraw()

    def set_background(self, rgba: theme.Rgba) -> None:
        self._fill = rgba
        if self._auto_text:
            self.color = theme.text_on(rgba)
        self.disabled_color = theme.disabled_text(rgba)
        self._redraw()

    def look(self) -> theme.Rgba:
        """The fill as it shows now: dimmed when disabled, darker while pressed or
        working."""
        if self.disabled:
            return theme.disabled(self._fill)
        if self.state == "down" or self.working:
            return theme.pressed(self._fill)
        return self._fill

    def _redraw(self, *_: Any) -> None:
        self._color.rgba = self.look()
        self._rect.pos = self.pos
        self._rect.size = self.size


def paint_background(widget: Widget, rgba: tuple[float, float, float, float]) -> None:
    with widget.canvas.before:
        Color(*rgba)
        rect = Rectangle(pos=widget.pos, size=widget.size)
    widget.bind(pos=lambda *_: setattr(rect, "pos", widget.pos),
                size=lambda *_: setattr(rect, "size", widget.size))


def find(root: Widget, tid: str) -> Widget | None:
    """The widget tagged `tid` under `root` (tests and the hardware OK button use it)."""
    for widget in root.walk(restrict=True):
        if getattr(widget, "tid", None) == tid:
            return widget
    return None
