"""The three dice drawn as pictures: chevrons, the secret passage arrow, the hurry
clock with its minutes, a colour square with its letter, one or two clocks."""

from __future__ import annotations

import re
from typing import Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import (
    Color,
    Line,
    Rectangle,
    SmoothEllipse,
    SmoothLine,
    SmoothRoundedRectangle,
)
from kivy.uix.widget import Widget

from ui import theme

_AMOUNT = re.compile(r"(\d+)$")
#: a face's text (minutes, a colour's letter) to the face's side: at the header's 56 px
#: die it is a key figure (37 px, 26 px cap height)
FIGURE_SHARE = 0.72


def ink_on(rgba: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """Black or white, whichever contrasts more with this fill (WCAG relative luminance):
    white on the green face was 3:1."""
    def channel(v: float) -> float:
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    lum = 0.2126 * channel(rgba[0]) + 0.7152 * channel(rgba[1]) + 0.0722 * channel(rgba[2])
    return (0.0, 0.0, 0.0, 1.0) if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else \
        (1.0, 1.0, 1.0, 1.0)


#: a face's text drawn once per text and size (white: the canvas Color tints it); a
#: die is redrawn at every roll and a text is a few minutes or a letter
_TEXTS: dict[tuple[str, float], Any] = {}


def face_text(text: str, size: float) -> Any:
    """The texture of a face's text, drawn the first time it is asked for."""
    key = (text, round(size, 2))
    texture = _TEXTS.get(key)
    if texture is None:
        label = CoreLabel(text=text, font_size=size, bold=True)
        label.refresh()
        texture = _TEXTS[key] = label.texture
    return texture


class DieFace(Widget):
    """One die. `face` is the face name from config; `letter` labels a colour face."""

    def __init__(self, die: str, white: bool = True, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.die = die
        self.white = white
        self.face: str | None = None
        self.letter = ""
        self.figure_font = 0.0  # the last drawn face's text size (tests read it)
        self._draw_soon = Clock.create_trigger(self._draw, -1)  # once per frame at most
        self.bind(pos=self._draw_soon, size=self._draw_soon)

    def cast(self, die: str, white: bool) -> None:
        """Show another die from now on (a pooled face reused for another line)."""
        if (die, white) != (self.die, self.white):
            self.die, self.white = die, white
            self._draw_soon()

    def show(self, face: str | None, letter: str = "") -> None:
        if (face, letter) != (self.face, self.letter):
            self.face, self.letter = face, letter
            self._draw_soon()

    def _draw(self, *_: Any) -> None:
        self.canvas.clear()
        side = min(self.width, self.height) * 0.94
        self.figure_font = 0.0
        if side < 8:
            return
        x0 = self.center_x - side / 2
        y0 = self.center_y - side / 2
        ink = (0.08, 0.08, 0.08, 1) if self.white else (0.95, 0.95, 0.95, 1)
        with self.canvas:
            Color(*((0.95, 0.95, 0.93, 1) if self.white else (0.08, 0.08, 0.09, 1)))
            SmoothRoundedRectangle(pos=(x0, y0), size=(side, side), radius=[side * 0.14])
            Color(0.5, 0.5, 0.5, 1)
            SmoothLine(rounded_rectangle=(x0, y0, side, side, side * 0.14), width=1.2)
            if self.face is None:
                return
            Color(*ink)
            face = self.face
            amount = int(m.group(1)) if (m := _AMOUNT.search(face)) else 0
            if face.startswith("chevron"):
                self._chevrons(x0, y0, side, amount)
            elif face == "passage":
                self._arrow(x0, y0, side)
            elif face.startswith("time"):
                # the minutes fill the face (a key figure), ringed like a clock
                SmoothLine(circle=(x0 + side / 2, y0 + side / 2, side * 0.43),
                           width=max(1.2, side * 0.03))
                self._text(str(amount), side * FIGURE_SHARE, x0 + side / 2, y0 + side / 2, ink)
            elif face.startswith("clock"):
                centres = [0.5] if amount <= 1 else [0.3, 0.7]
                for cx in centres:
                    self._clock(x0 + side * cx, y0 + side / 2, side * (0.3 if amount <= 1
                                                                         else 0.18))
            else:  # a colour face
                Color(*theme.colour(face))
                inset = side * 0.08
                SmoothRoundedRectangle(pos=(x0 + inset, y0 + inset),
                                       size=(side - 2 * inset, side - 2 * inset),
                                       radius=[side * 0.1])
                self._text(self.letter, side * FIGURE_SHARE, x0 + side / 2, y0 + side / 2,
                           theme.text_on(theme.colour(face)))

    def _chevrons(self, x0: float, y0: float, side: float, count: int) -> None:
        gap = side / (count + 1)
        for i in range(count):
            y = y0 + gap * (i + 1) - side * 0.08
            Line(points=[x0 + side * 0.25, y, x0 + side * 0.5, y + side * 0.16,
                         x0 + side * 0.75, y], width=side * 0.045, cap="round", joint="round")

    def _arrow(self, x0: float, y0: float, side: float) -> None:
        y = y0 + side / 2
        Line(points=[x0 + side * 0.2, y, x0 + side * 0.78, y], width=side * 0.05, cap="round")
        Line(points=[x0 + side * 0.58, y + side * 0.18, x0 + side * 0.8, y,
                     x0 + side * 0.58, y - side * 0.18], width=side * 0.05, cap="round",
             joint="round")

    def _clock(self, cx: float, cy: float, radius: float) -> None:
        SmoothLine(circle=(cx, cy, radius), width=max(1.5, radius * 0.14))
        Line(points=[cx, cy, cx, cy + radius * 0.7], width=max(1.2, radius * 0.1), cap="round")
        Line(points=[cx, cy, cx + radius * 0.5, cy], width=max(1.2, radius * 0.1), cap="round")
        SmoothEllipse(pos=(cx - radius * 0.12, cy - radius * 0.12),
                      size=(radius * 0.24, radius * 0.24))

    def _text(self, text: str, size: float, x: float, y: float,
              rgba: tuple[float, float, float, float]) -> None:
        if not text:
            return
        self.figure_font = size
        texture = face_text(text, size)
        Color(*rgba)
        Rectangle(texture=texture, size=texture.size,
                  pos=(x - texture.width / 2, y - texture.height / 2))
