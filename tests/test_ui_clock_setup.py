"""The table clock's set-up by real touches at 800x480 and at 1280x720 (Touch Display 2
turned: a 720x1280 panel at `display.rotation: 90` shows the app in a 1280x720 window,
tests/test_ui_rotation.py): eight seats, each with its own name, colour and ×, the start
player chosen by a tap on a seat's colour (issue 46)."""

from __future__ import annotations

from typing import Any

import pytest

from tests import screen_audit
from tests.uidriver import Driver

pytestmark = pytest.mark.ui

SIZES = {"800x480": (800, 480), "1280x720": (1280, 720)}


def screen(ui: Driver) -> Any:
    return ui.app.root.get_screen("clock_setup")


def boxes(ui: Driver, seat: int) -> dict[str, tuple[float, ...]]:
    return {part: screen_audit._box(ui.find(f"{tid}.{seat}"))
            for part, tid in (("name", "setup.name"), ("colour", "clocksetup.first"),
                              ("remove", "setup.remove"))}


def eight_seats(ui: Driver) -> None:
    ui.tap("home.game.clock")
    assert ui.screen == "clock_setup"
    for seats in range(3, 9):
        ui.tap("clocksetup.add")  # a real touch at Add's middle: it lands on Add
        assert ui.visible(f"setup.name.{seats - 1}") is not None, seats
    assert ui.find("clocksetup.add").disabled


@pytest.mark.parametrize("size", sorted(SIZES))
def test_eight_seats_each_with_its_own_name_colour_and_remove(launch: Any,
                                                              size: str) -> None:
    ui = launch(language="en")
    ui.resize(*SIZES[size])
    try:
        eight_seats(ui)
        found = screen_audit.audit(screen(ui), "clock_setup", "en", ui.app.scale)
        assert found == [], "\n".join(v.what + " " + v.widget for v in found)
        # every seat's three controls stand apart from every other seat's
        places = [box for seat in range(8) for box in boxes(ui, seat).values()]
        assert len(set(places)) == 24
        # a tap on a seat's colour makes it the start player, marked on it, named below
        for seat in (4, 7, 2):
            ui.tap(f"clocksetup.first.{seat}")
            assert ui.text("clocksetup.note") == f"Starts: Player {seat + 1}"
            marked = [k for k in range(8) if ui.text(f"clocksetup.first.{k}")]
            assert marked == [seat]
        # a tap on seat 6's name opens the keyboard for that seat; its × takes it away
        ui.tap("setup.name.5")
        assert ui.dialog == "keyboard"
        assert ui.text("keyboard.value") == "Player 6"
        ui.app.close_dialog()
        ui.pump(3)
        ui.tap("setup.remove.5")
        names = [ui.text(f"setup.name.{k}") for k in range(7)]
        assert names == [f"Player {k}" for k in (1, 2, 3, 4, 5, 7, 8)]
        assert ui.visible("setup.name.7") is None
        assert not ui.find("clocksetup.add").disabled
        # the start player chosen, the clock starts on that seat
        ui.tap("clocksetup.first.3")
        ui.tap("clocksetup.start")
        assert ui.screen == "clock_play"
        assert ui.app.session.state.active == 3
        ui.screenshot(f"clock-setup-started-{size}")
    finally:
        ui.resize(800, 480)
