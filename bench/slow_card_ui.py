"""ROLL on a slow SD card: the real app with its journal's syncs delayed by the
slow-card rig (`bench/slow_card.py`), beside the same app on this machine's disk and a
bare Kivy app, all at Kivy's usual 60 frames a second (the pacing a player sees).

Each roll is a finger's tap on ROLL, through window-level touches: down, held for 65 ms
(four frames at 60 Hz), released. Per roll, from the release:
- `first_change`: the first frame swapped after it (something redrawn: the button's
  look, the tumbling dice); `down_change`: from the touch-down to the first frame
  showing the dice tumbling;
- `shown`: the first frame swapped after the screen was told of the roll (the turn
  label then shows the new turn); `commit`: when the writer's commit ended;
  `shown_after_commit`: `shown` - `commit`;
- `gap`: the longest time between two frames while the commit was in flight, and
  `tick_gap` between two passes of the loop (the UI thread's longest stall);
- `early`: frames that showed the roll's turn before its commit had ended (must be 0).
Every third roll gets an impatient second tap 30-150 ms (seeded) after the release:
`second_rolls` counts those that made a roll (must be 0). `lost` counts first taps that
made no roll. Dialogs the rolls open are answered by taps, untimed; a finished game is
followed by a new one.

    python -m bench.slow_card_ui {ours,bare} OUT.json --rolls N --data-dir DIR
        [--profile fixed:50] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from itertools import pairwise
from pathlib import Path
from typing import Any

from bench.slow_card import PROFILES, SlowCard
from bench.stats import percentile, summary

WARMUP_ROLLS = 5
#: a finger rests ~65 ms on the glass (in time: the loop passes faster while it does)
HOLD_SECONDS = 0.065
MAX_SECONDS = 10.0  # a roll not shown by then is a failure


class Marks:
    """Frame swaps and loop passes, time-stamped."""

    def __init__(self) -> None:
        self.frames: list[float] = []
        self.ticks: list[float] = []
        self.on_frame: Any = None

    def frame(self, _n: int, now: float) -> None:
        self.frames.append(now)
        if self.on_frame is not None:
            self.on_frame(now)


def _touch(widget: Any) -> Any:
    from kivy.tests.common import UnitTestTouch

    return UnitTestTouch(*widget.to_window(*widget.center))


def _idle(loop: Any, marks: Marks) -> None:
    loop.idle()
    marks.ticks.append(time.perf_counter())


def run_ours(rolls: int, data_dir: Path, seed: int) -> dict[str, Any]:
    from companion import config as config_module
    from ui.main import configure_kivy

    cfg = config_module.load(use_default_user_file=False)
    configure_kivy(cfg)
    from kivy.base import EventLoop

    from bench.apps import FlipProbe, open_new_game
    from bench.games import MINUTES, PLAYERS
    from companion.games.evil import commands as c
    from companion.journal import Journal
    from tests.uidriver import Driver
    from ui.app import CompanionApp
    from ui.memory import settle_memory

    journal = Journal(data_dir / "journal.sqlite3")
    seeds = iter(range(1, 1_000_000))
    app = CompanionApp(cfg, journal, new_seed=lambda: next(seeds))
    app._run_prepare()
    ui = Driver(app)
    ui.wait_until(lambda: app.writer is not None)  # from the first frame on
    settle_memory()
    marks = Marks()
    FlipProbe(marks.frame, clock=time.perf_counter).install()
    screen = app.root.get_screen("evil_play")
    ended: list[float] = []  # when each commit ended, on the writer thread
    submit = app.writer.submit

    def timed_submit(job: Any, derived: Any = None) -> Any:
        def timed(journal: Any) -> Any:
            try:
                return job(journal)
            finally:
                ended.append(time.perf_counter())
        return submit(timed, derived)

    app.writer.submit = timed_submit  # type: ignore[method-assign]
    told: dict[str, Any] = {}

    def observe(update: Any) -> None:
        if update.verb == "do" and isinstance(update.command, c.Roll):
            told["at"] = time.perf_counter()
            told["turn"] = screen.turn_label.text

    def new_game() -> None:
        open_new_game(ui, "evil", {
            "players": [{"name": n, "character": ch} for n, ch in PLAYERS],
            "treasures": {colour: MINUTES for colour in ("red", "green", "blue")}},
            timeout=MAX_SECONDS).subscribe(observe)
        ui.pump(3)

    def rolls_in_journal() -> int:
        return sum(1 for g in journal.games() for e in journal.entries(g.id)
                   if e.verb == "do" and (e.command or {}).get("type") == "Roll")

    rng = random.Random(seed)
    new_game()
    out: dict[str, list[float]] = {k: [] for k in (
        "first_change", "down_change", "shown", "commit", "shown_after_commit", "gap",
        "tick_gap")}
    early = lost = impatient = second_rolls = 0
    for n in range(rolls + WARMUP_ROLLS):
        ui.wait_until(lambda: not app.busy, timeout=MAX_SECONDS)
        ui.pump(3)  # what the last roll opens comes in the frame after its result
        while ui.dialog in ("power", "place") or ui.screen == "evil_end":
            if ui.screen == "evil_end":
                new_game()
            else:
                ui.tap("power.skip" if ui.dialog == "power" else f"place.{MINUTES}")
            ui.pump(3)
        ui.wait_until(lambda: app.may_roll() and not app.busy, timeout=MAX_SECONDS)
        ui.pump(2)
        before_rolls = rolls_in_journal()
        turn_before = screen.turn_label.text
        told.clear()
        commits_before = len(ended)
        touch = _touch(screen.roll_button)
        frames_before = len(marks.frames)
        t_down = time.perf_counter()
        touch.touch_down()
        while time.perf_counter() - t_down < HOLD_SECONDS:
            _idle(EventLoop, marks)
        down_change = marks.frames[frames_before] - t_down \
            if len(marks.frames) > frames_before else None
        frames_at_release = len(marks.frames)
        ticks_at_release = len(marks.ticks)
        t_release = time.perf_counter()
        EventLoop._dispatch_input("end", touch)
        second_at = t_release + rng.uniform(0.030, 0.150) if n % 3 == 0 else None
        second_done = False
        shown_at = None

        def early_check(_now: float, before: int = commits_before,
                        turn: str = turn_before) -> None:
            nonlocal early
            if len(ended) == before and screen.turn_label.text != turn:
                early += 1

        marks.on_frame = early_check
        while shown_at is None:
            if time.perf_counter() - t_release > MAX_SECONDS:
                raise RuntimeError(
                    f"the roll never reached the screen: dialog {ui.dialog}, screen "
                    f"{ui.screen}, busy {app.busy}, told {told}, rolls "
                    f"{rolls_in_journal() - before_rolls}, disabled "
                    f"{screen.roll_button.disabled}")
            if second_at is not None and not second_done \
                    and time.perf_counter() >= second_at:
                second = _touch(screen.roll_button)
                second.touch_down()
                _idle(EventLoop, marks)
                EventLoop._dispatch_input("end", second)
                second_done = True
            _idle(EventLoop, marks)
            if "at" in told:
                after = [f for f in marks.frames[frames_at_release:] if f >= told["at"]]
                if after:
                    shown_at = after[0]
        marks.on_frame = None
        if second_at is not None:  # the impatient tap may still be in its commit
            ui.wait_until(lambda: not app.busy, timeout=MAX_SECONDS)
            ui.pump(2)
        made = rolls_in_journal() - before_rolls
        commit_at = ended[commits_before] if len(ended) > commits_before else shown_at
        if n < WARMUP_ROLLS:
            continue
        lost += made < 1
        if second_at is not None:
            impatient += 1
            second_rolls += made > 1
        frames = [f for f in marks.frames[frames_at_release:] if f <= commit_at]
        stamps = [t_release, *frames, commit_at]
        ticks = [t_release, *(t for t in marks.ticks[ticks_at_release:] if t <= commit_at),
                 commit_at]
        out["first_change"].append(marks.frames[frames_at_release] - t_release)
        if down_change is not None:
            out["down_change"].append(down_change)
        out["shown"].append(shown_at - t_release)
        out["commit"].append(commit_at - t_release)
        out["shown_after_commit"].append(shown_at - commit_at)
        out["gap"].append(max(b - a for a, b in pairwise(stamps)))
        out["tick_gap"].append(max(b - a for a, b in pairwise(ticks)))
    checkpoints = list(app.writer.checkpoints)
    app.close_dialog()
    app.close_writer()
    journal.close()
    return {**out, "early": early, "lost": lost, "impatient": impatient,
            "second_rolls": second_rolls, "checkpoints": len(checkpoints)}


def run_bare(rolls: int) -> dict[str, Any]:
    """A Button that sets a Label's text, tapped the same way, at the same 60 Hz."""
    from bench.apps import FlipProbe, bare_app, configure_bare

    configure_bare(same_window=True)
    from kivy.base import EventLoop
    from kivy.core.window import Window
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.button import Button

    parts: dict[str, Any] = {}
    app = bare_app(lambda label: parts.setdefault("label", label))
    app._run_prepare()
    label = parts["label"]
    Window.remove_widget(label)
    box = BoxLayout(orientation="vertical")
    box.add_widget(label)
    button = Button(text="ROLL")
    told: dict[str, float] = {}

    def roll(_b: Any) -> None:
        label.text = f"Turn {len(told) + 2}"
        told["at"] = time.perf_counter()

    button.bind(on_release=roll)
    box.add_widget(button)
    Window.add_widget(box)
    marks = Marks()
    FlipProbe(marks.frame, clock=time.perf_counter).install()
    for _ in range(5):
        _idle(EventLoop, marks)
    out: dict[str, list[float]] = {"first_change": [], "shown": []}
    for n in range(rolls + WARMUP_ROLLS):
        told.clear()
        touch = _touch(button)
        t_down = time.perf_counter()
        touch.touch_down()
        while time.perf_counter() - t_down < HOLD_SECONDS:
            _idle(EventLoop, marks)
        at_release = len(marks.frames)
        t_release = time.perf_counter()
        EventLoop._dispatch_input("end", touch)
        shown_at = None
        while shown_at is None:
            _idle(EventLoop, marks)
            after = [f for f in marks.frames[at_release:] if f >= told.get("at", 1e18)]
            if after:
                shown_at = after[0]
        for _ in range(3):
            _idle(EventLoop, marks)
        if n >= WARMUP_ROLLS:
            out["first_change"].append(marks.frames[at_release] - t_release)
            out["shown"].append(shown_at - t_release)
    return out


