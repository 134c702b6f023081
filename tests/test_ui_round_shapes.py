"""Round shapes as the table sees them: a button's rounded box is its colour inside and
the ground beyond its cut corners; the dice's clock face has its round hub."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.ui

GROUND = (0.1, 0.1, 0.12, 1)


def _render(canvas: Any, size: tuple[int, int]) -> tuple[bytes, int]:
    from kivy.graphics import ClearBuffers, ClearColor, Fbo

    fbo = Fbo(size=size)
    with fbo:
        ClearColor(*GROUND)
        ClearBuffers()
    fbo.add(canvas)
    fbo.draw()
    return bytes(fbo.pixels), size[0]


def _pixel(pixels: bytes, width: int, x: int, y: int) -> tuple[int, ...]:
    i = (y * width + x) * 4
    return tuple(pixels[i:i + 3])


def _rgb(rgba: tuple[float, ...]) -> tuple[int, ...]:
    return tuple(round(c * 255) for c in rgba[:3])


def test_a_button_is_its_colour_inside_its_rounded_corners(window: None) -> None:
    from ui import theme
    from ui.widgets.basics import Tap

    button = Tap("", background=theme.ACCENT, size_hint=(None, None))
    button.pos, button.size = (10, 10), (120, 60)
    pixels, width = _render(button.canvas.before, (140, 80))
    fill, ground = _rgb(theme.ACCENT), _rgb(GROUND)
    assert _pixel(pixels, width, 70, 40) == fill  # the middle
    assert _pixel(pixels, width, 70, 11) == fill  # along a straight edge
    assert _pixel(pixels, width, 10, 10) == ground  # the corner is cut round
    assert _pixel(pixels, width, 5, 40) == ground  # beyond the box


def test_a_clock_face_s_hub_is_a_disc(window: None) -> None:
    from kivy.graphics import Color, InstructionGroup

    from ui.widgets.dice import DieFace

    die = DieFace("hurry", size=(100, 100))
    die.face = "clock1"
    art = InstructionGroup()
    art.add(Color(1, 1, 1, 1))
    art.add(die._picture(100))
    pixels, width = _render(art, (100, 100))
    # the hub (7.2 px across, at the centre) below where the hands start: the hands' ink
    assert _pixel(pixels, width, 50, 47) == _pixel(pixels, width, 50, 70)
    # and round: its bounding square's corner is the face
    assert _pixel(pixels, width, 46, 46) == _pixel(pixels, width, 20, 20)
