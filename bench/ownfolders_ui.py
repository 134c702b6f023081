"""The set-ups with the table's own folders at their bounds (issue 44, item 4): the
UI thread's CPU in each frame (`time.thread_time` on Kivy's thread, which the
worker thread reading the folders does not count in) while opening the score pad's
set-up and its template list, and the clock's set-up, its Add and its preset list.

Two folders at their bounds (`companion.ownfolder`: 100 files, 1 MiB):
- "count": `pad/` with 100 valid templates and 9 900 more files past the bound,
  `clock/` with 100 valid presets and 9 900 more;
- "bytes": `pad/` and `clock/` with 200 files of 30 KB each refused for an unknown
  key (the first 34 fill the MiB and are parsed; the rest is past the bound).

Each operation runs from a tap to its result complete on screen (the worker's read
handed back, every row added) and three frames more, at Kivy's usual pace. The first
opening reads the folders; "again" is with them unchanged (a stat per file).

The budget is 16.7 ms of UI-thread work per frame on a Raspberry Pi 4. bench/ has no
calibration run against a Pi, so the factor is the issue's estimate: a Pi 4 runs this
Python code about 4x slower than this machine (`PI_FACTOR`); each longest frame's CPU
is multiplied by it. Each scenario is a fresh process. Run under xvfb-run:

    python bench/ownfolders_ui.py            (or: python -m bench.ownfolders_ui)
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

TIMEOUT = 300.0  # seconds one operation may take before the run gives up
PI_FACTOR = 4.0  # a Pi 4 against this machine on Python (the estimate)
BUDGET_S = 1 / 60  # UI-thread work per frame on the Pi
SCENARIOS = ("none", "count", "bytes")  # "none": no own files, the baseline
HOSTILE_PAD = "id: x{i}\nshape: rounds\nnotes:\n" + "".join(
    f"  k{k:04d}: [value {k}, more, words]\n" for k in range(1000))  # ~30 KB
HOSTILE_CLOCK = "mode: sand\ntime: 1m\nnotes:\n" + "".join(
    f"  k{k:04d}: [value {k}, more, words]\n" for k in range(1000))


def fill(root: Path, scenario: str) -> None:
    pad, clock = root / "pad", root / "clock"
    pad.mkdir(parents=True)
    clock.mkdir(parents=True)
    if scenario == "none":
        return
    if scenario == "count":
        for i in range(10_000):
            (pad / f"t{i:05d}.yaml").write_text(f"id: t{i:05d}\nname: Own {i}\n"
                                                "shape: rounds\n")
            (clock / f"p{i:05d}.yaml").write_text(f"mode: sand\ntime: {i % 59 + 1}m\n")
    else:
        for i in range(200):
            (pad / f"t{i:05d}.yaml").write_text(HOSTILE_PAD.format(i=i))
            (clock / f"p{i:05d}.yaml").write_text(HOSTILE_CLOCK)


def _frames(idle: Callable[[], None], start: Callable[[], None],
            done: Callable[[], bool]) -> dict[str, Any]:
    """Kivy's loop passes from `start` until `done`, then three more: the UI
    thread's CPU in each."""
    cpu: list[float] = []
    began = time.perf_counter()
    c = time.thread_time()
    start()  # the tap's own work runs in the frame it lands in
    settled = 0
    while settled < 3:
        idle()
        now_cpu = time.thread_time()
        cpu.append(now_cpu - c)
        c = now_cpu
        if settled or done():
            settled += 1
        if time.perf_counter() - began > TIMEOUT:
            raise TimeoutError("the operation never completed")
    return {"seconds": time.perf_counter() - began, "frames": len(cpu),
            "longest_cpu_s": max(cpu), "total_cpu_s": sum(cpu)}