def child_main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.slow_card_ui")
    parser.add_argument("app", choices=("ours", "bare"))
    parser.add_argument("out", type=Path)
    parser.add_argument("--rolls", type=int, default=300)
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    result = run_ours(args.rolls, args.data_dir, args.seed) if args.app == "ours" \
        else run_bare(args.rolls)
    args.out.write_text(json.dumps(result), encoding="utf-8")
    return 0


# -- the parent ----------------------------------------------------------------------------
def measure(workdir: Path, rolls: int = 300, profiles: tuple[str, ...] = PROFILES,
            seed: int = 1) -> dict[str, Any]:
    """`rolls` per profile, each in a fresh process, beside the fast disk and the bare
    app; the syncs each profile delayed, from the rig's log."""
    env = dict(os.environ, KIVY_HOME=str(workdir / "kivy-home"), KIVY_NO_ARGS="1",
               KIVY_NO_FILELOG="1", KIVY_NO_CONSOLELOG="1", GPIOZERO_PIN_FACTORY="mock")
    result: dict[str, Any] = {"rolls": rolls, "seed": seed, "warmup": WARMUP_ROLLS,
                              "runs": {}}
    for name in ("bare", "fast", *profiles):
        run = workdir / f"slow-{name.replace(':', '-')}"
        run.mkdir(parents=True)
        out = run / "result.json"
        child_env = env
        if name not in ("bare", "fast"):
            child_env = SlowCard(name, seed, run, run / "syncs.log").environment(env)
        with (run / "log.txt").open("wb") as log:
            done = subprocess.run(
                [sys.executable, "-m", "bench.slow_card_ui",
                 "bare" if name == "bare" else "ours", str(out), "--rolls", str(rolls),
                 "--data-dir", str(run), "--seed", str(seed)],
                stdout=log, stderr=subprocess.STDOUT, env=child_env, timeout=3600)
        if done.returncode != 0:
            raise RuntimeError(f"the slow-card benchmark ({name}) failed: see {run}/log.txt")
        raw = json.loads(out.read_text(encoding="utf-8"))
        figures: dict[str, Any] = {}
        for key, values in raw.items():
            if isinstance(values, list) and values:
                figures[key] = {**summary(values), "p90": percentile(values, 90)}
            elif not isinstance(values, list):
                figures[key] = values
        if name not in ("bare", "fast"):
            delays = [d for _, d, _, path in SlowCard.delays(run / "syncs.log")
                      if "journal.sqlite3" in path]
            figures["syncs"] = {"n": len(delays), "median_ms": percentile(delays, 50),
                                "max_ms": max(delays)} if delays else {"n": 0}
        result["runs"][name] = figures
    return result


