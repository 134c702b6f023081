"""Touches on the score pad's screen through the real app under Xvfb: the sheet and the
keypad (`TouchesWithin`) hear only the touches that land or lift on them, and a cell
pressed and left still hears its release (the touch's grab)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_ui_draw_early import ad_hoc_pad
from tests.uidriver import Driver

pytestmark = [pytest.mark.ui, pytest.mark.usefixtures("instant_release")]



def _asked(monkeypatch: pytest.MonkeyPatch, cls: Any) -> list[str]:
    """The tags of the `cls` widgets asked about each touch's lift, in order."""
    asked: list[str] = []
    up = cls.on_touch_up

    def on_touch_up(self: Any, touch: Any) -> Any:
        asked.append(getattr(self, "tid", ""))
        return up(self, touch)

    monkeypatch.setattr(cls, "on_touch_up", on_touch_up)
    return asked


def test_a_key_tapped_is_not_offered_to_the_sheet_s_cells(
        launch: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.screens.pad.sheet import GridCell

    ui: Driver = launch()
    ad_hoc_pad(ui)
    asked = _asked(monkeypatch, GridCell)
    ui.tap("keypad.7")
    ui.tap("keypad.enter")
    assert asked == [] and ui.text("sheet.total.0") == "7"
    ui.tap("sheet.cell.0.0")  # a cell tapped: asked, and it takes the keypad
    assert "sheet.cell.0.0" in asked and ui.text("keypad.who") == "Player 1 · Round 1"


def test_a_cell_pressed_and_left_hears_its_release_outside_the_sheet(launch: Any) -> None:
    from kivy.base import EventLoop
    from kivy.tests.common import UnitTestTouch

    ui: Driver = launch()
    ad_hoc_pad(ui)
    ui.tap("keypad.7")
    ui.tap("keypad.enter")  # Player 2's cell is the keypad's now
    cell = ui.visible("sheet.cell.0.0")
    enter = ui.visible("keypad.enter")
    touch = UnitTestTouch(*cell.to_window(*cell.center))
    touch.touch_down()
    EventLoop.idle()
    assert cell.state == "down"
    touch.touch_move(*enter.to_window(*enter.center))  # slid off the sheet, onto Enter
    touch.touch_up()
    ui.pump(2)
    # released outside: no tap (the keypad stays on Player 2), nothing left pressed
    assert cell.state == "normal" and enter.state == "normal"
    assert ui.text("keypad.who") == "Player 2 · Round 1"
    assert ui.app.session.state.rounds[0][1] is None
