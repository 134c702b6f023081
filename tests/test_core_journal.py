"""The journal: durable (synchronous=FULL) before anything is shown, corrupt files kept."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.evil import RULES
from companion.games.evil import commands as c
from companion.journal import FILE_NAME, Journal, JournalError, RowDamage, default_path, load_column
from companion.session import Session
from tests.helpers.evil import history_of, start


def play(session: Session, rolls: int) -> None:
    for _ in range(rolls):
        state = session.state
        if state.outcome is not None:
            return
        if state.pending_powers:
            session.dispatch(c.SkipPower())
        for colour in state.empty_colours:
            session.dispatch(c.PlaceTreasure(colour, 40))
        session.dispatch(c.Roll())


def a_real_journal(path: Path, games: int = 3, rolls: int = 40) -> None:
    journal = Journal(path)
    for seed in range(games):
        play(start(journal, seed=seed), rolls)
    journal.close()


def test_synchronous_full_and_wal_are_set(tmp_path):
    journal = Journal(tmp_path / FILE_NAME)
    assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert journal._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert journal.moved_aside is None


def test_default_path_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_path() == tmp_path / "table-companion" / FILE_NAME
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_path() == tmp_path / "home" / ".local" / "share" / "table-companion" / FILE_NAME


def test_missing_directories_are_created(tmp_path):
    path = tmp_path / "a" / "b" / FILE_NAME
    Journal(path).close()
    assert path.exists()


def test_observers_see_the_action_already_durable(tmp_path):
    path = tmp_path / FILE_NAME
    session = start(Journal(path))
    seen: list[tuple[str, int, str | None]] = []

    def observer(update):
        # a second connection, as another process would read the file after a power cut
        other = sqlite3.connect(path)
        try:
            row = other.execute(
                "SELECT count(*), max(seq), (SELECT verb FROM actions WHERE game_id = ?"
                " ORDER BY seq DESC LIMIT 1) FROM actions WHERE game_id = ?",
                (session.game_id, session.game_id)).fetchone()
        finally:
            other.close()
        seen.append((update.verb, row[0], row[2]))

    session.subscribe(observer)
    session.dispatch(c.Roll())
    session.undo()
    session.redo()
    assert seen == [("do", 1, "do"), ("undo", 2, "undo"), ("redo", 3, "redo")]


def test_a_refused_command_writes_nothing_and_shows_nothing(tmp_path):
    journal = Journal(tmp_path / FILE_NAME)
    session = start(journal)
    updates = []
    session.subscribe(updates.append)
    with pytest.raises(Exception) as caught:
        session.dispatch(c.PlaceTreasure("red", 12))
    assert caught.value.message.key == "evil.error.slot_taken"
    assert journal.entries(session.game_id) == [] and updates == []


def test_a_failed_write_leaves_the_session_unchanged(tmp_path):
    path = tmp_path / FILE_NAME
    journal = Journal(path)
    session = start(journal)
    session.dispatch(c.Roll())
    before, stacks = session.state, history_of(session)
    updates = []
    session.subscribe(updates.append)
    # another writer takes the next sequence number: the insert fails inside SQLite
    other = sqlite3.connect(path)
    other.execute("INSERT INTO actions(game_id, seq, verb, events, at) VALUES (?, 1, 'undo',"
                  " '[]', 0)", (session.game_id,))
    other.commit()
    other.close()
    for action in (lambda: session.dispatch(c.MoveTime(1)), session.undo):
        with pytest.raises(JournalError) as caught:
            action()
        assert caught.value.message.key == "core.error.journal_write"
        assert caught.value.message.params["path"] == str(path)
        assert session.state == before and history_of(session) == stacks
    assert updates == []
    # the journal is still usable (no transaction left open)
    assert len(journal.entries(session.game_id)) == 2
    journal.abandon(session.game_id)
    assert journal.unfinished() == []


def test_a_commit_that_fails_leaves_no_transaction_open(tmp_path):
    journal = Journal(tmp_path / FILE_NAME)
    session = start(journal)
    real = journal._db

    class FailingCommit:
        """The connection, except that COMMIT fails once (a full disk, an I/O error)."""

        failed = False

        def execute(self, sql, *args):
            if sql == "COMMIT" and not self.failed:
                self.failed = True
                raise sqlite3.OperationalError("disk I/O error")
            return real.execute(sql, *args)

        def __getattr__(self, name):
            return getattr(real, name)

    journal._db = FailingCommit()
    with pytest.raises(JournalError):
        session.dispatch(c.Roll())
    assert not real.in_transaction
    journal._db = real
    session.dispatch(c.Roll())  # the next action is written normally
    assert [entry.seq for entry in journal.entries(session.game_id)] == [0]


def _moved(tmp_path: Path) -> list[Path]:
    return sorted(p for p in tmp_path.iterdir() if ".unreadable-" in p.name)


@pytest.mark.parametrize("size", [1, 100, 4096, 50_000])
def test_random_bytes_are_moved_aside_byte_for_byte(tmp_path, size):
    path = tmp_path / FILE_NAME
    garbage = random.Random(size).randbytes(size)
    if garbage.startswith(b"SQLite format 3"):
        garbage = b"x" + garbage[1:]
    path.write_bytes(garbage)
    journal = Journal(path)
    assert journal.moved_aside is not None
    assert _moved(tmp_path) == [journal.moved_aside]
    assert journal.moved_aside.read_bytes() == garbage
    assert journal.games() == []
    start(journal).dispatch(c.Roll())  # a new journal is started and works
    assert len(journal.games()) == 1


@pytest.mark.parametrize("fraction", [0.25, 0.5, 0.9, "page"])
def test_a_truncated_journal_is_moved_aside_byte_for_byte(tmp_path, fraction):
    path = tmp_path / FILE_NAME
    a_real_journal(path)
    data = path.read_bytes()
    cut = len(data) - 4096 if fraction == "page" else int(len(data) * fraction)
    path.write_bytes(data[:cut])
    journal = Journal(path)
    assert journal.moved_aside is not None
    assert journal.moved_aside.read_bytes() == data[:cut]
    assert journal.games() == [] and journal.unfinished() == []


def test_two_unreadable_journals_are_both_kept(tmp_path):
    path = tmp_path / FILE_NAME
    kept = []
    for text in (b"first bad journal" * 10, b"second bad journal" * 10):
        for p in tmp_path.glob(FILE_NAME + "*"):
            if ".unreadable-" not in p.name:
                p.unlink()
        path.write_bytes(text)
        journal = Journal(path)
        journal.close()
        kept.append(journal.moved_aside)
    assert kept[0] != kept[1]
    assert [p.read_bytes() for p in kept] == [b"first bad journal" * 10,
                                             b"second bad journal" * 10]


@pytest.mark.parametrize("mode", ["wal", "delete"])
def test_a_journal_from_a_newer_app_is_left_byte_for_byte(tmp_path, mode):
    # issue 14, case 8: a downgrade must not split the history nor touch the file
    path = tmp_path / FILE_NAME
    a_real_journal(path, games=1, rolls=3)
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA journal_mode={mode}")
    db.execute("PRAGMA user_version=99")
    db.close()
    original = path.read_bytes()
    with pytest.raises(JournalError) as caught:
        Journal(path)
    assert caught.value.message.key == "core.error.journal_newer"
    assert caught.value.message.params["version"] == 99
    assert path.read_bytes() == original
    assert _moved(tmp_path) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == [FILE_NAME]  # nothing beside it
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == mode


def test_a_directory_that_cannot_be_created_names_the_path(tmp_path):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the data folder should be")
    with pytest.raises(JournalError) as caught:
        Journal(blocker / "data" / FILE_NAME)
    assert caught.value.message.key == "core.error.journal_dir"
    assert caught.value.message.params["path"] == str(blocker / "data")
    assert blocker.read_text() == "a file where the data folder should be"


def test_a_journal_path_that_cannot_be_opened_names_the_path(tmp_path):
    folder = tmp_path / "journal-is-a-folder"
    folder.mkdir()
    (folder / "keep").write_text("kept")
    with pytest.raises(JournalError) as caught:
        Journal(folder)
    assert caught.value.message.key == "core.error.journal_open"
    assert caught.value.message.params["path"] == str(folder)
    assert (folder / "keep").read_text() == "kept"


def test_unfinished_lists_games_to_resume_most_recent_first(tmp_path):
    journal = Journal(tmp_path / FILE_NAME)
    first, second, third = (start(journal, seed=s) for s in range(3))
    first.dispatch(c.Roll())
    assert [g.id for g in journal.unfinished()] == [first.game_id, third.game_id,
                                                    second.game_id]
    journal.abandon(third.game_id)
    while second.state.outcome is None:  # play the second game to its end
        state = second.state
        if state.pending_powers:
            second.dispatch(c.SkipPower())
        elif state.empty_colours:
            second.dispatch(c.PlaceTreasure(state.empty_colours[0], 5))
        else:
            second.dispatch(c.Recover("red"))
    assert journal.game(second.game_id).finished
    assert journal.game(second.game_id).summary["outcome"] == "won"
    assert [g.id for g in journal.unfinished()] == [first.game_id]
    second.undo()  # undoing the winning move makes it a game to resume again
    assert {g.id for g in journal.unfinished()} == {first.game_id, second.game_id}
    record = journal.unfinished()[0]
    assert record.kind == "evil" and record.summary["players"] == ["Ann", "Bob"]
    with pytest.raises(JournalError) as caught:
        journal.game(999)
    assert caught.value.message.key == "core.error.no_such_game"


def test_entries_are_plain_data(tmp_path):
    journal = Journal(tmp_path / FILE_NAME)
    session = start(journal, seed=3)
    session.dispatch(c.Roll())
    session.undo()
    entries = journal.entries(session.game_id)
    assert [e.verb for e in entries] == ["do", "undo"]
    assert entries[0].command == {"type": "Roll"}
    assert entries[0].events[0]["type"] == "DiceRolled"
    assert entries[1].command is None and entries[1].events == []


def test_resume_after_reopening_the_file(tmp_path):
    path = tmp_path / FILE_NAME
    journal = Journal(path)
    session = start(journal, seed=11, players=4)
    play(session, 15)
    session.undo()
    session.undo()
    session.redo()
    journal.close()
    again = Session.resume(RULES, Journal(path), session.game_id)
    assert again.state == session.state
    assert history_of(again) == history_of(session)
    again.dispatch(c.MoveTime(1) if not again.state.pending_powers else c.SkipPower())
    assert again.can_undo()


def test_entries_without_events_for_replay(tmp_path):
    journal = Journal(tmp_path / FILE_NAME)
    session = start(journal, seed=3)
    play(session, 4)
    full = journal.entries(session.game_id)
    bare = journal.entries(session.game_id, with_events=False)
    assert [(e.seq, e.verb, e.command) for e in bare] == [(e.seq, e.verb, e.command)
                                                          for e in full]
    assert all(e.events == [] for e in bare) and any(e.events for e in full)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                 max_size=3),
    max_leaves=8)
#: what may be found around or instead of a column's JSON: whitespace, a BOM, the end of
#: another value, a write cut short
_AROUND = st.sampled_from(["", "", " ", "\n\t", "\r\n ", "\ufeff", "x", ",1", "}", "]", "\""])


def _as_json_loads_reads_it(text: str) -> tuple[str, str]:
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as exc:
        return "damaged", f"c: not JSON ({str(exc)[:60]})"
    return "read", json.dumps(value)


@given(value=_JSON, before=_AROUND, after=_AROUND, cut=st.integers(0, 2),
       compact=st.booleans(), other=st.text(max_size=12))
def test_a_column_reads_as_json_loads_reads_it(value, before, after, cut, compact, other):
    """Columns as the journal writes them are decoded without json.loads' own checks
    (quicker: a resume reads two of them); anything else is read, or refused with the
    reason, exactly as json.loads reads it."""
    dumped = json.dumps(value, separators=(",", ":") if compact else None)
    for text in (before + dumped[:len(dumped) - cut] + after, other):
        try:
            got = "read", json.dumps(load_column("c", text, object))
        except RowDamage as damage:
            got = "damaged", str(damage)
        assert got == _as_json_loads_reads_it(text)
