"""Round shapes get as many sides as their size needs (ui/widgets/shapes.py)."""

from __future__ import annotations

import math

import pytest

from ui.widgets.shapes import MIN_SEGMENTS, TOLERANCE_PX, circle_segments

pytestmark = pytest.mark.ui


@pytest.mark.parametrize("radius", [0.1, 1, 4.5, 9, 25.5, 27.5, 157, 600])
def test_a_circle_s_polygon_strays_from_it_by_less_than_the_tolerance(radius: float) -> None:
    sides = circle_segments(radius)
    gap = radius * (1 - math.cos(math.pi / sides))  # a side's middle to the circle
    assert gap <= TOLERANCE_PX + 1e-9
    assert sides >= MIN_SEGMENTS


def test_small_discs_get_few_sides_and_large_ones_more() -> None:
    # the dial's markers (51 px) and gold spaces (55 px): about 20 sides, not hundreds
    assert circle_segments(25.5) <= 24
    assert circle_segments(4.5) == MIN_SEGMENTS
    sizes = [circle_segments(r) for r in (5, 10, 20, 40, 80, 160)]
    assert sizes == sorted(sizes) and sizes[-1] > sizes[0]


def test_an_arc_gets_its_share_of_the_circle_s_sides() -> None:
    from ui.widgets.shapes import arc_segments

    assert arc_segments(150, 360) == circle_segments(150)
    assert arc_segments(150, 180) == math.ceil(circle_segments(150) / 2)
    assert arc_segments(150, -90) == arc_segments(150, 90)
    assert arc_segments(150, 0) == 3  # Kivy draws a line of a few points, never none
