"""A die's face is drawn once into a picture (ui/widgets/dice.py) and a frame draws
that picture as one textured square: it must look exactly as its shapes drawn on the
screen would, pixel for pixel."""

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
    from kivy.graphics import InstructionGroup

    from ui.widgets.dice import DieFace

    widget = DieFace(die, white=white)
    widget.face, widget.letter = face, letter
    side = 56 * 0.94  # the header's die
    direct = _render(widget._picture(side))
    shown, _fbo = widget._rendered(widget._picture(side), side)
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
    ui.wait(0.6)  # the tumble ends on the result
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
