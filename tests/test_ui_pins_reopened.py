"""The Pins button is there whenever the game shown offers it, the game reopened at
the start included: the app reopening into a table clock (built before the hardware
comes up, after the first frame) shows Pins, as Pr. Evil's screen does."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.ui


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_a_clock_reopened_at_the_start_offers_pins(launch: Any, tmp_path: Path,
                                                   size: tuple[int, int]) -> None:
    from companion.games import rules_for
    from companion.games.clock import commands as c
    from companion.games.clock.presets import load_presets, setup_for
    from companion.journal import Journal
    from companion.session import Session

    path = tmp_path / "night" / "journal.sqlite3"
    path.parent.mkdir()
    journal = Journal(path)
    preset = load_presets(None).get("chess-5m-3s")
    assert preset is not None
    session = Session.start(rules_for("clock"), journal, setup_for(
        preset, [{"name": n} for n in ("Anne", "Bob")], seed=1, start=0))
    session.dispatch(c.Start(at=time.monotonic_ns() // 1_000_000))
    journal.close()
    ui = launch(journal_file=path, hardware=True)
    ui.resize(*size)
    assert ui.screen == "clock_play"
    ui.wait_until(lambda: ui.app.hardware is not None and ui.app.hardware.mocked)
    ui.wait_until(lambda: ui.visible("play.pins") is not None)
    assert ui.text("play.pins") == "Pins"
    if ui.dialog is not None:
        ui.tap("clock_interrupted.ok")
    ui.tap("play.pins")
    ui.wait_until(lambda: ui.visible("play.pins") is not None)
    ui.screenshot(f"clock-reopened-pins-en-{size[0]}x{size[1]}")
    ui.resize(800, 480)
