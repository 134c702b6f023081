"""What a Raspberry Pi 4 pays: the UI thread's CPU per action, through the real app,
scaled by the N-body calibration timed in the same run (issue 48).

Each action is timed with `time.thread_time()` read on the UI thread at the touch's
release and again right after the buffer swap of the first frame showing the result
(`FlipProbe`, which wraps the window's flip): the app's work, Kivy's input dispatch,
layout and drawing calls included; the renderer's own threads (llvmpipe's) and the
journal's writer thread not. Kivy keeps its own pacing (maxfps 60, as the app runs):
the loop sleeps between passes, so a sample does not grow with the wait for the disk.
CPU time, not wall time: on a machine shared with other work, a core taken away is not
counted (the calibration is process CPU time too).

Every figure is also given as a Pi 4 estimate, figure x (105 s / this run's N-body time
for 5 M steps), and uncorrected, figure x (158 s / the same); docs/benchmarks.md says
where 158 s and 105 s come from. Each measurement is a fresh child process.

    xvfb-run -a python -m bench.pi_cost [--quick] [--only ACTION] [--json OUT]

`--only bond` times one action (and the bare app, the reference) between the two
calibrations: the same table's rows, in a few minutes rather than the whole run.
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

from bench.stats import percentile, summary  # noqa: E402

#: the published Pi 4 time of nbody.py at 5 M steps, and the same taken to Python 3.13
PI4_PUBLISHED_S, PI4_CORRECTED_S = 158.0, 105.0
NBODY_STEPS = 5_000_000
FRAME_S = 1 / 60  # one frame at 60 Hz
MEDIAN_S = 0.008
WARMUP = 10  # first textures, first code paths: not counted
TIMEOUT = 900.0  # one child's whole run
#: `--profile`: a cProfile of the UI thread, enabled only inside the timed samples
PROFILER: Any = None


# -- the child: one app, one action, timed on its UI thread ---------------------------------
class Marks:
    """The UI thread's CPU time from the release to the frame after the session told its
    observers (the journal committed, the labels set)."""

    def __init__(self) -> None:
        self.t0 = self.cpu0 = 0.0
        self.updated: float | None = None
        self.shown: float | None = None
        self.cpu = 0.0

    def start(self) -> None:
        self.updated = self.shown = None
        self.cpu0 = time.thread_time()
        self.t0 = time.perf_counter()

    def update(self, *_: Any) -> None:
        if self.updated is None:
            self.updated = time.perf_counter()

    def frame(self, _n: int, now: float) -> None:
        if self.updated is not None and self.shown is None:
            self.cpu = time.thread_time() - self.cpu0  # on the UI thread: after the swap
            self.shown = now


def _timed_tap(ui: Any, tid: str, marks: Marks, limit: float = 10.0) -> float:
    """Touch `tid` (a widget or a key drawn on a canvas), release it as the window's
    input provider would, and run the loop until the result is on screen: the UI
    thread's CPU seconds from the release to that frame."""
    from kivy.base import EventLoop
    from kivy.tests.common import UnitTestTouch

    widget = ui.find(tid)
    if widget is None:
        x, y = ui.app.dialog.locate(tid)
    else:
        x, y = widget.to_window(*widget.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    EventLoop.idle()  # the pressed look is drawn: not part of the sample
    if PROFILER is not None:
        PROFILER.enable()
    marks.start()
    EventLoop._dispatch_input("end", touch)
    end = time.perf_counter() + limit
    while time.perf_counter() < end:
        EventLoop.idle()
        if marks.shown is not None:
            if PROFILER is not None:
                PROFILER.disable()
            return marks.cpu
    raise RuntimeError(f"{tid}: the result never reached the screen")


def _kivy(ours: bool) -> Any:
    from bench.apps import configure_bare, quiet_kivy

    quiet_kivy()
    from kivy.config import Config as KivyConfig

    if not ours:
        configure_bare(same_window=True)
        KivyConfig.set("graphics", "min_state_time", "0")
        return None
    from companion import config as config_module
    from companion.config import Config
    from ui.main import configure_kivy

    cfg = config_module.load(use_default_user_file=False)
    data = dict(cfg.data)
    data["display"] = dict(data["display"], roll_animation=0, roll_guard=0)
    cfg = Config(data)
    configure_kivy(cfg)
    # a quick tap's release is not held on the clock (as in the UI tests): the hold
    # costs waiting, not CPU, and would only lengthen the run
    KivyConfig.set("graphics", "min_state_time", "0")
    return cfg


def _app(data_dir: Path, cfg: Any) -> Any:
    from companion.journal import Journal
    from tests.uidriver import Driver
    from ui.app import CompanionApp
    from ui.main import load_hardware
    from ui.memory import settle_memory

    seeds = iter(range(1, 1_000_000))
    app = CompanionApp(cfg, Journal(data_dir / "journal.sqlite3"),
                       hardware=load_hardware(cfg), new_seed=lambda: next(seeds))
    app._run_prepare()  # build + window + on_start, as App.run does before its loop
    ui = Driver(app)
    ui.pump(2)
    ui.wait_until(lambda: app.writer is not None)
    settle_memory()  # as `companion` does after its first frame
    return ui


def _probe(marks: Marks) -> None:
    from bench.apps import FlipProbe

    FlipProbe(marks.frame, clock=time.perf_counter).install()


def _loop(count: int, before: Callable[[int], None], tid: Callable[[int], str],
          marks: Marks, ui: Any, after: Callable[[int], None] = lambda _n: None
          ) -> list[float]:
    samples: list[float] = []
    for n in range(count + WARMUP):
        ui.wait_until(lambda: not ui.app.busy)
        before(n)
        cpu = _timed_tap(ui, tid(n), marks)
        if n >= WARMUP:
            samples.append(cpu)
        after(n)
    return samples


def child_bare(count: int, _data: Path) -> dict[str, Any]:
    """The bare Kivy app (our window settings): a Button sets a Label's text."""
    _kivy(ours=False)
    from kivy.base import EventLoop

    from bench.apps import bare_roll_app

    marks = Marks()
    _app, button = bare_roll_app(lambda _shown: marks.update())
    _probe(marks)
    for _ in range(5):
        EventLoop.idle()

    class Finder:  # what `_timed_tap` asks of the driver
        app = type("A", (), {"busy": False})()

        @staticmethod
        def find(_tid: str) -> Any:
            return button

        @staticmethod
        def wait_until(_condition: Any) -> None:
            return None

    return {"cpu_s": _loop(count, lambda _n: None, lambda _n: "roll", marks, Finder())}


def child_roll(count: int, data: Path) -> dict[str, Any]:
    """ROLL mid-game in Pr. Evil (3 players); dialogs answered and new games untimed."""
    ui = _app(data, _kivy(ours=True))
    from bench.apps import open_new_game
    from bench.games import MINUTES, PLAYERS
    from companion.games.evil import commands as c

    marks = Marks()
    _probe(marks)

    def observe(update: Any) -> None:
        if update.verb == "do" and isinstance(update.command, c.Roll):
            marks.update()

    def new_game() -> None:
        open_new_game(ui, "evil", {
            "players": [{"name": n, "character": ch} for n, ch in PLAYERS],
            "treasures": {colour: MINUTES for colour in ("red", "green", "blue")},
        }).subscribe(observe)
        ui.pump(3)

    new_game()
    screen = ui.app.root.get_screen("evil_play")

    def before(_n: int) -> None:
        while ui.dialog in ("power", "place"):
            ui.tap("power.skip" if ui.dialog == "power" else f"place.{MINUTES}")
        if ui.screen == "evil_end":
            new_game()
        ui.wait_until(ui.app.may_roll)
        ui.pump(1)

    finder = _Finder(ui, lambda tid: screen.roll_button if tid == "roll" else None)
    return {"cpu_s": _loop(count, before, lambda _n: "roll", marks, finder,
                           after=lambda _n: ui.pump(2))}


def child_pad(count: int, data: Path) -> dict[str, Any]:
    """A value entered on the score pad, 8 players x 50 rounds, to its total shown."""
    from bench.pad_enter import prepare
    from companion.games.pad import commands as c

    prepare(data / "journal.sqlite3")
    ui = _app(data, _kivy(ours=True))
    marks = Marks()
    _probe(marks)
    ui.app.session.subscribe(lambda u: marks.update() if u.verb == "do" and isinstance(
        u.command, c.SetCell) else None)

    def digit(n: int) -> None:
        ui.tap(f"keypad.{n % 10}", settle=False)
        ui.pump(1)

    return {"cpu_s": _loop(count, digit, lambda _n: "keypad.enter", marks, ui)}


def child_undo(count: int, data: Path) -> dict[str, Any]:
    """Undo, then redo, on the score pad at 8 players x 50 rounds (each its own figure)."""
    from bench.pad_enter import prepare

    prepare(data / "journal.sqlite3")
    ui = _app(data, _kivy(ours=True))
    marks = Marks()
    _probe(marks)
    ui.app.session.subscribe(lambda u: marks.update() if u.verb in ("undo", "redo") else None)
    ui.app.close_dialog()
    ui.pump(2)
    samples = _loop(2 * count, lambda _n: None,
                    lambda n: "play.undo" if n % 2 == 0 else "play.redo", marks, ui)
    # the warm-up is the first ten of the series: undo and redo alternate from there
    return {"undo_cpu_s": samples[0::2], "redo_cpu_s": samples[1::2]}


def child_clock(count: int, data: Path) -> dict[str, Any]:
    """End turn on the table clock at 8 seats, to the next player's time shown."""
    ui = _app(data, _kivy(ours=True))
    from bench.apps import open_new_game
    from companion.games.clock import commands as c
    from companion.games.clock.presets import load_presets, setup_for
    from ui.screens.clock import moment

    preset = load_presets().get("chess-5m-3s")
    assert preset is not None
    session = open_new_game(ui, "clock", setup_for(
        preset, [{"name": f"Player {i + 1}"} for i in range(8)], seed=1, start=0))
    ui.app.send(c.Start(at=moment.now()))
    ui.pump(3)
    marks = Marks()
    _probe(marks)
    session.subscribe(lambda u: marks.update() if u.verb == "do" and isinstance(
        u.command, c.Switch) else None)
    screen = ui.app.root.get_screen("clock_play")
    finder = _Finder(ui, lambda tid: screen.area if tid == "clock.area" else None)
    return {"cpu_s": _loop(count, lambda _n: ui.pump(1), lambda _n: "clock.area", marks,
                           finder)}


class _Finder:
    """The driver, with widgets a tid does not name found by a function."""

    def __init__(self, ui: Any, found: Callable[[str], Any]) -> None:
        self._ui, self._found = ui, found
        self.app = ui.app

    def find(self, tid: str) -> Any:
        return self._found(tid) or self._ui.find(tid)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ui, name)


