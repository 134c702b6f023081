"""The central clock: I..XII, the time marker, the treasure markers and the power spaces.

Drawn with canvas instructions only when the state or the size changes: nothing is
redrawn while nothing changes. Round shapes use Kivy's antialiased instructions, so
the window needs no multisampling. The face (disc, rim, numerals) changes only with the
size or the game's settings: it is drawn once into a framebuffer and every frame after
draws it as one picture, under what moves (the time-left arcs, then the gold power
spaces over them, the hand, the markers). What moves is built once for a size and a
number of markers, and a roll moves it. Kivy redraws the whole window for any
change, and under a software renderer the face's shapes were most of the dial's cost in
every frame. Each treasure marker carries a letter as well as its colour, and a
coloured arc shows the time left before the time marker reaches it. A marker is a
picture too, drawn once per size.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import (
    Callback,
    ClearBuffers,
    ClearColor,
    Color,
    Fbo,
    InstructionGroup,
    Rectangle,
    SmoothEllipse,
    SmoothLine,
)
from kivy.metrics import sp
from kivy.uix.widget import Widget

from companion.games.evil.instructions import roman
from ui import theme


def marker_radius(r: float, numeral_size: float, d: float) -> float:
    """How far from the centre a treasure marker sits: just inside its step's numeral,
    or the gold disc of a power space around it (`_power_spaces`: 1.45 font sizes
    across, at 0.78 r), its rim (2 px) clear of it."""
    return max(r * 0.78 - numeral_size * 1.45 / 2 - (d / 2 + 2) - 2, r * 0.2)


@dataclass(frozen=True)
class DialView:
    """What the dial shows, as plain data (the tests read it too)."""

    steps: int
    time: int
    power_spaces: tuple[int, ...]
    markers: tuple[tuple[str, str, int, int], ...]  # colour, letter, position, steps left


class Dial(Widget):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.view: DialView | None = None
        self.redraws = 0
        #: font sizes of the last drawing (key figures: the tests read them)
        self.numeral_font = 0.0
        self.marker_font = 0.0
        self._textures: dict[tuple[str, int], Any] = {}
        #: the face's framebuffer and what it was drawn for (size, settings, type size)
        self._face: Fbo | None = None
        self._face_key: tuple[Any, ...] | None = None
        self.face_draws = 0
        #: what the instructions were built for (`_build`): a roll only moves them
        self._layout: tuple[Any, ...] | None = None
        self._arc_box = InstructionGroup()
        self._marker_box = InstructionGroup()
        self._arcs: list[tuple[InstructionGroup, Color, SmoothLine]] = []
        self._markers: list[tuple[InstructionGroup, Rectangle]] = []
        #: each treasure marker's picture (colour, letter, size): drawn once per size
        self._marker_pictures: dict[tuple[str, str, float, float], Any] = {}
        self.marker_pictures_drawn = 0
        self._shown_markers = -1
        self._arc_width = self._marker_side = 0.0
        self._hand: SmoothLine | None = None
        self._tip: SmoothEllipse | None = None
        # one drawing per frame however many size, position and state changes came
        # (a layout pass moves the dial several times before the first frame)
        self._draw_soon = Clock.create_trigger(self._draw, -1)
        self.bind(pos=self._draw_soon, size=self._draw_soon)

    def show(self, view: DialView) -> None:
        if view != self.view:
            self.view = view
            self._draw_soon()

    def _angle(self, position: float) -> float:
        """Radians, counter-clockwise from 3 o'clock, for a dial position (0 = XII at top)."""
        assert self.view is not None
        return math.pi / 2 - 2 * math.pi * position / self.view.steps

    def _point(self, position: float, radius: float) -> tuple[float, float]:
        angle = self._angle(position)
        return self.center_x + radius * math.cos(angle), self.center_y + radius * math.sin(angle)

    def _text(self, text: str, size: float, bold: bool = True) -> Any:
        key = (text, int(size))
        if key not in self._textures:
            label = CoreLabel(text=text, font_size=size, bold=bold)
            label.refresh()
            self._textures[key] = label.texture
        return self._textures[key]

    def _blit(self, text: str, size: float, x: float, y: float) -> None:
        texture = self._text(text, size)
        Rectangle(texture=texture, size=texture.size,
                  pos=(x - texture.width / 2, y - texture.height / 2))

    def _face_picture(self, r: float, numeral_size: float) -> tuple[Fbo, tuple[int, int]]:
        """The face in its framebuffer, drawn again only when what it shows changed;
        and where its lower-left corner goes (whole pixels: the picture stays sharp)."""
        assert self.view is not None
        origin = (round(self.x), round(self.y))
        size = (max(1, round(self.right) - origin[0]), max(1, round(self.top) - origin[1]))
        key = (size, self.center_x - origin[0], self.center_y - origin[1], r, numeral_size,
               self.view.steps, self.view.power_spaces)
        if self._face is not None and key == self._face_key:
            return self._face, origin
        self._face_key = key
        self.face_draws += 1
        if self._face is None or tuple(self._face.size) != size:
            self._face = Fbo(size=size)
        fbo = self._face
        fbo.clear()
        with fbo:
            # the window's own background around the disc: the picture is opaque, so
            # its antialiased edges blend once, on the background, as drawn directly
            ClearColor(*theme.BACKGROUND)
            ClearBuffers()
            self._face_shapes(r, numeral_size, origin)
        return fbo, origin

    def _face_shapes(self, r: float, numeral_size: float, origin: tuple[int, int]) -> None:
        """The face's instructions (disc, rim, numerals), where the window's `origin` is
        (0, 0): into its picture."""
        assert self.view is not None
        cx, cy = self.center_x - origin[0], self.center_y - origin[1]
        Color(*theme.PANEL)
        SmoothEllipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r))
        Color(0.45, 0.47, 0.52, 1)
        SmoothLine(circle=(cx, cy, r), width=2)
        # the numerals; the power spaces' gold discs are drawn over the arcs
        Color(*theme.TEXT)
        for p in range(self.view.steps):
            if p not in self.view.power_spaces:
                x, y = self._point(p, r * 0.78)
                self._blit(roman(p, self.view.steps), numeral_size, x - origin[0],
                           y - origin[1])

    def _power_spaces(self, r: float, numeral_size: float) -> None:
        """The power spaces highlighted in gold, over the time-left arcs they may touch."""
        assert self.view is not None
        d = numeral_size * 1.45
        for p in self.view.power_spaces:
            x, y = self._point(p, r * 0.78)
            Color(*theme.ACCENT)
            SmoothEllipse(pos=(x - d / 2, y - d / 2), size=(d, d))
            Color(*theme.text_on(theme.ACCENT))
            self._blit(roman(p, self.view.steps), numeral_size, x, y)

    def _draw(self, *_: Any) -> None:
        view = self.view
        if view is None or self.width < 10 or self.height < 10:
            self.canvas.clear()
            self._layout = None
            return
        self.redraws += 1
        r = min(self.width, self.height) / 2 * 0.96
        # numerals and markers are key figures (theme.SIZE_FIGURE); a dial too small
        # for them (never at the design sizes) keeps its numerals apart rather
        scale = float(getattr(App.get_running_app(), "scale", 1.0))
        numeral_size = min(sp(theme.SIZE_FIGURE) * scale, r * 0.25)
        self.numeral_font = self.marker_font = numeral_size
        face, origin = self._face_picture(r, numeral_size)
        layout = (self._face_key, origin, tuple(self.center))
        if layout != self._layout:
            self._layout = layout
            self._build(face, origin, r, numeral_size)
        self._slots(len(view.markers))
        self._move(view, r, numeral_size)

    def _build(self, face: Fbo, origin: tuple[int, int], r: float,
               numeral_size: float) -> None:
        """The dial's instructions for this size; a roll then moves them (`_move`) and
        makes none: dropped instructions are cycles that only a full collection frees,
        and the memory behind their vertices stays until it does."""
        self.canvas.clear()
        cx, cy = self.center
        self.canvas.add(face)  # drawn into only when flagged: a new size or settings
        with self.canvas:
            Color(1, 1, 1, 1)
            Rectangle(texture=face.texture, pos=origin, size=face.size)
        # time-left arcs, one ring per treasure, from the time marker to its marker
        self._arc_box = InstructionGroup()
        self.canvas.add(self._arc_box)
        with self.canvas:
            self._power_spaces(r, numeral_size)
            # the time marker: a hand from the centre, with a round tip
            Color(*theme.TEXT)
            hand = max(2, r * 0.03)
            self._hand = SmoothLine(points=[cx, cy, cx, cy], width=hand)
            self._tip = SmoothEllipse(size=(2 * hand, 2 * hand))
            d = r * 0.12
            SmoothEllipse(pos=(cx - d / 2, cy - d / 2), size=(d, d))
        # treasure markers with their letter (a key figure), on a dark rim
        self._marker_box = InstructionGroup()
        self.canvas.add(self._marker_box)
        # each marker's instructions, kept while the size is the same: a treasure lost
        # or placed takes its marker and arc out, and back in, without making them again
        self._arcs, self._markers, self._shown_markers = [], [], -1
        self._marker_pictures = {}
        self._arc_width = max(1.5, r * 0.018)
        self._marker_side = numeral_size * 1.25

    def _slots(self, count: int) -> None:
        """Make enough markers and arcs for `count` treasures, and show that many."""
        while len(self._arcs) < count:
            paint, arc = Color(), SmoothLine(width=self._arc_width)
            group = InstructionGroup()
            group.add(paint)
            group.add(arc)
            self._arcs.append((group, paint, arc))
            picture = Rectangle()
            group = InstructionGroup()
            group.add(Color(1, 1, 1, 1))
            group.add(picture)
            self._markers.append((group, picture))
        if count != self._shown_markers:
            self._shown_markers = count
            for box, slots in ((self._arc_box, self._arcs), (self._marker_box, self._markers)):
                box.clear()
                for slot in slots[:count]:
                    box.add(slot[0])

    def _move(self, view: DialView, r: float, numeral_size: float) -> None:
        """Put the hand, the arcs and the markers where `view` says."""
        assert self._hand is not None and self._tip is not None
        cx, cy = self.center
        start = 360 * view.time / view.steps
        for i, ((_, paint, arc), (colour, _, position, _)) in enumerate(
                zip(self._arcs[:len(view.markers)], view.markers, strict=True)):
            end = 360 * (position if position > view.time else position + view.steps) \
                / view.steps
            paint.rgba = theme.colour(colour)
            ring = r * (0.97 - 0.045 * i)
            arc.circle = (cx, cy, ring, start, end)
        tx, ty = self._point(view.time, r * 0.62)
        self._hand.points = [cx, cy, tx, ty]
        hand = self._tip.size[0] / 2
        self._tip.pos = (tx - hand, ty - hand)
        # markers on one step sit side by side across its spoke, just inside its
        # numeral (or power space): each letter whole, no numeral covered
        stacked: dict[int, int] = {}
        sharing = Counter(position for _, _, position, _ in view.markers)
        d = self._marker_side
        outer = marker_radius(r, numeral_size, d)
        for (_, picture), (colour, text, position, _) in zip(
                self._markers[:len(view.markers)], view.markers, strict=True):
            level = stacked.get(position, 0)
            stacked[position] = level + 1
            count = sharing[position]
            # two or more: a little further in, where the spoke's neighbours leave room
            radius = outer if count == 1 else min(outer, r * 0.36)
            across = (level - (count - 1) / 2) * (d + 4)
            angle = self._angle(position)
            x, y = self._point(position, radius)
            mx, my = x - across * math.sin(angle), y + across * math.cos(angle)
            texture = self._marker_picture(colour, text, numeral_size)
            picture.texture = texture
            picture.size = texture.size
            # whole pixels: the picture's pixels are the screen's, as sharp as drawn
            picture.pos = (round(mx - texture.width / 2), round(my - texture.height / 2))

    def _marker_picture(self, colour: str, text: str, numeral_size: float) -> Any:
        """A treasure marker (its colour on a dark rim, its letter) drawn once into a
        picture: a frame draws each marker as one textured square. On a transparent
        ground: the outermost shape is black, whose antialiased edge stays exact once
        blended on the dial (a picture's colours are multiplied by their coverage)."""
        d = self._marker_side
        key = (colour, text, d, numeral_size)
        texture = self._marker_pictures.get(key)
        if texture is None:
            self.marker_pictures_drawn += 1
            texture = self._marker_pictures[key] = marker_picture(
                d, theme.colour(colour), self._text(text, numeral_size))
        return texture


