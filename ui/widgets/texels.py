"""Textures shown at their own size on whole pixels read one texel a pixel.

Kivy samples every texture with linear filtering: four texels read and blended for each
pixel. A label's text, a die's picture and the dial's face and markers are drawn at
their own size with their corner on a whole pixel, so each pixel's centre is a texel's
centre and nearest sampling gives exactly the same pixels. Under a software renderer
(llvmpipe: a desktop without a GPU, the tests and the benchmarks) the play screen's frame
rasterised in 1.34 ms instead of 1.69 (docs/benchmarks.md); a GPU samples either at
the same speed. Where such a texture is shown off the pixel grid (a list scrolled by a
fraction of a pixel), nearest keeps it sharp on the nearest pixel, where linear blurred
it over two."""

from __future__ import annotations

from typing import Any

NEAREST = "nearest"


def one_to_one(texture: Any) -> Any:
    """Sample `texture` nearest (each setting is a GL call: made only when it differs)."""
    if texture.mag_filter != NEAREST:
        texture.mag_filter = NEAREST
    if texture.min_filter != NEAREST:
        texture.min_filter = NEAREST
    return texture
