"""The journal's writer thread (`companion/writer.py`, `Session.writer`): an action is
written and synced on the writer's thread, and reaches the session's stacks and its
observers (the screen, the LEDs, the buzzer) only once it is durable. A failed commit
(a full disk, a card gone read-only, another program's lock) leaves the action as if
never done, in memory as in the journal. No commit runs a WAL checkpoint; checkpoints
run on a thread of their own and keep the WAL bounded.

The failure tests also run under the slow-card rig (`bench/slow_card.py`: every sync
of the journal's folder delayed 20 ms), in a child process that preloads its shim."""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.games.evil import RULES
from companion.games.evil import commands as c
from companion.journal import FILE_NAME, Journal, JournalError
from companion.messages import RuleError
from companion.session import Session, Update
from companion.writer import Writer, WriterFull
from tests.helpers.evil import digest, setup, start
from tests.helpers.writer import (
    SyncGate,
    committed_actions,
    committed_games,
    pytest_under_the_rig,
)


def _wal_frames(path: Path) -> int:
    """Frames in the WAL not yet checkpointed, as a passive checkpoint would find them
    (read without checkpointing: from the WAL file's size)."""
    wal = path.with_name(path.name + "-wal")
    if not wal.exists() or wal.stat().st_size < 32:
        return 0
    page = sqlite3.connect(path).execute("PRAGMA page_size").fetchone()[0]
    return (wal.stat().st_size - 32) // (page + 24)


class Table:
    """A Pr. Evil game on a journal file, its session writing through a `Writer`."""

    def __init__(self, folder: Path, **writer: Any) -> None:
        self.path = folder / FILE_NAME
        self.journal = Journal(self.path)
        self.session = start(self.journal)
        self.writer = Writer(self.journal, **writer)
        self.session.writer = self.writer
        self.updates: list[Update] = []
        self.session.subscribe(self.updates.append)

    def close(self) -> None:
        self.writer.close()
        self.journal.close()

    def on_writer(self, sql: str) -> None:
        """Run a statement on the writer's own connection (as the next job)."""
        ticket = self.writer.submit(lambda journal: journal._db.execute(sql))
        ticket.wait()
        assert ticket.error is None

    def resumed(self) -> str:
        journal = Journal(self.path, read_only=True)
        try:
            return digest(Session.resume(RULES, journal, self.session.game_id))
        finally:
            journal.close()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    made = Table(tmp_path)
    yield made
    made.close()


def test_an_action_is_on_the_stacks_and_told_only_once_durable(table: Table) -> None:
    gate = threading.Event()
    table.writer.submit(lambda _journal: gate.wait(10))  # the card is still syncing
    before = table.session.state
    table.session.dispatch(c.MoveTime(1))
    # in flight: the screen is told nothing, the stacks and the file are as before
    assert table.session.in_flight and not table.session.committed
    assert table.updates == [] and table.session.state is before
    assert not table.session.can_undo() and committed_actions(table.path) == 0
    gate.set()
    table.session.settle()
    assert [u.verb for u in table.updates] == ["do"] and committed_actions(table.path) == 1
    assert table.session.state.time == before.time + 1 and table.session.can_undo()
    assert not table.session.in_flight


def test_an_action_says_when_only_its_sync_is_left(table: Table) -> None:
    """The UI thread draws an action while the card syncs it (`CompanionApp._draw_early`):
    the ticket says when the action's statements are written and its COMMIT has begun,
    before it is durable; the action reaches the stacks and the observers only once it
    is."""
    gate = SyncGate(table.writer)
    table.session.dispatch(c.MoveTime(1))
    assert table.session.wait_for_sync(10)
    assert gate.at_sync.is_set() and not table.session.committed
    assert committed_actions(table.path) == 0 and table.updates == []
    told = table.session.in_flight_update
    assert told is not None and (told.verb, told.command) == ("do", c.MoveTime(1))
    assert told.state.time == table.session.state.time + 1
    gate.release()
    table.session.settle()
    assert committed_actions(table.path) == 1 and table.updates == [told]
    assert table.session.in_flight_update is None
    assert not table.session.wait_for_sync(0)  # nothing with the writer


