"""Bar and line charts drawn with Kivy canvas instructions (no plotting library).

Both redraw themselves when resized; their numbers are labels tagged with `tid`s
(`<tid>.value.<i>`, `<tid>.label.<i>`, `<tid>.legend.<i>`) so a test reads what a
person reads. Data is plain: the screens compute it once, the charts only draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kivy.app import App
from kivy.graphics import Color, Line, Rectangle, SmoothLine
from kivy.metrics import dp
from kivy.uix.widget import Widget

from ui import theme
from ui.widgets.basics import Text

RGBA = tuple[float, float, float, float]
AXIS = (0.55, 0.57, 0.62, 1)

#: the roster's palette: distinct on a cheap panel, readable with white text on top
PALETTE = ("#d9453d", "#e58a2e", "#d9b92b", "#3fa34d", "#2e9c9c", "#3b73d9",
           "#7a4fc9", "#c94f9a", "#8a6a4a", "#6b7280")


def hex_rgba(code: str, alpha: float = 1.0) -> RGBA:
    code = code.lstrip("#")
    try:
        r, g, b = (int(code[i:i + 2], 16) / 255 for i in (0, 2, 4))
    except (ValueError, IndexError):
        return theme.FALLBACK_COLOUR
    return (r, g, b, alpha)


def guest_colours(taken: Any) -> Any:
    """Colours for the guests of one chart, in seat order: the palette's colours no
    roster player of that chart shows, so two guests are never the same grey."""
    used = set(taken)
    free = [hex_rgba(code) for code in PALETTE if hex_rgba(code) not in used]
    while True:
        yield from free or [theme.FALLBACK_COLOUR]


def player_rgba(player_id: int | None, colour: str) -> RGBA:
    """The player's colour, or one from the palette by id when none was chosen."""
    if colour:
        return hex_rgba(colour)
    if player_id is None:
        return theme.FALLBACK_COLOUR
    return hex_rgba(PALETTE[(player_id - 1) % len(PALETTE)])


