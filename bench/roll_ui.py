"""ROLL to committed and shown, through the real app, beside a bare Kivy button.

A child process starts the app on a journal file in a temp dir (SQLite,
synchronous=FULL), with the roll animation off, and presses ROLL with window-level
touches as a finger would. Each sample runs from the release of the touch (a Button acts
on release) to the end of the first buffer swap after the session told its observers
(which it does only once the journal committed) and the turn label shows the new turn.
What a roll opens (a power or placement dialog, the end screen of the game it ended)
comes in a later frame: timed apart, from the same release to the frame that shows it.
The dialogs are answered by touches too, untimed; a finished game is followed by a new
one, untimed.

Kivy's frame pacing (maxfps, at most 1/60 s of waiting for the next frame, the same for
any Kivy app) is switched off in every child, so a sample is the app's own work:
input dispatch, rules, journal commit, labels, drawing and the swap.

The bare app: a Button that sets a Label's text to the next turn, same touches, same
timing; what any Kivy app pays for a tap that changes a label. It runs twice: in Kivy's
default window (2 samples a pixel), the issue's measure, and with our window settings
(`bare-same`: no multisampling, as our app), the like-for-like figure.

    python -m bench.roll_ui {ours,bare,bare-same} OUT.json --rolls N --data-dir DIR
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.apps import FlipProbe, configure_bare, open_new_game, quiet_kivy, rss_kib
from bench.stats import ratio, summary

WARMUP_ROLLS = 10  # first textures, first code paths: not counted
APPS = ("ours", "bare", "bare-same")  # one process of each per part, in this order
MAX_SECONDS = 10.0  # allowed for one roll to show before giving up


class Timing:
    """The marks of one roll: touch released, update observed, frame shown."""

    def __init__(self) -> None:
        self.t0 = self.cpu0 = self.thread0 = 0.0
        self.updated: float | None = None
        self.shown: float | None = None
        self.labels_ok = False
        # CPU time as well as wall time: on a shared machine the wall clock also counts
        # waiting for a core; the main thread's CPU time up to the update, the whole
        # process's (llvmpipe renders on its own threads) up to the swap
        self.update_cpu = self.shown_cpu = 0.0

    def start(self) -> None:
        self.updated = self.shown = None
        self.labels_ok = False
        self.thread0, self.cpu0 = time.thread_time(), time.process_time()
        self.t0 = time.perf_counter()

    def update(self, labels_ok: bool) -> None:
        if self.updated is None:
            self.updated = time.perf_counter()
            self.update_cpu = time.thread_time() - self.thread0
            self.labels_ok = labels_ok

    def frame(self, _n: int, now: float) -> None:
        if self.updated is not None and self.shown is None:
            self.shown = now
            self.shown_cpu = time.process_time() - self.cpu0


def press(widget: Any, timing: Timing, loop: Any) -> tuple[float, float]:
    """Touch a button, release it, and run the loop until the result is on screen.

    The release is queued as the window's input provider queues a finger's: the loop
    dispatches it between its clock tick and its drawing, as it does on the Pi, so what
    the action schedules for the next tick (a dialog) comes in the frame after."""
    from kivy.tests.common import UnitTestTouch

    x, y = widget.to_window(*widget.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    loop.idle()  # the pressed look is drawn: not part of the sample
    timing.start()
    loop._dispatch_input("end", touch)
    # the commit ends on the writer thread: loop passes until the result is on screen
    end = time.perf_counter() + MAX_SECONDS
    while time.perf_counter() < end:
        loop.idle()
        if timing.shown is not None:
            assert timing.updated is not None
            return timing.updated - timing.t0, timing.shown - timing.t0
    raise RuntimeError("the roll never reached the screen")


def dialog_shown(opened: Callable[[], bool], timing: Timing, loop: Any,
                 frames: int = 3) -> float | None:
    """Seconds from the touch's release to the first frame showing what the roll opened
    (a power choice, a new treasure, the end screen), or None when it opened none."""
    for _ in range(frames):
        loop.idle()
        if opened():
            return time.perf_counter() - timing.t0  # this loop pass drew and swapped it
    return None


# -- the child ----------------------------------------------------------------------------
def _prepare_kivy(ours: bool, same_window: bool = False) -> Any:
    from companion import config as config_module
    from companion.config import Config

    quiet_kivy()
    cfg = None
    if ours:
        from ui.main import configure_kivy

        cfg = config_module.load(use_default_user_file=False)
        data = dict(cfg.data)
        # no roll guard: the rolls follow each other as soon as the last is shown
        data["display"] = dict(data["display"], roll_animation=0, roll_guard=0)
        cfg = Config(data)
        configure_kivy(cfg)
    else:
        configure_bare(same_window)
    from kivy.config import Config as KivyConfig

    KivyConfig.set("graphics", "maxfps", "0")  # before kivy.clock is imported
    from kivy.clock import Clock

    assert Clock._max_fps == 0, "kivy.clock was imported before maxfps was set"
    return cfg


def run_ours(rolls: int, data_dir: Path) -> dict[str, Any]:
    cfg = _prepare_kivy(ours=True)
    from kivy.base import EventLoop

    from bench.games import MINUTES, PLAYERS
    from companion.games.evil import commands as c
    from companion.journal import Journal
    from tests.uidriver import Driver
    from ui.app import CompanionApp
    from ui.main import load_hardware
    from ui.memory import settle_memory

    journal = Journal(data_dir / "journal.sqlite3")
    in_journal = {"s": 0.0}
    seeds = iter(range(1, 1_000_000))
    hardware = load_hardware(cfg)  # as `companion` does: mock pins without GPIO
    app = CompanionApp(cfg, journal, hardware=hardware, new_seed=lambda: next(seeds))
    app._run_prepare()  # build + window + on_start, as App.run does before its loop
    ui = Driver(app)
    ui.pump(2)
    ui.wait_until(lambda: app.writer is not None)  # from the first frame on
    submit = app.writer.submit

    # the commit's time, on the writer thread
    def timed_submit(job: Any, derived: Any = None) -> Any:
        def timed(journal: Any) -> Any:
            t = time.perf_counter()
            try:
                return job(journal)
            finally:
                in_journal["s"] += time.perf_counter() - t
        return submit(timed, derived)

    app.writer.submit = timed_submit  # type: ignore[method-assign]
    settle_memory()  # as `companion` does after its first frame
    import gc

    pauses: dict[str, list[float]] = {"0": [], "1": [], "2": []}
    gc_began = [0.0]

    def on_gc(phase: str, info: dict[str, Any]) -> None:  # every collection, timed
        if phase == "start":
            gc_began[0] = time.perf_counter()
        else:
            pauses[str(info["generation"])].append(time.perf_counter() - gc_began[0])

    gc.callbacks.append(on_gc)
    timing = FlipProbe(clock=time.perf_counter)
    marks = Timing()
    timing.on_frame = marks.frame
    timing.install()
    updates = {"n": 0}
    screen = app.root.get_screen("evil_play")
    shown_before = {"turn": ""}

    def observe(update: Any) -> None:
        """Runs after the app's observers: the action is written (committed just
        before the frame's swap) and the labels set."""
        updates["n"] += 1
        if update.verb == "do" and isinstance(update.command, c.Roll):
            state = update.state
            expected = app.tr("evil.ui.turn", turn=state.turn, player=state.current_player.name)
            label = screen.turn_label.text
            if getattr(state, "pending_clock", None) is not None:
                # the roll waits for a replacement before its black die: same turn
                ok = label == expected and ui.screen == "evil_play"
            elif state.outcome is None:  # a new turn, on the play screen
                ok = label == expected != shown_before["turn"] and ui.screen == "evil_play"
            else:  # the last roll: no new turn; the end screen comes in the next frame
                ok = label == expected and ui.screen == "evil_play"
            marks.update(ok)

    games = 0
    dialogs = 0

    def new_game() -> None:
        nonlocal games
        open_new_game(ui, "evil", {
            "players": [{"name": n, "character": ch} for n, ch in PLAYERS],
            "treasures": {colour: MINUTES for colour in ("red", "green", "blue")}},
        ).subscribe(observe)  # after the app's own observer: the labels are set
        games += 1
        ui.pump(3)

    new_game()
    commit: list[float] = []
    shown: list[float] = []
    dialog_s: list[float] = []
    committing: list[float] = []
    cpu: dict[str, list[float]] = {"commit_cpu_s": [], "shown_cpu_s": []}
    after: list[str] = []
    bad_labels = 0
    for n in range(rolls + WARMUP_ROLLS):
        while ui.dialog in ("power", "place"):  # the table answers; not timed
            ui.tap("power.skip" if ui.dialog == "power" else f"place.{MINUTES}")
            dialogs += 1
        if ui.screen == "evil_end":
            new_game()
        assert ui.dialog is None and ui.screen == "evil_play", (ui.dialog, ui.screen)
        ui.wait_until(lambda: not app.busy)
        shown_before["turn"] = screen.turn_label.text
        in_journal["s"] = 0.0
        to_update, to_frame = press(screen.roll_button, marks, EventLoop)
        # what the roll opens (a dialog, the end screen) comes in a later frame
        def opened() -> bool:
            return app.dialog is not None or ui.screen == "evil_end"

        to_dialog = to_frame if opened() else dialog_shown(opened, marks, EventLoop)
        if n >= WARMUP_ROLLS:
            commit.append(to_update)
            shown.append(to_frame)
            if to_dialog is not None:
                dialog_s.append(to_dialog)
            committing.append(in_journal["s"])
            cpu["commit_cpu_s"].append(marks.update_cpu)
            cpu["shown_cpu_s"].append(marks.shown_cpu)
            bad_labels += not marks.labels_ok
            # what the roll opened: the tail of the samples is explained by this
            after.append("end" if ui.screen == "evil_end" else ui.dialog or "none")
    gc.callbacks.remove(on_gc)
    from ui.widgets import kept_texture

    # memory after the rolls: the kept text textures are the part that grows with play
    memory = {"rss_mib": rss_kib() / 1024, "kept_mib": kept_texture.kept_pixels() * 4 / 2**20}
    journaled = sum(len(journal.entries(g.id)) for g in journal.games())
    app.close_dialog()
    journal.close()
    return {"commit_s": commit, "shown_s": shown, "journal_s": committing, "games": games,
            "dialog_s": dialog_s,
            "dialogs": dialogs, "labels_wrong": bad_labels, "updates": updates["n"],
            "journaled": journaled, "hardware": hardware is not None, "after": after,
            "gc_pauses": pauses, "idle_collections": app.collector.collections, **memory,
            **cpu}


