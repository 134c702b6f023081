"""The journal's schema 2: a version-1 journal is migrated, keeping every game and
action, and its players become roster players linked to their games."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from companion.journal import SCHEMA_VERSION, Journal
from companion.night import history, stats

V1_SCHEMA = """
CREATE TABLE games (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, setup TEXT NOT NULL,
    started REAL NOT NULL, updated REAL NOT NULL, finished INTEGER NOT NULL DEFAULT 0,
    abandoned INTEGER NOT NULL DEFAULT 0, summary TEXT NOT NULL DEFAULT '{}');
CREATE TABLE actions (game_id INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,
    verb TEXT NOT NULL CHECK (verb IN ('do', 'undo', 'redo')), command TEXT,
    events TEXT NOT NULL DEFAULT '[]', at REAL NOT NULL, PRIMARY KEY (game_id, seq));
CREATE INDEX games_by_state ON games(finished, abandoned, updated);
PRAGMA user_version=1;
"""


def _v1(path: Path) -> None:
    db = sqlite3.connect(path)
    db.executescript(V1_SCHEMA)
    games = [
        (1, "bond", {"players": [{"name": "Ann"}, {"name": "Bob"}]},
         {"finished": True, "players": ["Ann", "Bob"], "scores": [12, 30],
          "winners": ["Bob"]}),
        (2, "bond", {"players": [{"name": " ann "}, {"name": "Cy"}]},
         {"finished": True, "players": ["ann", "Cy"], "scores": [31, 2], "winners": ["ann"]}),
        (3, "evil", {"players": [{"name": "BOB", "character": "x"}]},
         {"finished": False, "outcome": None}),
    ]
    for gid, kind, setup, summary in games:
        db.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, 0, ?)",
                   (gid, kind, json.dumps(setup), 1000.0 + gid, 1500.0 + gid,
                    int(summary["finished"]), json.dumps(summary)))
    db.execute("INSERT INTO actions VALUES (1, 0, 'do', '{\"type\":\"EndGame\"}', '[]', 1001)")
    db.commit()
    db.close()


def test_migration_from_v1_keeps_data_and_builds_roster(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    _v1(path)
    j = Journal(path)
    assert j.moved_aside is None
    assert j.read("PRAGMA user_version") == [(SCHEMA_VERSION,)] == [(3,)]
    assert [g.id for g in j.games()] == [1, 2, 3]
    assert j.game(2).summary["scores"] == [31, 2]
    assert [e.command for e in j.entries(1)] == [{"type": "EndGame"}]
    names = dict(j.read("SELECT id, name FROM players"))
    assert sorted(names.values()) == ["Ann", "Bob", "Cy"]  # "ann" and "BOB" are the same
    ids = {v: k for k, v in names.items()}
    links = j.read("SELECT game_id, seat, player_id FROM game_players ORDER BY 1, 2")
    assert links == [(1, 0, ids["Ann"]), (1, 1, ids["Bob"]), (2, 0, ids["Ann"]),
                     (2, 1, ids["Cy"]), (3, 0, ids["Bob"])]
    ann = stats.statistics(j).player(ids["Ann"])
    assert (ann.overall.games, ann.overall.wins) == (2, 1)
    assert ann.by_kind["bond"].best_score == 31
    assert [s.name for s in history.game(j, 2).seats] == ["Ann", "Cy"]
    j.close()


def test_migration_runs_once(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    _v1(path)
    Journal(path).close()
    j = Journal(path)
    assert j.read("SELECT COUNT(*) FROM players") == [(3,)]
    assert j.read("SELECT COUNT(*) FROM game_players") == [(5,)]
    j.close()


def test_new_journal_has_schema_3_and_empty_roster(tmp_path: Path) -> None:
    j = Journal(tmp_path / "new.sqlite3")
    assert j.read("PRAGMA user_version") == [(3,)]
    assert j.read("SELECT COUNT(*) FROM players") == [(0,)]
    j.close()
