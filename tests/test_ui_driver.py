"""The test driver waits for what a person waits for (tests/uidriver.py), through the
real app under Xvfb.

Kivy's ScreenManager takes no touch while a transition runs, and even `NoTransition`
runs until the clock's next tick. A switch made in the last frame a tap pumped (a
commit handed back by the writer in that frame, as on a busy machine) had `ui.screen`
name the new screen while the next tap on it was dropped."""

from __future__ import annotations

from typing import Any

import pytest

from tests.uidriver import Driver

pytestmark = [pytest.mark.ui, pytest.mark.usefixtures("instant_release")]


def switched_without_a_frame(ui: Driver, name: str) -> None:
    """The screen switched as a hand-back does in a frame's last callbacks: no tick
    has run since, so the switch is still in progress."""
    ui.app.root.current = name
    assert ui.app.root.transition.is_active


def test_a_tap_waits_for_the_switch_to_end_and_reaches_the_new_screen(launch: Any) -> None:
    ui: Driver = launch()
    ui.tap("home.game.pad")
    assert ui.screen == "pad_setup"
    switched_without_a_frame(ui, "home")
    ui.tap("home.game.pad")  # a finger touches what has been drawn: the home screen
    assert ui.screen == "pad_setup"


def test_settle_ends_with_the_switch_ended(launch: Any) -> None:
    ui: Driver = launch()
    ui.tap("home.game.pad")
    switched_without_a_frame(ui, "home")
    ui.settle()
    assert ui.screen == "home" and not ui.app.root.transition.is_active
    assert ui.app.root.children == [ui.app.root.get_screen("home")]  # pad_setup gone
