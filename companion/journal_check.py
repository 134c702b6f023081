"""`companion journal check`: what in the journal cannot be read, and a salvage of the
rest into a new journal (the old one is kept beside it, never changed).

- `check(path) -> Report`: SQLite's own quick check, then every game: its row, its
  actions in order, and a replay of them by the game's rules. A game is damaged from
  its first action that cannot be read or replayed (`Damage.seq`), or whole when its
  own row cannot be read (`Damage.seq is None`). The file is opened read-only: not a
  byte of it changes.
- `salvage(path) -> Salvaged`: a new journal with every readable game up to its
  damage (the summary and the events computed again by the rules), the roster and
  the links of games to players; the old file (with its WAL) is kept as
  `<name>.before-salvage-<stamp>` and the new one takes its place. Stop the app first.
"""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.files import fsync_dir, keep_aside
from companion.games import rules_for
from companion.journal import Entry, GameRecord, Journal, JournalError
from companion.records import decode, encode
from companion.session import History, Step


@dataclass(frozen=True)
class Damage:
    game: int
    seq: int | None  # the first action that cannot be read; None: the game's own row
    reason: str


@dataclass
class Report:
    path: Path
    integrity: str  # "ok", or what SQLite's quick check says
    games: int = 0
    actions: int = 0
    damages: list[Damage] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.integrity == "ok" and not self.damages


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


def check(path: Path | str) -> Report:
    journal = Journal(path, read_only=True)
    try:
        report = Report(Path(path), _integrity(journal))
        for game in _games(journal, report):
            report.games += 1
            report.actions += len(game.entries)
            if game.damage is not None:
                report.damages.append(game.damage)
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
        return []
    return [_readable(journal, record) for record in records]


def _readable(journal: Journal, record: GameRecord) -> _Game:
    """A game's actions that can be read and replayed, and where its damage starts."""
    if record.damaged is not None:
        return _Game(record, [], {}, Damage(record.id, None, record.damaged))
    try:
        entries, broken = journal.readable_entries(record.id, with_events=False)
    except sqlite3.DatabaseError as exc:
        return _Game(record, [], record.summary, Damage(record.id, 0, str(exc)))
    damage = None if broken is None else Damage(record.id, broken["seq"], broken["reason"])
    try:
        rules = rules_for(record.kind)
    except KeyError:  # a kind this version does not know: its rows as they are
        return _Game(record, entries, record.summary, damage)
    try:
        history = History(rules.initial_state(record.setup))
    except Exception as exc:  # a setup of the wrong shape: nothing can be replayed
        return _Game(record, [], {}, Damage(record.id, None, f"setup: {_why(exc)}"))
    replayed: list[Entry] = []
    for entry in entries:
        try:
            events = _step(rules, history, entry)
        except Exception as exc:  # valid JSON these rules cannot replay
            damage = Damage(record.id, entry.seq, f"replay: {_why(exc)}")
            break
        replayed.append(Entry(entry.seq, entry.verb, entry.command, events, entry.at))
    if damage is None:  # stored events are damaged: reported, and computed again here
        _, stored = journal.readable_entries(record.id)
        if stored is not None:
            damage = Damage(record.id, stored["seq"], stored["reason"])
    return _Game(record, replayed, rules.summary(history.state), damage)


def _step(rules: Any, history: History, entry: Entry) -> list[dict[str, Any]]:
    if entry.verb == "do":
        command = decode(rules.commands, entry.command or {})
        after, events = rules.apply(history.state, command)
        history.do(Step(command, tuple(events), history.state, after))
        return [encode(e) for e in events]
    if entry.verb == "undo":
        history.undo()
    else:
        history.redo()
    return []


def _why(exc: Exception) -> str:
    message = getattr(exc, "message", None)
    if message is not None and hasattr(message, "key"):
        return str(message.key)
    return f"{type(exc).__name__}: {str(exc)[:80]}"


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def salvage(path: Path | str) -> Salvaged:
    source_path = Path(path)
    report = Report(source_path, "")
    source = Journal(source_path, read_only=True)
    building = source_path.with_name(source_path.name + ".salvaging")
    for stale in (building, *(building.with_name(building.name + s) for s in ("-wal", "-shm"))):
        stale.unlink(missing_ok=True)
    target = Journal(building)
    try:
        report.integrity = _integrity(source)
        games = _games(source, report)
        with target.writing() as db:
            kept_ids = _copy(source, db, games, report)
            _copy_roster(source, db, kept_ids)
    finally:
        source.close()
        target.close()
    kept = keep_aside(source_path, "before-salvage")
    os.replace(building, source_path)
    fsync_dir(source_path.parent)
    return Salvaged(source_path, kept, report.games, report.actions, report)


def _copy(source: Journal, db: sqlite3.Connection, games: list[_Game],
          report: Report) -> set[int]:
    kept: set[int] = set()
    for game in games:
        if game.damage is not None:
            report.damages.append(game.damage)
        record = game.record
        if record.damaged is not None or (game.damage is not None
                                          and game.damage.seq is None):
            continue  # nothing of it can be read
        summary = game.summary
        db.execute(
            "INSERT INTO games(id, kind, setup, started, updated, finished, abandoned,"
            " summary) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (record.id, record.kind, _dumps(record.setup), record.started, record.updated,
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


__all__ = ["Damage", "JournalError", "Report", "Salvaged", "check", "salvage"]