def test_a_job_that_fails_before_its_sync_ends_the_wait_for_the_sync(table: Table) -> None:
    def refused(_journal: Journal) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    ticket = table.writer.submit(refused)
    assert ticket.wait_syncing(10) and ticket.done
    assert isinstance(ticket.error, JournalError)


def test_a_sync_that_fails_leaves_the_action_undone(table: Table) -> None:
    gate = SyncGate(table.writer, fail=sqlite3.OperationalError("disk I/O error"))
    before = table.session.state
    table.session.dispatch(c.MoveTime(1))
    assert table.session.wait_for_sync(10) and not table.session.committed
    gate.release()
    with pytest.raises(JournalError):
        table.session.settle()
    assert table.session.state is before and table.updates == []
    assert committed_actions(table.path) == 0 and not table.session.can_undo()


# -- a new game: checked on the UI thread, its row written by the writer ----------------
def test_a_new_game_is_checked_here_and_its_row_written_by_the_writer(
        table: Table, tmp_path: Path) -> None:
    # a bad setup is refused before anything is given to the writer
    with pytest.raises(RuleError):
        Session.prepare(RULES, setup(players=1))
    assert table.writer.pending == 0 and len(committed_games(table.path)) == 1
    new = Session.prepare(RULES, setup(seed=5))
    held = threading.Event()
    table.writer.submit(lambda _journal: held.wait(10))  # the card is still syncing
    ids: list[int] = []
    ticket = table.writer.submit(lambda journal: ids.append(new.write(journal)))
    # given to the writer without waiting for it: nothing of the game is written yet
    assert not ticket.done and ids == [] and len(committed_games(table.path)) == 1
    held.set()
    assert ticket.wait(10) and ticket.error is None and len(committed_games(table.path)) == 2
    session = new.open(table.journal, ids[0])
    session.writer = table.writer
    # the same game as one started on this thread (`Session.start`), and as its replay
    twin_journal = Journal(tmp_path / "twin.sqlite3")
    try:
        twin = Session.start(RULES, twin_journal, setup(seed=5))
        for game in (session, twin):
            for command in (c.MoveTime(1), c.MoveTime(1)):
                game.dispatch(command)
                game.settle()
            game.undo()
            game.settle()
        assert digest(session) == digest(twin)
        assert table.journal.game(ids[0]).setup == twin_journal.game(twin.game_id).setup
    finally:
        twin_journal.close()
    assert digest(Session.resume(RULES, table.journal, ids[0])) == digest(session)


def test_a_new_game_s_row_the_writer_fails_to_write_leaves_no_game(table: Table) -> None:
    table.on_writer("PRAGMA query_only=1")  # the card gone read-only
    new = Session.prepare(RULES, setup(seed=5))
    ticket = table.writer.submit(new.write)
    assert ticket.wait(10) and isinstance(ticket.error, JournalError)
    assert len(committed_games(table.path)) == 1  # the table's own game only


def test_a_full_queue_refuses_the_next_job_and_says_so(tmp_path: Path) -> None:
    table = Table(tmp_path, capacity=3)
    try:
        gate = threading.Event()
        held = [table.writer.submit(lambda _journal: gate.wait(10)) for _ in range(2)]
        before = table.session.state
        table.session.dispatch(c.MoveTime(1))  # the third: taken
        with pytest.raises(WriterFull) as refused:
            table.writer.submit(lambda _journal: None)
        assert refused.value.message.key == "core.error.writer_full"
        assert refused.value.message.params == {"n": 3}
        assert table.writer.pending == 3
        gate.set()
        table.session.settle()
        assert all(ticket.done and ticket.error is None for ticket in held)
        # the action taken is there, once; the queue takes jobs again
        assert committed_actions(table.path) == 1 and table.session.state.time == before.time + 1
        assert table.writer.pending == 0
        table.session.dispatch(c.MoveTime(1))
        table.session.settle()
        assert committed_actions(table.path) == 2
    finally:
        table.close()


def test_an_action_a_full_queue_refuses_is_not_done(tmp_path: Path) -> None:
    table = Table(tmp_path, capacity=1)
    try:
        gate = threading.Event()
        held = table.writer.submit(lambda _journal: gate.wait(10))
        before = table.session.state
        with pytest.raises(WriterFull):
            table.session.dispatch(c.MoveTime(1))
        assert not table.session.in_flight and table.updates == []
        gate.set()
        held.wait()
        table.session.dispatch(c.MoveTime(1))  # the counters did not move: seq 0 again
        table.session.settle()
        assert table.session.state.time == before.time + 1
        assert committed_actions(table.path) == 1
        assert table.resumed() == digest(table.session)
    finally:
        table.close()


