"""Rounded rectangles drawn as one textured draw: a nine-slice of an antialiased corner.

Kivy's `SmoothRoundedRectangle` is a polygon plus an antialiasing line around it, two
draws of many vertices: ~100 us a frame each under a software renderer, five times a
plain rectangle, and the play screen has two dozen (its buttons, chips and dice). A
`RoundedBox` is a `BorderImage` whose texture is a small white mask of the rounded
corners, with each pixel's alpha its share of the shape (the same antialiased edge);
`Color` before it tints it as it tinted the polygon. Its corners are drawn at the mask's
own pixel size, so they stay sharp whatever the box's size."""

from __future__ import annotations

import math
from typing import Any

from kivy.graphics import BorderImage
from kivy.graphics.texture import Texture

#: radii are rounded to this step (px): the masks a screen needs stay a handful
RADIUS_STEP = 0.25

_MASKS: dict[float, tuple[Texture, int]] = {}


def corner_alphas(radius: float) -> tuple[int, list[int]]:
    """The mask of a (2n+1)-pixel square with corners of `radius` px, rows bottom-up:
    n, and each pixel's alpha (0-255), its coverage by the rounded square."""
    n = max(1, math.ceil(radius))
    half = n + 0.5  # the square's centre, from its edge
    # one quarter, up to the middle row and column; the square is symmetric
    quarter = []
    for row in range(n + 1):
        qy = abs(row + 0.5 - half) - (half - radius)
        line = []
        for col in range(n + 1):
            # signed distance from the pixel's centre to the rounded square's edge
            qx = abs(col + 0.5 - half) - (half - radius)
            outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
            distance = outside + min(max(qx, qy), 0.0) - radius
            line.append(round(min(1.0, max(0.0, 0.5 - distance)) * 255))
        quarter.append(line + line[-2::-1])  # the right half mirrors the left
    return n, [alpha for line in quarter + quarter[-2::-1] for alpha in line]


def _mask(radius: float) -> tuple[Texture, int]:
    key = round(radius / RADIUS_STEP) * RADIUS_STEP
    if key not in _MASKS:
        n, alphas = corner_alphas(key)
        size = 2 * n + 1
        pixels = bytearray(b"\xff" * (4 * size * size))  # white...
        pixels[3::4] = bytes(alphas)  # ... each pixel's alpha its coverage
        texture = Texture.create(size=(size, size), colorfmt="rgba")
        texture.blit_buffer(bytes(pixels), colorfmt="rgba", bufferfmt="ubyte")
        _MASKS[key] = (texture, n)
    return _MASKS[key]


class RoundedBox:
    """An antialiased rounded rectangle, in the canvas it is made in (as an instruction
    is). Set `pos` and `size` as on `SmoothRoundedRectangle`; the corners' radius is
    kept to half the shorter side, as Kivy's is."""

    def __init__(self, radius: float, pos: tuple[float, float] = (0, 0),
                 size: tuple[float, float] = (0, 0)) -> None:
        self.radius = radius
        self._image = BorderImage(pos=pos)
        self._shown_radius = -1.0
        self.size = size

    @property
    def pos(self) -> tuple[float, float]:
        return tuple(self._image.pos)  # type: ignore[return-value]

    @pos.setter
    def pos(self, value: Any) -> None:
        self._image.pos = value

    @property
    def size(self) -> tuple[float, float]:
        return tuple(self._image.size)  # type: ignore[return-value]

    @size.setter
    def size(self, value: Any) -> None:
        width, height = value
        radius = max(0.0, min(self.radius, width / 2, height / 2))
        if radius != self._shown_radius:
            self._shown_radius = radius
            texture, n = _mask(radius)
            self._image.texture = texture
            self._image.border = (n, n, n, n)
        n = self._image.border[0]
        # the mask's corners are whole pixels: a box narrower than two of them shows
        # them squeezed rather than overlapping (a matter of the size, not the radius)
        across, up = min(n, width / 2), min(n, height / 2)
        self._image.display_border = (up, across, up, across)
        self._image.size = value

    @property
    def instruction(self) -> BorderImage:
        """The drawing instruction (to add to a group, or to test)."""
        return self._image
