"""The journal: every game and every action, in SQLite, durable before it is shown.

Each action (a command with its events, an undo, a redo) is one row committed with
`synchronous=FULL`, so a power cut loses at most the action that was being written,
never one that the table already saw.

Opening tells three cases apart, and only the last one moves anything:
- "cannot write now" (a full disk, a read-only card, another program holding a lock):
  the file stays where it is; the journal opens read-only (`read_only` says why) or
  `JournalError("core.error.journal_open")` says what to do;
- a journal written by a newer app (`core.error.journal_newer`): left byte for byte
  as it is (its version is read through a read-only connection, before any WAL switch);
- a file SQLite itself reports as corrupt or not a database: moved aside (kept, never
  overwritten; `moved_aside`) and a fresh journal is started.

A damaged row (not JSON, wrong types, invalid UTF-8) never stops a read: a game whose
row is damaged comes back with `damaged` set, and `entries` stops at a damaged action
(`readable_entries` gives what comes before it).
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.files import keep_aside
from companion.messages import CompanionError, Message, msg

log = logging.getLogger(__name__)

# 2: roster players, their link to games, cached game facts
# 3: snapshots of a game's state every so many actions (resume replays only the tail)
SCHEMA_VERSION = 3
APP_DIR = "table-companion"
FILE_NAME = "journal.sqlite3"

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    setup TEXT NOT NULL,
    started REAL NOT NULL,
    updated REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    abandoned INTEGER NOT NULL DEFAULT 0,
    summary TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    verb TEXT NOT NULL CHECK (verb IN ('do', 'undo', 'redo')),
    command TEXT,
    events TEXT NOT NULL DEFAULT '[]',
    at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE INDEX IF NOT EXISTS games_by_state ON games(finished, abandoned, updated);
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    folded TEXT NOT NULL UNIQUE,
    colour TEXT NOT NULL DEFAULT '',
    retired INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS game_players (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX IF NOT EXISTS game_players_by_player ON game_players(player_id, game_id);
CREATE TABLE IF NOT EXISTS game_facts (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    stamp TEXT NOT NULL,
    facts TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS snapshots (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    done INTEGER NOT NULL,
    version TEXT NOT NULL,
    state TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


class JournalError(CompanionError):
    """The journal cannot be read or written; the message names the file."""


class DamagedRow(JournalError):
    """A row of `games` or `actions` that cannot be read (the rest of the journal can)."""


@dataclass(frozen=True)
class Entry:
    """One action in a game's journal: do, undo or redo, with its command and events."""

    seq: int
    verb: str
    command: dict[str, Any] | None
    events: list[dict[str, Any]]
    at: float


@dataclass(frozen=True)
class Snapshot:
    """A game's state after its first `seq` actions, when `done` commands were on the
    undo stack (at least one: a snapshot follows a "do") and none to redo; `version` says
    how `state` (JSON) was encoded."""

    seq: int
    done: int
    version: str
    state: str


@dataclass(frozen=True)
class GameRecord:
    """One game in the journal: kind, setup, times, finished or abandoned, summary.
    `damaged` names what cannot be read in its row (then `setup` and `summary` are
    empty): the game is listed, never resumed."""

    id: int
    kind: str
    setup: dict[str, Any]
    started: float
    updated: float
    finished: bool
    abandoned: bool
    summary: dict[str, Any]
    damaged: str | None = None


def default_path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / APP_DIR / FILE_NAME


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


#: a `games` row as `game_record` reads it
_GAME_COLUMNS = "id, kind, setup, started, updated, finished, abandoned, summary"
#: what `game_columns` checks (a resume reads no more)
_RESUME_COLUMNS = "kind, setup, started, updated, summary"


