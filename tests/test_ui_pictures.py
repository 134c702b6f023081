"""Shapes drawn once into a picture, which a frame draws as one textured square: a
die's face (ui/widgets/dice.py) and a treasure marker on the dial (ui/widgets/dial.py).
Each must look exactly as its shapes drawn on the screen would, pixel for pixel."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.ui

CANVAS = (80, 80)
AT = (10, 10)  # where the die's lower-left corner goes, in whole pixels


def _render(content: Any) -> bytes:
    from kivy.graphics import ClearBuffers, ClearColor, Fbo, PopMatrix, PushMatrix, Translate

    from ui import theme

    fbo = Fbo(size=CANVAS)
    with fbo:
        ClearColor(*theme.BACKGROUND)
        ClearBuffers()
        PushMatrix()
        Translate(*AT)
    fbo.add(content)
    fbo.add(PopMatrix())
    fbo.draw()
    return bytes(fbo.pixels)


@pytest.mark.parametrize(("die", "face", "letter", "white"), [
    ("professor", "chevron2", "", True), ("professor", "passage", "", True),
    ("professor", "time10", "", True), ("colour", "green", "V", True),
    ("clock", "clock2", "", False), ("clock", None, "", False)])
def test_a_die_s_picture_is_its_shapes_pixel_for_pixel(window: None, die: str,
                                                         face: str | None, letter: str,
                                                         white: bool) -> None:
    import gc

    from kivy.graphics import Color, InstructionGroup, Rectangle

    from ui.widgets.dice import DieFace

    widget = DieFace(die, white=white)
    widget.face, widget.letter = face, letter
    side = 56 * 0.94  # the header's die
    direct = _render(widget._picture(side))
    texture = widget._rendered(widget._picture(side), side)
    gc.collect()  # the framebuffer is gone: its texture stays
    shown = InstructionGroup()
    shown.add(Color(1, 1, 1, 1))
    shown.add(Rectangle(texture=texture, pos=(-1, -1), size=texture.size))
    pictured = _render(shown)
    assert len(direct) == len(pictured) == CANVAS[0] * CANVAS[1] * 4
    differ = [abs(a - b) for a, b in zip(direct, pictured, strict=True) if a != b]
    assert max(differ, default=0) <= 2, f"{len(differ)} channels differ, up to {max(differ)}"
    # and the picture is the die, not an empty square: its shapes changed the pixels
    blank = _render(InstructionGroup())
    assert sum(a != b for a, b in zip(blank, pictured, strict=True)) > side * side


def test_a_die_draws_one_square_and_renders_each_face_once(launch: Any) -> None:
    """On the play screen a die is one textured square; rolling back to a face shown
    before renders nothing again."""
    from kivy.graphics import Rectangle, VertexInstruction

    from tests.test_ui_evil import answer_dialogs, new_game

    ui = launch(seed=5)
    new_game(ui, minutes=30)
    screen = ui.app.root.get_screen("evil_play")

    def drawn(die: Any) -> list[Any]:
        out: list[Any] = []

        def walk(instruction: Any) -> None:
            if isinstance(instruction, VertexInstruction):
                out.append(instruction)
            for child in getattr(instruction, "children", None) or []:
                walk(child)

        walk(die.canvas)
        return out

    for _ in range(6):
        ui.tap("play.roll")
        answer_dialogs(ui, 30)
    ui.wait_until(lambda: not screen.animating)  # the tumble ends on the result
    ui.pump(2)  # and is drawn
    for die in screen.dice.values():
        shapes = drawn(die)
        assert len(shapes) == 1 and isinstance(shapes[0], Rectangle), die.die
        assert shapes[0].texture is not None
        # placed on whole pixels: the picture's pixels are the screen's
        x, y = die.to_window(*die._place.xy)
        assert x == round(x) and y == round(y)
    clock = screen.dice["clock"]
    rendered = clock.pictures_drawn
    for face in ("clock1", "clock2", "clock1"):
        clock.show(face)
        ui.pump(2)
    assert clock.pictures_drawn <= rendered + 2  # the two clock faces at most, once


def test_the_dial_s_face_picture_is_its_shapes_pixel_for_pixel(window: None) -> None:
    """The face's picture, where the dial puts it, is its shapes drawn there directly."""
    from kivy.graphics import ClearBuffers, ClearColor, Color, Fbo, Rectangle

    from ui import theme
    from ui.widgets.dial import Dial, DialView

    dial = Dial(pos=(0, 0), size=(341.44, 328))
    dial.show(DialView(12, 4, (3, 9), (("red", "R", 6, 2), ("blue", "B", 10, 6))))
    dial._draw()
    assert dial._face is not None and dial.face_draws == 1
    dial._face.draw()  # as the window's frame would draw it
    r = min(dial.width, dial.height) / 2 * 0.96

    def render(draw: Any) -> bytes:
        fbo = Fbo(size=(342, 328))
        with fbo:
            ClearColor(*theme.BACKGROUND)
            ClearBuffers()
            draw()
        fbo.draw()
        return bytes(fbo.pixels)

    def picture() -> None:
        Color(1, 1, 1, 1)
        Rectangle(texture=dial._face.texture, pos=(0, 0), size=dial._face.size)

    direct = render(lambda: dial._face_shapes(r, dial.numeral_font, (0, 0)))
    pictured = render(picture)
    differ = [abs(a - b) for a, b in zip(direct, pictured, strict=True) if a != b]
    assert max(differ, default=0) <= 2, f"{len(differ)} channels differ, up to {max(differ)}"
    ground = direct[:4]  # a corner: the background around the disc
    assert sum(direct[i:i + 4] != ground for i in range(0, len(direct), 4)) > 60_000


