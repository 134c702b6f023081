"""End turn on the table clock to the next player's time on screen, through the real app,
beside the bare Kivy app's label update (issue 31: p99 within 1.5x the bare app's).

The harness is ROLL's (`bench.roll_ui`): a child process per app, Kivy's frame pacing
off, window-level touches; each sample runs from the release of the touch on the turn
area to the end of the first buffer swap after the session told its observers (once the
journal committed the `Switch`) with the next player's name and time on the labels.
The bare app is `roll_ui.run_bare`: a Button that sets a Label's text, in Kivy's
default window and with our window settings (no multisampling: like for like).

    xvfb-run -a .venv/bin/python bench/clock_switch.py [--switches 300]
(`make bench` runs it with 150 switches per app.)
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.roll_ui import (  # noqa: E402
    WARMUP_ROLLS,
    Timing,
    _prepare_kivy,
    press,
    run_bare,
    three_children,
)
from bench.stats import ratio, summary  # noqa: E402


def run_ours(switches: int, data_dir: Path) -> dict[str, Any]:
    cfg = _prepare_kivy(ours=True)
    from kivy.base import EventLoop

    from bench.apps import FlipProbe
    from companion.games.clock import commands as c
    from companion.games.clock.presets import load_presets, setup_for
    from companion.journal import Journal
    from tests.uidriver import Driver
    from ui.app import CompanionApp
    from ui.screens.clock import moment
    from ui.screens.clock.figures import clock_text

    journal = Journal(data_dir / "journal.sqlite3")
    app = CompanionApp(cfg, journal, new_seed=lambda: 1)
    app._run_prepare()
    ui = Driver(app)
    ui.pump(2)
    ui.wait_until(lambda: app.writer is not None)
    preset = load_presets().get("chess-5m-3s")
    assert preset is not None
    opened: list[Any] = []  # the clock opens once its row is durable
    app.start_game("clock", setup_for(
        preset, [{"name": f"Player {i + 1}"} for i in range(4)], seed=1, start=0),
        done=opened.append)
    ui.wait_until(lambda: bool(opened))
    session = opened[0]
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


def child(argv: list[str]) -> int:
    which, out, count, data = argv[0], Path(argv[1]), int(argv[2]), Path(argv[3])
    result = run_ours(count, data) if which == "ours" else \
        run_bare(count, same_window=which == "bare-same")
    out.write_text(json.dumps(result), encoding="utf-8")
    return 0


def measure(workdir: Path, switches: int) -> dict[str, Any]:
    return three_children(__file__, workdir, switches)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--child"]:
        return child(args[1:])
    parser = argparse.ArgumentParser(prog="bench/clock_switch.py", description=__doc__)
    parser.add_argument("--switches", type=int, default=150)
    options = parser.parse_args(args)
    with tempfile.TemporaryDirectory(prefix="bench-switch-") as temp:
        raw = measure(Path(temp), options.switches)
    ours, bare = summary(raw["ours"]["shown_s"]), summary(raw["bare"]["shown_s"])
    same = summary(raw["bare-same"]["shown_s"])
    print(f"| end turn to shown, {options.switches} each | median | p99 | max |")
    print("|---|---|---|---|")
    for name, s in (("our app: tap on the turn area, Switch journaled, next player shown",
                     ours), ("bare Kivy app: a Button sets a Label", bare),
                    ("bare Kivy app, our window settings (no multisampling)", same)):
        print(f"| {name} | {s['median'] * 1000:.1f} ms | {s['p99'] * 1000:.1f} ms |"
              f" {s['max'] * 1000:.1f} ms |")
    p99 = ratio(ours["p99"], bare["p99"])
    print(f"\np99 ours / bare: {p99:.2f}x (target <= 1.5x), ours / bare with our window "
          f"settings: {ratio(ours['p99'], same['p99']):.2f}x; median "
          f"{ratio(ours['median'], bare['median']):.2f}x; labels wrong at the frame: "
          f"{raw['ours']['labels_wrong']}; actions journaled: {raw['ours']['journaled']}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
