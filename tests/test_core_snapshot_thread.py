"""No snapshot is encoded on the UI thread (issue 48): a snapshot is derived data, taken
by the journal's writer thread from the state the session hands it (an immutable value),
when the table is quiet, when a game is left, and at close, each in a transaction of its
own after the action it follows has committed."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

import companion.session as session_module
import companion.snapshot as snapshot_module
from companion.games.evil import RULES
from companion.games.evil import commands as c
from companion.journal import FILE_NAME, Journal, JournalError
from companion.session import Session, replay
from companion.writer import Writer
from tests.helpers.evil import start


def _record_encoding(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The name of the thread each snapshot is encoded on."""
    threads: list[str] = []
    encode = snapshot_module.encode

    def recording(state: Any) -> str:
        threads.append(threading.current_thread().name)
        return encode(state)

    monkeypatch.setattr(snapshot_module, "encode", recording)
    monkeypatch.setattr(session_module, "snapshot_encode", recording, raising=False)
    return threads


def _play(session: Session, actions: int) -> None:
    for n in range(actions):
        session.dispatch(c.MoveTime(-1 if n % 2 else 1))
        session.settle()


def _snapshot_seqs(path: Path, game_id: int) -> list[int]:
    journal = Journal(path, read_only=True)
    try:
        return [seq for (seq,) in journal.read(
            "SELECT seq FROM snapshots WHERE game_id = ? ORDER BY seq", (game_id,))]
    finally:
        journal.close()


@pytest.mark.parametrize("quiet", [0.0, 3600.0])
def test_the_ui_thread_never_encodes_a_snapshot(tmp_path: Path, monkeypatch,
                                                 quiet: float) -> None:
    threads = _record_encoding(monkeypatch)
    path = tmp_path / FILE_NAME
    journal = Journal(path)
    session = start(journal)
    session.snapshot_every = 3
    writer = Writer(journal, quiet=quiet)
    session.writer = writer
    _play(session, 20)
    writer.close()
    assert threads, "no snapshot was taken"
    assert set(threads) == {"journal-writer"}, threads
    seqs = _snapshot_seqs(path, session.game_id)
    assert seqs and seqs[-1] == 20  # the newest, taken at close
    resumed = Session.resume(RULES, journal, session.game_id)
    full = replay(RULES, session.setup, journal.entries(session.game_id))
    assert resumed.state == full.state == session.state
    assert resumed._snapshot_seq == 20
    journal.close()


def _table(tmp_path: Path, every: int, **writer: Any) -> tuple[Journal, Session, Writer]:
    journal = Journal(tmp_path / FILE_NAME)
    session = start(journal)
    session.snapshot_every = every
    session.writer = Writer(journal, **writer)
    return journal, session, session.writer


def _wait(condition: Any, timeout: float = 20.0) -> None:
    import time

    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "never happened"
        time.sleep(0.01)


def test_a_due_snapshot_is_taken_once_the_table_is_quiet(tmp_path: Path) -> None:
    journal, session, writer = _table(tmp_path, 5, quiet=0.0)
    _play(session, 4)
    _play(session, 1)  # the fifth: due, taken as soon as no job waits
    _wait(lambda: _snapshot_seqs(journal.path, session.game_id) == [5])
    writer.close()
    journal.close()


def test_a_table_that_never_pauses_gets_its_snapshot_a_tenth_of_a_stride_late(
        tmp_path: Path) -> None:
    journal, session, writer = _table(tmp_path, 20, quiet=3600.0)
    _play(session, 21)
    # due at 20 and kept for a quiet moment that never comes; two actions (a tenth of
    # the stride) later it is taken at once, as of the newest state, after that action
    assert _snapshot_seqs(journal.path, session.game_id) == []
    _play(session, 1)
    _wait(lambda: _snapshot_seqs(journal.path, session.game_id) == [22])
    _play(session, 19)  # the stride counts from where one was due: the next at 40
    assert _snapshot_seqs(journal.path, session.game_id) == [22]
    _play(session, 1)
    _wait(lambda: _snapshot_seqs(journal.path, session.game_id) == [22, 42])
    writer.close()
    journal.close()


def test_a_game_left_gets_its_snapshot_due_or_not(tmp_path: Path) -> None:
    journal, session, writer = _table(tmp_path, 100, quiet=3600.0)
    _play(session, 3)
    session.undo()
    session.settle()
    writer.flush()  # the game left: the snapshot after its last "do"
    _wait(lambda: _snapshot_seqs(journal.path, session.game_id) == [3])
    resumed = Session.resume(RULES, journal, session.game_id)
    assert resumed._snapshot_seq == 3 and resumed.state == session.state
    assert resumed.can_redo()
    writer.close()
    journal.close()


def test_an_action_that_fails_leaves_no_snapshot_of_it(tmp_path: Path) -> None:
    journal, session, writer = _table(tmp_path, 1, quiet=3600.0)
    _play(session, 2)
    ticket = writer.submit(lambda j: j._db.execute("PRAGMA query_only=1"))
    ticket.wait()
    session.dispatch(c.MoveTime(1))
    with pytest.raises(JournalError):
        session.settle()
    writer.submit(lambda j: j._db.execute("PRAGMA query_only=0")).wait()
    writer.close()
    # the snapshot kept is the one after the second action, not the failed third
    assert _snapshot_seqs(journal.path, session.game_id) == [2]
    journal.close()
