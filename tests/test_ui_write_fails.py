"""Issue 44: a write that fails never takes the app down. The real app under Xvfb, its
journal's writes failing with EROFS (the kernel's answer once it remounted a failing
card read-only) and ENOSPC (a full card), injected by strace at the writer thread's
system calls (`tests/helpers/faults.py` says why not a remount or a full tmpfs): the
app stays up with one clear message, the screen shows what is on the card, and the
write is tried again when it is next due or when the table asks, never from inside its
own failure. Time on the clock is a fake monotonic clock the test moves."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest

from tests.helpers.faults import failing_writes, on_writer, writer_threads
from tests.helpers.writer import committed_actions
from tests.test_ui_clock import FakeClock, journaled, set_up
from tests.uidriver import Driver
from ui.screens.clock.figures import clock_text

pytestmark = pytest.mark.ui

ERRORS = ["EROFS", "ENOSPC"]
NOT_SAVED = "Not saved: the card cannot be written"


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeClock]:
    from kivy.app import App

    from ui.screens.clock import moment

    clock = FakeClock()
    monkeypatch.setattr(moment, "source", clock)
    yield clock
    app = App.get_running_app()  # (as tests/test_ui_clock.py's: no look left running)
    screen = app.root.built("clock_play") if app is not None and app.root else None
    if screen is not None:
        screen._stop_looking()


def card_fails(ui: Driver, error: str) -> Any:
    """The card's writes fail with `error` while inside (the writer's threads)."""
    writer = ui.app.writer
    return failing_writes(writer_threads(writer), error, on_writer(writer))


class Depth:
    """How deep `look` and `send` nest: a failure path that re-enters the action that
    failed nests them without end (issue 44: 109 times, then `RecursionError`). Drawn
    again after its failure, the clock is looked at once more inside the look that
    sent it (two looks deep), and that look sends nothing (one send deep)."""

    def __init__(self, screen: Any, app: Any) -> None:
        self.now = {"look": 0, "send": 0, "send_beside": 0}
        self.most = dict(self.now)
        self.frames: list[int] = []
        for owner, name in ((screen, "look"), (app, "send"), (app, "send_beside")):
            setattr(owner, name, self._counted(name, getattr(owner, name)))

    def _counted(self, name: str, call: Any) -> Any:
        def counted(*args: Any, **kwargs: Any) -> Any:
            self.now[name] += 1
            self.most[name] = max(self.most[name], self.now[name])
            self.frames.append(_stack_depth())
            try:
                return call(*args, **kwargs)
            finally:
                self.now[name] -= 1

        return counted

    def bounded(self) -> bool:
        """No send inside a send, one look at most inside a look, and the stack far
        from Python's recursion limit (pytest and a touch's dispatch: some 100 frames)."""
        return self.most["look"] <= 2 and self.most["send"] + self.most["send_beside"] == 1 \
            and max(self.frames) < 200


def _stack_depth() -> int:
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    return depth


def later(ui: Driver, fake: FakeClock, ms: int) -> None:
    """Time passes: the screen looks at the clock (as its interval would)."""
    fake.ms += ms
    ui.app.root.get_screen("clock_play").look()
    ui.settle()
    ui.pump(2)


@pytest.mark.parametrize("error", ERRORS)
def test_a_running_clock_whose_checkpoints_fail_keeps_counting_and_says_not_saved(
        launch: Any, fake: FakeClock, error: str) -> None:
    """The issue's case: `chess-5m-3s` (a checkpoint every 10 s) running when the card
    fails. Ten checkpoints come due: each is tried once, when due, never from inside its
    own failure (the call depth stays that of one look); the clock keeps counting on
    screen with "not saved" said, no dialog over the turn area; once the card can be
    written again the next checkpoint is saved and the line goes."""
    ui = launch()
    set_up(ui, "chess-5m-3s", 2)
    ui.tap("clocksetup.start")
    app = ui.app
    screen = app.root.get_screen("clock_play")
    path = app.journal.path
    saved = committed_actions(path)
    depth = Depth(screen, app)
    tried: list[int] = []
    submit = app.writer.submit
    with card_fails(ui, error):
        app.writer.submit = lambda job, derived=None: (tried.append(fake.ms),
                                                       submit(job, derived))[1]
        for n in range(1, 11):
            later(ui, fake, 9_750)  # a look before it is due: nothing tried
            assert len(tried) == n - 1
            later(ui, fake, 250)
            assert len(tried) == n  # one try each time it is due, none in between
            assert ui.dialog is None  # the turn area stays within reach
            assert ui.text("play.info") == NOT_SAVED
            # counting on, from the Start on the card
            assert ui.text("play.time") == clock_text(300_000 - n * 10_000)
        app.writer.submit = submit
    assert depth.bounded(), (depth.most, min(depth.frames), max(depth.frames))
    assert committed_actions(path) == saved
    assert journaled(ui) == ["Start"]  # the screen: what is on the card
    later(ui, fake, 10_000)  # the card can be written: saved when next due
    assert journaled(ui) == ["Start", "Checkpoint"]
    assert committed_actions(path) == saved + 1
    assert ui.text("play.info") != NOT_SAVED and ui.dialog is None


@pytest.mark.parametrize("error", ERRORS)
def test_a_zero_that_cannot_be_saved_is_tried_again_when_due_not_from_its_failure(
        launch: Any, fake: FakeClock, error: str) -> None:
    ui = launch()
    set_up(ui, "chess-5m-3s", 2)
    ui.tap("clocksetup.start")
    app = ui.app
    screen = app.root.get_screen("clock_play")
    depth = Depth(screen, app)
    with card_fails(ui, error):
        later(ui, fake, 300_500)  # the bank ran out: the zero (and a checkpoint) due
        assert ui.dialog is None and ui.text("play.info") == NOT_SAVED
        assert "Zero" not in journaled(ui)
        later(ui, fake, 1_000)  # not due again yet: nothing tried, still said
        assert ui.text("play.info") == NOT_SAVED
    assert depth.bounded(), (depth.most, min(depth.frames), max(depth.frames))
    later(ui, fake, 10_000)
    assert "Zero" in journaled(ui)
    assert ui.text("play.info") != NOT_SAVED


@pytest.mark.parametrize("error", ERRORS)
def test_a_switch_that_cannot_be_saved_is_refused_with_one_message(
        launch: Any, fake: FakeClock, error: str) -> None:
    """The table's own tap: refused with the reason (a dialog, as any action that
    cannot be saved), the turn stays where the card has it; tapped again once the card
    can be written, it switches."""
    ui = launch()
    set_up(ui, "chess-5m-3s", 2)
    ui.tap("clocksetup.start")
    app = ui.app
    depth = Depth(app.root.get_screen("clock_play"), app)
    name = ui.text("play.name")
    later(ui, fake, 4_000)
    with card_fails(ui, error):
        ui.tap("play.area")
        assert ui.dialog == "error"
        assert "Could not save" in ui.text("error.text")
        assert ui.text("play.name") == name and journaled(ui) == ["Start"]
        ui.tap("error.ok")
        assert ui.dialog is None
    assert depth.bounded(), (depth.most, min(depth.frames), max(depth.frames))
    ui.tap("play.area")
    assert journaled(ui) == ["Start", "Switch"] and ui.text("play.name") != name


# -- the table's own writes: each refused with one message, then saved once it can be ----
def _rows(path: Any, table: str) -> int:
    import sqlite3

    db = sqlite3.connect(path)
    try:
        return int(db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
    finally:
        db.close()


@pytest.mark.usefixtures("instant_release")
@pytest.mark.parametrize("slow", [False, True], ids=["fast-card", "slow-card"])
@pytest.mark.parametrize("error", ERRORS)
def test_a_score_pad_entry_that_cannot_be_saved_is_refused_then_saved(
        launch: Any, monkeypatch: pytest.MonkeyPatch, error: str, slow: bool) -> None:
    """Refused with one message, nothing of it shown, what was typed kept on its cell
    for Enter again. `slow`: the card takes its time to sync, so the entry is drawn
    while it syncs (`draw_early`) and taken back when the sync fails."""
    from tests.helpers.writer import SyncGate
    from tests.test_ui_pad_rounds import cell, key

    ui = launch()
    ui.tap("home.game.pad")
    ui.tap("setup.start")
    app = ui.app
    path = app.journal.path
    saved = committed_actions(path)
    with card_fails(ui, error):
        key(ui, "7")
        if slow:
            from ui import app as app_module

            drawn: list[str] = []
            draw = app.root.get_screen("pad_play").draw_early
            monkeypatch.setattr(app.root.get_screen("pad_play"), "draw_early",
                                lambda update: (draw(update),
                                                drawn.append(ui.text("sheet.total.0"))))
            # the tap waits (traced, the writer is slower) until only the sync is left
            monkeypatch.setattr(app_module, "COMMIT_GRACE", 30.0)
            gate = SyncGate(app.writer)
            ui.tap("keypad.enter", settle=False)
            assert drawn == ["7"]  # drawn while the card syncs
            gate.open()  # the sync goes on, and fails
            ui.settle()
        else:
            ui.tap("keypad.enter")
        ui.pump(2)
        assert ui.dialog == "error" and "Could not save" in ui.text("error.text")
        assert ui.text(cell(ui, "1", 0)) == "" and committed_actions(path) == saved
        ui.tap("error.ok")
    assert ui.dialog is None
    assert ui.text("keypad.typed") == "7"  # what was typed is kept: Enter again
    assert ui.text("keypad.who").startswith("Player 1")
    ui.tap("keypad.enter")
    assert ui.dialog is None and ui.text(cell(ui, "1", 0)) == "7"
    assert committed_actions(path) == saved + 1


@pytest.mark.parametrize("error", ERRORS)
def test_a_roll_and_its_snapshot_that_cannot_be_saved_are_refused_then_saved(
        launch: Any, error: str) -> None:
    """ROLL on Pr. Evil, a snapshot due with every action (`snapshot_every: 1`): a roll
    that cannot be saved leaves no snapshot of it; saved, its snapshot follows, taken by
    the writer once the table is quiet, in a commit of its own."""
    import time

    from tests.test_ui_evil import new_game

    ui = launch(seed=3, snapshot_every=1)
    new_game(ui, minutes=55)
    app = ui.app
    path = app.journal.path
    app.writer.flush()  # the set-up's snapshot written now, not while the card fails
    app.writer.submit(lambda journal: None).wait(30)
    actions, snapshots = committed_actions(path), _rows(path, "snapshots")
    with card_fails(ui, error):
        ui.tap("play.roll")
        assert ui.dialog == "error" and "Could not save" in ui.text("error.text")
        assert ui.text("play.turn").startswith("Turn 1")
        assert (committed_actions(path), _rows(path, "snapshots")) == (actions, snapshots)
        ui.tap("error.ok")
    ui.tap("play.roll")
    assert ui.text("play.turn").startswith("Turn 2")
    assert committed_actions(path) == actions + 1
    end = time.monotonic() + 30
    while _rows(path, "snapshots") != snapshots + 1:  # the table quiet: the writer's
        assert time.monotonic() < end, "no snapshot of the saved roll"
        time.sleep(0.05)


@pytest.mark.parametrize("error", ERRORS)
def test_a_setting_that_cannot_be_saved_is_refused_and_the_file_kept(
        launch: Any, error: str) -> None:
    from companion.settings import path_for

    ui = launch()
    app = ui.app
    ui.tap("home.settings")
    before = ui.text("settings.sound")
    file = path_for(app.settings)
    file.unlink(missing_ok=True)  # (this test process's own throw-away data folder)
    kept = None
    with card_fails(ui, error):
        ui.tap("settings.sound")
        assert ui.dialog == "error" and str(file) in ui.text("error.text")
        assert ui.text("settings.sound") == before
        assert (file.read_bytes() if file.exists() else None) == kept
        ui.tap("error.ok")
    ui.tap("settings.sound")
    assert ui.dialog is None and ui.text("settings.sound") != before
    assert "mute: true" in file.read_text()


@pytest.mark.parametrize("error", ERRORS)
def test_a_backup_that_cannot_be_written_is_said_and_leaves_no_file(
        launch: Any, monkeypatch: pytest.MonkeyPatch, error: str) -> None:
    """The backup's worker thread is the one whose writes fail (its copy of the
    journal, the zip, the sync)."""
    from pathlib import Path

    from companion.night import backup
    from tests.helpers.faults import on_this_thread

    ui = launch()
    folder = Path(ui.app.journal.path).parent
    before = sorted(p.name for p in folder.iterdir())
    create = backup.create
    monkeypatch.setattr(backup, "create", on_this_thread(error)(create))
    ui.tap("home.export")
    ui.tap("export.backup")
    assert ui.dialog == "error", ui.text("export.status")
    assert ui.text("error.text").startswith("Could not write ")
    assert "backup" in ui.text("error.text")
    ui.tap("error.ok")
    assert sorted(p.name for p in folder.iterdir()) == before
    monkeypatch.setattr(backup, "create", create)
    ui.tap("export.backup")
    assert ui.dialog is None
    assert len(list(folder.glob("*-backup-*.zip"))) == 1


@pytest.mark.parametrize("error", ERRORS)
def test_a_clock_beside_the_score_pad_whose_checkpoints_fail_says_it_once(
        launch: Any, fake: FakeClock, error: str) -> None:
    """Held beside the sheet (its turn area not seen), the clock's failed checkpoint is
    said once in a dialog; the next ones due are tried once each, and say nothing more
    until one is saved."""
    ui = launch()
    ui.tap("home.game.pad")
    ui.tap("setup.start")
    ui.tap("play.home")
    ui.tap("home.game.clock")
    ui.tap("clocksetup.beside")
    ui.tap("clocksetup.start")
    ui.tap("play.sheet")
    app = ui.app
    assert ui.screen == "pad_play" and app.beside is not None
    screen = app.root.get_screen("clock_play")
    depth = Depth(screen, app)
    opened: list[str] = []
    open_dialog = app.open_dialog
    app.open_dialog = lambda dialog: (opened.append(dialog.tid), open_dialog(dialog))[1]
    with card_fails(ui, error):
        for _ in range(3):
            later(ui, fake, 10_000)
            assert app.beside is not None and ui.screen == "pad_play"
        assert opened == ["error"] and "Could not save" in ui.text("error.text")
        ui.tap("error.ok")
    assert depth.bounded(), (depth.most, min(depth.frames), max(depth.frames))
    assert journaled_beside(app) == ["Start"]
    later(ui, fake, 10_000)
    assert journaled_beside(app) == ["Start", "Checkpoint"] and opened == ["error"]


def journaled_beside(app: Any) -> list[str]:
    return [type(s.command).__name__ for s in app.beside.steps]
