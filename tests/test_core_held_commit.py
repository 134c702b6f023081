"""An action's commit held open for its frame (`Session.hold_commits`): the app writes
the action, lays out and draws the frame that shows it, and commits just before that
frame is swapped to the screen (`Session.settle`). Nothing is shown before it is
durable, and a commit that fails takes the action back: the session is as before it,
in memory as in the journal."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games import rules_for
from companion.games.evil import commands as c
from companion.journal import FILE_NAME, Journal, JournalError
from companion.session import Session, Update
from tests.helpers import tables
from tests.helpers.evil import history_of, setup, start
from tests.helpers.writer import committed_actions


class FailingCommits:
    """The journal's connection, except that COMMIT (or the statement `fails`) fails
    while `fail` is set (a full disk, an I/O error)."""

    def __init__(self, real: sqlite3.Connection) -> None:
        self.real = real
        self.fail = False
        self.fails = "COMMIT"
        self.statements: list[str] = []  # every statement run, in order

    def execute(self, sql: str, *args: Any) -> Any:
        self.statements.append(sql.split()[0])
        if sql.split()[0] == self.fails and self.fail:
            raise sqlite3.OperationalError("database or disk is full")
        return self.real.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


def _holding(journal: Journal, session: Session | None = None
             ) -> tuple[Session, FailingCommits, list[Update]]:
    """`session` (a new Pr. Evil game by default) holding its commits, on a connection
    whose commits can be made to fail, and what its observers are told."""
    session = start(journal) if session is None else session
    session.hold_commits = True
    connection = FailingCommits(journal._db)
    journal._db = connection  # type: ignore[assignment]
    updates: list[Update] = []
    session.subscribe(updates.append)
    return session, connection, updates


def test_a_held_action_reaches_the_file_when_settled(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    journal = Journal(path)
    session, _, updates = _holding(journal)
    session.dispatch(c.MoveTime(1))
    assert [u.verb for u in updates] == ["do"]  # the screen is told (and draws) at once
    assert journal.holding and committed_actions(path) == 0  # not in the file yet
    session.settle()
    assert not journal.holding and committed_actions(path) == 1
    session.settle()  # nothing held: nothing to do
    assert committed_actions(path) == 1
    journal.close()


def test_the_action_is_written_when_settled_after_its_frame_is_drawn(
        tmp_path: Path) -> None:
    # the dispatch only computes; the write itself (its statements, its sync) comes at
    # the settle, while the frame that shows the action is rendered
    journal = Journal(tmp_path / FILE_NAME)
    session, connection, _ = _holding(journal)
    session.dispatch(c.MoveTime(1))
    assert connection.statements == [] and journal.holding
    session.settle()
    assert connection.statements == ["BEGIN", "INSERT", "UPDATE", "COMMIT"]
    journal.close()


def test_a_read_before_the_settle_sees_the_held_action(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    journal = Journal(path)
    session, connection, _ = _holding(journal)
    session.dispatch(c.MoveTime(1))
    assert len(journal.entries(1)) == 1  # written for the read, in its open transaction
    assert journal.holding and committed_actions(path) == 0  # and not committed before the settle
    session.settle()
    assert committed_actions(path) == 1 and connection.statements.count("INSERT") == 1
    journal.close()


def test_a_write_failing_for_a_read_is_the_held_action_s_failure(tmp_path: Path) -> None:
    journal = Journal(tmp_path / FILE_NAME)
    session, connection, updates = _holding(journal)
    session.dispatch(c.MoveTime(1))
    session.settle()
    before = session.state
    session.dispatch(c.MoveTime(1))
    connection.fails, connection.fail = "INSERT", True
    # a read writes the action first; the write fails, the read does not
    assert [g.id for g in journal.unfinished()] == [1]
    connection.fail = False
    with pytest.raises(JournalError) as caught:
        session.settle()  # the action's owner hears of it, and takes it back
    assert "disk is full" in caught.value.message.params["reason"]
    assert session.state == before and updates[-1].verb == "undo"
    assert len(journal.entries(1)) == 1 and not journal.holding
    journal.close()


def test_the_next_action_settles_the_one_held_before_it(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    journal = Journal(path)
    session, _, _ = _holding(journal)
    session.dispatch(c.MoveTime(1))
    session.dispatch(c.MoveTime(1))
    assert committed_actions(path) == 1
    session.undo()
    assert committed_actions(path) == 2
    journal.close()  # closing commits what is held
    assert committed_actions(path) == 3


@pytest.mark.parametrize("verb", ["do", "undo", "redo"])
def test_an_action_whose_commit_fails_is_taken_back(tmp_path: Path, verb: str) -> None:
    journal = Journal(tmp_path / FILE_NAME)
    session, connection, updates = _holding(journal)
    for _ in range(3):
        session.dispatch(c.MoveTime(1))
    session.undo()
    session.undo()  # two steps to redo: a "do" takes them, its take-back gives them back
    session.settle()
    before, stacks, entries = session.state, history_of(session), journal.entries(1)
    updates.clear()
    connection.fail = True
    {"do": lambda: session.dispatch(c.MoveTime(1)), "undo": session.undo,
     "redo": session.redo}[verb]()
    told = updates[0].state
    with pytest.raises(JournalError) as caught:
        session.settle()
    assert caught.value.message.key == "core.error.journal_write"
    assert "disk is full" in caught.value.message.params["reason"]
    assert session.state == before and history_of(session) == stacks
    assert told != before
    # the screen is told to show the state before it again, as the inverse action
    inverse = "redo" if verb == "undo" else "undo"
    assert [(u.verb, u.events, u.state) for u in updates[1:]] == [(inverse, (), before)]
    assert journal.entries(1) == entries and not journal.holding
    # and play goes on, written where it should be
    connection.fail = False
    session.redo()
    session.settle()
    resumed = Session.resume(session.rules, journal, 1)
    assert history_of(resumed) == history_of(session)
    journal.close()


def test_another_write_first_commits_the_held_action(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    journal = Journal(path)
    session, connection, _ = _holding(journal)
    session.dispatch(c.MoveTime(1))
    other = Session.start(session.rules, journal, setup())  # a new game: a write of its own
    assert committed_actions(path) == 1 and other.game_id == 2
    session.dispatch(c.MoveTime(1))
    connection.fail = True
    with pytest.raises(JournalError):
        journal.abandon(other.game_id)  # the held action's commit fails first
    # the session hears of it at its own settle, and takes its action back
    before = session.state
    with pytest.raises(JournalError):
        session.settle()
    assert session.state != before and len(journal.entries(1)) == 1
    connection.fail = False
    assert history_of(Session.resume(session.rules, journal, 1)) == history_of(session)
    journal.close()


@pytest.mark.parametrize("kind", ["evil", "castor", "bond"])
@given(failures=st.lists(st.booleans(), min_size=1, max_size=30))
def test_memory_and_journal_agree_whichever_commits_fail(kind: str,
                                                         failures: list[bool]) -> None:
    """The table plays (do, undo, redo), each action held then settled; the commits
    that fail are taken back. After each, the session in memory is the one a resume
    reads from the journal."""
    journal = Journal(":memory:")
    session, connection, _ = _holding(
        journal, Session.start(rules_for(kind), journal, tables.table_setup(kind)))
    played = 0
    for fail in failures:
        before = history_of(session)
        tables.act(session, tables.next_action(session, played))
        connection.fail = fail
        try:
            session.settle()
        except JournalError:
            assert fail and history_of(session) == before
        else:
            assert not fail
            played += 1
        connection.fail = False
        resumed = Session.resume(session.rules, journal, session.game_id)
        assert history_of(resumed) == history_of(session)