def child_castor(count: int, data: Path) -> dict[str, Any]:
    """A card entered in Castor's trick tracker (3 players), then undone (untimed)."""
    ui = _app(data, _kivy(ours=True))
    from bench.apps import open_new_game
    from companion.games.castor import commands as c

    session = open_new_game(ui, "castor", {
        "players": [{"name": f"Player {i + 1}"} for i in range(3)]})
    ui.pump(3)
    marks = Marks()
    _probe(marks)
    session.subscribe(lambda u: marks.update() if u.verb == "do" and isinstance(
        u.command, c.PlayCard) else None)
    ui.tap("play.tricks")

    def colour(_n: int) -> None:
        if not ui.text("tricks.colour.blue").startswith("▶"):
            ui.tap("tricks.colour.blue")

    def undo(_n: int) -> None:
        ui.app.undo()
        ui.pump(2)

    return {"cpu_s": _loop(count, colour, lambda _n: "tricks.value.18", marks, ui,
                           after=undo)}


def child_bond(count: int, data: Path) -> dict[str, Any]:
    """A Bond attack (spies sent at a lair), to the capture on screen; then undone."""
    ui = _app(data, _kivy(ours=True))
    from bench.apps import open_new_game
    from companion.games.bond import commands as c

    session = open_new_game(ui, "bond", {
        "players": [{"name": n} for n in ("Anne", "Bruno", "Chloé")]})
    ui.pump(3)
    marks = Marks()
    _probe(marks)
    session.subscribe(lambda u: marks.update() if u.verb == "do" and isinstance(
        u.command, c.Attack) else None)
    ui.tap("play.player.1.add_lair")
    ui.tap("lair.add.3")

    def choose(_n: int) -> None:
        ui.tap("play.player.1.attack")
        ui.tap("attack.by.0")
        ui.tap("attack.spy.3")

    def undo(_n: int) -> None:
        ui.app.close_dialog()
        ui.app.undo()
        ui.pump(2)

    return {"cpu_s": _loop(count, choose, lambda _n: "attack.send", marks, ui, after=undo)}