def run_bare(rolls: int, same_window: bool = False) -> dict[str, Any]:
    _prepare_kivy(ours=False, same_window=same_window)
    from kivy.base import EventLoop
    from kivy.uix.label import Label

    from bench.apps import bare_roll_app

    marks = Timing()
    app, button = bare_roll_app(marks.update)
    probe = FlipProbe(marks.frame, clock=time.perf_counter)
    probe.install()
    for _ in range(5):
        EventLoop.idle()
    commit: list[float] = []
    shown: list[float] = []
    cpu: dict[str, list[float]] = {"commit_cpu_s": [], "shown_cpu_s": []}
    for n in range(rolls + WARMUP_ROLLS):
        to_update, to_frame = press(button, marks, EventLoop)
        if n >= WARMUP_ROLLS:
            commit.append(to_update)
            shown.append(to_frame)
            cpu["commit_cpu_s"].append(marks.update_cpu)
            cpu["shown_cpu_s"].append(marks.shown_cpu)
    assert isinstance(app.root, Label)
    return {"commit_s": commit, "shown_s": shown, "rss_mib": rss_kib() / 1024, **cpu}


def child_main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.roll_ui")
    parser.add_argument("app", choices=("ours", "bare", "bare-same"))
    parser.add_argument("out", type=Path)
    parser.add_argument("--rolls", type=int, default=500)
    parser.add_argument("--data-dir", type=Path, required=True)
    args = parser.parse_args(argv)
    result = run_ours(args.rolls, args.data_dir) if args.app == "ours" else \
        run_bare(args.rolls, same_window=args.app == "bare-same")
    args.out.write_text(json.dumps(result), encoding="utf-8")
    return 0


