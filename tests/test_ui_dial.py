"""The dial's markers never cover a numeral nor each other's letter (issue 29: markers
stacked on one step hid the numerals and the power spaces' gold discs)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from tests.test_ui_evil import new_game

pytestmark = pytest.mark.ui


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
@pytest.mark.parametrize("position", [3, 6, 9])  # III and IX are power spaces
def test_markers_on_one_step_keep_clear_of_every_numeral(launch: Any, size: tuple[int, int],
                                                       position: int) -> None:
    from ui.widgets.dial import DialView

    ui = launch(seed=7)
    if size != (800, 480):
        ui.resize(*size)
    new_game(ui, minutes=30)
    dial = ui.app.root.get_screen("evil_play").dial
    view = dial.view
    markers = tuple((colour, colour[0].upper(), position, 3)
                    for colour in ("red", "green", "blue"))
    dial.show(DialView(view.steps, 0, view.power_spaces, markers))
    ui.pump(3)
    r = min(dial.width, dial.height) / 2 * 0.96
    font = dial.numeral_font
    centres = []
    for _group, picture in dial._markers[:3]:
        x, y = picture.pos
        w, h = picture.size
        centres.append((x + w / 2, y + h / 2, w / 2))
    for step in range(view.steps):
        nx, ny = dial._point(step, r * 0.78)
        # a numeral's glyphs, or the gold disc of a power space around them
        clear = font * 1.45 / 2 if step in view.power_spaces else font * 0.71 / 2
        for mx, my, half in centres:
            assert math.dist((mx, my), (nx, ny)) >= clear + half - 1, (step, mx, my)
    # side by side, each letter whole: no marker over another
    for i, (x1, y1, _half) in enumerate(centres):
        for x2, y2, _ in centres[i + 1:]:
            assert math.dist((x1, y1), (x2, y2)) >= dial._marker_side, (x1, y1, x2, y2)
    ui.screenshot(f"dial-stacked-{position}-{size[0]}x{size[1]}")
