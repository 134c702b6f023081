"""The journal: every game and every action, in SQLite, durable before it is shown.

Each action (a command with its events, an undo, a redo) is one row committed with
`synchronous=FULL`, so a power cut loses at most the action that was being written,
never one that the table already saw. A file that SQLite cannot read is moved aside
(kept, never overwritten) and a fresh journal is started.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.messages import CompanionError

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
    undo stack and none to redo; `version` says how `state` (JSON) was encoded."""

    seq: int
    done: int
    version: str
    state: str


@dataclass(frozen=True)
class GameRecord:
    """One game in the journal: kind, setup, times, finished or abandoned, summary."""

    id: int
    kind: str
    setup: dict[str, Any]
    started: float
    updated: float
    finished: bool
    abandoned: bool
    summary: dict[str, Any]


def default_path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / APP_DIR / FILE_NAME


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


class Journal:
    """One SQLite file holding every game. Not thread-safe: use it from one thread."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path) if str(path) != ":memory:" else None
        #: where an unreadable journal was moved, if one was found at start
        self.moved_aside: Path | None = None
        self._db = self._open(str(path))

    # -- opening -----------------------------------------------------------------
    def _open(self, target: str) -> sqlite3.Connection:
        if self.path is not None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise JournalError(
                    "core.error.journal_dir", path=str(self.path.parent), reason=exc.strerror
                ) from exc
        if self.path is not None and not _looks_like_sqlite(self.path):
            # SQLite would silently take a one-byte file for an empty database and
            # overwrite it: anything that is not a database is kept aside first
            self.moved_aside = self._move_aside()
        try:
            return self._connect(target)
        except sqlite3.DatabaseError as exc:
            if self.path is None or not self.path.exists() or _is_access_error(exc):
                raise JournalError(
                    "core.error.journal_open", path=target, reason=str(exc)
                ) from exc
            self.moved_aside = self._move_aside()
            try:
                return self._connect(target)
            except sqlite3.DatabaseError as again:
                raise JournalError(
                    "core.error.journal_open", path=target, reason=str(again)
                ) from again

    @staticmethod
    def _connect(target: str) -> sqlite3.Connection:
        db = sqlite3.connect(target, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            check = db.execute("PRAGMA quick_check").fetchone()
            if check is None or check[0] != "ok":
                raise sqlite3.DatabaseError(f"integrity check failed: {check}")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise sqlite3.DatabaseError(f"journal schema {version} is newer than this app")
            db.executescript(SCHEMA)
            if version < SCHEMA_VERSION:
                _migrate(db, version)
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def _move_aside(self) -> Path:
        assert self.path is not None
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = self.path.with_name(f"{self.path.name}.unreadable-{stamp}")
        n = 1
        while target.exists():
            n += 1
            target = self.path.with_name(f"{self.path.name}.unreadable-{stamp}-{n}")
        os.replace(self.path, target)
        for suffix in ("-wal", "-shm"):
            side = self.path.with_name(self.path.name + suffix)
            if side.exists():
                os.replace(side, target.with_name(target.name + suffix))
        return target

    def close(self) -> None:
        self._db.close()

    def another_connection(self) -> Journal:
        """The same file through a connection of its own, for a worker thread: call it
        on that thread. Nothing is checked or migrated: this journal already did."""
        if self.path is None:
            raise JournalError("core.error.journal_open", path=":memory:",
                               reason="a memory journal has one connection")
        return Journal.already_checked(self.path)

    @classmethod
    def already_checked(cls, path: Path | str) -> Journal:
        """The journal at `path`, which another connection has just opened (checked and
        migrated): opened without checking it again, which takes a while on a large
        file (a restore checks it on a worker thread, the screen then opens it)."""
        journal = object.__new__(cls)
        journal.path, journal.moved_aside = Path(path), None
        journal._db = sqlite3.connect(str(path), isolation_level=None, timeout=10)
        for pragma in ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON"):
            journal._db.execute(f"PRAGMA {pragma}")
        return journal

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            if self._db.in_transaction:
                # a failed COMMIT (full disk, I/O error) can leave the transaction open:
                # close it, or every later write would fail too
                with suppress(sqlite3.Error):
                    self._db.execute("ROLLBACK")
            raise JournalError(
                "core.error.journal_write", path=str(self.path or ":memory:"), reason=str(exc)
            ) from exc

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
    ) -> None:
        """Commit one action and the game's new summary together (and a snapshot of
        the state after it, if given)."""
        now = time.time()
        with self._transaction() as db:
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

    def abandon(self, game_id: int) -> None:
        with self._transaction() as db:
            db.execute("UPDATE games SET abandoned = 1 WHERE id = ?", (game_id,))

    # -- reading -----------------------------------------------------------------
    def entries(self, game_id: int, *, with_events: bool = True) -> list[Entry]:
        """The game's actions in order; `with_events=False` leaves `events` empty (a replay
        recomputes them, and reading them was a fifth of the time to resume)."""
        columns = "events" if with_events else "NULL"
        rows = self._db.execute(
            f"SELECT seq, verb, command, {columns}, at FROM actions WHERE game_id = ?"
            " ORDER BY seq",
            (game_id,),
        )
        loads = json.loads
        return [
            Entry(seq, verb, None if command is None else loads(command),
                  loads(events) if events is not None else [], at)
            for seq, verb, command, events, at in rows
        ]

    def entries_between(self, game_id: int, start: int, end: int | None = None
                        ) -> list[Entry]:
        """The actions `start <= seq < end` (to the last if `end` is None), without
        their events: what a resume replays after a snapshot."""
        rows = self._db.execute(
            "SELECT seq, verb, command, at FROM actions WHERE game_id = ? AND seq >= ?"
            " AND seq < ? ORDER BY seq",
            (game_id, start, (1 << 62) if end is None else end),
        )
        loads = json.loads
        return [Entry(seq, verb, None if command is None else loads(command), [], at)
                for seq, verb, command, at in rows]

    def latest_snapshot(self, game_id: int, version: str, before: int | None = None
                        ) -> Snapshot | None:
        """The game's newest snapshot of this `version` with `seq < before`, if any."""
        row = self._db.execute(
            "SELECT seq, done, version, state FROM snapshots WHERE game_id = ?"
            " AND version = ? AND seq < ? ORDER BY seq DESC LIMIT 1",
            (game_id, version, (1 << 62) if before is None else before),
        ).fetchone()
        return None if row is None else Snapshot(*row)

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
        """Rows of a read-only query."""
        return self._db.execute(sql, tuple(params)).fetchall()

    def writing(self) -> Any:
        """A write transaction (`with journal.writing() as db:`), committed durably."""
        return self._transaction()

    def backup_into(self, target: Path | str) -> None:
        """A consistent copy of the whole journal, with SQLite's online backup API."""
        copy = sqlite3.connect(str(target))
        try:
            self._db.backup(copy)
        finally:
            copy.close()

    def _games(self, where: str, params: tuple[Any, ...]) -> list[GameRecord]:
        rows = self._db.execute(
            "SELECT id, kind, setup, started, updated, finished, abandoned, summary"
            f" FROM games {where}",
            params,
        )
        return [
            GameRecord(gid, kind, json.loads(setup), started, updated, bool(finished),
                       bool(abandoned), json.loads(summary))
            for gid, kind, setup, started, updated, finished, abandoned, summary in rows
        ]


_MAGIC = b"SQLite format 3\x00"


def _looks_like_sqlite(path: Path) -> bool:
    """An empty file, or one that starts with SQLite's header."""
    try:
        with path.open("rb") as handle:
            head = handle.read(len(_MAGIC))
    except OSError:  # missing (a new journal) or a folder: SQLite reports it
        return True
    return head == b"" or head == _MAGIC


def _is_access_error(exc: sqlite3.DatabaseError) -> bool:
    text = str(exc).lower()
    return "unable to open" in text or "readonly" in text or "read-only" in text


def _write_snapshot(db: sqlite3.Connection, game_id: int, snapshot: Snapshot) -> None:
    db.execute(
        "INSERT INTO snapshots(game_id, seq, done, version, state)"
        " VALUES (?, ?, ?, ?, ?)",
        (game_id, snapshot.seq, snapshot.done, snapshot.version, snapshot.state),
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
