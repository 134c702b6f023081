"""Benchmark: the statistics screen with 5 000 games, from switching to it to its first
frame drawn (the data, the widgets, the drawing), in the real app under Xvfb.

Target (issue 6): under 300 ms. Builds the history with `bench/stats_history.py`, warms
the facts cache once (as after an upgrade), then opens the screen 5 times.
Run: `xvfb-run -a .venv/bin/python bench/stats_screen.py`.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))


def main() -> None:
    from bench.stats_history import build
    from companion import config
    from companion.journal import Journal
    from companion.night import stats
    from ui.main import configure_kivy

    scratch = Path(tempfile.mkdtemp(prefix="bench-stats-screen-"))
    path = scratch / "journal.sqlite3"
    build(path, 5000, scratch).close()
    warm = Journal(path)
    stats.statistics(warm)
    warm.close()

    configure_kivy(None)
    from kivy.base import EventLoop

    from ui.app import CompanionApp

    app = CompanionApp(config.load(use_default_user_file=False), Journal(path),
                       auto_resume=False)
    app._run_prepare()
    for _ in range(5):
        EventLoop.idle()
    times = []
    for _ in range(5):
        began = time.perf_counter()
        app.root.current = "night_stats"
        EventLoop.idle()  # one frame: the screen built and drawn
        times.append(time.perf_counter() - began)
        app.root.current = "home"
        for _ in range(3):
            EventLoop.idle()
    print(f"statistics screen, 5000 games, switch to first frame, {len(times)} runs: "
          f"median {statistics.median(times) * 1000:.0f} ms, "
          f"min {min(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms (target < 300 ms)")


if __name__ == "__main__":
    main()
