"""End turn on the table clock to the next player's time on screen, through the real app,
beside the bare Kivy app's label update (issue 31: p99 within 1.5x the bare app's).

The harness is ROLL's (`bench.roll_ui`): child processes per app (three each,
interleaved, the samples pooled), Kivy's frame pacing off, window-level touches; each
sample runs from the release of the touch on the turn area to the end of the first
buffer swap after the session told its observers (once the journal committed the
`Switch`) with the next player's name and time on the labels.
The bare app is `roll_ui.run_bare`: a Button that sets a Label's text, in Kivy's
default window and with our window settings (no multisampling: like for like).

    xvfb-run -a .venv/bin/python bench/clock_switch.py [--switches 300]
(`make bench` runs it with 150 switches per app, in three processes each.)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import label_update  # noqa: E402
from bench.roll_ui import WARMUP_ROLLS, Timing, _prepare_kivy, press  # noqa: E402


def run_ours(switches: int, data_dir: Path) -> dict[str, Any]:
    cfg = _prepare_kivy(ours=True)
    from kivy.base import EventLoop

    from bench.apps import FlipProbe, open_new_game
    from companion.games.clock import commands as c
    from companion.games.clock.presets import load_presets, setup_for
    from companion.journal import Journal
    from tests.uidriver import Driver
    from ui.app import CompanionApp
    from ui.memory import settle_memory
    from ui.screens.clock import moment
    from ui.screens.clock.figures import clock_text

    journal = Journal(data_dir / "journal.sqlite3")
    app = CompanionApp(cfg, journal, new_seed=lambda: 1)
    app._run_prepare()
    ui = Driver(app)
    ui.pump(2)
    ui.wait_until(lambda: app.writer is not None)
    settle_memory()  # as `companion` does after its first frame
    preset = load_presets().get("chess-5m-3s")
    assert preset is not None
    session = open_new_game(ui, "clock", setup_for(
        preset, [{"name": f"Player {i + 1}"} for i in range(4)], seed=1, start=0))
    app.send(c.Start(at=moment.now()))
    ui.pump(3)
    screen = app.root.get_screen("clock_play")
    marks = Timing()
    probe = FlipProbe(marks.frame, clock=time.perf_counter)
    probe.install()

    def observe(update: Any) -> None:
        if update.verb == "do" and isinstance(update.command, c.Switch):
            state = update.state
            seat = state.seats[state.active]
            # what the screen shows once laid out: computed at the update's own moment
            marks.update(screen.name_label.text == seat.name
                         and screen.time_label.text == clock_text(seat.bank_ms))

    session.subscribe(observe)  # after the app's own observer: the labels are set
    shown: list[float] = []
    commit: list[float] = []
    wrong = 0
    for n in range(switches + WARMUP_ROLLS):
        ui.wait_until(lambda: not app.busy)
        ui.pump(1)
        to_update, to_frame = press(screen.area, marks, EventLoop)
        if n >= WARMUP_ROLLS:
            commit.append(to_update)
            shown.append(to_frame)
            wrong += not marks.labels_ok
    journaled = len(journal.entries(session.game_id))
    app.close_dialog()
    return {"commit_s": commit, "shown_s": shown, "labels_wrong": wrong,
            "journaled": journaled}


def main(argv: list[str] | None = None) -> int:
    return label_update.main(
        __file__, argv, run_ours=run_ours, description=__doc__, option="switches",
        heading="end turn to shown, {n} each",
        ours_rows=(("our app: tap on the turn area, Switch journaled, next player shown",
                    "shown_s"),))


if __name__ == "__main__":
    sys.exit(main())