@pytest.mark.parametrize("colour", ["red", "green", "blue", "yellow"])
def test_a_marker_s_picture_is_its_shapes_on_any_ground(window: None, colour: str) -> None:
    """A marker is drawn on a transparent picture and blended on the dial, over the face,
    an arc or another marker: over a ground of two colours it is its shapes drawn there."""
    import gc
    import math

    from kivy.core.text import Label as CoreLabel
    from kivy.graphics import Color, InstructionGroup, Rectangle

    from ui import theme
    from ui.widgets.dial import marker_art, marker_picture

    label = CoreLabel(text=colour[0].upper(), font_size=37, bold=True)
    label.refresh()
    d = 37 * 1.25
    side = math.ceil(d + 4) + 2
    picture = marker_picture(d, theme.colour(colour), label.texture)
    gc.collect()  # the framebuffer is gone: its texture stays
    assert tuple(picture.size) == (side, side)

    def on_ground(content: InstructionGroup) -> InstructionGroup:
        group = InstructionGroup()
        group.add(Color(*theme.PANEL))
        group.add(Rectangle(pos=(-AT[0], -AT[1]), size=CANVAS))
        group.add(Color(*theme.colour("red")))  # an arc's colour under half the marker
        group.add(Rectangle(pos=(side / 2, -AT[1]), size=CANVAS))
        group.add(content)
        return group

    direct = _render(on_ground(marker_art(side, d, theme.colour(colour), label.texture)))
    shown = InstructionGroup()
    shown.add(Color(1, 1, 1, 1))
    shown.add(Rectangle(texture=picture, pos=(0, 0), size=(side, side)))
    pictured = _render(on_ground(shown))
    differ = [abs(a - b) for a, b in zip(direct, pictured, strict=True) if a != b]
    assert max(differ, default=0) <= 2, f"{len(differ)} channels differ, up to {max(differ)}"


def test_the_dial_draws_each_marker_as_one_square_drawn_once(launch: Any) -> None:
    from kivy.graphics import VertexInstruction

    from tests.test_ui_evil import answer_dialogs, new_game

    ui = launch(seed=5)
    new_game(ui, minutes=30)
    dial = ui.app.root.get_screen("evil_play").dial
    drawn = dial.marker_pictures_drawn
    assert drawn >= len(dial.view.markers) == 3  # once per marker and size laid out
    for _ in range(5):
        ui.tap("play.roll")
        answer_dialogs(ui, 30)
    assert dial.marker_pictures_drawn == drawn  # the same markers, moved
    for group, picture in dial._markers[:len(dial.view.markers)]:
        assert [i for i in group.children if isinstance(i, VertexInstruction)] == [picture]
        assert picture.texture is not None
        assert tuple(picture.pos) == (round(picture.pos[0]), round(picture.pos[1]))
