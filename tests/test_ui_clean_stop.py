"""A clean stop is not a power cut: `companion run` sent SIGTERM (systemd's stop, a
shutdown) while a table clock runs stops cleanly, the clock paused and journaled at the
stop; the next start reopens it paused and says nothing of "a power cut or a crash"."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.test_ui_clock import FakeClock, fake  # noqa: F401 (the fake clock fixture)

pytestmark = [pytest.mark.ui, pytest.mark.usefixtures("instant_release")]

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_sigterm_pauses_the_clock_and_the_next_start_says_no_power_cut(
        launch: Any, fake: FakeClock, tmp_path: Path,  # noqa: F811
        size: tuple[int, int]) -> None:
    from companion.games import rules_for
    from companion.games.clock import commands as c
    from companion.games.clock.presets import load_presets, setup_for
    from companion.journal import Journal
    from companion.session import Session

    data = tmp_path / "data"
    data.mkdir()
    config = tmp_path / "config.yaml"
    config.write_text("language: en\n", encoding="utf-8")
    preset = load_presets(config).get("chess-5m-3s")
    assert preset is not None
    path = data / "journal.sqlite3"
    journal = Journal(path)
    session = Session.start(rules_for("clock"), journal, setup_for(
        preset, [{"name": n} for n in ("Anne", "Bob")], seed=1, start=0))
    session.dispatch(c.Start(at=time.monotonic_ns() // 1_000_000))
    game_id = session.game_id
    journal.close()

    env = dict(os.environ, KIVY_HOME=str(tmp_path / "kivy"), KIVY_NO_ARGS="1",
               KIVY_NO_FILELOG="1", KIVY_NO_CONSOLELOG="1", GPIOZERO_PIN_FACTORY="mock",
               XDG_CONFIG_HOME=str(tmp_path / "xdg-empty"))
    env.pop("NOTIFY_SOCKET", None)
    done = subprocess.run([sys.executable, str(REPO / "tests" / "helpers" /
                                               "clock_stop_child.py"), str(data), str(config)],
                          capture_output=True, text=True, env=env, timeout=180, cwd=REPO)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    assert any(line.startswith("stopping") for line in done.stdout.splitlines())

    journal = Journal(path)
    stopped = Session.resume(rules_for("clock"), journal, game_id)
    names = [type(s.command).__name__ for s in stopped.steps]
    assert names[:3] == ["Start", "Interrupted", "Resume"] and names[-1] == "Pause", names
    assert stopped.state.status == "paused"
    journal.close()

    ui = launch(journal_file=path)
    ui.resize(*size)
    assert ui.screen == "clock_play"
    ui.settle()
    ui.pump(5)
    assert ui.dialog is None  # no "The app stopped while the clock ran (a power cut...)"
    assert ui.app.session.state.status == "paused"
    ui.screenshot(f"clock-after-clean-stop-en-{size[0]}x{size[1]}")
    ui.resize(800, 480)
