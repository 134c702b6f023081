"""Rounded rectangles in one textured draw (ui/widgets/rounded.py): the same shape and
edge as Kivy's antialiased `SmoothRoundedRectangle`, at a fifth of its cost a frame."""

from __future__ import annotations

import math
from typing import Any

import pytest

from ui.widgets.rounded import corner_alphas

pytestmark = pytest.mark.ui


def _alpha(radius: float, col: int, row: int) -> int:
    n, alphas = corner_alphas(radius)
    return alphas[row * (2 * n + 1) + col]


@pytest.mark.parametrize("radius", [0, 1, 6, 8, 8.4, 10, 11.75])
def test_the_mask_is_solid_inside_and_along_its_straight_edges(radius: float) -> None:
    n, alphas = corner_alphas(radius)
    size = 2 * n + 1
    assert len(alphas) == size * size
    middle = n  # the row and column the box stretches
    assert all(alphas[middle * size + col] == 255 for col in range(size))
    assert all(alphas[row * size + middle] == 255 for row in range(size))


@pytest.mark.parametrize("radius", [6, 8, 10.5])
def test_the_corners_are_cut_round_with_an_antialiased_edge(radius: float) -> None:
    n, _ = corner_alphas(radius)
    size = 2 * n + 1
    for col, row in ((0, 0), (size - 1, 0), (0, size - 1), (size - 1, size - 1)):
        assert _alpha(radius, col, row) == 0  # the square's corner is outside
    # towards the middle, coverage rises from empty to solid across the arc, along each
    # row and column of a corner; an antialiased edge (partly lit pixels), not a stair
    for k in range(n + 1):
        row = [_alpha(radius, col, k) for col in range(n + 1)]
        column = [_alpha(radius, k, r) for r in range(n + 1)]
        assert row == sorted(row) and column == sorted(column)
    corner = [_alpha(radius, col, r) for col in range(n) for r in range(n)]
    assert sum(1 for a in corner if 0 < a < 255) >= n // 2
    diagonal = [_alpha(radius, k, k) for k in range(n + 1)]
    # the arc crosses the diagonal where the circle does
    centre = n + 0.5 - (n + 0.5 - radius)  # the corner circle's centre, from the edge
    crossing = centre - radius / math.sqrt(2)
    first_solid = diagonal.index(255)
    assert abs(first_solid - crossing) <= 1.5


def test_the_mask_is_symmetric() -> None:
    n, alphas = corner_alphas(9.3)
    size = 2 * n + 1
    grid = [alphas[r * size:(r + 1) * size] for r in range(size)]
    assert grid == grid[::-1]
    assert grid == [row[::-1] for row in grid]
    assert grid == [list(col) for col in zip(*grid, strict=True)]


def _render(draw: Any, size: tuple[int, int]) -> bytes:
    from kivy.graphics import ClearBuffers, ClearColor, Fbo

    fbo = Fbo(size=size)
    with fbo:
        ClearColor(0.1, 0.1, 0.12, 1)
        ClearBuffers()
    fbo.add(draw())
    fbo.draw()
    return bytes(fbo.pixels)


@pytest.mark.parametrize(("box", "radius"), [((90, 50), 8), ((40, 40), 5.6), ((30, 12), 8)])
def test_a_box_looks_as_kivy_s_antialiased_rounded_rectangle(window: None,
                                                             box: tuple[int, int],
                                                             radius: float) -> None:
    from kivy.graphics import Color, InstructionGroup, SmoothRoundedRectangle

    from ui.widgets.rounded import RoundedBox

    canvas = (box[0] + 20, box[1] + 20)

    def ours() -> InstructionGroup:
        group = InstructionGroup()
        group.add(Color(0.95, 0.75, 0.2, 1))
        group.add(RoundedBox(radius, pos=(10.0, 10.0), size=box).instruction)
        return group

    def kivy_s() -> InstructionGroup:
        group = InstructionGroup()
        group.add(Color(0.95, 0.75, 0.2, 1))
        group.add(SmoothRoundedRectangle(pos=(10, 10), size=box, radius=[radius]))
        return group

    a, b = _render(ours, canvas), _render(kivy_s, canvas)
    w = canvas[0]
    half_w, half_h = box[0] / 2, box[1] / 2
    r = min(radius, half_w, half_h)
    lit = {"ours": 0, "kivy": 0}
    for i in range(0, len(a), 4):
        lit["ours"] += a[i]
        lit["kivy"] += b[i]
        if max(abs(x - y) for x, y in zip(a[i:i + 3], b[i:i + 3], strict=True)) <= 24:
            continue
        # a pixel that differs lies on the antialiased edge: within 1.5 px of the shape's
        # outline (its signed distance, as in corner_alphas)
        x, y = (i // 4) % w + 0.5 - 10, (i // 4) // w + 0.5 - 10
        qx, qy = abs(x - half_w) - (half_w - r), abs(y - half_h) - (half_h - r)
        edge = math.hypot(max(qx, 0), max(qy, 0)) + min(max(qx, qy), 0) - r
        assert abs(edge) <= 1.5, (x, y, edge)
    # the same area: the two edges lit differently by at most half a pixel all round
    perimeter = 2 * (box[0] + box[1])
    assert abs(lit["ours"] - lit["kivy"]) <= 0.5 * perimeter * 255
    # a shape at all: the middle is the fill, a corner of the canvas the background
    middle = ((canvas[1] // 2) * w + w // 2) * 4
    assert a[middle:middle + 3] == b[middle:middle + 3]
    assert a[0:3] == b[0:3]


def test_a_box_narrower_than_its_corners_keeps_them_within_it(window: None) -> None:
    from ui.widgets.rounded import RoundedBox

    box = RoundedBox(8, size=(10, 40))
    image = box.instruction
    across, up = image.display_border[1], image.display_border[0]
    assert across <= 5 and up <= 20
    box.size = (100, 40)
    assert list(image.display_border) == [8, 8, 8, 8]
    assert box.size == (100, 40)
    box.pos = (3, 4)
    assert box.pos == (3, 4)
    # a radius whose whole-pixel corners (8 px) are wider than half the box (7.7 px),
    # though the radius itself (7.6 px) fits: squeezed, and whole again once wider
    box = RoundedBox(7.6, size=(15.4, 40))
    assert box.instruction.display_border[1] == pytest.approx(7.7)
    box.size = (20, 40)
    assert list(box.instruction.display_border) == [8, 8, 8, 8]
