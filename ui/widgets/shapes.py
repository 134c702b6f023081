"""Round shapes with as many sides as their size needs, and discs in one textured draw.

Kivy's antialiased ellipse and circle lines are polygons of ~180 sides whatever size, and
with a software renderer every vertex is the CPU's, in every frame: the dial's dozen
discs cost ~2 ms a frame at the default. A circle line drawn with `circle_segments`
sides strays at most `TOLERANCE_PX` from the true circle, under its antialiased edge.
A disc is a rounded box whose corners meet (`ui.widgets.rounded`): its edge is the
circle's, antialiased per pixel, in one draw of a few quads."""

from __future__ import annotations

import math

from ui.widgets.rounded import RoundedBox

TOLERANCE_PX = 0.3  # the polygon's largest gap to the circle (under a pixel's edge)
MIN_SEGMENTS = 12


def circle_segments(radius: float) -> int:
    """Sides for a circle of this radius (px) within `TOLERANCE_PX`."""
    if radius <= TOLERANCE_PX:
        return MIN_SEGMENTS
    step = 2 * math.acos(1 - TOLERANCE_PX / radius)  # the angle one side may span
    return max(MIN_SEGMENTS, math.ceil(2 * math.pi / step))


def arc_segments(radius: float, degrees: float) -> int:
    """Sides for an arc of this radius (px) and angle, as `circle_segments` would give."""
    return max(3, math.ceil(circle_segments(radius) * abs(degrees) / 360))


def disc(pos: tuple[float, float] = (0, 0), diameter: float = 0) -> RoundedBox:
    """An antialiased disc of this diameter (px), its lower-left corner at `pos`, in the
    canvas it is made in (`.instruction` to add it to a group)."""
    return RoundedBox(diameter / 2, pos=pos, size=(diameter, diameter))
