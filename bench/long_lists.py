"""Long rosters in the real app (issue 33): the longest frame while opening the Players
screen and the roster picker on an earlier version's roster of 30 names of 10 000
characters (with NUL, ESC and a bidi override), and on a club's 10 000 players, beside
the bare Kivy app's frame in the same run.

What is measured is what the table sees: each pass of Kivy's loop (clock, input,
drawing and the buffer swap) at Kivy's usual pace (maxfps 60: a pass with nothing to
do lasts a frame, 16.7 ms), from the tap to the list complete on screen (every page
fed) and three frames more. The bare app: a Label's text changed, the same passes.
Each measurement is a fresh process. Run under xvfb-run:

    python bench/long_lists.py            (or: python -m bench.long_lists)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script by `python -m bench`
    sys.path.insert(0, str(ROOT))

from bench.stats import summary  # noqa: E402

TIMEOUT = 120.0  # seconds one operation may take before the run gives up
REPS = 5  # each operation, from the same starting point
LONG = [f"{chr(65 + i % 26)}\u202e\x00{i:02d}" + "x" * 10_000 + "\x1b[31m" for i in range(30)]
CLUB = [f"Player {i:05d}" for i in range(10_000)]


def _frames(idle: Callable[[], None], start: Callable[[], None],
            done: Callable[[], bool]) -> dict[str, Any]:
    """Kivy's loop passes from `start` until `done`, then three more."""
    frames: list[float] = []
    cpu: list[float] = []  # the main thread's CPU time in each frame: what the load of
    # other processes on the machine changes least
    began = time.perf_counter()
    t, c = began, time.thread_time()
    start()  # the tap's own work runs in the frame it lands in
    settled = 0
    while settled < 3:
        idle()
        now, now_cpu = time.perf_counter(), time.thread_time()
        frames.append(now - t)
        cpu.append(now_cpu - c)
        t, c = now, now_cpu
        if settled or done():
            settled += 1
        if now - began > TIMEOUT:
            raise TimeoutError("the list never completed")
    return {"seconds": time.perf_counter() - began, "frames": len(frames),
            "longest_s": max(frames), "median_s": summary(frames)["median"],
            "longest_cpu_s": max(cpu), "cpu_frames": cpu}


