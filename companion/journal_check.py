"""`companion journal check`: what in the journal cannot be read, and a salvage of the
rest into a new journal (the old one and its WAL are kept beside it, never changed).

- `check(path) -> Report`: SQLite's own quick check, then every game: its row, its
  actions in order, and a replay of them by the game's rules. A game is damaged from
  its first action that cannot be read or replayed (`Damage.seq`), or whole when its
  own row cannot be read (`Damage.seq is None`). The file is opened read-only: not a
  byte of it changes.
- every snapshot (derived data: the state after its first `seq` actions) is compared
  with the replay at that point (its seal, its `done`, a "do" before it, the state
  itself); one that does not match is reported (`Report.snapshots`): the app passes it
  over, and `rebuild_snapshots(path)` writes the replay's state in its place.
- `salvage(path) -> Salvaged`: a new journal with every readable game up to its
  damage (the summary and the events computed again by the rules), the roster and
  the links of games to players; the old file (with its WAL, both byte for byte: the
  WAL's actions are read from a merged copy) is kept as
  `<name>.before-salvage-<stamp>` and the new one takes its place. Stop the app first.
  A game whose row is damaged only in what its actions say again (its summary, its
  times) is kept, those computed again; actions are read one row at a time past a
  damaged page of the table (every readable one before it is kept); a journal from
  a newer app is refused; the swap leaves a journal in place at every moment, and
  the old one under one of its two names (`_swap`).
"""

from __future__ import annotations

import json
import math
import os
import shutil
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion import snapshot
from companion.files import SIDE_FILES, fsync_dir
from companion.games import rules_for
from companion.journal import (
    _GAME_COLUMNS,
    SCHEMA_VERSION,
    Entry,
    GameRecord,
    Journal,
    JournalError,
    RowDamage,
    Undecodable,
    _number,
    action_entry,
    game_record,
    load_column,
)
from companion.records import decode, encode
from companion.session import History, Step


@dataclass(frozen=True)
class Damage:
    game: int
    seq: int | None  # the first action that cannot be read; None: the game's own row
    reason: str


@dataclass(frozen=True)
class Mismatch:
    """A snapshot row that does not match the replay of its game (`seq` as stored)."""

    game: int
    seq: Any
    reason: str
    rowid: int


@dataclass
class Report:
    path: Path
    integrity: str  # "ok", or what SQLite's quick check says
    games: int = 0
    actions: int = 0
    damages: list[Damage] = field(default_factory=list)
    snapshots: list[Mismatch] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.integrity == "ok" and not self.damages and not self.snapshots

    @property
    def only_snapshots(self) -> bool:
        """Nothing but snapshots to rebuild: no game is damaged."""
        return self.integrity == "ok" and not self.damages and bool(self.snapshots)


@dataclass(frozen=True)
class Salvaged:
    path: Path  # the new journal (where the old one was)
    kept: Path  # the old journal, as it was
    games: int
    actions: int
    report: Report


@dataclass
class _Game:
    record: GameRecord
    entries: list[Entry]  # readable and replayable, events computed again
    summary: dict[str, Any]
    damage: Damage | None
    #: the snapshot rows that do not match, and the replay's (seq, done, state text)
    #: at each position a snapshot row claims (for `rebuild_snapshots`)
    mismatches: list[Mismatch] = field(default_factory=list)
    rebuilt: dict[int, tuple[int, str]] = field(default_factory=dict)
    #: what was damaged in its own row when only derived columns were (its summary,
    #: times): computed again by a salvage, which keeps the game
    row_damage: Damage | None = None

    @property
    def damages(self) -> list[Damage]:
        return [d for d in (self.row_damage, self.damage) if d is not None]

    @property
    def kept(self) -> bool:
        """A salvage keeps it: its kind and setup read, its actions replayed from the
        start (up to any damage)."""
        return not (self.damage is not None and self.damage.seq is None)


def check(path: Path | str) -> Report:
    journal = Journal(path, read_only=True)
    try:
        report = Report(Path(path), _integrity(journal))
        for game in _games(journal, report):
            report.games += 1
            report.actions += len(game.entries)
            report.damages.extend(game.damages)
            report.snapshots.extend(game.mismatches)
    finally:
        journal.close()
    return report


def _integrity(journal: Journal) -> str:
    try:
        rows = journal.read("PRAGMA quick_check")
    except sqlite3.DatabaseError as exc:
        return str(exc)
    text = "; ".join(str(r[0]) for r in rows[:5])
    return text or "?"