class _Chart(Widget):
    def __init__(self, tid: str = "chart", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.tid = tid
        self.bind(pos=self._schedule, size=self._schedule)

    def _schedule(self, *_: Any) -> None:
        self.redraw()

    @staticmethod
    def scale() -> float:
        """The app's scale: the rows for labels grow with their text on larger windows."""
        return float(getattr(App.get_running_app(), "scale", 1.0))

    def redraw(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def _area(self) -> tuple[float, float, float, float] | None:
        """Clear the chart; its box (x, y, w, h), or None while too small to draw."""
        self.canvas.clear()
        self.clear_widgets()
        x0, y0 = self.pos
        w, h = self.size
        return None if w < 10 or h < 10 else (x0, y0, w, h)

    def _label(self, text: str, tid: str, x: float, y: float, w: float, h: float,
               size: float = 14, color: RGBA = theme.TEXT, halign: str = "center",
               bold: bool = False) -> Text:
        # one line is shortened to fit; a label written on two lines keeps them
        label = Text(text, size=size, tid=tid, color=color, halign=halign, bold=bold,
                     size_hint=(None, None), shorten="\n" not in text,
                     shorten_from="right")
        label.pos = (x, y)
        label.size = (w, h)
        label.text_size = (w, h)
        self.add_widget(label)
        return label


class BarChart(_Chart):
    """Vertical bars, one per item: (label, value, colour); the value above each bar.
    `label_lines` > 1 leaves room for labels on several lines ("Expert\nwon")."""

    def __init__(self, tid: str = "bars", label_lines: int = 1, **kwargs: Any) -> None:
        self.items: list[tuple[str, float, RGBA]] = []
        self.empty_text = ""
        self.label_lines = label_lines
        super().__init__(tid, **kwargs)

    def show(self, items: Sequence[tuple[str, float, RGBA]], empty_text: str = "") -> None:
        self.items = list(items)
        self.empty_text = empty_text
        self.redraw()

    def redraw(self) -> None:
        area = self._area()
        if area is None:
            return
        x0, y0, w, h = area
        if not self.items:
            self._label(self.empty_text, f"{self.tid}.empty", x0, y0, w, h,
                        size=theme.SIZE_SMALL, color=theme.MUTED)
            return
        # read from a metre away: values are key figures, names at the minimum size
        k = self.scale()
        label_h, value_h = (dp(24) * self.label_lines + dp(2)) * k, dp(46) * k
        top = max((v for _, v, _ in self.items), default=0) or 1
        n = len(self.items)
        slot = w / n
        bar_w = min(slot * 0.7, dp(90) * k)
        usable = h - label_h - value_h
        with self.canvas:
            Color(*AXIS)
            Line(points=[x0, y0 + label_h, x0 + w, y0 + label_h], width=1)
        for i, (name, value, rgba) in enumerate(self.items):
            bar_h = max(usable * value / top, dp(2) if value else 0)
            bx = x0 + slot * i + (slot - bar_w) / 2
            with self.canvas:
                Color(*rgba)
                Rectangle(pos=(bx, y0 + label_h), size=(bar_w, bar_h))
            shown = f"{value:g}" if isinstance(value, float) else str(value)
            self._label(shown, f"{self.tid}.value.{i}", x0 + slot * i, y0 + label_h + bar_h,
                        slot, value_h, size=theme.SIZE_FIGURE, bold=True)
            self._label(name, f"{self.tid}.label.{i}", x0 + slot * i, y0, slot, label_h,
                        size=theme.SIZE_SMALL, color=theme.MUTED)


class LineChart(_Chart):
    """Lines over x = 0, 1, 2...: one per series (name, y values, colour), a legend."""

    def __init__(self, tid: str = "lines", **kwargs: Any) -> None:
        self.series: list[tuple[str, Sequence[float], RGBA]] = []
        self.empty_text = ""
        super().__init__(tid, **kwargs)

    def show(self, series: Sequence[tuple[str, Sequence[float], RGBA]],
             empty_text: str = "") -> None:
        self.series = list(series)
        self.empty_text = empty_text
        self.redraw()

    def redraw(self) -> None:
        area = self._area()
        if area is None:
            return
        x0, y0, w, h = area
        longest = max((len(p) for _, p, _ in self.series), default=0)
        if longest < 2:
            self._label(self.empty_text, f"{self.tid}.empty", x0, y0, w, h,
                        size=theme.SIZE_SMALL, color=theme.MUTED)
            return
        scale = self.scale()
        legend_h, axis_w = dp(26) * scale, dp(44) * scale
        values = [v for _, points, _ in self.series for v in points]
        low, high = min(0.0, min(values)), max(values)
        span = (high - low) or 1
        left, bottom = x0 + axis_w, y0 + legend_h + dp(4)
        pw, ph = w - axis_w - dp(6), h - legend_h - dp(14)
        step = pw / (longest - 1)

        def at(i: int, v: float) -> tuple[float, float]:
            return left + i * step, bottom + (v - low) / span * ph

        with self.canvas:
            Color(*AXIS)
            Line(points=[left, bottom, left + pw, bottom], width=1)
            Line(points=[left, bottom, left, bottom + ph], width=1)
        self._label(f"{high:g}", f"{self.tid}.high", x0, bottom + ph - dp(12) * scale,
                    axis_w - dp(4), dp(24) * scale, size=theme.SIZE_SMALL, color=theme.MUTED,
                    halign="right")
        self._label(f"{low:g}", f"{self.tid}.low", x0, bottom - dp(12) * scale, axis_w - dp(4),
                    dp(24) * scale, size=theme.SIZE_SMALL, color=theme.MUTED, halign="right")
        per = w / max(len(self.series), 1)
        for index, (name, points, rgba) in enumerate(self.series):
            flat: list[float] = []
            for i, v in enumerate(points):
                flat.extend(at(i, v))
            with self.canvas:
                Color(*rgba)
                SmoothLine(points=flat, width=dp(3))
                for i in range(len(points)):
                    px, py = flat[2 * i], flat[2 * i + 1]
                    Rectangle(pos=(px - dp(5), py - dp(5)), size=(dp(10), dp(10)))
            last = points[-1] if points else 0
            # a colour chip, then the name in text colour (a mid-tone player colour
            # as text would read under 4.5:1 on the background)
            # (each series' swatch: the loop's index once scaled it, and the first
            # series' swatch was drawn 0 px wide)
            chip = dp(14) * scale
            with self.canvas:
                Color(*rgba)
                Rectangle(pos=(x0 + per * index, y0 + (legend_h - chip) / 2),
                          size=(chip, chip))
            self._label(f"{name} {last:g}", f"{self.tid}.legend.{index}",
                        x0 + per * index + chip + dp(4), y0, per - chip - dp(4), legend_h,
                        size=theme.SIZE_SMALL, halign="left")