def child(scenario: str, out: Path, workdir: Path) -> None:
    from bench.apps import quiet_kivy
    from companion import config as config_module
    from companion.journal import Journal

    quiet_kivy()
    os.environ["XDG_CONFIG_HOME"] = str(workdir / "xdg")
    fill(workdir / "xdg" / config_module.APP_DIR, scenario)
    from ui.main import configure_kivy

    cfg = config_module.load(use_default_user_file=False)
    configure_kivy(cfg)
    from kivy.base import EventLoop

    from ui import background
    from ui.app import CompanionApp
    from ui.memory import settle_memory
    from ui.ownfolders import folders

    path = workdir / "data" / "journal.sqlite3"
    path.parent.mkdir(parents=True)
    app = CompanionApp(cfg, Journal(path), auto_resume=False)
    app._run_prepare()
    for _ in range(5):
        EventLoop.idle()
    settle_memory()
    idle = EventLoop.idle
    ops: list[dict[str, Any]] = []

    def go(screen: str) -> Callable[[], None]:
        return lambda: setattr(app.root, "current", screen)

    def read() -> bool:
        return folders().complete and not background.busy() and \
            app.root.transition.is_active is False

    def op(name: str, start: Callable[[], None], done: Callable[[], bool] = read) -> None:
        for _ in range(3):
            idle()
        full = app.collector.collections + app.collector.thorough
        ops.append({"op": name, **_frames(idle, start, done),
                    "collections": app.collector.collections + app.collector.thorough - full})

    pad = app.root.get_screen("pad_setup")
    clock = app.root.get_screen("clock_setup")
    op("open the pad set-up, the first time (the folders read)", go("pad_setup"))
    op("open its template list", pad.choose_template)
    app.close_dialog()
    op("back home", go("home"))
    op("open the pad set-up again (folders unchanged)", go("pad_setup"))
    op("open the clock set-up (folders unchanged)", go("clock_setup"))
    op("Add on the clock set-up", clock.add_player)
    op("open its preset list", clock.open_presets)
    app.close_dialog()
    kept = len([t for t in folders().templates.templates if not t.builtin]), \
        len([p for p in folders().presets.presets.values() if p.own])
    out.write_text(json.dumps({"scenario": scenario, "ops": ops, "own_read": kept,
                               "broken": [len(folders().templates.broken),
                                          len(folders().presets.broken)]}))


def _child(scenario: str, out: Path, workdir: Path) -> None:
    env = dict(os.environ, KIVY_HOME=str(workdir / "kivy-home"), KIVY_NO_ARGS="1",
               KIVY_NO_FILELOG="1", KIVY_NO_CONSOLELOG="1", GPIOZERO_PIN_FACTORY="mock")
    env.pop("COMPANION_CONFIG", None)
    env.pop("COMPANION_SETTINGS", None)
    env["XDG_DATA_HOME"] = str(workdir / "xdg-data")
    with (workdir / f"{scenario}.log").open("wb") as log:
        done = subprocess.run([sys.executable, "-m", "bench.ownfolders_ui", "--child",
                               scenario, str(out)], cwd=ROOT, stdout=log,
                              stderr=subprocess.STDOUT, env=env, timeout=900)
    if done.returncode != 0:
        raise RuntimeError(f"{scenario} failed: see {workdir / f'{scenario}.log'}")


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def markdown(results: list[dict[str, Any]]) -> str:
    lines = ["| folders | operation | frames | wall time | longest UI-thread CPU in a "
             f"frame | x{PI_FACTOR:g} (Pi 4 estimate) | budget 16.7 ms |",
             "|---|---|---|---|---|---|---|"]
    for result in results:
        for op in result["ops"]:
            pi = op["longest_cpu_s"] * PI_FACTOR
            lines.append(f"| {result['scenario']} | {op['op']} | {op['frames']} | "
                         f"{_ms(op['seconds'])} | {_ms(op['longest_cpu_s'])} | {_ms(pi)} | "
                         f"{'met' if pi <= BUDGET_S else 'NOT met'}"
                         f"{' (a full collection ran)' if op['collections'] else ''} |")
    lines += [""] + [f"{r['scenario']}: own templates and presets read "
                     f"{r['own_read'][0]} and {r['own_read'][1]}, listed as broken "
                     f"{r['broken'][0]} and {r['broken'][1]}." for r in results]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.ownfolders_ui", description=__doc__)
    parser.add_argument("--child", choices=SCENARIOS)
    parser.add_argument("out", type=Path, nargs="?")
    args = parser.parse_args(argv)
    if args.child is not None:
        with tempfile.TemporaryDirectory(prefix="bench-own-") as tmp:
            child(args.child, args.out, Path(tmp))
        return 0
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-own-") as tmp:
        for scenario in SCENARIOS:
            out = Path(tmp) / f"{scenario}.json"
            _child(scenario, out, Path(tmp))
            results.append(json.loads(out.read_text()))
    print(markdown(results))
    print(f"\nLoad average after the run (1, 5, 15 min): {' '.join(map(str, os.getloadavg()))}"
          f" on {os.cpu_count()} CPUs.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