class Journal:
    """One SQLite file holding every game. Not thread-safe: use it from one thread."""

    #: an action written with `append(hold=True)`, its transaction left open for `release`
    _held = False
    #: an action given to `append(hold=True)` and not written yet: `release` writes and
    #: commits it at once (after the frame showing it is drawn, while it is rendered);
    #: a read before that writes it first, its transaction then held open
    _queued: Callable[[bool], None] | None = None
    #: why a held action could not be committed when another write came first
    _release_failure: JournalError | None = None
    #: called on the writing thread when a write's statements are done and its COMMIT
    #: (the sync) begins: the app's writer tells the UI thread, which draws meanwhile
    before_commit: Callable[[], None] | None = None

    def __init__(self, path: Path | str, *, timeout: float = 2.0,
                 read_only: bool = False) -> None:
        """`read_only=True`: look without changing a byte (no WAL switch, no schema,
        nothing moved aside), as `companion journal check` does."""
        self.path = Path(path) if str(path) != ":memory:" else None
        #: how long a write waits for another program's lock before it is refused
        self.timeout = timeout
        #: where an unreadable journal was moved, if one was found at start
        self.moved_aside: Path | None = None
        #: why the journal cannot be written now (it was opened read-only), or None
        self.read_only: Message | None = None
        self._db = self._look(str(path)) if read_only else self._open(str(path))

    # -- opening -----------------------------------------------------------------
    def _open(self, target: str) -> sqlite3.Connection:
        if self.path is None:
            return self._connect(target)
        if _read_only_place(self.path):  # a worn card turned read-only, a locked folder
            return self._open_on_read_only_card(target)
        self._make_folder()
        if not _looks_like_sqlite(self.path):
            # SQLite would silently take a one-byte file for an empty database and
            # overwrite it: anything that is not a database is kept aside first
            self.moved_aside = self._move_aside()
        elif _header_version(self.path) > SCHEMA_VERSION:  # not even a -shm made beside it
            raise JournalError("core.error.journal_newer", path=target,
                               version=_header_version(self.path))
        elif _has_content(self.path):
            try:
                version = _stored_version(self.path, self.timeout)
            except sqlite3.Error as exc:
                if not _is_corrupt(exc):
                    return self._read_only_or_refuse(target, exc)
                self.moved_aside = self._move_aside()
            else:
                if version > SCHEMA_VERSION:
                    raise JournalError("core.error.journal_newer", path=target,
                                       version=version)
        try:
            return self._connect(target)
        except sqlite3.Error as exc:
            if not _is_corrupt(exc) or self.moved_aside is not None:
                return self._read_only_or_refuse(target, exc)
            self.moved_aside = self._move_aside()
            try:
                return self._connect(target)
            except sqlite3.Error as again:
                raise JournalError(
                    "core.error.journal_open", path=target, reason=str(again)
                ) from again

    def _look(self, target: str) -> sqlite3.Connection:
        if self.path is None or not self.path.is_file():
            raise JournalError("core.error.journal_open", path=target, reason="no such file")
        if _header_version(self.path) > SCHEMA_VERSION:  # a newer app's: not even a look
            raise JournalError("core.error.journal_newer", path=target,
                               version=_header_version(self.path))
        try:
            db = _connect_read_only(self.path, self.timeout)
            version = db.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.Error as exc:
            raise JournalError("core.error.journal_open", path=target,
                               reason=_reason(exc)) from exc
        if version > SCHEMA_VERSION:
            db.close()
            raise JournalError("core.error.journal_newer", path=target, version=version)
        self.read_only = msg("core.error.journal_read_only", path=target, reason="read-only")
        return db

    def _open_on_read_only_card(self, target: str) -> sqlite3.Connection:
        """A journal on a card or in a folder nothing can be written to: opened
        read-only (games can be looked at) with a message saying so and what to do.
        Nothing can be moved aside there either: a file SQLite cannot read is said."""
        assert self.path is not None
        folder = str(self.path.parent)
        if not _has_content(self.path):
            raise JournalError("core.error.card_read_only", path=folder)
        if _header_version(self.path) > SCHEMA_VERSION:
            raise JournalError("core.error.journal_newer", path=target,
                               version=_header_version(self.path))
        try:
            db = _connect_read_only(self.path, self.timeout)
        except sqlite3.Error as exc:
            raise JournalError("core.error.journal_open", path=target,
                               reason=_reason(exc)) from exc
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            db.close()
            raise JournalError("core.error.journal_newer", path=target, version=version)
        self.read_only = msg("core.error.card_read_only_open", path=folder)
        return db

    def _make_folder(self) -> None:
        assert self.path is not None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(
                "core.error.journal_dir", path=str(self.path.parent), reason=exc.strerror
            ) from exc

    def _connect(self, target: str) -> sqlite3.Connection:
        db = sqlite3.connect(target, isolation_level=None, timeout=self.timeout)
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:  # written since the look in _open
                raise JournalError("core.error.journal_newer", path=target, version=version)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            db.executescript(SCHEMA)
            if version < SCHEMA_VERSION:
                _migrate(db, version)
        except BaseException:
            db.close()
            raise
        return db

    def _read_only_or_refuse(self, target: str, exc: sqlite3.Error) -> sqlite3.Connection:
        """Cannot write now: the file stays where it is; read it if SQLite can."""
        reason = _reason(exc)
        assert self.path is not None
        try:
            db = sqlite3.connect(_read_only_uri(self.path), uri=True, isolation_level=None,
                                 timeout=self.timeout)
        except sqlite3.Error:
            raise JournalError("core.error.journal_open", path=target, reason=reason) from exc
        try:
            db.execute("SELECT count(*) FROM games").fetchone()
        except sqlite3.Error as again:
            db.close()
            raise JournalError("core.error.journal_open", path=target,
                               reason=reason) from again
        self.read_only = msg("core.error.journal_read_only", path=target, reason=reason)
        return db

    def _move_aside(self) -> Path:
        assert self.path is not None
        return keep_aside(self.path, "unreadable")

    def close(self) -> None:
        try:
            self.release()
        finally:
            self._db.close()

    def manual_checkpoints(self) -> None:
        """No automatic WAL checkpoint in this connection's commits (it would run inside
        an action's commit now and then: three syncs instead of one); the app's writer
        checkpoints off the action's path (`companion/writer.py`)."""
        self._db.execute("PRAGMA wal_autocheckpoint=0")

    def another_connection(self) -> Journal:
        """The same file through a connection of its own, for a worker thread: call it
        on that thread. Nothing is checked or migrated: this journal already did."""
        if self.path is None:
            raise JournalError("core.error.journal_open", path=":memory:",
                               reason="a memory journal has one connection")
        if self.read_only is not None:  # the worker only reads what this one can
            return Journal(self.path, timeout=self.timeout, read_only=True)
        return Journal.already_checked(self.path)

    @classmethod
    def already_checked(cls, path: Path | str) -> Journal:
        """The journal at `path`, which another connection has just opened (checked and
        migrated): opened without checking it again, which takes a while on a large
        file (a restore checks it on a worker thread, the screen then opens it)."""
        journal = object.__new__(cls)
        journal.path, journal.moved_aside = Path(path), None
        journal.timeout, journal.read_only = 10.0, None
        journal._db = sqlite3.connect(str(path), isolation_level=None, timeout=10)
        for pragma in ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON"):
            journal._db.execute(f"PRAGMA {pragma}")
        return journal

    @contextmanager
    def _transaction(self, hold: bool = False) -> Iterator[sqlite3.Connection]:
        """One write transaction; `hold`: left open, to be committed by `release`."""
        self._writable()
        self._release_first()
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                # SQLite has rolled back already after some errors (a full disk): a
                # second ROLLBACK would hide the reason behind "no transaction is active"
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
            if hold:
                self._held = True
            else:
                if self.before_commit is not None:
                    self.before_commit()
                self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise self._write_error(exc) from exc

    def _writable(self) -> None:
        """Refuse a write to a journal opened read-only."""
        if self.read_only is not None:
            raise JournalError(self.read_only.key, **self.read_only.params)

    def _release_first(self) -> None:
        """Another write before the held action's release: the held action goes first."""
        if self._held or self._queued:
            try:
                self.release()
            except JournalError as exc:
                self._release_failure = exc  # for the held action's owner, at its release
                raise

    def release(self) -> None:
        """Write and commit the action `append(hold=True)` left. Raises JournalError if
        it cannot be (full disk, I/O error): the action is then not in the journal."""
        failure, self._release_failure = self._release_failure, None
        if failure is not None:
            raise failure
        queued, self._queued = self._queued, None
        if queued is not None:
            queued(False)  # written and committed in one go
            return
        if not self._held:
            return
        self._held = False
        try:
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise self._write_error(exc) from exc

    def _write_queued(self) -> None:
        """The queued action written now, its transaction held open (a read must see
        it); a failure is kept for its owner's `release`."""
        queued, self._queued = self._queued, None
        if queued is None:
            return
        try:
            queued(True)
        except JournalError as exc:
            self._release_failure = exc

    @property
    def holding(self) -> bool:
        """An action waits for `release` (written, or to be written)."""
        return self._held or self._queued is not None or self._release_failure is not None

    def _write_error(self, exc: sqlite3.Error) -> JournalError:
        if self._db.in_transaction:
            # a failed COMMIT (full disk, I/O error) can leave the transaction open:
            # close it, or every later write would fail too
            with suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
        return JournalError(
            "core.error.journal_write", path=str(self.path or ":memory:"), reason=str(exc))

    # -- writing -----------------------------------------------------------------
    def create_game(self, kind: str, setup: dict[str, Any], summary: dict[str, Any]) -> int:
        now = time.time()
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO games(kind, setup, started, updated, finished, summary)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (kind, _dumps(setup), now, now, int(bool(summary.get("finished"))),
                 _dumps(summary)),
            )
            return int(cursor.lastrowid or 0)

    def append(
        self,
        game_id: int,
        seq: int,
        verb: str,
        command: dict[str, Any] | None,
        events: Sequence[dict[str, Any]],
        summary: dict[str, Any],
        snapshot: Snapshot | None = None,
        hold: bool = False,
    ) -> None:
        """Commit one action and the game's new summary together (and a snapshot of
        the state after it, if given). `hold`: written and committed only by `release`
        (the app releases it just before the frame that shows it is swapped: the
        rasteriser draws that frame meanwhile, while the disk syncs); a read before
        that sees it."""
        now = time.time()
        if hold:
            self._writable()  # refused now, as a write is
            self._release_first()
            self._queued = lambda held: self._write_action(
                game_id, seq, verb, command, events, summary, snapshot, now, held)
            return
        self._write_action(game_id, seq, verb, command, events, summary, snapshot, now, False)

    def _write_action(self, game_id: int, seq: int, verb: str,
                      command: dict[str, Any] | None, events: Sequence[dict[str, Any]],
                      summary: dict[str, Any], snapshot: Snapshot | None, now: float,
                      hold: bool) -> None:
        with self._transaction(hold) as db:
            db.execute(
                "INSERT INTO actions(game_id, seq, verb, command, events, at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seq, verb, None if command is None else _dumps(command),
                 _dumps(list(events)), now),
            )
            db.execute(
                "UPDATE games SET updated = ?, finished = ?, summary = ? WHERE id = ?",
                (now, int(bool(summary.get("finished"))), _dumps(summary), game_id),
            )
            if snapshot is not None:
                _write_snapshot(db, game_id, snapshot)

    def write_snapshot(self, game_id: int, snapshot: Snapshot) -> None:
        """Commit a snapshot on its own (the writer's, after the action it follows has
        committed); one already at that position is replaced (derived data)."""
        with self._transaction() as db:
            _write_snapshot(db, game_id, snapshot, replace=True)

    def abandon(self, game_id: int) -> None:
        with self._transaction() as db:
            db.execute("UPDATE games SET abandoned = 1 WHERE id = ?", (game_id,))

    # -- reading -----------------------------------------------------------------
    def entries(self, game_id: int, *, with_events: bool = True) -> list[Entry]:
        """The game's actions in order; `with_events=False` leaves `events` empty (a replay
        recomputes them, and reading them was a fifth of the time to resume). A damaged
        action raises `DamagedRow` (`core.error.damaged_action`)."""
        entries, damage = self.readable_entries(game_id, with_events=with_events)
        if damage is not None:
            raise DamagedRow("core.error.damaged_action", game=game_id, **damage)
        return entries

    def readable_entries(
        self, game_id: int, *, with_events: bool = True
    ) -> tuple[list[Entry], dict[str, Any] | None]:
        """The actions before the first damaged one, and what is damaged there
        (`{"seq": n, "reason": text}`, or None when every action could be read)."""
        columns = "events" if with_events else "NULL"
        rows = self._fetch(
            f"SELECT seq, verb, command, {columns}, at FROM actions WHERE game_id = ?"
            " ORDER BY seq",
            (game_id,),
        )
        out: list[Entry] = []
        for position, row in enumerate(rows):
            try:
                out.append(action_entry(position, *row))
            except RowDamage as damage:
                seq = row[0] if isinstance(row[0], int) else position
                return out, {"seq": seq, "reason": str(damage)}
        return out, None

    def entries_between(self, game_id: int, start: int, end: int | None = None
                        ) -> list[Entry]:
        """The actions `start <= seq < end` (to the last if `end` is None), without
        their events: what a resume replays after a snapshot. A damaged action raises
        `DamagedRow` (`core.error.damaged_action`), as `entries` does."""
        rows = self._fetch(
            "SELECT seq, verb, command, NULL, at FROM actions WHERE game_id = ? AND seq >= ?"
            " AND seq < ? ORDER BY seq",
            (game_id, start, (1 << 62) if end is None else end),
        )
        out: list[Entry] = []
        for position, row in enumerate(rows, start):
            try:
                out.append(action_entry(position, *row))
            except RowDamage as damage:
                seq = row[0] if isinstance(row[0], int) else position
                raise DamagedRow("core.error.damaged_action", game=game_id, seq=seq,
                                 reason=str(damage)) from damage
        return out

    def latest_snapshot(self, game_id: int, version: str, before: int | None = None
                        ) -> Snapshot | None:
        """The game's newest sound snapshot of this `version` with `seq < before`, if
        any (`state` as `encode` wrote it, its seal checked). A snapshot that does not
        fit (a damaged column, a seal that differs, no "do" in the journal just before
        it) is passed over with a log line: the resume falls back on an older one or
        on the whole journal."""
        sql = ("SELECT seq, done, version, state FROM snapshots WHERE game_id = ?"
               " AND version = ? AND seq < ? ORDER BY seq DESC")
        params = (game_id, version, (1 << 62) if before is None else before)
        try:
            # the newest alone: a long game has hundreds of snapshots, and reading them
            # all made the resume grow with the game
            rows = self._fetch(sql + " LIMIT 1", params)
            first = self._sound_snapshot(game_id, rows[0]) if rows else None
            if first is not None or not rows:
                return first
            rows = self._fetch(sql, params)[1:]  # a damaged one: look further back
        except sqlite3.OperationalError as exc:
            if "no such table" not in str(exc):
                raise
            return None  # a version 2 journal opened read-only: never migrated
        for row in rows:
            snapshot = self._sound_snapshot(game_id, row)
            if snapshot is not None:
                return snapshot
        return None

    def _sound_snapshot(self, game_id: int, row: Sequence[Any]) -> Snapshot | None:
        """A `snapshots` row as a Snapshot if it fits its journal, else None (logged)."""
        try:
            return self.checked_snapshot(game_id, row)
        except RowDamage as damage:
            log.warning("game %s: snapshot %s passed over: %s", game_id,
                        str(row[0])[:20], damage)
            return None

    def checked_snapshot(self, game_id: int, row: Sequence[Any]) -> Snapshot:
        """A `snapshots` row (seq, done, version, state) checked against itself and its
        journal: columns of their types, its seal (the checksum of every column), and
        a "do" as the action just before it (a snapshot follows a "do"); raises
        RowDamage saying what does not fit."""
        from companion.snapshot import SnapshotError, unseal

        snapshot = _readable_snapshot(*row)
        if snapshot is None:
            raise RowDamage("snapshot: columns of the wrong type")
        try:
            text = unseal(game_id, snapshot.seq, snapshot.done, snapshot.version,
                          snapshot.state)
        except SnapshotError as exc:
            raise RowDamage(f"snapshot: {exc}") from exc
        verbs = self._fetch("SELECT verb FROM actions WHERE game_id = ? AND seq = ?",
                            (game_id, snapshot.seq - 1))
        if verbs != [("do",)]:
            raise RowDamage(f"snapshot: no \"do\" at action {snapshot.seq - 1}")
        return Snapshot(snapshot.seq, snapshot.done, snapshot.version, text)

    def resume_point(self, game_id: int, version: Callable[[], str]
                     ) -> tuple[dict[str, Any], Snapshot | None]:
        """The game's setup and its newest readable snapshot of the `version()` this code
        writes (as `latest_snapshot` gives it), read together: what a resume reads
        first, in one query instead of two. A damaged row raises `DamagedRow`
        (`core.error.damaged_game`), as `game` would list it. The version is asked for
        only when the game has a snapshot (a short game has none: its start computes no
        version)."""
        try:
            rows = self._fetch(
                f"SELECT {_RESUME_COLUMNS}, s.seq, s.done, s.version, s.state FROM games"
                " LEFT JOIN snapshots AS s ON s.game_id = games.id"
                " WHERE games.id = ? ORDER BY s.seq DESC LIMIT 1",
                (game_id,),
            )
        except sqlite3.OperationalError as exc:
            if "no such table" not in str(exc):
                raise
            # a version 2 journal opened read-only (never migrated): no snapshots
            rows = [(*row, None, None, None, None) for row in self._fetch(
                f"SELECT {_RESUME_COLUMNS} FROM games WHERE id = ?", (game_id,))]
        if not rows:
            raise JournalError("core.error.no_such_game", game=game_id)
        row = rows[0]
        try:
            # every column is checked as `game` checks it, though a resume needs only
            # the setup: a game listed as damaged is never resumed
            setup = game_columns(*row[:5])[1]
        except RowDamage as damage:
            raise DamagedRow("core.error.damaged_game", game=game_id,
                             reason=str(damage)) from damage
        if row[5] is None:  # no snapshot at all
            return setup, None
        return setup, self._wanted_snapshot(game_id, row[5:], version)

    def newest_snapshot(self, game_id: int, version: Callable[[], str]) -> Snapshot | None:
        """What `resume_point` reads without the game's row: for a resume given the row
        the journal listed (`unfinished`, `game`), which it need not read again."""
        try:
            rows = self._fetch("SELECT seq, done, version, state FROM snapshots"
                               " WHERE game_id = ? ORDER BY seq DESC LIMIT 1", (game_id,))
        except sqlite3.OperationalError as exc:
            if "no such table" not in str(exc):
                raise
            return None  # a version 2 journal opened read-only: never migrated
        return self._wanted_snapshot(game_id, rows[0], version) if rows else None

    def _wanted_snapshot(self, game_id: int, row: Sequence[Any], version: Callable[[], str]
                         ) -> Snapshot | None:
        """The game's newest snapshot `row` if it is sound and of `version()`, else the
        newest one that is."""
        wanted = version()
        snapshot = self._sound_snapshot(game_id, row) if row[2] == wanted else None
        if snapshot is None:
            # damaged, or written by another version of the state: look further back
            snapshot = self.latest_snapshot(game_id, wanted, row[0] if isinstance(
                row[0], int) and not isinstance(row[0], bool) else None)
        return snapshot

    def game(self, game_id: int) -> GameRecord:
        rows = self._games("WHERE id = ?", (game_id,))
        if not rows:
            raise JournalError("core.error.no_such_game", game=game_id)
        return rows[0]

    def games(self, kind: str | None = None) -> list[GameRecord]:
        if kind is None:
            return self._games("ORDER BY started", ())
        return self._games("WHERE kind = ? ORDER BY started", (kind,))

    def unfinished(self) -> list[GameRecord]:
        """Games to offer for resuming, most recently played first."""
        return self._games("WHERE finished = 0 AND abandoned = 0 ORDER BY updated DESC", ())

    # -- for the game-night modules (roster, history, statistics, backup) -------------
    def read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Rows of a read-only query (text that is not UTF-8 comes as `Undecodable`)."""
        return self._fetch(sql, tuple(params))

    def writing(self) -> Any:
        """A write transaction (`with journal.writing() as db:`), committed durably."""
        return self._transaction()

    def backup_into(self, target: Path | str) -> None:
        """A consistent copy of the whole journal, with SQLite's online backup API."""
        self._write_queued()
        copy = sqlite3.connect(str(target))
        try:
            self._db.backup(copy)
        finally:
            copy.close()

    def _games(self, where: str, params: tuple[Any, ...]) -> list[GameRecord]:
        rows = self._fetch(f"SELECT {_GAME_COLUMNS} FROM games {where}", params)
        return [game_record(*row) for row in rows]

    def _fetch(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """Every row; text that is not valid UTF-8 (a flipped bit) comes back as
        `Undecodable` instead of failing the whole query."""
        self._write_queued()
        try:
            return self._db.execute(sql, params).fetchall()
        except sqlite3.OperationalError as exc:
            if "decode" not in str(exc):
                raise
        self._db.text_factory = _lenient_text
        try:
            return self._db.execute(sql, params).fetchall()
        finally:
            self._db.text_factory = str


# -- damaged rows -------------------------------------------------------------------------
class Undecodable(str):
    """A text column whose bytes are not UTF-8, shown with replacement characters."""


class RowDamage(ValueError):
    """Why one row cannot be read (for `DamagedRow` and `companion journal check`)."""


def _lenient_text(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return Undecodable(raw.decode("utf-8", "replace"))


def load_column(name: str, text: Any, expected: type | tuple[type, ...]) -> Any:
    """A JSON column's value, checked to be of the expected type; raises RowDamage."""
    if isinstance(text, Undecodable):
        raise RowDamage(f"{name}: not UTF-8")
    if not isinstance(text, str):
        raise RowDamage(f"{name}: not text")
    try:
        value = _loads(text)
    except (ValueError, RecursionError) as exc:
        raise RowDamage(f"{name}: not JSON ({str(exc)[:60]})") from exc
    if not isinstance(value, expected):
        raise RowDamage(f"{name}: not {_type_names(expected)}")
    return value


#: json.loads' own decoder settings (the defaults)
_DECODER = json.JSONDecoder()


def _loads(text: str) -> Any:
    """`json.loads(text)`, quicker on a column as `_dumps` wrote it, nothing around the
    value (a Pr. Evil setup 7.8 -> 6.8 microseconds, its summary 2.2 -> 1.5; a resume
    reads both): json.loads' checks for a BOM and whitespace come only when the value
    alone does not read, json.loads then deciding, so what is accepted or refused, and
    why, is unchanged."""
    try:
        value, end = _DECODER.raw_decode(text)
    except ValueError:
        return json.loads(text)
    return value if end == len(text) else json.loads(text)


def _type_names(expected: type | tuple[type, ...]) -> str:
    kinds = expected if isinstance(expected, tuple) else (expected,)
    return " or ".join({dict: "an object", list: "a list"}.get(k, k.__name__) for k in kinds)


def _number(name: str, value: Any) -> float:
    """A time stamp: a finite number a date can be made of (years 1653 to 9999)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RowDamage(f"{name}: not a number")
    if not -1e10 < value < 2.5e11:  # also refuses inf and nan
        raise RowDamage(f"{name}: out of range")
    return float(value)


def action_entry(position: int, seq: Any, verb: Any, command: Any, events: Any,
                 at: Any) -> Entry:
    """One `actions` row, checked; raises RowDamage."""
    if seq != position or not isinstance(seq, int):
        raise RowDamage(f"seq: {seq!r} where {position} was expected")
    if verb not in ("do", "undo", "redo") or isinstance(verb, Undecodable):
        raise RowDamage("verb: not do, undo or redo")
    decoded = None if command is None else load_column("command", command, dict)
    if verb == "do" and (decoded is None or not isinstance(decoded.get("type"), str)):
        raise RowDamage("command: no type")
    listed = [] if events is None else load_column("events", events, list)
    if not all(isinstance(e, dict) for e in listed):
        raise RowDamage("events: not a list of objects")
    return Entry(seq, verb, decoded, listed, _number("at", at))


def game_columns(kind: Any, setup: Any, started: Any, updated: Any, summary: Any
                 ) -> tuple[str, dict[str, Any], float, float, dict[str, Any]]:
    """The columns of a `games` row that can be damaged, checked; raises RowDamage."""
    if not isinstance(kind, str) or isinstance(kind, Undecodable) or not kind:
        raise RowDamage("kind: not a name")
    return (kind, load_column("setup", setup, dict), _number("started", started),
            _number("updated", updated), load_column("summary", summary, dict))


def game_record(gid: int, kind: Any, setup: Any, started: Any, updated: Any, finished: Any,
            abandoned: Any, summary: Any) -> GameRecord:
    """One `games` row; a damaged one comes back with `damaged` set and empty data."""
    try:
        name, settings, begun, last, told = game_columns(kind, setup, started, updated,
                                                         summary)
    except RowDamage as damage:
        return GameRecord(
            gid, kind if isinstance(kind, str) else "?", {},
            _time_or_zero(started), _time_or_zero(updated),
            bool(finished) if isinstance(finished, int) else False,
            bool(abandoned) if isinstance(abandoned, int) else False, {},
            damaged=str(damage))
    return GameRecord(gid, name, settings, begun, last, bool(finished), bool(abandoned), told)


def _readable_snapshot(seq: Any, done: Any, version: Any, state: Any) -> Snapshot | None:
    """One `snapshots` row, or None if it is damaged (wrong types, not UTF-8)."""
    if (type(seq) is int and type(done) is int and 0 < done <= seq
            and isinstance(state, str) and not isinstance(state, Undecodable)
            and isinstance(version, str) and not isinstance(version, Undecodable)):
        return Snapshot(seq, done, version, state)
    return None


def _time_or_zero(value: Any) -> float:
    try:
        return _number("time", value)
    except RowDamage:
        return 0.0


# -- opening: what kind of trouble ---------------------------------------------------------
_MAGIC = b"SQLite format 3\x00"
_CORRUPT = (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


class _Corrupt(sqlite3.DatabaseError):
    """SQLite's own integrity check found damage."""


def _is_corrupt(exc: sqlite3.Error) -> bool:
    """Only what SQLite itself calls corrupt or not a database: a full disk, a lock or
    a read-only card is "cannot write now", and that file is never moved."""
    if isinstance(exc, _Corrupt):
        return True
    code = getattr(exc, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in _CORRUPT


def _reason(exc: sqlite3.Error) -> str:
    name = getattr(exc, "sqlite_errorname", None)
    return f"{exc} ({name})" if name else str(exc)


def _read_only_uri(path: Path) -> str:
    # on a read-only file system nothing can change the file: SQLite may then read it
    # without the -shm file it could not make there (`immutable`), but only when no
    # committed action waits in a WAL, which `immutable` would not read
    immutable = _read_only_file_system(path.parent) and _size(_wal(path)) == 0
    return path.resolve().as_uri() + ("?mode=ro&immutable=1" if immutable else "?mode=ro")


def _wal(path: Path) -> Path:
    return path.with_name(path.name + "-wal")


def _read_only_file_system(folder: Path) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def _read_only_place(path: Path) -> bool:
    """The journal's folder (or the journal) cannot be written: a read-only file
    system (a worn SD card), or a folder or file without write permission."""
    folder = path.parent
    if not folder.is_dir():
        return _read_only_file_system(_existing_parent(folder))
    if _read_only_file_system(folder) or not os.access(folder, os.W_OK):
        return True
    return path.is_file() and not os.access(path, os.W_OK)


def _existing_parent(folder: Path) -> Path:
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder


def _connect_read_only(path: Path, timeout: float) -> sqlite3.Connection:
    """A read-only connection to a journal where nothing can be written. Committed
    actions still in its WAL are read: through the WAL's -shm file if there is one,
    else from a copy of the journal and its WAL in a temporary folder (SQLite needs
    a -shm file beside a WAL, and none can be made on the card)."""
    db = sqlite3.connect(_read_only_uri(path), uri=True, isolation_level=None,
                         timeout=timeout)
    try:
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return db
    except sqlite3.Error:
        db.close()
        if _size(_wal(path)) == 0:
            raise
    import shutil
    import tempfile

    copy = Path(tempfile.mkdtemp(prefix="companion-read-only-")) / path.name
    shutil.copyfile(path, copy)
    shutil.copyfile(_wal(path), _wal(copy))
    log.warning("journal %s read from a copy in %s (read-only card, WAL without -shm)",
                path, copy.parent)
    db = sqlite3.connect(copy.resolve().as_uri() + "?mode=ro", uri=True,
                         isolation_level=None, timeout=timeout)
    db.execute("SELECT count(*) FROM sqlite_master").fetchone()
    return db


def _stored_version(path: Path, timeout: float) -> int:
    """The journal's schema version and SQLite's quick check, read without changing
    a byte of the file (read-only connection, no WAL switch)."""
    db = sqlite3.connect(_read_only_uri(path), uri=True, timeout=timeout)
    try:
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        if version <= SCHEMA_VERSION:
            check = db.execute("PRAGMA quick_check").fetchone()
            if check is None or check[0] != "ok":
                raise _Corrupt(f"integrity check failed: {check}")
        return version
    finally:
        db.close()


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _header_version(path: Path) -> int:
    """The schema version in the file's header (`user_version`, bytes 60-63), as the
    last checkpoint left it; 0 when there is none to read."""
    try:
        with path.open("rb") as handle:
            head = handle.read(64)
    except OSError:
        return 0
    return int.from_bytes(head[60:64], "big") if len(head) == 64 else 0


def _has_content(path: Path) -> bool:
    try:
        return path.is_file() and path.stat().st_size > 0
    except OSError:
        return False


def _looks_like_sqlite(path: Path) -> bool:
    """An empty file, or one that starts with SQLite's header."""
    try:
        with path.open("rb") as handle:
            head = handle.read(len(_MAGIC))
    except OSError:  # missing (a new journal) or a folder: SQLite reports it
        return True
    return head == b"" or head == _MAGIC


def _write_snapshot(db: sqlite3.Connection, game_id: int, snapshot: Snapshot,
                    replace: bool = False) -> None:
    """The snapshot stored sealed: its columns checked together when read back."""
    from companion.snapshot import seal

    db.execute(
        f"INSERT {'OR REPLACE ' if replace else ''}INTO snapshots(game_id, seq, done,"
        " version, state)"
        " VALUES (?, ?, ?, ?, ?)",
        (game_id, snapshot.seq, snapshot.done, snapshot.version,
         seal(game_id, snapshot.seq, snapshot.done, snapshot.version, snapshot.state)),
    )


def fold_name(name: str) -> str:
    """A player name as compared for duplicates: trimmed, case-insensitive."""
    return " ".join(str(name).split()).casefold()


def _migrate(db: sqlite3.Connection, version: int) -> None:
    """Bring an older journal up to SCHEMA_VERSION, keeping every game and action."""
    db.execute("BEGIN IMMEDIATE")
    try:
        if version < 2:
            _link_by_names(db)
        # 3: the snapshots table is created empty by SCHEMA; older games resume by
        # replaying their whole journal until their next snapshot is written
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _link_by_names(db: sqlite3.Connection) -> None:
    """Version 2: the players of past games become roster players (one per name,
    compared trimmed and case-insensitively) and each game is linked to them."""
    known = {folded: pid for pid, folded in db.execute("SELECT id, folded FROM players")}
    linked = {gid for (gid,) in db.execute("SELECT DISTINCT game_id FROM game_players")}
    rows = db.execute("SELECT id, setup, started FROM games ORDER BY started, id").fetchall()
    for gid, setup, started in rows:
        if gid in linked:
            continue
        try:
            players = json.loads(setup).get("players") or []
        except (ValueError, AttributeError):
            continue
        for seat, player in enumerate(players):
            name = " ".join(str(player.get("name", "")).split()) if isinstance(
                player, dict) else ""
            if not name:
                continue
            folded = fold_name(name)
            if folded not in known:
                cursor = db.execute(
                    "INSERT INTO players(name, folded, created) VALUES (?, ?, ?)",
                    (name, folded, started))
                known[folded] = int(cursor.lastrowid or 0)
            db.execute("INSERT OR IGNORE INTO game_players(game_id, seat, player_id)"
                       " VALUES (?, ?, ?)", (gid, seat, known[folded]))
