"""The real app (`companion run`) with a table clock, for the power-cut test: it opens
the clock the journal holds (reopened paused after the last run), closes the message,
resumes the clock by a touch on Resume, lets it run until the screen has journaled
`CHECKPOINTS` checkpoints and a little more (mid-turn, after the last one), then kills
itself with SIGKILL: the plug pulled while the clock runs.

Usage: python clock_kill_child.py DATA CONFIG CHECKPOINTS
Prints `killing <journal entries>` just before the kill.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def main() -> None:
    data, config, wanted = sys.argv[1], sys.argv[2], int(sys.argv[3])
    from kivy.config import Config

    Config.set("graphics", "min_state_time", "0")  # a tap's release acts at once
    from kivy.clock import Clock

    state: dict[str, Any] = {"taps": ["clock_interrupted.ok", "play.pause"]}

    def step(_dt: float) -> None:
        from kivy.app import App

        from tests.helpers.child_taps import tap_next

        app = App.get_running_app()
        if app is None or app.root is None or app.root.current != "clock_play" \
                or app.session is None or app.busy:
            return
        if tap_next(app, state["taps"]):
            return
        session = app.session
        if session.state.status != "running" or session.holding:
            return
        checkpoints = [s for s in session.steps if type(s.command).__name__ == "Checkpoint"]
        if len(checkpoints) < wanted:
            return
        if "since" not in state:
            state["since"] = time.monotonic()
            return
        if time.monotonic() - state["since"] < 0.3:
            return  # mid-turn: the last checkpoint behind, the next one not yet due
        app.settle()  # every action the table saw is durable (as the writer makes it)
        print("killing", len(app.journal.entries(session.game_id)), flush=True)
        os.kill(os.getpid(), signal.SIGKILL)  # the plug pulled

    Clock.schedule_interval(step, 0)
    from ui.main import main as run

    run(["--data-dir", data, "--config", config])


if __name__ == "__main__":
    main()
