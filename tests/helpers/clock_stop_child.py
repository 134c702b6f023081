"""The real app (`companion run`) with a table clock, for the clean-stop test: it opens
the clock the journal holds (reopened paused after the last run), closes the message,
resumes the clock by a touch on Resume, and once it runs is sent SIGTERM, as systemd
stops the service (`systemctl stop`, a shutdown). It must stop cleanly: exit 0.

Usage: python clock_stop_child.py DATA CONFIG
Prints `stopping <journal entries>` just before the signal.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def main() -> int:
    data, config = sys.argv[1], sys.argv[2]
    from kivy.config import Config

    Config.set("graphics", "min_state_time", "0")  # a tap's release acts at once
    from kivy.clock import Clock

    state: dict[str, Any] = {"taps": ["clock_interrupted.ok", "play.pause"], "sent": False}

    def step(_dt: float) -> None:
        from kivy.app import App

        from tests.helpers.child_taps import tap_next

        app = App.get_running_app()
        if state["sent"] or app is None or app.root is None \
                or app.root.current != "clock_play" or app.session is None or app.busy:
            return
        if tap_next(app, state["taps"]):
            return
        session = app.session
        if session.state.status != "running" or session.holding:
            return
        app.settle()
        state["sent"] = True
        print("stopping", len(app.journal.entries(session.game_id)), flush=True)
        os.kill(os.getpid(), signal.SIGTERM)  # systemd's stop

    Clock.schedule_interval(step, 0)
    from ui.main import main as run

    return run(["--data-dir", data, "--config", config])


if __name__ == "__main__":
    sys.exit(main())
