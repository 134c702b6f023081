"""`python -m bench` (under xvfb-run: `make bench`): every benchmark, then a Markdown
report on stdout. Counts can be made tiny for a smoke run; `--json` keeps raw figures."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench import night_ui, replay_ui, roll_ui, slow_card_ui, startup
from bench.report import command_line, machine, markdown

ROOT = Path(__file__).resolve().parents[1]
# benchmarks kept by other parts of the project: run as scripts, their output quoted
OTHERS = ("replay", "roll_domain", "hardware_latency", "stats_history", "stats_screen",
          "long_lists", "pad_domain", "clock_domain", "clock_ui",
          "clock_switch", "pad_enter", "ownfolders_ui", "pi_cost")
OTHERS_TIMEOUT = 120
#: those that take longer: the score pad's 900 entries per app (~90 s on 2 cores), the
#: Pi's cost of every action with its N-body calibration (~15 min)
LONGER_TIMEOUTS = {"pad_enter": 360, "pi_cost": 1800}


def others() -> dict[str, str]:
    found: dict[str, str] = {}
    for name in OTHERS:
        script = ROOT / "bench" / f"{name}.py"
        if not script.exists():
            continue
        limit = LONGER_TIMEOUTS.get(name, OTHERS_TIMEOUT)
        try:
            done = subprocess.run([sys.executable, str(script)], cwd=ROOT, text=True,
                                  capture_output=True, timeout=limit)
            text = done.stdout if done.returncode == 0 else \
                f"exit {done.returncode}\n{done.stdout}\n{done.stderr[-2000:]}"
        except subprocess.TimeoutExpired:
            text = f"stopped after {limit} s"
        found[f"bench/{name}.py"] = text
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--reps", type=int, default=5, help="start-ups per app")
    parser.add_argument("--idle-seconds", type=float, default=30.0)
    parser.add_argument("--idle-reps", type=int, default=2,
                        help="how many of the start-ups also measure idle CPU")
    parser.add_argument("--rolls", type=int, default=1000, help="timed ROLLs per app")
    parser.add_argument("--roll-parts", type=int, default=2,
                        help="fresh processes per app sharing the rolls")
    parser.add_argument("--long-actions", type=int, default=50000,
                        help="actions of the long game whose start is timed")
    parser.add_argument("--replay-entries", type=int, nargs="+", default=[5000, 50000])
    parser.add_argument("--night-games", type=int, default=20000,
                        help="finished games for the game-night frames (0: skip)")
    parser.add_argument("--slow-card-rolls", type=int, default=300,
                        help="ROLLs per slow-card profile, fast disk and bare app (0: skip)")
    parser.add_argument("--slow-card-profiles", nargs="+", default=list(slow_card_ui.PROFILES),
                        help="the slow-card rig's profiles to run (bench/slow_card.py)")
    parser.add_argument("--no-others", action="store_true",
                        help="skip the other bench/*.py scripts")
    parser.add_argument("--json", type=Path, help="also write every raw figure here")
    parser.add_argument("--workdir", type=Path,
                        help="keep journals and child logs here (default: a temp dir)")
    args = parser.parse_args(argv)

    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="bench-") as temp:
        work = args.workdir or Path(temp)
        work.mkdir(parents=True, exist_ok=True)
        results: dict[str, Any] = {"command": command_line()}
        results["startup"] = startup.measure(work / "startup", args.reps, args.idle_seconds,
                                             args.idle_reps, args.long_actions)
        results["roll"] = roll_ui.measure(work / "roll", args.rolls, args.roll_parts)
        results["replays"] = [replay_ui.measure(work, n) for n in args.replay_entries]
        if args.slow_card_rolls:
            results["slow_card"] = slow_card_ui.measure(
                work / "slow-card", args.slow_card_rolls, tuple(args.slow_card_profiles))
        if args.night_games:
            results["night"] = night_ui.measure(work, args.night_games)
        if not args.no_others:
            results["others"] = others()
    results["machine"] = machine()
    results["seconds"] = time.monotonic() - began
    print(markdown(results))
    print(f"Whole run: {results['seconds']:.0f} s.")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