def test_undo_and_redo_take_the_same_path(table: Table) -> None:
    for _ in range(2):
        table.session.dispatch(c.MoveTime(1))
    table.session.undo()
    table.session.redo()
    table.session.undo()
    table.session.settle()
    assert [u.verb for u in table.updates] == ["do", "do", "undo", "redo", "undo"]
    assert table.session.state.time == 1 and table.session.can_redo()
    assert table.resumed() == digest(table.session)


# -- failures: the action is as if never done ----------------------------------------------
def _fails_then_recovers(table: Table, cause: str, undo_cause: str | None) -> None:
    """The table's next action fails for `cause` (a statement on the writer's
    connection); nothing of it is shown or kept, and once the cause is gone the next
    action is written where it belongs."""
    table.session.dispatch(c.MoveTime(1))
    table.session.settle()
    shown, told, kept = digest(table.session), len(table.updates), committed_actions(table.path)
    table.on_writer(cause)
    table.session.dispatch(c.MoveTime(1))
    with pytest.raises(JournalError) as failure:
        table.session.settle()
    assert failure.value.message.key == "core.error.journal_write"
    assert failure.value.message.params["path"] == str(table.path)
    assert digest(table.session) == shown and len(table.updates) == told
    assert committed_actions(table.path) == kept and table.resumed() == shown
    if undo_cause is not None:
        table.on_writer(undo_cause)
    table.session.dispatch(c.MoveTime(-1))
    table.session.settle()
    assert table.session.state.time == 0 and committed_actions(table.path) == kept + 1
    assert table.resumed() == digest(table.session)


def test_failure_a_card_gone_read_only(table: Table) -> None:
    _fails_then_recovers(table, "PRAGMA query_only=1", "PRAGMA query_only=0")


def test_failure_another_program_holds_the_lock(table: Table) -> None:
    other = sqlite3.connect(table.path, isolation_level=None)
    table.on_writer("PRAGMA busy_timeout=50")
    try:
        other.execute("BEGIN IMMEDIATE")
        table.session.dispatch(c.MoveTime(1))
        with pytest.raises(JournalError) as failure:
            table.session.settle()
        assert "locked" in failure.value.message.params["reason"]
        assert table.session.state.time == 0 and table.updates == []
    finally:
        other.execute("ROLLBACK")
        other.close()
    _fails_then_recovers(table, "PRAGMA query_only=1", "PRAGMA query_only=0")


def test_failure_a_full_disk(table: Table) -> None:
    table.session.snapshot_every = 1  # a snapshot with every action: the file grows
    table.session.dispatch(c.MoveTime(1))
    table.session.settle()
    pages = sqlite3.connect(table.path).execute("PRAGMA page_count").fetchone()[0]
    table.on_writer(f"PRAGMA max_page_count={pages}")  # the card is full
    for _ in range(200):
        shown, told, kept = digest(table.session), len(table.updates), committed_actions(table.path)
        table.session.dispatch(c.MoveTime(-1 if table.session.state.time else 1))
        try:
            table.session.settle()
        except JournalError as exc:
            assert "full" in exc.message.params["reason"]
            break
    else:
        pytest.fail("the disk never filled")
    assert digest(table.session) == shown and len(table.updates) == told
    assert committed_actions(table.path) == kept and table.resumed() == shown
    table.on_writer("PRAGMA max_page_count=1073741823")  # room again
    table.session.dispatch(c.MoveTime(-1 if table.session.state.time else 1))
    table.session.settle()
    assert committed_actions(table.path) == kept + 1 and table.resumed() == digest(table.session)


def test_the_failure_path_under_the_slow_card_rig(tmp_path: Path) -> None:
    from bench.slow_card import SlowCard

    out, log = pytest_under_the_rig("fixed:20", tmp_path, str(Path(__file__)),
                                    "failure and not under_the_slow_card_rig")
    assert "3 passed" in out  # read-only, a lock, a full disk
    syncs = SlowCard.delays(log)
    journals = [s for s in syncs if s[3].endswith(f"{FILE_NAME}-wal")]
    assert len(journals) >= 20 and all(s[1] == 20.0 for s in journals)