# -- the parent ----------------------------------------------------------------------------
def interleaved(workdir: Path, count: int, parts: int, env: dict[str, str],
                command: Callable[[str, Path, int, Path], list[str]], timeout: float
                ) -> dict[str, list[dict[str, Any]]]:
    """Each app of `APPS` run `parts` times, interleaved (ours, bare, bare-same, ours,
    ...), `count` shared between the parts: `command(app, out, n, run_dir)` is the
    child's command line, which writes its result to `out` as JSON. Each app's results,
    a part each."""
    per_part = [count // parts + (1 if i < count % parts else 0) for i in range(parts)]
    raw: dict[str, list[dict[str, Any]]] = {app: [] for app in APPS}
    for part, n in enumerate(per_part):
        for app in APPS:
            run = workdir / f"{app}-{part}"
            run.mkdir(parents=True)
            out = run / "result.json"
            with (run / "log.txt").open("wb") as log:
                done = subprocess.run(command(app, out, n, run), stdout=log,
                                      stderr=subprocess.STDOUT, env=env, timeout=timeout,
                                      cwd=Path(__file__).resolve().parents[1])
            if done.returncode != 0:
                raise RuntimeError(f"{app} failed: see {run / 'log.txt'}\n"
                                   + (run / "log.txt").read_text()[-3000:])
            raw[app].append(json.loads(out.read_text(encoding="utf-8")))
    return raw


def three_children(script: str, workdir: Path, count: int, parts: int = 1
                   ) -> dict[str, Any]:
    """Run `script --child <app> <out> <count> <dir>` for our app, the bare app and the
    bare app with our window settings, a fresh process each, in that order, `parts`
    times over (`interleaved`); their results by app, the parts' merged (`merge`).
    What the clock's and the score pad's benchmarks share.

    Several parts, interleaved: one process of the bare app has a speed of its own (its
    median moved between 3 and 7 ms from one process to the next on a quiet machine,
    each process steady within itself), so one process each compared a chance pairing;
    the parts pool each app over processes that ran side by side in time."""
    env = dict(os.environ, KIVY_HOME=str(workdir / "kivy-home"), KIVY_NO_ARGS="1",
               KIVY_NO_FILELOG="1", KIVY_NO_CONSOLELOG="1", GPIOZERO_PIN_FACTORY="mock",
               XDG_CONFIG_HOME=str(workdir / "xdg"))
    raw = interleaved(workdir, count, parts, env, lambda app, out, n, run: [
        sys.executable, script, "--child", app, str(out), str(n), str(run)], timeout=600)
    merged = {which: merge(results) for which, results in raw.items()}
    for which, results in raw.items():  # each process's own median, to show the spread
        merged[which]["part_medians_s"] = [
            summary(r["shown_s"])["median"] for r in results if r.get("shown_s")]
    return merged


def merge(results: list[dict[str, Any]]) -> dict[str, Any]:
    """One app's results over its parts: the samples (lists) one after another, the
    counts (whole numbers) added up, any other figure the largest (memory)."""
    merged: dict[str, Any] = {}
    for result in results:
        for key, value in result.items():
            if isinstance(value, list):
                merged.setdefault(key, []).extend(value)
            elif isinstance(value, int) and not isinstance(value, bool):
                merged[key] = merged.get(key, 0) + value
            elif isinstance(value, float):
                merged[key] = max(merged.get(key, value), value)
            else:
                merged[key] = value
    return merged


def measure(workdir: Path, rolls: int = 1000, parts: int = 2) -> dict[str, Any]:
    """`rolls` per app, in `parts` fresh processes each, interleaved ours/bare/bare-same."""
    env = dict(os.environ, KIVY_HOME=str(workdir / "kivy-home"), KIVY_NO_ARGS="1",
               KIVY_NO_FILELOG="1", KIVY_NO_CONSOLELOG="1", GPIOZERO_PIN_FACTORY="mock")
    raw = interleaved(workdir / "roll", rolls, parts, env, lambda app, out, n, run: [
        sys.executable, "-m", "bench.roll_ui", app, str(out), "--rolls", str(n),
        "--data-dir", str(run)], timeout=900)
    result: dict[str, Any] = {"rolls": rolls, "parts": parts, "warmup": WARMUP_ROLLS}
    for key in ("commit_s", "commit_cpu_s", "shown_s", "shown_cpu_s", "journal_s"):
        ours = summary([v for r in raw["ours"] for v in r[key]])
        result[key] = {"ours": ours}
        if key in raw["bare"][0]:
            bare = summary([v for r in raw["bare"] for v in r[key]])
            same = summary([v for r in raw["bare-same"] for v in r[key]])
            result[key].update(bare=bare, ratio=ratio(ours["median"], bare["median"]),
                               bare_same=same)
    dialog_values = [v for r in raw["ours"] for v in r["dialog_s"]]
    if dialog_values:
        result["dialog_s"] = summary(dialog_values)
    for key in ("games", "dialogs", "labels_wrong", "updates", "journaled"):
        result[key] = sum(r[key] for r in raw["ours"])
    result["hardware"] = all(r["hardware"] for r in raw["ours"])
    result["gc"] = {gen: summary(v) if v else {"n": 0}
                    for gen, v in ((g, [p for r in raw["ours"] for p in r["gc_pauses"][g]])
                                   for g in ("0", "1", "2"))}
    result["idle_collections"] = sum(r["idle_collections"] for r in raw["ours"])
    result["rss_mib"] = {app: max(r["rss_mib"] for r in raw[app]) for app in ("ours", "bare")}
    result["kept_mib"] = max(r["kept_mib"] for r in raw["ours"])
    for key in ("commit_s", "shown_s"):
        by_outcome: dict[str, list[float]] = {}
        for r in raw["ours"]:
            for what, value in zip(r["after"], r[key], strict=True):
                by_outcome.setdefault(what, []).append(value)
        result[f"{key.split('_')[0]}_by_outcome"] = {
            k: summary(v) for k, v in sorted(by_outcome.items())}
    return result


if __name__ == "__main__":
    sys.exit(child_main())