def child_night(count: int, data: Path) -> dict[str, Any]:
    """The frames of opening History, then Statistics, at `count` finished games."""
    from bench import night_ui

    raw = night_ui.run(data / "night.json", count, data, only_opening=True)
    return {op["op"]: op["cpu"] for op in raw["ops"]}


def child_roster(count: int, data: Path) -> dict[str, Any]:
    """The frames of opening Players and the roster picker at `count` players."""
    from bench import long_lists

    out = data / "roster.json"
    long_lists.ours(out, [f"Player {i:05d}" for i in range(count)], data)
    ops = json.loads(out.read_text())["ops"]
    return {op["op"]: op["cpu_frames"] for op in ops if op["op"].startswith("open")}


CHILDREN: dict[str, Callable[[int, Path], dict[str, Any]]] = {
    "bare": child_bare, "roll": child_roll, "castor": child_castor, "bond": child_bond,
    "pad": child_pad, "clock": child_clock, "undo": child_undo, "night": child_night,
    "roster": child_roster}


# -- the parent -----------------------------------------------------------------------------
#: (child, its result's key, the figure's name) of every action timed per sample
ACTIONS = (
    ("bare", "cpu_s", "bare Kivy app: a Button sets a Label (our window settings)"),
    ("roll", "cpu_s", "ROLL mid-game (Pr. Evil, 3 players)"),
    ("castor", "cpu_s", "a card in Castor's trick tracker (3 players)"),
    ("bond", "cpu_s", "a Bond attack sent (3 players)"),
    ("pad", "cpu_s", "a score-pad entry, 8 players x 50 rounds"),
    ("clock", "cpu_s", "a clock switch, 8 seats"),
    ("undo", "undo_cpu_s", "undo (score pad, 8 x 50)"),
    ("undo", "redo_cpu_s", "redo (score pad, 8 x 50)"),
)