# -- checkpoints: never inside an action, the WAL bounded -----------------------------------
def test_no_commit_runs_a_checkpoint(tmp_path: Path) -> None:
    table = Table(tmp_path, quiet=3600, bound=10**6)
    # many pages a commit, past SQLite's 1000 quickly: a snapshot due with every action
    # (at a table that never pauses, taken at once every other one)
    table.session.snapshot_every = 1
    try:
        for n in range(250):
            table.session.dispatch(c.MoveTime(-1 if n % 2 else 1))
        table.session.settle()
        # SQLite's automatic checkpoint would have run at 1000 frames
        assert _wal_frames(table.path) > 1000 and table.writer.checkpoints == []
    finally:
        table.close()


def _wait(condition: Any, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "never happened"
        time.sleep(0.01)


def test_a_quiet_table_is_checkpointed(tmp_path: Path) -> None:
    table = Table(tmp_path, quiet=0.05, bound=10**6)
    try:
        for n in range(5):
            table.session.dispatch(c.MoveTime(-1 if n % 2 else 1))
        table.session.settle()
        _wait(lambda: table.writer.checkpoints)
        frames, moved = table.writer.checkpoints[-1]
        assert frames > 0 and moved == frames
    finally:
        table.close()


def _wal_restarts(path: Path) -> int:
    """The WAL header's checkpoint sequence: SQLite adds one each time the WAL is
    started again from its beginning (and its header written and synced)."""
    wal = path.with_name(path.name + "-wal")
    return int.from_bytes(wal.read_bytes()[12:16], "big")


def test_the_action_after_a_quiet_checkpoint_does_not_restart_the_wal(
        tmp_path: Path) -> None:
    table = Table(tmp_path, quiet=3600, bound=10**6)  # checkpoints only when asked
    try:
        for round_ in range(3):
            table.session.dispatch(c.MoveTime(1))
            table.session.settle()
            table.writer.checkpoint()  # (a game left, or the table quiet)
            # checkpointed, and the WAL started again on the checkpoint thread
            _wait(lambda r=round_: table.writer.restarts == r + 1)
            restarts = _wal_restarts(table.path)
            table.session.dispatch(c.MoveTime(-1))
            table.session.settle()
            # the action wrote after the restart: one sync, not the header's too
            assert _wal_restarts(table.path) == restarts
        assert committed_actions(table.path) == 6
        assert table.resumed() == digest(table.session)
    finally:
        table.close()


def test_the_wal_stays_bounded_at_a_table_that_never_pauses(tmp_path: Path) -> None:
    table = Table(tmp_path, quiet=3600, bound=40, limit=600)
    table.session.snapshot_every = 1
    try:
        largest = 0
        for n in range(600):
            table.session.dispatch(c.MoveTime(-1 if n % 2 else 1))
            table.session.settle()
            # each checkpoint asked for is taken up before the next action (the commits
            # go on while it copies): how many run does not depend on this machine's
            # speed (a slow one took up fewer, each asked for while one ran)
            _wait(lambda: not table.writer.checkpoint_waiting)
            largest = max(largest, _wal_frames(table.path))
        _wait(lambda: len(table.writer.checkpoints) >= 600 // 40)
        # passive checkpoints every 40 commits, and a truncation should commits
        # without a pause keep the WAL from starting again: never far past the limit
        assert largest < 600 + 40 * 12, largest
        assert all(moved <= frames for frames, moved in table.writer.checkpoints)
    finally:
        table.close()


def test_closing_checkpoints_everything(tmp_path: Path) -> None:
    table = Table(tmp_path, quiet=3600, bound=10**6)
    for n in range(20):
        table.session.dispatch(c.MoveTime(-1 if n % 2 else 1))
    table.session.settle()
    table.writer.close()
    assert table.writer.checkpoints and _wal_frames(table.path) == 0
    table.journal.close()
    assert not os.path.exists(str(table.path) + "-wal") or _wal_frames(table.path) == 0
    journal = Journal(table.path)
    assert len(journal.entries(table.session.game_id)) == 20
    journal.close()
