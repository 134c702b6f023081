"""A club's years in the real app: with 20 000 finished games (no facts cached yet, as
after an upgrade or a restore), the longest frame while opening History, Statistics,
and while exporting (CSV, BG Stats), backing up and restoring.

The work itself runs on a worker thread with a progress bar; what is measured is what
the table sees: each pass of Kivy's loop (clock, input, drawing and the buffer swap) at
Kivy's usual pace (maxfps 60: a pass with nothing to do lasts a frame, 16.7 ms), from
the tap to the result on screen. Run in a fresh process:

    python -m bench.night_ui OUT.json --games 20000
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

from bench.stats import summary

TIMEOUT = 300.0  # seconds one operation may take before the run gives up


def run(out: Path, games: int, workdir: Path, only_opening: bool = False) -> dict[str, Any]:
    """`only_opening`: History and Statistics only (`bench.pi_cost`), no export."""
    from bench.apps import quiet_kivy
    from bench.stats_history import build
    from companion import config as config_module

    quiet_kivy()
    path = workdir / "data" / "journal.sqlite3"
    path.parent.mkdir(parents=True)
    build(path, games, workdir).close()

    from ui.main import configure_kivy

    cfg = config_module.load(use_default_user_file=False)
    configure_kivy(cfg)
    from kivy.base import EventLoop

    from companion.journal import Journal
    from ui import background
    from ui.app import CompanionApp
    from ui.memory import settle_memory

    app = CompanionApp(cfg, Journal(path), auto_resume=False)
    app._run_prepare()
    for _ in range(5):
        EventLoop.idle()
    settle_memory()  # as `companion` does after its first frame

    def measure(name: str, start: Callable[[], None], done: Callable[[], bool]) -> dict[str, Any]:
        frames: list[float] = []
        cpu: list[float] = []  # the main thread's CPU time in each frame
        began = time.perf_counter()
        t, c = time.perf_counter(), time.thread_time()
        start()  # the tap's own work runs in the frame it lands in
        settled = 0
        while settled < 3:  # then the frames drawing the result
            EventLoop.idle()
            now, now_cpu = time.perf_counter(), time.thread_time()
            frames.append(now - t)
            cpu.append(now_cpu - c)
            t, c = now, now_cpu
            if settled or (not background.busy() and done()):
                settled += 1
            if now - began > TIMEOUT:
                raise TimeoutError(name)
        return {"op": name, "seconds": time.perf_counter() - began, "frames": frames,
                "longest_s": max(frames), "summary": summary(frames),
                "longest_cpu_s": max(cpu), "cpu_summary": summary(cpu), "cpu": cpu}

    def go(screen: str) -> None:
        app.root.current = screen

    def home() -> None:
        app.close_dialog()
        app.root.current = "home"
        for _ in range(3):
            EventLoop.idle()

    results = []
    history = app.root.get_screen("night_history")
    results.append(measure("open History (the facts of every game computed first)",
                           lambda: go("night_history"), lambda: history.job is None))
    home()
    stats = app.root.get_screen("night_stats")
    results.append(measure("open Statistics", lambda: go("night_stats"),
                           lambda: stats.job is None and stats.data is not None))
    home()
    if only_opening:
        result = {"games": games, "ops": results}
        out.write_text(json.dumps(result), encoding="utf-8")
        return result
    export = app.root.get_screen("night_export")
    go("night_export")
    for _ in range(3):
        EventLoop.idle()
    for what, name in (("csv", "export CSV"), ("bgstats", "export BG Stats"),
                       ("backup", "backup")):
        results.append(measure(name, lambda w=what: export.make(w), lambda: export.job is None))
    backups = export.backups()
    assert backups, "no backup written"
    results.append(measure("check a backup before restoring it",
                           lambda: export.confirm_restore(backups[0]),
                           lambda: app.dialog is not None))
    app.close_dialog()
    results.append(measure("restore", lambda: export.restore(backups[0]),
                           lambda: app.dialog is not None and export.job is None))
    restored = app.journal.read("SELECT COUNT(*) FROM games")[0][0]
    home()
    result = {"games": games, "restored_games": restored, "ops": results}
    out.write_text(json.dumps(result), encoding="utf-8")
    return result


def child_main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.night_ui")
    parser.add_argument("out", type=Path)
    parser.add_argument("--games", type=int, default=20000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-night-") as tmp:
        run(args.out, args.games, Path(tmp))
    return 0


def measure(workdir: Path, games: int = 20000) -> dict[str, Any]:
    run_dir = workdir / "night"
    run_dir.mkdir(parents=True, exist_ok=True)
    out = run_dir / "result.json"
    env = dict(os.environ, KIVY_HOME=str(workdir / "kivy-home"), KIVY_NO_ARGS="1",
               KIVY_NO_FILELOG="1", KIVY_NO_CONSOLELOG="1", GPIOZERO_PIN_FACTORY="mock")
    with (run_dir / "log.txt").open("wb") as log:
        done = subprocess.run([sys.executable, "-m", "bench.night_ui", str(out),
                               "--games", str(games)],
                              stdout=log, stderr=subprocess.STDOUT, env=env, timeout=1200)
    if done.returncode != 0:
        raise RuntimeError(f"the game-night benchmark failed: see {run_dir / 'log.txt'}")
    raw = json.loads(out.read_text(encoding="utf-8"))
    for op in raw["ops"]:
        del op["frames"], op["cpu"]
        op["summary"].pop("values", None)
        op["cpu_summary"].pop("values", None)
    return dict(raw)


if __name__ == "__main__":
    sys.exit(child_main())
