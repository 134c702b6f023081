"""The benchmark harness runs end to end with tiny counts (it must not rot). Asserts
the structure of the results, never the speed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.ui  # the children open Kivy windows: needs xvfb-run

ROOT = Path(__file__).resolve().parents[1]


def test_the_benchmarks_run_end_to_end_and_report(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    done = subprocess.run(
        [sys.executable, "-m", "bench", "--reps", "1", "--idle-seconds", "1", "--idle-reps",
         "1", "--rolls", "5", "--roll-parts", "1", "--replay-entries", "40", "130",
         "--long-actions", "150", "--night-games", "40", "--no-others",
         "--slow-card-rolls", "4", "--slow-card-profiles", "fixed:20",
         "--json", str(out), "--workdir", str(tmp_path / "work")],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads(out.read_text(encoding="utf-8"))

    start = results["startup"]
    for key in ("start_s", "start_cpu_s", "rss_mib", "idle_cpu_s", "idle_frames"):
        for app in ("ours", "bare", "bare_same"):
            assert start[key][app]["n"] == 1
    for app in ("ours", "bare", "bare_same"):
        run = start["runs"][app][0]
        assert 0 < run["start_s"] < 120 and run["rss_mib"] > 10
        assert 0 < run["start_cpu_s"] < 120
        assert run["idle_wall_s"] >= 1 and run["idle_cpu_s"] >= 0

    slow = results["slow_card"]["runs"]
    assert set(slow) == {"bare", "fast", "fixed:20"}
    for name in ("fast", "fixed:20"):
        run = slow[name]
        assert run["shown"]["n"] == run["commit"]["n"] == 4
        # nothing shown before its commit ended, no tap lost, no impatient second roll
        assert run["early"] == run["lost"] == run["second_rolls"] == 0
        assert run["impatient"] >= 1
        assert all(v >= 0 for v in run["shown_after_commit"]["values"])
    assert slow["fixed:20"]["syncs"]["n"] >= 4 and slow["fixed:20"]["syncs"]["max_ms"] == 20
    assert min(slow["fixed:20"]["commit"]["values"]) >= 0.020  # the rig delayed each one
    assert "ROLL on a slow card" in done.stdout

    roll = results["roll"]
    assert roll["commit_s"]["ours"]["n"] == roll["shown_s"]["ours"]["n"] == 5
    assert roll["commit_s"]["bare"]["n"] == roll["shown_s"]["bare_same"]["n"] == 5
    assert roll["labels_wrong"] == 0
    assert roll["updates"] == roll["journaled"] >= 5  # every action seen was committed
    for ours_commit, ours_shown in zip(roll["commit_s"]["ours"]["values"],
                                       roll["shown_s"]["ours"]["values"], strict=True):
        assert 0 < ours_commit <= ours_shown  # committed before it could be shown
    assert set(roll["shown_by_outcome"]) <= {"none", "power", "place", "end"}
    if "dialog_s" in roll:  # a dialog comes after the frame that shows the new state
        assert roll["dialog_s"]["min"] > min(roll["shown_s"]["ours"]["values"])

    for replay, entries in zip(results["replays"], (40, 130), strict=True):
        assert replay["entries"] >= entries
        assert sum(replay["mix"].values()) == replay["entries"]
        assert replay["resume_s"]["n"] >= 1 and replay["steps"] <= replay["entries"]
        assert replay["floor_s"]["n"] == replay["read_s"]["n"] == replay["resume_s"]["n"]
    assert results["replays"][1]["tail"] < 100  # resumed from a snapshot
    assert start["start_s"]["ours_long"]["n"] == 1

    night = results["night"]
    assert night["games"] == night["restored_games"] == 40
    assert [op["op"].split()[0] for op in night["ops"]] == [
        "open", "open", "export", "export", "backup", "check", "restore"]
    assert all(op["longest_s"] > 0 for op in night["ops"])
    assert set(roll["gc"]) == {"0", "1", "2"}

    report = done.stdout
    for heading in ("## Start, memory, idle", "## ROLL through the real app",
                    "## Resume of a", "finished games: the longest frame"):
        assert heading in report
    assert "cold start to first frame" in report and "| bare Kivy" in report
    assert "CPU time to the first frame" in report
    assert "against bare Kivy with our window settings (no multisampling; bare median" in report


def test_the_pi_cost_bench_runs_quick_and_reports_every_figure(tmp_path: Path) -> None:
    from bench import pi_cost

    out = tmp_path / "pi.json"
    done = subprocess.run(
        [sys.executable, "-m", "bench.pi_cost", "--quick", "--json", str(out),
         "--workdir", str(tmp_path / "work")],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    report = done.stdout
    results = json.loads(out.read_text(encoding="utf-8"))

    # the calibration of this very run, scaled to 5 M steps, and both Pi 4 factors
    cal = results["calibration"]
    assert cal["steps"] > 0 and cal["cpu_s"] > 0 and len(cal["runs_s"]) == 2
    assert report.startswith(f"Calibration: nbody.py {cal['steps']} steps in ")
    factor = pi_cost.PI4_CORRECTED_S / cal["per_5m_s"]
    assert f"Pi 4 factor {factor:.2f}x (105 s / " in report
    assert "uncorrected " in report and "(158 s / " in report

    # every action timed with its samples, a row each with a verdict
    for child, key, name in pi_cost.ACTIONS:
        samples = results["children"][child][key]
        assert len(samples) == results["samples"] and all(s > 0 for s in samples)
        row = next(line for line in report.splitlines() if line.startswith(f"| {name} |"))
        verdicts = ("| (reference) |  |",) if child == "bare" else ("| met |", "| **not met** |")
        assert row.endswith(verdicts), row
    # the frames of History, Statistics and the roster; the start's two ratios
    for op in ("open History", "open Statistics", "open Players again",
               "open the roster picker"):
        assert any(line.startswith(f"| {op}") for line in report.splitlines()), op
    for frames in (*results["children"]["night"].values(),
                   *results["children"]["roster"].values()):
        assert frames and all(f >= 0 for f in frames)
    assert "| CPU to the first frame (process, all threads) |" in report
    assert "| resident memory (VmRSS) after start |" in report
