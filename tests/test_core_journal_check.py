"""`companion journal check [--salvage]`: damaged rows reported, the readable rest
saved into a new journal, the old one kept byte for byte (issue 14, case 2)."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

from companion.journal import Journal
from companion.night import history, stats
from tests.test_night_damaged import a_night, damage
from ui.commands.cli import main as companion


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_healthy_journal_is_reported_as_such(tmp_path, capsys):
    _, ids = a_night(tmp_path)
    path = tmp_path / "journal.sqlite3"
    before = _sha(path)
    assert companion(["journal", "check", "--journal", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"games that can be read: {len(ids)}" in out and "SQLite's check: ok" in out
    assert "Nothing is damaged." in out
    assert _sha(path) == before


def test_damage_is_reported_then_salvaged_keeping_the_old_journal(tmp_path, capsys):
    _, ids = a_night(tmp_path)
    path = tmp_path / "journal.sqlite3"
    damage(path, ids["castor"], "games", "summary", "not utf-8")
    damage(path, ids["bond"], "actions", "command", "not json")
    damage(path, ids["bond_done"], "actions", "events", "not json")  # events: replayed
    before = _sha(path)

    assert companion(["journal", "check", "--journal", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"Game {ids['castor']}: its row cannot be read (summary: not UTF-8)" in out
    assert f"Game {ids['bond']}: damaged from action 2 on (command: not JSON" in out
    assert f"Game {ids['bond_done']}: damaged from action 2 on (events: not JSON" in out
    assert "companion journal check --salvage" in out
    assert _sha(path) == before  # a check changes nothing

    assert companion(["journal", "check", "--salvage", "--journal", str(path)]) == 0
    out = capsys.readouterr().out
    kept = sorted(p for p in tmp_path.glob("journal.sqlite3.before-salvage-*")
                  if not p.name.endswith(("-wal", "-shm")))
    assert len(kept) == 1 and _sha(kept[0]) == before
    assert f"kept as {kept[0]}" in out

    j = Journal(path)
    # the castor game's row was damaged only in its summary: computed again, kept
    assert sorted(g.id for g in j.games()) == sorted(
        [ids["evil"], ids["castor"], ids["bond"], ids["bond_done"]])
    castor = j.game(ids["castor"])
    assert castor.damaged is None and castor.summary["finished"] is True
    assert len(j.entries(ids["castor"])) == 2
    assert len(j.entries(ids["bond"])) == 1  # up to the damage
    assert len(j.entries(ids["bond_done"])) == 4  # events computed again: all kept
    assert all(line.status != "damaged" for line in history.games(j))
    assert stats.statistics(j).kinds["bond"].games == 1
    assert [p.player.name for p in stats.statistics(j).players] == ["Ann", "Bob"]
    assert history.resume(j, ids["bond"]).can_undo()  # the salvaged game goes on
    j.close()
    assert companion(["journal", "check", "--journal", str(path)]) == 0


def test_a_journal_sqlite_calls_corrupt_is_reported_not_changed(tmp_path, capsys):
    a_night(tmp_path)
    path = tmp_path / "journal.sqlite3"
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=DELETE")
    db.close()
    data = bytearray(path.read_bytes())
    data[-4096 + 8: -4096 + 40] = b"\x00" * 32
    path.write_bytes(bytes(data))
    code = companion(["journal", "check", "--journal", str(path)])
    out = capsys.readouterr().out
    assert code in (0, 1) and "SQLite's check:" in out
    assert path.read_bytes() == bytes(data)


def test_a_missing_journal_is_said(tmp_path, capsys):
    assert companion(["journal", "check", "--journal", str(tmp_path / "none")]) == 2
    assert "Cannot open the journal" in capsys.readouterr().err