def _games(journal: Journal, report: Report) -> list[_Game]:
    try:
        records = journal.games()
    except sqlite3.DatabaseError as exc:  # the games table itself is damaged
        report.integrity = f"games: {exc}"
        records = _records_one_by_one(journal)
    snapshots = _snapshot_rows(journal, report)
    games = [_readable(journal, record, snapshots.pop(record.id, [])) for record in records]
    for game_id, rows in snapshots.items():  # rows of no game in the journal
        report.snapshots.extend(Mismatch(game_id, row[1], "no such game", row[0])
                                for row in rows)
    return games


def _records_one_by_one(journal: Journal) -> list[GameRecord]:
    """The games whose rows can be read, one row at a time (a damaged page of the
    games table fails a query that reads it all), found by id in either table."""
    ids: set[int] = set()
    for sql in ("SELECT id FROM games", "SELECT DISTINCT game_id FROM actions"):
        try:
            ids.update(r[0] for r in journal.read(sql) if type(r[0]) is int)
        except sqlite3.DatabaseError:
            continue
    records = []
    for game_id in sorted(ids):
        try:
            rows = journal.read(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        except sqlite3.DatabaseError as exc:
            records.append(GameRecord(game_id, "?", {}, 0.0, 0.0, False, False, {},
                                      damaged=f"row: {exc}"))
            continue
        if rows:
            records.append(game_record(*rows[0]))
    return records


def _repaired(journal: Journal, record: GameRecord) -> GameRecord | None:
    """A game whose row is damaged only in what is computed from its actions (its
    summary, its times, its finished or abandoned flags): its kind and setup, the
    rest left to the salvage to compute again (a time that cannot be read is NaN).
    None when its kind or setup cannot be read: nothing of it can be replayed."""
    try:
        rows = journal.read("SELECT kind, setup, started, updated, abandoned FROM games"
                            " WHERE id = ?", (record.id,))
    except sqlite3.DatabaseError:
        return None
    if not rows:
        return None
    kind, setup, started, updated, abandoned = rows[0]
    try:
        if not isinstance(kind, str) or isinstance(kind, Undecodable) or not kind:
            raise RowDamage("kind: not a name")
        settings = load_column("setup", setup, dict)
    except RowDamage:
        return None
    return GameRecord(record.id, kind, settings, _time_or_nan(started),
                      _time_or_nan(updated), False, abandoned is True or abandoned == 1, {})


def _time_or_nan(value: Any) -> float:
    try:
        return _number("time", value)
    except RowDamage:
        return math.nan


def _entries_one_by_one(journal: Journal, game_id: int
                        ) -> tuple[list[Entry], dict[str, Any] | None]:
    """A game's actions read one row at a time, up to the first that cannot be read
    (a damaged page fails a query that reads them all): every readable one before."""
    out: list[Entry] = []
    while True:
        seq = len(out)
        try:
            rows = journal.read("SELECT seq, verb, command, NULL, at FROM actions"
                                " WHERE game_id = ? AND seq = ?", (game_id, seq))
        except sqlite3.DatabaseError as exc:
            return out, {"seq": seq, "reason": f"unreadable: {str(exc)[:60]}"}
        if not rows:
            return out, (None if _nothing_after(journal, game_id, seq)
                         else {"seq": seq, "reason": "missing"})
        try:
            out.append(action_entry(seq, *rows[0]))
        except RowDamage as damage:
            return out, {"seq": seq, "reason": str(damage)}


def _nothing_after(journal: Journal, game_id: int, seq: int) -> bool:
    try:
        return not journal.read("SELECT 1 FROM actions WHERE game_id = ? AND seq > ?"
                                " LIMIT 1", (game_id, seq))
    except sqlite3.DatabaseError:
        return False


def _snapshot_rows(journal: Journal, report: Report) -> dict[Any, list[tuple[Any, ...]]]:
    """Every snapshot row (rowid, seq, done, version, state) by game."""
    try:
        rows = journal.read("SELECT rowid, game_id, seq, done, version, state FROM snapshots")
    except sqlite3.DatabaseError as exc:
        if "no such table" not in str(exc):  # a version 2 journal: no snapshots
            report.integrity = f"snapshots: {exc}"
        return {}
    found: dict[Any, list[tuple[Any, ...]]] = {}
    for rowid, game_id, *rest in rows:
        found.setdefault(game_id, []).append((rowid, *rest))
    return found


def _readable(journal: Journal, record: GameRecord,
              snapshots: list[tuple[Any, ...]] = ()) -> _Game:  # type: ignore[assignment]
    """A game's actions that can be read and replayed, and where its damage starts;
    its snapshots compared with the replay on the way."""
    row_damage = None
    if record.damaged is not None:
        row_damage = Damage(record.id, None, record.damaged)
        repaired = _repaired(journal, record)
        if repaired is None:  # its kind or setup: nothing of it can be replayed
            return _Game(record, [], {}, row_damage)
        record = repaired
    try:
        entries, broken = journal.readable_entries(record.id, with_events=False)
    except sqlite3.DatabaseError:  # a damaged page: what can be read before it
        entries, broken = _entries_one_by_one(journal, record.id)
    damage = None if broken is None else Damage(record.id, broken["seq"], broken["reason"])
    try:
        rules = rules_for(record.kind)
    except KeyError:  # a kind this version does not know: its rows as they are
        return _Game(record, entries, record.summary, damage, row_damage=row_damage)
    try:
        history = History(rules.initial_state(record.setup))
    except Exception as exc:  # a setup of the wrong shape: nothing can be replayed
        return _Game(record, [], {}, Damage(record.id, None, f"setup: {_why(exc)}"),
                     row_damage=row_damage)
    compare = _Snapshots(journal, record.id, rules.state_type, snapshots)
    replayed: list[Entry] = []
    for entry in entries:
        try:
            events = _step(rules, history, entry)
        except Exception as exc:  # valid JSON these rules cannot replay
            damage = Damage(record.id, entry.seq, f"replay: {_why(exc)}")
            break
        replayed.append(Entry(entry.seq, entry.verb, entry.command, events, entry.at))
        compare.at(len(replayed), history)
    if damage is None:  # stored events are damaged: reported, and computed again here
        try:
            _, stored = journal.readable_entries(record.id)
        except sqlite3.DatabaseError as exc:
            stored = {"seq": 0, "reason": f"events: {str(exc)[:60]}"}
        if stored is not None:
            damage = Damage(record.id, stored["seq"], stored["reason"])
    game = _Game(record, replayed, rules.summary(history.state), damage,
                 row_damage=row_damage)
    game.mismatches, game.rebuilt = compare.finish(len(replayed), damage is not None)
    return game


class _Snapshots:
    """A game's snapshot rows, each compared with the replay when it reaches its seq
    with the same checks as a resume (`Journal.checked_snapshot`), then the state."""

    def __init__(self, journal: Journal, game_id: int, root: type,
                 rows: list[tuple[Any, ...]]) -> None:
        self.journal, self.game_id, self.root = journal, game_id, root
        self.current = snapshot.version(root)
        self.mismatches: list[Mismatch] = []
        self.rebuilt: dict[int, tuple[int, str]] = {}
        self.waiting: dict[int, list[tuple[Any, ...]]] = {}
        for row in rows:
            rowid, seq, _, stamp, _ = row
            if isinstance(stamp, str) and not stamp.startswith(f"{snapshot.FORMAT}:"):
                continue  # written by another codec: never read by this one
            if type(seq) is int and seq > 0:
                self.waiting.setdefault(seq, []).append(row)
            else:
                self.mismatches.append(Mismatch(game_id, seq, "seq: not a position", rowid))

    def at(self, seq: int, history: History) -> None:
        rows = self.waiting.pop(seq, None)
        if not rows:
            return
        after_do = history.cursor == len(history) and history.cursor > 0
        if after_do:
            self.rebuilt[seq] = (history.cursor, snapshot.encode(history.state))
        for rowid, *row in rows:
            reason = self._differs(row, history)
            if reason is not None:
                self.mismatches.append(Mismatch(self.game_id, row[0], reason, rowid))

    def _differs(self, row: list[Any], history: History) -> str | None:
        try:
            snap = self.journal.checked_snapshot(self.game_id, row)
        except RowDamage as damage:
            return str(damage)
        if snap.version != self.current:
            return "version: not this app's"
        if snap.done != history.cursor or history.cursor != len(history):
            return f"done: {snap.done} where the replay has {history.cursor}"
        try:
            state = snapshot.decode(self.root, snap.state)
        except snapshot.SnapshotError as exc:
            return f"state: {exc}"
        if state != history.state:
            return "state: not the replay's"
        return None

    def finish(self, replayed: int, damaged: bool
               ) -> tuple[list[Mismatch], dict[int, tuple[int, str]]]:
        """Rows past the last action replayed: past the end, or past the damage (a
        damaged game is reported as such: its snapshots there are not compared)."""
        for seq, rows in sorted(self.waiting.items()):
            if damaged:
                continue
            for rowid, *_ in rows:
                self.mismatches.append(Mismatch(
                    self.game_id, seq, f"seq: after the last action ({replayed})", rowid))
        return self.mismatches, self.rebuilt


def rebuild_snapshots(path: Path | str) -> Report:
    """Every snapshot that does not match its replay taken out of the journal, and
    the replay's state written in its place where a snapshot belongs there (after a
    "do"); one transaction. Only snapshots change (derived data): stop the app first.
    Returns the report of the check made on the way."""
    journal = Journal(path)
    try:
        report = Report(Path(path), _integrity(journal))
        games = _games(journal, report)
        with journal.writing() as db:
            for mismatch in report.snapshots:  # those of no game in the journal
                db.execute("DELETE FROM snapshots WHERE rowid = ?", (mismatch.rowid,))
            for game in games:
                report.games += 1
                report.actions += len(game.entries)
                if game.damage is not None:
                    report.damages.append(game.damage)
                report.snapshots.extend(game.mismatches)
                _rebuild(db, game)
    finally:
        journal.close()
    return report


def _rebuild(db: sqlite3.Connection, game: _Game) -> None:
    for mismatch in game.mismatches:
        db.execute("DELETE FROM snapshots WHERE rowid = ?", (mismatch.rowid,))
        if type(mismatch.seq) is int and mismatch.seq in game.rebuilt:
            done, text = game.rebuilt[mismatch.seq]
            stamp = snapshot.version(rules_for(game.record.kind).state_type)
            db.execute("INSERT OR REPLACE INTO snapshots(game_id, seq, done, version, state)"
                       " VALUES (?, ?, ?, ?, ?)",
                       (game.record.id, mismatch.seq, done, stamp,
                        snapshot.seal(game.record.id, mismatch.seq, done, stamp, text)))


def _step(rules: Any, history: History, entry: Entry) -> list[dict[str, Any]]:
    if entry.verb == "do":
        command = decode(rules.commands, entry.command or {})
        after, events = rules.apply(history.state, command)
        history.do(Step(command, tuple(events), history.state, after))
        return [encode(e) for e in events]
    history.back(rules, entry.verb, entry.command)
    return []


def _why(exc: Exception) -> str:
    message = getattr(exc, "message", None)
    if message is not None and hasattr(message, "key"):
        return str(message.key)
    return f"{type(exc).__name__}: {str(exc)[:80]}"


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def salvage(path: Path | str) -> Salvaged:
    """Stop the app first. A journal written by a newer app is refused
    (`core.error.journal_newer`), not rewritten as this version."""
    source_path = Path(path)
    report = Report(source_path, "")
    building = source_path.with_name(source_path.name + ".salvaging")
    reading = source_path.with_name(source_path.name + ".salvage-source")
    for stale in (building, reading):
        for name in (stale, *(stale.with_name(stale.name + s) for s in SIDE_FILES)):
            name.unlink(missing_ok=True)
    try:
        source = Journal(_merged_copy(source_path, reading), read_only=True)
    except BaseException:
        _remove(reading)
        raise
    try:
        target = Journal(building)
    except BaseException:
        source.close()
        _remove(reading)
        raise
    try:
        report.integrity = _integrity(source)
        games = _games(source, report)
        with target.writing() as db:
            kept_ids = _copy(source, db, games, report)
            _copy_roster(source, db, kept_ids)
    finally:
        source.close()
        target.close()
        _remove(reading)
    kept = _swap(source_path, building)
    return Salvaged(source_path, kept, report.games, report.actions, report)


def _merged_copy(path: Path, copy: Path) -> Path:
    """What salvage reads: the journal itself when no WAL is beside it, else a copy of
    the two with the WAL's actions (a crash left them) written into it, as SQLite
    would on its next open. The old journal and its WAL are kept as they are."""
    wal = path.with_name(path.name + "-wal")
    if not wal.exists() or wal.stat().st_size == 0:
        return path
    shutil.copyfile(path, copy)
    shutil.copyfile(wal, copy.with_name(copy.name + "-wal"))
    _checkpoint(copy)
    return copy


def _remove(path: Path) -> None:
    for name in (path, *(path.with_name(path.name + s) for s in SIDE_FILES)):
        name.unlink(missing_ok=True)


def _checkpoint(path: Path) -> None:
    """The WAL's actions written into the journal file (best effort: a WAL that cannot
    be checkpointed stays beside it, and is read with it)."""
    try:
        db = sqlite3.connect(str(path), isolation_level=None, timeout=2)
        try:
            if db.execute("PRAGMA user_version").fetchone()[0] <= SCHEMA_VERSION:
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            db.close()
    except sqlite3.Error:
        pass


def _swap(source: Path, building: Path) -> Path:
    """The salvaged journal in the old one's place, so that at every moment (a kill or
    a power cut anywhere in between) a journal is there and the old one can be found:
    1. the old journal (and its side files) linked under a kept name: both names hold
       it; 2. the old side files taken from beside it (a WAL left there would be read
    into the new journal); 3. the new journal renamed over the old name (atomic)."""
    folder = source.parent
    kept = _kept_name(source, "before-salvage")
    os.link(source, kept)
    for suffix in SIDE_FILES:
        side = source.with_name(source.name + suffix)
        if side.exists():
            os.link(side, kept.with_name(kept.name + suffix))
    fsync_dir(folder)
    for suffix in SIDE_FILES:
        source.with_name(source.name + suffix).unlink(missing_ok=True)
    fsync_dir(folder)
    os.replace(building, source)
    fsync_dir(folder)
    return kept


def _kept_name(path: Path, label: str) -> Path:
    """`<name>.<label>-<stamp>`, never the name of a file already there."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    kept = path.with_name(f"{path.name}.{label}-{stamp}")
    n = 1
    while any(kept.with_name(kept.name + s).exists() for s in ("", *SIDE_FILES)):
        n += 1
        kept = path.with_name(f"{path.name}.{label}-{stamp}-{n}")
    return kept


def _copy(source: Journal, db: sqlite3.Connection, games: list[_Game],
          report: Report) -> set[int]:
    kept: set[int] = set()
    for game in games:
        report.damages.extend(game.damages)
        record = game.record
        if not game.kept or record.damaged is not None:
            continue  # nothing of it can be read
        summary = game.summary
        started, updated = _times(record, game.entries)
        db.execute(
            "INSERT INTO games(id, kind, setup, started, updated, finished, abandoned,"
            " summary) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (record.id, record.kind, _dumps(record.setup), started, updated,
             int(bool(summary.get("finished"))), int(record.abandoned), _dumps(summary)))
        db.executemany(
            "INSERT INTO actions(game_id, seq, verb, command, events, at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [(record.id, e.seq, e.verb, None if e.command is None else _dumps(e.command),
              _dumps(e.events), e.at) for e in game.entries])
        kept.add(record.id)
        report.games += 1
        report.actions += len(game.entries)
    return kept


def _times(record: GameRecord, entries: list[Entry]) -> tuple[float, float]:
    """The game's start and last times; one that cannot be read is computed again from
    its actions' times (the start no later than its first action, the last no earlier
    than its last one)."""
    started, updated = record.started, record.updated
    times = [e.at for e in entries]
    if math.isnan(started):
        started = min([*times, *([] if math.isnan(updated) else [updated])], default=0.0)
    if math.isnan(updated):
        updated = max([*times, started])
    return started, updated


def _copy_roster(source: Journal, db: sqlite3.Connection, games: set[int]) -> None:
    """The roster, and the seats of the kept games (rows that cannot be read are left)."""
    try:
        players = source.read("SELECT id, name, folded, colour, retired, created FROM players")
        links = source.read("SELECT game_id, seat, player_id FROM game_players")
    except sqlite3.DatabaseError:
        return
    known: set[int] = set()
    for row in players:
        try:
            db.execute("INSERT INTO players(id, name, folded, colour, retired, created)"
                       " VALUES (?, ?, ?, ?, ?, ?)", row)
            known.add(row[0])
        except sqlite3.DatabaseError:
            continue
    db.executemany("INSERT OR IGNORE INTO game_players(game_id, seat, player_id)"
                   " VALUES (?, ?, ?)",
                   [r for r in links if r[0] in games and r[2] in known])


__all__ = ["Damage", "JournalError", "Mismatch", "Report", "Salvaged", "check",
           "rebuild_snapshots", "salvage"]