def report(r: dict[str, Any]) -> list[str]:
    """The Markdown table of `measure`'s result."""
    def ms(v: float) -> str:
        return f"{v * 1000:.1f}"

    lines = [f"## ROLL on a slow card ({r['rolls']} rolls a profile, seed {r['seed']}, "
             "60 Hz, the journal's syncs delayed by the slow-card rig)", "",
             "| run | release → first change p90 | down → dice tumbling p90 | release → "
             "result median / p90 / p99 / max | commit end → result p99 | frame gap in "
             "commit max | loop stall max | early frames | 2nd rolls / impatient | lost "
             "| syncs (median / max ms) |", "|" + "---|" * 11]
    for name, f in r["runs"].items():
        shown = f["shown"]
        row = [name, ms(f["first_change"]["p90"]),
               ms(f["down_change"]["p90"]) if "down_change" in f else "-",
               f"{ms(shown['median'])} / {ms(shown['p90'])} / {ms(shown['p99'])} / "
               f"{ms(shown['max'])}",
               ms(f["shown_after_commit"]["p99"]) if "shown_after_commit" in f else "-",
               ms(f["gap"]["max"]) if "gap" in f else "-",
               ms(f["tick_gap"]["max"]) if "tick_gap" in f else "-",
               str(f.get("early", "-")),
               f"{f['second_rolls']} / {f['impatient']}" if "impatient" in f else "-",
               str(f.get("lost", "-")),
               (f"{f['syncs']['median_ms']:.0f} / {f['syncs']['max_ms']:.0f}"
                if f.get("syncs", {}).get("n") else "-")]
        lines.append("| " + " | ".join(row) + " |")
    return lines


def main(argv: list[str] | None = None) -> int:
    """`python -m bench.slow_card_ui run [--rolls N] [--profiles ...]`: the table."""
    parser = argparse.ArgumentParser(prog="bench.slow_card_ui run")
    parser.add_argument("--rolls", type=int, default=300)
    parser.add_argument("--profiles", nargs="+", default=list(PROFILES))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workdir", type=Path, required=True)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    result = measure(args.workdir, args.rolls, tuple(args.profiles), args.seed)
    print("\n".join(report(result)))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "run":
        sys.exit(main(sys.argv[2:]))
    sys.exit(child_main())
