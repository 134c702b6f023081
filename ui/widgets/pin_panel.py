"""The virtual panel: on a desktop (mock pins) it shows, live, what the LEDs, the
buzzer and the LED ring would show, and offers the physical buttons as taps.

It reads `station.panel_state()` when the station says something changed; blinking
LEDs are animated only while the panel is open and something blinks.
"""

from __future__ import annotations

import math
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, Line, SmoothEllipse, SmoothLine
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.games.evil.instructions import roman
from ui import theme
from ui.widgets.basics import Tap, Text, follow_height, paint_background

WIDTH, HEIGHT = 330, 330  # px at 800x480: over the dial, under the header, above the treasures
LINE = 26  # a text row (18 px text)
OFF = (0.22, 0.22, 0.24, 1)
LIT = (1.0, 0.85, 0.25, 1)


class LedRing(Widget):
    """12 (or n) clock LEDs drawn in a circle, the lit ones bright (one for Pr. Evil's
    time marker; a draining ring or the active seat for the table clock)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.count = 12
        self.lit: frozenset[int] = frozenset()
        self.treasures: dict[str, bool] = {}
        self.bind(pos=self.draw, size=self.draw)

    def show(self, count: int, lit: frozenset[int], treasures: dict[str, bool]) -> None:
        if (count, lit, treasures) != (self.count, self.lit, self.treasures):
            self.count, self.lit, self.treasures = count, lit, dict(treasures)
            self.draw()

    def draw(self, *_: Any) -> None:
        self.canvas.clear()
        r = min(self.width, self.height) / 2 - dp(6)
        if r <= 0:
            return
        cx, cy = self.center
        dot = max(dp(6), r * 0.22)
        with self.canvas:
            Color(0.4, 0.4, 0.45, 1)
            SmoothLine(circle=(cx, cy, r), width=1)
            for i in range(self.count):
                angle = math.pi / 2 - 2 * math.pi * i / self.count
                x, y = cx + r * math.cos(angle), cy + r * math.sin(angle)
                Color(*(LIT if i in self.lit else OFF))
                SmoothEllipse(pos=(x - dot / 2, y - dot / 2), size=(dot, dot))
            for k, (colour, on) in enumerate(self.treasures.items()):
                x = cx + (k - (len(self.treasures) - 1) / 2) * dot * 1.6
                Color(*(theme.colour(colour) if on else OFF))
                SmoothEllipse(pos=(x - dot / 2, cy - dot / 2), size=(dot, dot))


class PinPanel(BoxLayout):
    def __init__(self, station: Any, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", padding=dp(6), spacing=dp(4), **kwargs)
        self.station = station
        self.tid = "pins"
        # opaque, framed like a dialog: the dial under it does not show through
        paint_background(self, theme.PANEL)
        with self.canvas.before:
            Color(*theme.OUTLINE)
            self._frame = Line(rectangle=(0, 0, 0, 0), width=dp(1.5))
        self.bind(pos=self._redraw_frame, size=self._redraw_frame)
        app = App.get_running_app()
        self.add_widget(Text(app.tr("core.ui.pins_title"), size=theme.SIZE_SMALL, bold=True,
                             size_hint_y=None, height=LINE))
        self.ring = LedRing()
        self.add_widget(self.ring)
        self.clock_label = Text(size=theme.SIZE_SMALL, tid="pins.clock", size_hint_y=None,
                                height=LINE)
        self.treasure_label = Text(size=theme.SIZE_SMALL, tid="pins.treasures",
                                   size_hint_y=None, height=LINE)
        self.buzzer_label = Text(size=theme.SIZE_SMALL, tid="pins.buzzer", size_hint_y=None,
                                 height=LINE)
        self.ring_label = Text(size=theme.SIZE_SMALL, tid="pins.ring", size_hint_y=None,
                               height=LINE)
        for label in (self.clock_label, self.treasure_label, self.buzzer_label,
                      self.ring_label):
            self.add_widget(label)
        row = follow_height(BoxLayout(spacing=dp(4)), theme.touch())
        for name in ("roll", "undo", "ok"):
            button = Tap(app.tr(f"core.ui.pin_button_{name}"), size=theme.SIZE_SMALL,
                         tid=f"pins.{name}")
            button.bind(on_release=lambda _b, n=name: station.press(n))
            row.add_widget(button)
        self.add_widget(row)
        self._blink: Any = None
        self._phase = 0.0
        app.bind(scale=self._rescale)  # a bound method: the app holds it weakly
        self._rescale(app, app.scale)
        station.add_listener(self.refresh)
        self.refresh()

    def _rescale(self, _app: Any, scale: float) -> None:
        self.size = (dp(WIDTH) * scale, dp(HEIGHT) * scale)

    def _redraw_frame(self, *_: Any) -> None:
        self._frame.rectangle = (*self.pos, *self.size)

    # the panel takes the touches that land on it: none reaches the dial or a treasure
    # button under it
    def on_touch_down(self, touch: Any) -> bool:
        return bool(super().on_touch_down(touch)) or self.collide_point(*touch.pos)

    def on_touch_up(self, touch: Any) -> bool:
        return bool(super().on_touch_up(touch)) or self.collide_point(*touch.pos)

    def refresh(self) -> None:
        app = App.get_running_app()
        state = self.station.panel_state()
        clock = state.get("clock")
        treasures = state.get("treasures") or {}
        lit = clock.get("lit") if clock else None
        self.clock_label.text = app.tr("core.ui.pins_clock",
                                       position=roman(lit) if lit is not None else "—")
        modes = "  ".join(app.tr(f"evil.letter.{c}") + ": " + app.tr("core.ui.led_" + t["mode"])
                          for c, t in treasures.items())
        self.treasure_label.text = modes
        buzzer = state.get("buzzer")
        if buzzer is None:
            self.buzzer_label.text = app.tr("core.ui.pins_buzzer", note="—")
        elif buzzer["mute"]:
            self.buzzer_label.text = app.tr("core.ui.pins_buzzer_muted")
        else:
            self.buzzer_label.text = app.tr("core.ui.pins_buzzer", note=buzzer["note"] or "—")
        ring = state.get("ring")
        status = ring["status"] if ring else "disabled"
        self.ring_label.text = app.tr("core.ui.pins_ring",
                                      status=app.tr(f"hardware.ring.status.{status}"))
        self._treasures = treasures
        self._count = clock.get("leds", 12) if clock else 12
        self._lit = frozenset(clock.get("lit_all", ())) if clock else frozenset()
        self._draw_leds()
        blinking = any(t["mode"] in ("slow", "fast") for t in treasures.values())
        if blinking and self._blink is None:
            self._blink = Clock.schedule_interval(self._tick, 1 / 8)
        elif not blinking and self._blink is not None:
            self._blink.cancel()
            self._blink = None

    def _tick(self, dt: float) -> None:
        self._phase += dt
        self._draw_leds()

    def _draw_leds(self) -> None:
        on = {}
        for colour, t in self._treasures.items():
            if t["mode"] in ("slow", "fast"):
                on[colour] = math.sin(2 * math.pi * t["blink_hz"] * self._phase) >= 0
            else:
                on[colour] = t["mode"] == "steady"
        self.ring.show(self._count, self._lit, on)

    def close(self) -> None:
        if self._blink is not None:
            self._blink.cancel()
            self._blink = None
        listeners = getattr(self.station, "_listeners", None)
        if listeners is not None and self.refresh in listeners:
            listeners.remove(self.refresh)