def _env(work: Path) -> dict[str, str]:
    return dict(os.environ, KIVY_HOME=str(work / "kivy-home"), KIVY_NO_ARGS="1",
                KIVY_NO_FILELOG="1", KIVY_NO_CONSOLELOG="1", GPIOZERO_PIN_FACTORY="mock")


def run_child(name: str, count: int, work: Path, profile: Path | None = None
              ) -> dict[str, Any]:
    where = work / name
    where.mkdir(parents=True, exist_ok=True)
    out = where / "result.json"
    env = _env(work) | ({"PI_COST_PROFILE": str(profile)} if profile else {})
    with (where / "log.txt").open("wb") as log:
        done = subprocess.run([sys.executable, "-m", "bench.pi_cost", "--child", name,
                               str(out), str(count), str(where)], cwd=ROOT, stdout=log,
                              stderr=subprocess.STDOUT, env=env, timeout=TIMEOUT)
    if done.returncode != 0:
        raise RuntimeError(f"{name} failed: see {where / 'log.txt'}")
    return dict(json.loads(out.read_text(encoding="utf-8")))


def calibrate(steps: int) -> dict[str, Any]:
    """nbody.py for `steps` steps in a fresh process: its CPU seconds, scaled to 5 M."""
    done = subprocess.run([sys.executable, "-m", "bench.nbody", str(steps)], cwd=ROOT,
                          capture_output=True, text=True, check=True, timeout=TIMEOUT)
    seconds = float(done.stdout.split("steps: ")[1].split()[0])
    return {"steps": steps, "cpu_s": seconds, "per_5m_s": seconds * NBODY_STEPS / steps}


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def report(results: dict[str, Any]) -> str:
    cal = results["calibration"]
    t = cal["per_5m_s"]
    pi, raw = PI4_CORRECTED_S / t, PI4_PUBLISHED_S / t
    lines = [
        f"Calibration: nbody.py {cal['steps']} steps in {cal['cpu_s']:.2f} s of CPU, i.e. "
        f"{t:.1f} s for 5 M steps on this machine; Pi 4 factor {pi:.2f}x (105 s / {t:.1f} s),"
        f" uncorrected {raw:.2f}x (158 s / {t:.1f} s).",
        "",
        "| action (UI-thread CPU, release to the frame shown) | n | p50 | p99 | max "
        "| Pi 4 est. p50 / p99 | uncorrected p50 / p99 | budget (Pi 4 est.) | |",
        "|---|---|---|---|---|---|---|---|---|"]
    for child, key, name in ACTIONS:
        if child not in results["children"]:  # `--only`: the rows of what was run
            continue
        values = results["children"][child][key]
        s = summary(values)
        ok = s["p99"] * pi <= FRAME_S and s["median"] * pi <= MEDIAN_S
        budget = "p99 ≤ 16.7 ms, p50 ≤ 8 ms"
        verdict = "met" if ok else "**not met**"
        if child == "bare":  # what any Kivy app pays: the reference, not a budget
            budget, verdict = "(reference)", ""
        lines.append(
            f"| {name} | {s['n']} | {_ms(s['median'])} ms | {_ms(s['p99'])} ms | "
            f"{_ms(s['max'])} ms | {_ms(s['median'] * pi)} / {_ms(s['p99'] * pi)} ms | "
            f"{_ms(s['median'] * raw)} / {_ms(s['p99'] * raw)} ms | {budget} | {verdict} |")
    if "startup" not in results:  # `--only`
        return "\n".join(lines + _machine_line(results))
    lines += ["", "| frames (UI-thread CPU per frame, tap to the result shown) | frames | "
              "p50 | max | Pi 4 est. max | uncorrected max | budget (Pi 4 est.) | |",
              "|---|---|---|---|---|---|---|---|"]
    for child, label in (("night", f"{results['games']} games"),
                         ("roster", f"{results['players']} players")):
        for op, frames in results["children"][child].items():
            worst = max(frames)
            ok = worst * pi <= FRAME_S
            lines.append(f"| {op}, {label} | {len(frames)} | "
                         f"{_ms(percentile(frames, 50))} ms | {_ms(worst)} ms | "
                         f"{_ms(worst * pi)} ms | {_ms(worst * raw)} ms | every frame ≤ "
                         f"16.7 ms | {'met' if ok else '**not met**'} |")
    s = results["startup"]
    lines += ["", f"| start ({s['reps']} fresh processes each) | ours median | bare median "
              "| ratio | Pi 4 est. ours | budget | |", "|---|---|---|---|---|---|---|"]
    for key, name, fmt, scale in (
            ("start_cpu_s", "CPU to the first frame (process, all threads)",
             lambda v: f"{v * 1000:.0f} ms", True),
            ("rss_mib", "resident memory (VmRSS) after start", lambda v: f"{v:.1f} MiB",
             False)):
        ours, bare = s[key]["ours"]["median"], s[key]["bare_same"]["median"]
        r = ours / bare
        lines.append(f"| {name} | {fmt(ours)} | {fmt(bare)} | {r:.2f}x | "
                     f"{fmt(ours * pi) if scale else '–'} | ≤ 1.3x the bare app's | "
                     f"{'met' if r <= 1.3 else '**not met**'} |")
    return "\n".join(lines + _machine_line(results))


