"""The three dice drawn as pictures: chevrons, the secret passage arrow, the hurry
clock with its minutes, a colour square with its letter, one or two clocks."""

from __future__ import annotations

import math
import re
from collections import OrderedDict
from typing import Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import (
    ClearBuffers,
    ClearColor,
    Color,
    Fbo,
    InstructionGroup,
    Line,
    PopMatrix,
    PushMatrix,
    Rectangle,
    SmoothEllipse,
    SmoothLine,
    SmoothRoundedRectangle,
    Translate,
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


#: pictures a die keeps (its faces at its sizes): a die shows a dozen faces at one size
KEPT_PICTURES = 32
#: face pictures kept for all the dice (the header's, the card's rows', the end
#: screen's show the same faces): a game's dice have ~20 faces at two or three sizes
KEPT_FACES = 96
OUTLINE_PX = 1.2  # the face's grey edge
MARGIN_PX = 1  # around a face's picture: its antialiased edge
_FACES: OrderedDict[tuple[Any, ...], tuple[Any, float]] = OrderedDict()


class DieFace(Widget):
    """One die. `face` is the face name from config; `letter` labels a colour face.

    Each face is drawn once, at the die's size, into a picture (a texture on `backdrop`,
    the colour around the die, shared by the dice that show that face at that size),
    placed by a translation to whole pixels:
    a frame draws a die as one textured square, not its six to eight shapes, and a roll
    shows a kept picture and makes no drawing instructions. (Dropped instructions are
    cycles that only a full collection frees, and the memory behind each one's
    vertices stays until it does.)"""

    def __init__(self, die: str, white: bool = True,
                 backdrop: theme.Rgba = theme.BACKGROUND, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.die = die
        self.white = white
        self.backdrop = backdrop
        self.pictures_drawn = 0  # faces rendered into pictures (tests read it)
        self.face: str | None = None
        self.letter = ""
        self.figure_font = 0.0  # the last drawn face's text size (tests read it)
        self._pictures: dict[tuple[Any, ...], tuple[InstructionGroup, float]] = {}
        self._shown: InstructionGroup | None = None
        with self.canvas:
            PushMatrix()
            self._place = Translate()
        self.canvas.add(PopMatrix())
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
        side = min(self.width, self.height) * 0.94
        picture: InstructionGroup | None = None
        self.figure_font = 0.0
        if side >= 8:
            key = (self.face, self.letter, self.white, round(side, 2), self.backdrop)
            kept = self._pictures.get(key)
            if kept is None:
                if len(self._pictures) >= KEPT_PICTURES:
                    self._pictures.clear()
                texture, font = self._face_texture(key, side)
                group = InstructionGroup()
                group.add(Color(1, 1, 1, 1))
                group.add(Rectangle(texture=texture, pos=(-MARGIN_PX, -MARGIN_PX),
                                    size=texture.size))
                kept = self._pictures[key] = (group, font)
            picture, self.figure_font = kept
        if picture is not None:
            # whole pixels: the picture's pixels are the screen's, as sharp as drawn
            self._place.xy = (round(self.center_x - side / 2), round(self.center_y - side / 2))
        if picture is not self._shown:
            if self._shown is not None:
                self.canvas.remove(self._shown)
            if picture is not None:
                self.canvas.insert(2, picture)  # after the translation, before PopMatrix
            self._shown = picture

    def _face_texture(self, key: tuple[Any, ...], side: float) -> tuple[Any, float]:
        """The face's picture and its text's size, shared by every die that shows it."""
        kept = _FACES.get(key)
        if kept is not None:
            _FACES.move_to_end(key)
            return kept
        # drawing the picture sets figure_font (its text's size), kept with it
        texture = self._rendered(self._picture(side), side)
        kept = _FACES[key] = (texture, self.figure_font)
        while len(_FACES) > KEPT_FACES:
            _FACES.popitem(last=False)
        return kept

    def _rendered(self, art: InstructionGroup, side: float) -> Any:
        """`art` drawn once into a texture of its own, on the backdrop (opaque: its
        antialiased edges blend once, as drawn directly). The framebuffer goes once
        drawn; its texture stays."""
        self.pictures_drawn += 1
        px = math.ceil(side) + 2 * MARGIN_PX
        fbo = Fbo(size=(px, px))
        with fbo:
            ClearColor(*self.backdrop)
            ClearBuffers()
            Translate(MARGIN_PX, MARGIN_PX)
        fbo.add(art)
        fbo.draw()
        return fbo.texture

    def _picture(self, side: float) -> InstructionGroup:
        """The face as drawing instructions, its lower-left corner at the origin."""
        x0 = y0 = 0.0
        ink = (0.08, 0.08, 0.08, 1) if self.white else (0.95, 0.95, 0.95, 1)
        group = InstructionGroup()
        add = group.add
        # the grey edge (1.2 px, astride the face's outline), then the face within it
        edge = OUTLINE_PX / 2
        add(Color(0.5, 0.5, 0.5, 1))
        add(SmoothRoundedRectangle(pos=(x0 - edge, y0 - edge),
                                   size=(side + 2 * edge, side + 2 * edge),
                                   radius=[side * 0.14 + edge]))
        add(Color(*((0.95, 0.95, 0.93, 1) if self.white else (0.08, 0.08, 0.09, 1))))
        add(SmoothRoundedRectangle(pos=(x0 + edge, y0 + edge),
                                   size=(side - 2 * edge, side - 2 * edge),
                                   radius=[side * 0.14 - edge]))
        if self.face is None:
            return group
        add(Color(*ink))
        face = self.face
        amount = int(m.group(1)) if (m := _AMOUNT.search(face)) else 0
        if face.startswith("chevron"):
            self._chevrons(group, x0, y0, side, amount)
        elif face == "passage":
            self._arrow(group, x0, y0, side)
        elif face.startswith("time"):
            # the minutes fill the face (a key figure), ringed like a clock
            add(SmoothLine(circle=(x0 + side / 2, y0 + side / 2, side * 0.43),
                           width=max(1.2, side * 0.03)))
            self._text(group, str(amount), side * FIGURE_SHARE, x0 + side / 2,
                       y0 + side / 2, ink)
        elif face.startswith("clock"):
            centres = [0.5] if amount <= 1 else [0.3, 0.7]
            for cx in centres:
                self._clock(group, x0 + side * cx, y0 + side / 2,
                            side * (0.3 if amount <= 1 else 0.18))
        else:  # a colour face
            add(Color(*theme.colour(face)))
            inset = side * 0.08
            add(SmoothRoundedRectangle(pos=(x0 + inset, y0 + inset),
                                       size=(side - 2 * inset, side - 2 * inset),
                                       radius=[side * 0.1]))
            self._text(group, self.letter, side * FIGURE_SHARE, x0 + side / 2, y0 + side / 2,
                       theme.text_on(theme.colour(face)))
        return group

    @staticmethod
    def _chevrons(group: InstructionGroup, x0: float, y0: float, side: float,
                  count: int) -> None:
        gap = side / (count + 1)
        for i in range(count):
            y = y0 + gap * (i + 1) - side * 0.08
            group.add(Line(points=[x0 + side * 0.25, y, x0 + side * 0.5, y + side * 0.16,
                                   x0 + side * 0.75, y], width=side * 0.045, cap="round",
                           joint="round"))

    @staticmethod
    def _arrow(group: InstructionGroup, x0: float, y0: float, side: float) -> None:
        y = y0 + side / 2
        group.add(Line(points=[x0 + side * 0.2, y, x0 + side * 0.78, y], width=side * 0.05,
                       cap="round"))
        group.add(Line(points=[x0 + side * 0.58, y + side * 0.18, x0 + side * 0.8, y,
                               x0 + side * 0.58, y - side * 0.18], width=side * 0.05,
                       cap="round", joint="round"))

    @staticmethod
    def _clock(group: InstructionGroup, cx: float, cy: float, radius: float) -> None:
        group.add(SmoothLine(circle=(cx, cy, radius, 0, 360),
                             width=max(1.5, radius * 0.14)))
        group.add(Line(points=[cx, cy, cx, cy + radius * 0.7], width=max(1.2, radius * 0.1),
                       cap="round"))
        group.add(Line(points=[cx, cy, cx + radius * 0.5, cy], width=max(1.2, radius * 0.1),
                       cap="round"))
        dot = radius * 0.24
        group.add(SmoothEllipse(pos=(cx - dot / 2, cy - dot / 2), size=(dot, dot)))

    def _text(self, group: InstructionGroup, text: str, size: float, x: float, y: float,
              rgba: tuple[float, float, float, float]) -> None:
        if not text:
            return
        self.figure_font = size
        texture = face_text(text, size)
        group.add(Color(*rgba))
        group.add(Rectangle(texture=texture, size=texture.size,
                            pos=(x - texture.width / 2, y - texture.height / 2)))