def marker_picture_side(d: float) -> int:
    """The side (px) of a marker's picture: the marker `d` across, its rim and edge."""
    return math.ceil(d + 4) + 2


def marker_picture(d: float, fill: theme.Rgba, letter: Any) -> Any:
    """`marker_art` drawn into a texture of its own, on a transparent ground (the
    framebuffer goes once drawn; its texture stays)."""
    side = marker_picture_side(d)
    fbo = Fbo(size=(side, side))
    with fbo:
        ClearColor(0, 0, 0, 0)
        ClearBuffers()
        # coverage composed as on screen ("over"), not summed as Kivy's blending sums
        # alpha: where the rim's antialiased pieces meet, its edge stays exact
        Callback(_compose_over)
    fbo.add(marker_art(side, d, fill, letter))
    fbo.add(Callback(_kivy_blending))
    fbo.draw()
    return fbo.texture


def _compose_over(_instruction: Any) -> None:
    from kivy.graphics import opengl as gl

    gl.glBlendFuncSeparate(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA, gl.GL_ONE,
                           gl.GL_ONE_MINUS_SRC_ALPHA)


def _kivy_blending(_instruction: Any) -> None:
    from kivy.graphics import opengl as gl

    gl.glBlendFuncSeparate(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA, gl.GL_ONE, gl.GL_ONE)


def marker_art(side: int, d: float, fill: theme.Rgba, letter: Any) -> InstructionGroup:
    """A treasure marker centred in a `side` px square: a black rim, a disc of `fill`
    `d` across, and the `letter` texture in the colour that reads on it (whole pixels)."""
    c = side / 2
    group = InstructionGroup()
    group.add(Color(0, 0, 0, 1))
    group.add(SmoothEllipse(pos=(c - d / 2 - 2, c - d / 2 - 2), size=(d + 4, d + 4)))
    group.add(Color(*fill))
    group.add(SmoothEllipse(pos=(c - d / 2, c - d / 2), size=(d, d)))
    group.add(Color(*theme.text_on(fill)))
    group.add(Rectangle(texture=letter, size=letter.size,
                        pos=(round(c - letter.width / 2), round(c - letter.height / 2))))
    return group
