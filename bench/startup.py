"""Cold start, memory and idle CPU of our app beside a bare Kivy app.

Each repetition starts one fresh process of each app, interleaved (ours, bare, ours,
bare, ...) so both share whatever else the machine is doing. Per process:

- cold start: from just before the process is spawned to the end of the first buffer
  swap (CLOCK_MONOTONIC on both sides), both apps from byte-code as installed; and the
  process's CPU time (all threads) at that swap, which waiting for a busy core does not
  inflate;
- memory: VmRSS once the first frame is drawn and the app has settled for 1 s;
- idle CPU (the first `idle_reps` repetitions): utime + stime of the process, all
  threads, over `idle_seconds` with nothing touched, read from /proc/<pid>/stat. Ours
  shows the Pr. Evil play screen (an unfinished game is resumed at start, as after a
  power cut), with its hardware layer on gpiozero's mock pins, as `companion` runs.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.apps import cpu_seconds
from bench.games import make_journal
from bench.stats import ratio, summary
from companion.games.evil.rules import RULES_VERSION

#: ours; ours resuming a game of 50 000 actions; bare Kivy as it comes (the reference);
#: bare Kivy with our window settings (no multisampling), to show like for like what our
#: own start-up work costs
APPS = ("ours", "ours_long", "bare", "bare_same")
JOURNAL_ACTIONS = 12  # the resumed game: a few turns played
LONG_ACTIONS = 50_000  # a very long game, resumed from its snapshot and its tail
TIMEOUT = 120.0  # a child that shows nothing for this long has failed


class Runner:
    def __init__(self, workdir: Path, long_actions: int = LONG_ACTIONS) -> None:
        self.workdir = workdir
        self.count = 0
        self.template = workdir / "template" / "journal.sqlite3"
        # games set up as the app sets them up today (a game from before rules versions
        # would open with a one-time note about its roll order, a dialog on the first frame)
        make_journal(self.template, JOURNAL_ACTIONS, rules_version=RULES_VERSION)
        self.long_template = workdir / "template-long" / "journal.sqlite3"
        make_journal(self.long_template, long_actions, rules_version=RULES_VERSION)
        self.config = workdir / "config.yaml"
        self.config.write_text("language: en\n", encoding="utf-8")
        self.env = dict(os.environ, KIVY_HOME=str(workdir / "kivy-home"),
                        KIVY_NO_ARGS="1", KIVY_NO_FILELOG="1", GPIOZERO_PIN_FACTORY="mock")

    def once(self, app: str, idle_seconds: float = 0.0) -> dict[str, Any]:
        self.count += 1
        run = self.workdir / f"{self.count:02d}-{app}"
        run.mkdir()
        out = run / "events.jsonl"
        cmd = [sys.executable, "-m", "bench.start_child", app, str(out)]
        if app in ("ours", "ours_long"):
            template = self.template if app == "ours" else self.long_template
            shutil.copytree(template.parent, run, dirs_exist_ok=True)
            cmd += ["--data-dir", str(run), "--config", str(self.config)]
        with (run / "log.txt").open("wb") as log:
            t0 = time.monotonic()
            child = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=self.env)
            try:
                first = _wait_for(out, "first_frame", child)
                settled = _wait_for(out, "settled", child)
                result: dict[str, Any] = {
                    "start_s": first["t"] - t0,
                    "start_cpu_s": first["cpu"],
                    "rss_mib": settled["rss_kib"] / 1024,
                }
                if idle_seconds > 0:
                    cpu0, w0 = cpu_seconds(child.pid), time.monotonic()
                    time.sleep(idle_seconds)
                    cpu1, w1 = cpu_seconds(child.pid), time.monotonic()
                    child.send_signal(signal.SIGUSR1)
                    end = _wait_for(out, "end", child)
                    result.update(idle_cpu_s=cpu1 - cpu0, idle_wall_s=w1 - w0,
                                  idle_frames=end["frames"] - settled["frames"])
            finally:
                if child.poll() is None:
                    child.terminate()
                child.wait(timeout=30)
        return result


def _wait_for(path: Path, event: str, child: subprocess.Popen[bytes]) -> dict[str, Any]:
    end = time.monotonic() + TIMEOUT
    while time.monotonic() < end:
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                record = json.loads(line)
                if record.get("event") == event:
                    return dict(record)
        if child.poll() is not None:
            raise RuntimeError(f"the benchmark child exited ({child.returncode}) before "
                               f"{event}; see {path.parent / 'log.txt'}")
        time.sleep(0.005)
    raise TimeoutError(f"no {event} within {TIMEOUT:.0f} s; see {path.parent / 'log.txt'}")


def compile_app() -> None:
    """Write the app's byte-code as `companion install` does on the Pi (Kivy's came with
    its wheel): with PYTHONDONTWRITEBYTECODE set, no warm-up run would write it."""
    from ui.commands.deploy import PACKAGES, REPO

    subprocess.run([sys.executable, "-m", "compileall", "-q",
                    *(str(REPO / p) for p in PACKAGES)], check=True, stdout=subprocess.DEVNULL)


def measure(workdir: Path, reps: int = 5, idle_seconds: float = 30.0,
            idle_reps: int = 2, long_actions: int = LONG_ACTIONS) -> dict[str, Any]:
    compile_app()
    runner = Runner(workdir, long_actions)
    for app in APPS:  # warm-up, not counted: bytecode caches, page cache, KIVY_HOME
        runner.once(app)
    runs: dict[str, list[dict[str, Any]]] = {app: [] for app in APPS}
    for rep in range(reps):
        for app in APPS:
            idle = idle_seconds if rep < idle_reps and app != "ours_long" else 0.0
            runs[app].append(runner.once(app, idle))
    result: dict[str, Any] = {"reps": reps, "idle_seconds": idle_seconds,
                              "long_actions": long_actions,
                              "idle_reps": min(idle_reps, reps), "runs": runs}
    for key in ("start_s", "start_cpu_s", "rss_mib", "idle_cpu_s", "idle_frames"):
        series = {app: [r[key] for r in runs[app] if key in r] for app in APPS}
        if all(series[app] for app in ("ours", "bare", "bare_same")):
            ours, bare, same = (summary(series[app]) for app in ("ours", "bare", "bare_same"))
            result[key] = {"ours": ours, "bare": bare, "bare_same": same,
                           "ratio": ratio(ours["median"], bare["median"]),
                           "ratio_same": ratio(ours["median"], same["median"])}
            if series["ours_long"]:
                long = summary(series["ours_long"])
                result[key].update(ours_long=long,
                                   ratio_long=ratio(long["median"], ours["median"]))
    return result
