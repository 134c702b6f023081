"""The real app (`companion run`) with a score pad game and a clock beside it, for the
power-cut test: it opens both (the clock reopened paused), waits for the message that
says what was charged to nobody (printed `told <text>`) and closes it, opens
the clock from the sheet's strip, resumes it, goes back to the sheet, enters 7 for the
first player, lets the clock run beside until it has journaled `CHECKPOINTS`
checkpoints and a little more, then kills itself with SIGKILL: the plug pulled.

Usage: python pad_clock_kill_child.py DATA CONFIG CHECKPOINTS
Prints `told <the message>` when it closes it, `killing <pad entries> <clock entries>`
just before the kill.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

TAPS = ["clock_interrupted.ok", "play.strip", "play.pause", "play.sheet", "keypad.7",
        "keypad.enter"]


def main() -> None:
    data, config, wanted = sys.argv[1], sys.argv[2], int(sys.argv[3])
    from kivy.config import Config

    Config.set("graphics", "min_state_time", "0")  # a tap's release acts at once
    from kivy.clock import Clock

    state: dict[str, Any] = {"taps": list(TAPS)}

    def step(_dt: float) -> None:
        from kivy.app import App
        from kivy.tests.common import UnitTestTouch

        from ui.widgets.basics import find

        app = App.get_running_app()
        if app is None or app.root is None or app.session is None or app.beside is None \
                or app.busy:
            return
        if state["taps"]:
            # a screen just shown is laid out in its first frames: tapped after them
            shown = (app.root.current, app.dialog)
            if state.get("shown") != shown:
                state["shown"], state["frames"] = shown, 0
            state["frames"] += 1
            if state["frames"] < 5:
                return
            tid = state["taps"][0]
            surface = app.dialog if app.dialog is not None else app.root
            widget = find(surface, tid)
            if widget is None or widget.disabled or widget.get_root_window() is None:
                return  # not on screen yet (the message, too: required, waited for)
            if tid == "clock_interrupted.ok":
                told = find(surface, "clock_interrupted.text")
                print("told", told.text.replace("\n", " "), flush=True)
            state["taps"].pop(0)
            state["frames"] = 0
            touch = UnitTestTouch(*widget.to_window(*widget.center))
            touch.touch_down()
            touch.touch_up()
            return
        pad, clock = app.session, app.beside
        if pad.rules.kind != "pad" or clock.state.status != "running" or pad.holding \
                or not pad.steps:
            return
        checkpoints = [s for s in clock.steps if type(s.command).__name__ == "Checkpoint"]
        if len(checkpoints) < wanted:
            return
        if "since" not in state:
            state["since"] = time.monotonic()
            return
        if time.monotonic() - state["since"] < 0.3:
            return  # mid-turn: the last checkpoint behind, the next one not yet due
        app.settle()  # every action the table saw is durable (as the writer makes it)
        print("killing", len(app.journal.entries(pad.game_id)),
              len(app.journal.entries(clock.game_id)), flush=True)
        os.kill(os.getpid(), signal.SIGKILL)  # the plug pulled

    Clock.schedule_interval(step, 0)
    from ui.main import main as run

    run(["--data-dir", data, "--config", config])


if __name__ == "__main__":
    main()
