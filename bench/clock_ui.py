"""The table clock's screen running (issue 31): its redraws a second and the app's CPU
over a stretch of running clock, next to the same app idle on its home screen measured
in the same run (target: at most 4 redraws a second, CPU within 2x the idle app's).

Each measure is a fresh `companion run` child on its own data folder: idle, it shows
home; with the clock, it reopens a running 4-player chess clock (paused by the reopen,
resumed by a touch on Resume) and stays on it. The child counts, over `--seconds`:
its process CPU (every thread), the frames swapped (`FlipProbe`), the labels the clock
screen changed (`ClockPlayScreen.redraws`) and how often it looked at the clock.

Run: xvfb-run -a .venv/bin/python bench/clock_ui.py [--seconds 60]
(`make bench` runs it with its default, 40 s each, inside the others' time limit.)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def child(data: str, mode: str, seconds: float) -> None:
    """Inside the child: the app as `companion` starts it, measured once settled."""
    from kivy.config import Config

    Config.set("graphics", "min_state_time", "0")
    from kivy.clock import Clock

    from bench.apps import FlipProbe

    probe = FlipProbe()
    state: dict[str, Any] = {"taps": ["clock_interrupted.ok", "play.pause"]}

    def app() -> Any:
        from kivy.app import App

        return App.get_running_app()

    def finish(_dt: float) -> None:
        running = app()
        screen = running.root.built("clock_play")
        out = {"mode": mode, "seconds": time.monotonic() - state["t0"],
               "cpu_s": time.process_time() - state["cpu0"],
               "frames": probe.frames - state["frames0"],
               "redraws": (screen.redraws if screen else 0) - state["redraws0"],
               "looks": state["looks"]}
        if mode == "clock":
            out["status"] = running.session.state.status
        print("RESULT " + json.dumps(out), flush=True)
        os._exit(0)

    def start_measuring() -> None:
        running = app()
        screen = running.root.built("clock_play")
        state.update(t0=time.monotonic(), cpu0=time.process_time(), frames0=probe.frames,
                     redraws0=screen.redraws if screen else 0, looks=0)
        if screen is not None:
            look = screen.look

            def counted() -> None:
                state["looks"] += 1
                look()

            screen.look = counted
        Clock.schedule_once(finish, seconds)

    def step(_dt: float) -> bool:
        from kivy.tests.common import UnitTestTouch

        from ui.widgets.basics import find

        running = app()
        if running is None or running.root is None or not running.on_screen:
            return True
        if not probe.installed:
            probe.install()
        if mode == "idle":
            if running.root.current == "home":
                Clock.schedule_once(lambda _dt: start_measuring(), 2.0)
                return False
            return True
        if running.root.current != "clock_play" or running.busy:
            return True
        if state["taps"]:
            tid = state["taps"][0]
            widget = find(running.dialog if running.dialog is not None else running.root,
                          tid)
            if widget is None or widget.disabled or widget.get_root_window() is None:
                return True
            state["taps"].pop(0)
            touch = UnitTestTouch(*widget.to_window(*widget.center))
            touch.touch_down()
            touch.touch_up()
            return True
        if running.session.state.status == "running":
            Clock.schedule_once(lambda _dt: start_measuring(), 2.0)
            return False
        return True

    Clock.schedule_interval(step, 0.05)
    from ui.main import main as run

    config = Path(data) / "config.yaml"
    run(["--data-dir", data, "--config", str(config)])


def prepare(folder: Path, mode: str) -> None:
    """A data folder; with the clock, a 4-player chess clock running in its journal."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.yaml").write_text("language: en\n", encoding="utf-8")
    if mode != "clock":
        return
    from companion.games import rules_for
    from companion.games.clock import commands as c
    from companion.games.clock.presets import load_presets, setup_for
    from companion.journal import Journal
    from companion.session import Session

    preset = load_presets(folder / "config.yaml").get("chess-5m-3s")
    assert preset is not None
    journal = Journal(folder / "journal.sqlite3")
    session = Session.start(rules_for("clock"), journal, setup_for(
        preset, [{"name": f"Player {i + 1}"} for i in range(4)], seed=1, start=0))
    session.dispatch(c.Start(at=time.monotonic_ns() // 1_000_000))
    journal.close()


def measure(folder: Path, mode: str, seconds: float) -> dict[str, Any]:
    prepare(folder, mode)
    env = dict(os.environ, KIVY_HOME=str(folder / "kivy"), KIVY_NO_ARGS="1",
               KIVY_NO_FILELOG="1", KIVY_NO_CONSOLELOG="1", GPIOZERO_PIN_FACTORY="mock",
               XDG_CONFIG_HOME=str(folder / "xdg"))
    env.pop("NOTIFY_SOCKET", None)
    done = subprocess.run([sys.executable, __file__, "--child", str(folder), mode,
                           str(seconds)], capture_output=True, text=True, env=env,
                          timeout=seconds + 90, cwd=ROOT)
    for line in done.stdout.splitlines():
        if line.startswith("RESULT "):
            return dict(json.loads(line[7:]))
    raise RuntimeError(done.stdout[-2000:] + done.stderr[-3000:])


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--child"]:
        child(args[1], args[2], float(args[3]))
        return 0
    parser = argparse.ArgumentParser(prog="bench/clock_ui.py", description=__doc__)
    # two stretches and two start-ups within `make bench`'s limit for each script
    parser.add_argument("--seconds", type=float, default=40.0)
    options = parser.parse_args(args)
    with tempfile.TemporaryDirectory(prefix="bench-clock-") as temp:
        idle = measure(Path(temp) / "idle", "idle", options.seconds)
        clock = measure(Path(temp) / "clock", "clock", options.seconds)
    print(f"| app, over {options.seconds:.0f} s | CPU | CPU share | frames/s |"
          " clock labels redrawn/s | looks/s |")
    print("|---|---|---|---|---|---|")
    for row in (idle, clock):
        s = row["seconds"]
        print(f"| {row['mode']} | {row['cpu_s']:.2f} s | {100 * row['cpu_s'] / s:.1f} % |"
              f" {row['frames'] / s:.2f} | {row['redraws'] / s:.2f} | {row['looks'] / s:.2f} |")
    ratio = clock["cpu_s"] / max(idle["cpu_s"], 1e-9)
    print(f"\nRunning clock / idle app CPU: {ratio:.2f}x (target <= 2x); the clock "
          f"{'ran' if clock.get('status') == 'running' else 'did NOT run'} throughout.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
