"""A table clock beside a score pad game, through the real app under Xvfb by simulated
touches: the clock started from the sheet with its players, a switch on the clock, back
to the sheet (the clock running on, its strip showing whose turn and the time left), an
entry, and Undo on each side taking back only its own game's action; both reopened
after the app stops. Time is the fake monotonic clock of tests/test_ui_clock.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests import test_ui_clock
from tests.test_ui_clock import FakeClock, later
from tests.test_ui_pad_rounds import (
    NAMES,
    cell,
    enter,
    instant_release,  # noqa: F401 (a fixture, autouse)
    start_four,
)
from tests.uidriver import Driver

fake = test_ui_clock.fake  # the fake monotonic clock (a fixture)

pytestmark = pytest.mark.ui

STRIP = {"en": "{player}  {time}", "fr": "{player}  {time}"}
PAUSED = {"en": "{player}  {time}  (paused)", "fr": "{player}  {time}  (en pause)"}


def names(session: Any) -> list[str]:
    """What the table did in `session` (a running clock's checkpoints left out)."""
    return [type(s.command).__name__ for s in session.steps
            if type(s.command).__name__ != "Checkpoint"]


def start_clock_beside(ui: Driver) -> tuple[Any, Any]:
    """From the sheet: Clock -> the clock's set-up with the pad's players -> Start."""
    pad = ui.app.session
    ui.tap("play.clock")
    assert ui.screen == "clock_setup"
    assert [ui.text(f"setup.name.{i}") for i in range(4)] == NAMES  # in seat order
    ui.tap("clocksetup.preset")
    ui.tap("clockpresets.chess-5m-3s")
    ui.tap("clocksetup.start")
    assert ui.screen == "clock_play"
    clock = ui.app.session
    assert clock.rules.kind == "clock" and ui.app.beside is pad
    assert clock.setup["pad_game"] == pad.game_id
    assert names(clock) == ["Start"]
    return pad, clock


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_score_pad_game_with_its_clock_beside(launch: Any, fake: FakeClock,
                                                language: str) -> None:
    ui = launch(language=language)
    start_four(ui)
    ui.screenshot(f"pad-clock-offered-{language}-800x480")
    pad, clock = start_clock_beside(ui)
    assert ui.text("play.name") == "Ann"
    later(ui, fake, 12_300)
    ui.tap("play.area")  # Ann ends her turn
    assert names(clock) == ["Start", "Switch"]
    assert ui.text("play.name") == "Bob"

    # back to the sheet: the clock runs on, its strip in Bob's colour
    ui.tap("play.sheet")
    assert ui.screen == "pad_play" and ui.app.session is pad and ui.app.beside is clock
    assert ui.text("play.strip") == STRIP[language].format(player="Bob", time="5:00")
    later(ui, fake, 2_000)
    assert ui.text("play.strip") == STRIP[language].format(player="Bob", time="4:58")
    assert clock.state.status == "running"
    ui.screenshot(f"pad-clock-strip-{language}-800x480")
    enter(ui, "7")
    assert ui.text(cell(ui, "1", 0)) == "7"
    assert names(pad) == ["SetCell"]

    # Undo on the sheet takes back the entry, not the switch
    ui.tap("play.undo")
    assert ui.text(cell(ui, "1", 0)) in ("", "?")
    assert len(pad.steps) == 0 or not pad.can_undo()
    assert names(clock) == ["Start", "Switch"] and clock.state.active == 1
    ui.tap("play.redo")
    assert ui.text(cell(ui, "1", 0)) == "7"

    # ROLL on the sheet is the keypad's Enter, not the clock's switch
    assert ui.app.root.current_screen.hardware_button("roll").tid == "keypad.enter"

    # one tap on the strip: the clock; its Undo takes back the switch, not the entry
    ui.tap("play.strip")
    assert ui.screen == "clock_play" and ui.app.session is clock
    assert ui.app.root.current_screen.hardware_button("roll") is ui.visible("play.area")
    ui.screenshot(f"pad-clock-beside-{language}-800x480")
    ui.tap("play.undo")
    assert names(clock) == ["Start"] and clock.state.active == 0
    assert names(pad) == ["SetCell"] and pad.state == pad.steps[-1].after

    # Home from the clock pauses it and leaves both; the journal reopens both
    ui.tap("play.home")
    assert ui.screen == "home"
    assert clock.state.status == "paused" and ui.app.beside is None
    ui = launch(language=language, journal_file=Path(ui.app.journal.path))
    assert ui.screen == "pad_play"
    assert ui.app.session.game_id == pad.game_id
    assert ui.app.beside is not None and ui.app.beside.game_id == clock.game_id
    assert ui.text(cell(ui, "1", 0)) == "7"
    ui.wait_until(lambda: ui.visible("play.strip") is not None)
    assert ui.text("play.strip") == PAUSED[language].format(player="Ann", time="4:46")

