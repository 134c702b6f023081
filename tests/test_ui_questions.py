"""Every question a game asks can be undone from the question itself, and what the
question takes touches from looks disabled beside it (issue 29). Real touches only."""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_ui_evil import new_game as new_evil_game
from tests.uidriver import Driver

pytestmark = pytest.mark.ui


def enter_roll(ui: Driver, professor: str, colour: str, clock: str) -> None:
    ui.tap("play.adjust")
    ui.tap("adjust.enter_roll")
    for die, face in (("professor", professor), ("colour", colour), ("clock", clock)):
        ui.tap(f"enter_roll.{die}.{face}")
    ui.tap("enter_roll.ok")


def to_the_power_question(ui: Driver) -> None:
    new_evil_game(ui, minutes=30)
    enter_roll(ui, "chevron1", "red", "clock2")  # XII -> II
    enter_roll(ui, "chevron1", "red", "clock2")  # II -> IV: past the power space III
    ui.wait_until(lambda: ui.dialog == "power")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_power_question_is_undone_from_itself(launch: Any, language: str) -> None:
    ui = launch(seed=7, language=language)
    to_the_power_question(ui)
    screen = ui.app.root.get_screen("evil_play")
    time_before = ui.app.session.state.time
    # beside the question, what it takes touches from looks disabled (drawn so)
    for tid in ("play.undo", "play.redo", "play.adjust", "play.roll"):
        assert ui.visible(tid).disabled, tid
    # left of the header's counts: they stay whole in view
    counts = screen.recovered_label
    assert ui.app.dialog.right <= counts.to_window(*counts.pos)[0] - 0.5
    assert ui.app.dialog.y >= 0 and ui.app.dialog.top <= ui.app.root.height
    assert ui.text("power.undo") == ("Undo the roll" if language == "en"
                                     else "Défaire le lancer")
    ui.screenshot(f"questions-power-{language}")
    ui.tap("power.undo")
    ui.pump(4)
    assert ui.dialog is None
    assert ui.app.session.state.time != time_before  # the roll is taken back
    assert not ui.app.session.state.pending_powers
    assert not ui.visible("play.undo").disabled
    assert not ui.visible("play.adjust").disabled
    assert not ui.visible("play.redo").disabled  # the roll can be redone
    ui.tap("play.redo")
    ui.wait_until(lambda: ui.dialog == "power")  # asked again


def test_the_placement_question_is_undone_from_itself(launch: Any) -> None:
    ui = launch(seed=7)
    new_evil_game(ui, minutes=30)
    ui.tap("play.treasure.red")
    ui.tap("treasure.recovered")
    assert ui.dialog == "place"
    assert ui.visible("play.undo").disabled
    assert ui.app.session.state.recovered
    ui.tap("place.undo")
    ui.pump(4)
    assert ui.dialog is None
    assert not ui.app.session.state.recovered  # the recovery is taken back
    assert not ui.visible("play.redo").disabled  # nothing before it to undo
    assert not ui.visible("play.adjust").disabled
