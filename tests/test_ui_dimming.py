"""Dimming and blanking in the real app under Xvfb: the backlight is a made-up
/sys/class/backlight folder; the touch that wakes the screen wakes it and does nothing
else (a ROLL tapped in the dark never rolls)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.test_ui_evil import new_game
from tests.uidriver import Driver

pytestmark = pytest.mark.ui


@pytest.fixture
def panel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The official 7" screen's backlight as the kernel shows it."""
    from ui.screens.night import prefs

    light = tmp_path / "backlight" / "rpi_backlight"
    light.mkdir(parents=True)
    (light / "brightness").write_text("200\n")
    (light / "max_brightness").write_text("255\n")
    (light / "bl_power").write_text("0\n")
    monkeypatch.setattr(prefs, "BACKLIGHT", light.parent)
    return light


def idle_for(ui: Driver, seconds: float) -> None:
    """As if nobody had touched the screen for `seconds`: the dimmer's next tick."""
    dimmer = ui.app.night_dimmer
    dimmer.last = dimmer.clock() - seconds
    dimmer.tick()


def turn(ui: Driver) -> str:
    return ui.text("play.turn")


def test_the_touch_that_wakes_a_dimmed_screen_never_rolls(launch: Any, panel: Path) -> None:
    ui = launch(display={"dim_after": 60, "blank_after": 300})
    try:
        assert ui.app.night_dimmer is not None
        new_game(ui)
        assert turn(ui).startswith("Turn 1")

        idle_for(ui, 59)
        assert (panel / "brightness").read_text() == "200\n"  # not yet
        idle_for(ui, 61)
        assert (panel / "brightness").read_text() == "25"  # a tenth of 255
        ui.tap("play.roll")
        assert (panel / "brightness").read_text() == "200"  # awake again...
        assert turn(ui).startswith("Turn 1") and ui.dialog is None  # ...and nothing rolled

        ui.tap("play.roll")  # awake: a tap is a tap
        assert turn(ui).startswith("Turn 2")
        rolled = turn(ui)

        idle_for(ui, 301)  # dimmed and blank
        assert (panel / "bl_power").read_text() == "4"
        assert (panel / "brightness").read_text() == "25"
        ui.tap("play.roll")
        assert (panel / "bl_power").read_text() == "0"
        assert (panel / "brightness").read_text() == "200"
        assert turn(ui) == rolled and ui.dialog is None
    finally:
        ui.app.stop_dimmer()


def test_without_the_rules_permission_nothing_is_dimmed_and_every_touch_counts(
        launch: Any, panel: Path) -> None:
    """No udev rule: the backlight cannot be written, the screen stays lit, and a tap
    still rolls (a touch is only swallowed when the screen really was dark)."""
    panel.joinpath("brightness").unlink()
    # an attribute that reads but refuses writes, even root's, as a read-only /sys does
    panel.joinpath("brightness").symlink_to("/proc/sys/kernel/ostype")
    ui = launch(display={"dim_after": 60})
    try:
        new_game(ui)
        idle_for(ui, 61)
        assert not ui.app.night_dimmer.asleep and not ui.app.night_dimmer.dimmed
        ui.tap("play.roll")
        assert turn(ui).startswith("Turn 2")
    finally:
        ui.app.stop_dimmer()