def _machine_line(results: dict[str, Any]) -> list[str]:
    m = results["machine"]
    return ["", f"Machine: {m['nproc']} CPUs, {m['cpu']}; Python {m['python']}; Kivy "
            f"{m['kivy']}; load average at the end {m['load'][0]:.2f}. Whole run: "
            f"{results['seconds']:.0f} s."]


def run_profile(name: str, samples: int, workdir: Path | None) -> int:
    """One action's samples under cProfile (UI thread only): the functions by their own
    time and by their cumulative time. cProfile slows Python code, not C: its shares are
    a map of where the time goes, not figures."""
    import pstats

    with tempfile.TemporaryDirectory(prefix="bench-pi-") as temp:
        work = workdir or Path(temp)
        work.mkdir(parents=True, exist_ok=True)
        stats_path = work / f"{name}.prof"
        run_child(name, samples, work, profile=stats_path)
        stats = pstats.Stats(str(stats_path))
        stats.strip_dirs().sort_stats("tottime").print_stats(20)
        stats.sort_stats("cumulative").print_stats(30)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--child"]:
        name, out, count, where = args[1], Path(args[2]), int(args[3]), Path(args[4])
        profile = os.environ.get("PI_COST_PROFILE")
        if profile:
            import cProfile

            global PROFILER
            PROFILER = cProfile.Profile(time.thread_time)  # the UI thread's CPU
        out.write_text(json.dumps(CHILDREN[name](count, where)), encoding="utf-8")
        if PROFILER is not None:
            PROFILER.dump_stats(profile)
        return 0
    parser = argparse.ArgumentParser(prog="python -m bench.pi_cost", description=__doc__)
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run: few samples, small data, a short N-body")
    parser.add_argument("--samples", type=int, help="samples per action (default 300)")
    parser.add_argument("--json", type=Path, help="also write every raw figure here")
    parser.add_argument("--workdir", type=Path, help="keep child logs here")
    parser.add_argument("--profile", choices=[n for n in CHILDREN if n not in ("night", "roster")],
                        help="only this action: a cProfile of its UI thread in its samples")
    timed = sorted({child for child, _key, _name in ACTIONS if child != "bare"})
    parser.add_argument("--only", choices=timed,
                        help="only this action (and the bare app), between the calibrations")
    parsed = parser.parse_args(args)
    quick = parsed.quick
    samples = parsed.samples or (5 if quick else 300)
    games, players = (40, 50) if quick else (20000, 500)
    if parsed.profile:
        return run_profile(parsed.profile, samples, parsed.workdir)
    from bench import startup
    from bench.report import machine

    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="bench-pi-") as temp:
        work = parsed.workdir or Path(temp)
        work.mkdir(parents=True, exist_ok=True)
        results: dict[str, Any] = {"games": games, "players": players, "samples": samples}
        # the calibration first and last: the machine's speed over the run is their mean
        first = calibrate(50_000 if quick else NBODY_STEPS)
        children: dict[str, Any] = {}
        names = ("bare", parsed.only) if parsed.only else (
            "bare", "roll", "castor", "bond", "pad", "clock", "undo")
        for name in names:
            children[name] = run_child(name, samples, work)
        results["children"] = children
        if not parsed.only:
            children["night"] = run_child("night", games, work)
            children["roster"] = run_child("roster", players, work)
            results["startup"] = startup.measure(work / "startup", 1 if quick else 5,
                                                 idle_seconds=0.0, idle_reps=0,
                                                 long_actions=150)
        last = calibrate(first["steps"])
        results["calibration"] = {
            "steps": first["steps"], "cpu_s": (first["cpu_s"] + last["cpu_s"]) / 2,
            "per_5m_s": (first["per_5m_s"] + last["per_5m_s"]) / 2,
            "runs_s": [first["cpu_s"], last["cpu_s"]]}
    results["machine"] = machine()
    results["seconds"] = time.monotonic() - began
    text = report(results)
    print(text)
    if parsed.json:
        parsed.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
