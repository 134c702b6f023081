"""Child process of the start-up benchmark: start one app, report its first frame, its
memory once settled, and (on SIGUSR1) the frames drawn since; then exit.

    python -m bench.start_child {ours,ours_long,bare,bare_same} OUT.jsonl [--data-dir D --config C]

Timestamps are CLOCK_MONOTONIC, shared by every process on the machine, so the parent
can subtract the moment just before it spawned this process.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

from bench.apps import FlipProbe, Reporter, configure_bare, quiet_kivy, rss_kib

SETTLE_SECONDS = 1.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.start_child")
    parser.add_argument("app", choices=("ours", "ours_long", "bare", "bare_same"))
    parser.add_argument("out", type=Path)
    parser.add_argument("--data-dir", default="")
    parser.add_argument("--config", default="")
    args = parser.parse_args(argv)
    quiet_kivy()
    report = Reporter(args.out)
    probe = FlipProbe()

    def on_frame(n: int, now: float) -> None:
        if n == 1:  # with the CPU time of the whole process so far (all its threads)
            report.write(event="first_frame", t=now, cpu=time.process_time())
            from kivy.clock import Clock

            Clock.schedule_once(settled, SETTLE_SECONDS)

    def settled(_dt: float) -> None:
        report.write(event="settled", t=time.monotonic(), rss_kib=rss_kib(),
                     frames=probe.frames)

    def finish(*_: Any) -> None:  # SIGUSR1 from the parent: the measurement is over
        report.write(event="end", t=time.monotonic(), frames=probe.frames)
        os._exit(0)

    signal.signal(signal.SIGUSR1, finish)
    probe.on_frame = on_frame
    from kivy.clock import Clock

    # runs in the first frame's clock tick, before that frame is drawn
    Clock.schedule_once(probe.install, 0)
    if args.app in ("bare", "bare_same"):
        configure_bare(same_window=args.app == "bare_same")
        bare_app_run()
        return 0
    from ui.main import main as companion_main

    return companion_main(["--data-dir", args.data_dir, "--config", args.config])


def bare_app_run() -> None:
    from bench.apps import bare_app

    bare_app().run()


if __name__ == "__main__":
    sys.exit(main())