def _repeated(reps: int, run: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """The same operation `reps` times: the median of each figure (one slow frame on a
    shared machine is noise; one in every repetition is ours)."""
    results = [run() for _ in range(reps)]
    medians = {key: summary([r[key] for r in results])["median"] for key in results[0]
               if key != "cpu_frames"}
    return medians | {"cpu_frames": [c for r in results for c in r["cpu_frames"]],
        "reps": reps, "worst_longest_s": max(r["longest_s"] for r in results)}


def bare(out: Path) -> None:
    from bench.apps import bare_app, configure_bare, quiet_kivy

    quiet_kivy()
    configure_bare(same_window=True)
    from kivy.base import EventLoop

    labels: list[Any] = []
    app = bare_app(on_build=labels.append)
    app._run_prepare()
    for _ in range(5):
        EventLoop.idle()
    count = iter(range(10**6))
    result = _repeated(REPS * 4, lambda: _frames(
        EventLoop.idle, lambda: setattr(labels[0], "text", f"Row {next(count)}"),
        lambda: True))
    out.write_text(json.dumps(result))


def ours(out: Path, names: list[str], workdir: Path) -> None:
    from bench.apps import quiet_kivy
    from companion import config as config_module
    from companion.journal import Journal, fold_name

    quiet_kivy()
    path = workdir / "data" / "journal.sqlite3"
    path.parent.mkdir(parents=True)
    journal = Journal(path)
    with journal.writing() as db:  # rows as an earlier version or a restore left them
        db.executemany("INSERT INTO players(name, folded, created) VALUES (?, ?, ?)",
                       [(n, fold_name(n), 0.0) for n in names])
    journal.close()

    from ui.main import configure_kivy

    cfg = config_module.load(use_default_user_file=False)
    configure_kivy(cfg)
    from kivy.base import EventLoop

    from ui.app import CompanionApp
    from ui.memory import settle_memory

    app = CompanionApp(cfg, Journal(path), auto_resume=False)
    app._run_prepare()
    for _ in range(5):
        EventLoop.idle()
    settle_memory()
    idle = EventLoop.idle
    ops: list[dict[str, Any]] = []

    def players() -> Any:
        return app.root.get_screen("night_roster").players_list

    def go(screen: str) -> None:
        app.root.current = screen

    def settle() -> None:
        for _ in range(3):
            idle()

    def op(name: str, before: Callable[[], None], start: Callable[[], None],
           done: Callable[[], bool], reps: int = REPS) -> None:
        def once() -> dict[str, Any]:
            before()
            settle()
            return _frames(idle, start, done)

        ops.append({"op": name, **_repeated(reps, once)})

    # the first time: the screen is built (and the modules imported) in that frame
    op("open Players, the first time", lambda: None, lambda: go("night_roster"),
       lambda: players().complete, reps=1)
    op("open Players again", lambda: go("home"), lambda: go("night_roster"),
       lambda: players().complete)
    op("scroll Players to the end", lambda: setattr(players(), "scroll_y", 1),
       lambda: setattr(players(), "scroll_y", 0), lambda: True)
    go("home")
    from ui.widgets.roster_picker import pick_players

    def picker() -> Any:
        return app.dialog.players_list if app.dialog is not None else None

    # what a setup's "From the roster" button opens
    op("open the roster picker", app.close_dialog,
       lambda: pick_players(lambda _p: None, 2, 6),
       lambda: picker() is not None and picker().complete)
    op("scroll the picker to the end", lambda: setattr(picker(), "scroll_y", 1),
       lambda: setattr(picker(), "scroll_y", 0), lambda: True)
    out.write_text(json.dumps({"players": len(names), "ops": ops}))


def _child(mode: str, out: Path, workdir: Path) -> None:
    env = dict(os.environ, KIVY_HOME=str(workdir / "kivy-home"), KIVY_NO_ARGS="1",
               KIVY_NO_FILELOG="1", KIVY_NO_CONSOLELOG="1", GPIOZERO_PIN_FACTORY="mock")
    with (workdir / f"{mode}.log").open("wb") as log:
        done = subprocess.run([sys.executable, "-m", "bench.long_lists", "--child", mode,
                               str(out)], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                              env=env, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"{mode} failed: see {workdir / f'{mode}.log'}")


def measure(workdir: Path) -> dict[str, Any]:
    results: dict[str, Any] = {}
    for mode in ("bare", "legacy", "club"):
        out = workdir / f"{mode}.json"
        _child(mode, out, workdir)
        results[mode] = json.loads(out.read_text())
    return results


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def markdown(results: dict[str, Any]) -> str:
    bare_ = results["bare"]
    lines = ["| roster | operation | frames | longest frame (median of runs; worst) | "
             "longest main-thread CPU in a frame | target < 50 ms |",
             "|---|---|---|---|---|---|"]
    for mode, what in (("legacy", "30 names of 10 000 characters"),
                       ("club", "10 000 players")):
        for op in results[mode]["ops"]:
            verdict = "met" if op["longest_s"] < 0.05 else "NOT met"
            lines.append(f"| {what} | {op['op']} ({op['reps']}x) | {op['frames']:.0f} | "
                         f"{_ms(op['longest_s'])}; {_ms(op['worst_longest_s'])} | "
                         f"{_ms(op['longest_cpu_s'])} | {verdict} |")
    lines += ["", f"The bare Kivy app in the same run (a Label's text changed, "
              f"{bare_['reps']} times, our window settings): longest frame "
              f"{_ms(bare_['longest_s'])} (median of runs; worst "
              f"{_ms(bare_['worst_longest_s'])}), longest main-thread CPU in a frame "
              f"{_ms(bare_['longest_cpu_s'])}."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.long_lists", description=__doc__)
    parser.add_argument("--child", choices=("bare", "legacy", "club"))
    parser.add_argument("out", type=Path, nargs="?")
    args = parser.parse_args(argv)
    if args.child is not None:
        with tempfile.TemporaryDirectory(prefix="bench-lists-") as tmp:
            if args.child == "bare":
                bare(args.out)
            else:
                ours(args.out, LONG if args.child == "legacy" else CLUB, Path(tmp))
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-lists-") as tmp:
        print(markdown(measure(Path(tmp))))
    print(f"\nLoad average after the run (1, 5, 15 min): {' '.join(map(str, os.getloadavg()))}"
          f" on {os.cpu_count()} CPUs.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
