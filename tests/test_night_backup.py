"""Backup then restore into an empty data directory gives identical history; a
truncated, damaged, newer or foreign file is refused and the current data untouched."""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path

import pytest

from companion.journal import Journal
from companion.night import backup, history, roster, stats
from tests.test_night_support import bond, castor, evil, open_journal, sheet


def _everything(j: Journal) -> dict[str, object]:
    """All data of a journal, as plain values."""
    return {table: j.read(f"SELECT * FROM {table} ORDER BY 1, 2")
            for table in ("games", "actions", "players", "game_players")}


@pytest.fixture
def source(tmp_path: Path) -> Journal:
    j = open_journal(tmp_path / "here")
    a, b, c = (roster.add(j, n, "#abcdef").id for n in ("Ann", "Bob", "Zoë"))
    castor(j, [a, b], [sheet([10, 5], [1, 2], [0, 3])] * 2, day=0)
    evil(j, [a, c], won=False, difficulty="expert", day=1)
    bond(j, [b, c], [(0, 3), (1, 2)], undo_last=True, day=2)
    bond(j, [a, c], [(1, 4)], end=False, day=3)
    roster.retire(j, b)
    return j


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_round_trip_into_empty_directory(source: Journal, tmp_path: Path) -> None:
    file = tmp_path / "night.backup"
    manifest = backup.create(source, file)
    assert (manifest.games, manifest.players) == (4, 3)
    assert backup.check(file) == manifest
    target = tmp_path / "elsewhere" / "journal.sqlite3"
    assert backup.restore(file, target) is None  # nothing was there to keep
    restored = Journal(target)
    assert _everything(restored) == _everything(source)
    assert history.games(restored) == history.games(source)
    assert history.log(restored, 3) == history.log(source, 3)
    assert stats.statistics(restored) == stats.statistics(source)
    # and the restored journal goes on: the unfinished game resumes
    assert history.resume(restored, 4).state.scores == (0, 4)
    restored.close()


def test_restore_keeps_the_replaced_journal(source: Journal, tmp_path: Path) -> None:
    file = tmp_path / "night.backup"
    backup.create(source, file)
    other = open_journal(tmp_path / "other")
    roster.add(other, "Someone")
    other.close()
    target = tmp_path / "other" / "journal.sqlite3"
    kept = backup.restore(file, target)
    assert kept is not None and kept.exists()
    assert [p.name for p in roster.players(Journal(kept), include_retired=True)] == ["Someone"]
    assert len(Journal(target).games()) == 4


def _refused(file: Path, target: Path, key: str) -> None:
    before = _digest(target)
    with pytest.raises(backup.BackupError) as exc:
        backup.restore(file, target)
    assert exc.value.message.key == key
    assert _digest(target) == before
    assert sorted(p.name for p in target.parent.iterdir() if "restore" in p.name) == []


@pytest.fixture
def current(tmp_path: Path) -> Path:
    j = open_journal(tmp_path / "current")
    roster.add(j, "Kept")
    j.close()
    return tmp_path / "current" / "journal.sqlite3"


def test_truncated_backup_refused(source: Journal, tmp_path: Path, current: Path) -> None:
    file = tmp_path / "night.backup"
    backup.create(source, file)
    data = file.read_bytes()
    for size in (len(data) // 2, len(data) - 10, 40):
        cut = tmp_path / f"cut-{size}"
        cut.write_bytes(data[:size])
        _refused(cut, current, "night.backup.damaged")


def test_damaged_database_refused(source: Journal, tmp_path: Path, current: Path) -> None:
    file = tmp_path / "night.backup"
    backup.create(source, file)
    with zipfile.ZipFile(file) as zf:
        manifest, db = zf.read(backup.MANIFEST), bytearray(zf.read(backup.DATABASE))
    db[5000] ^= 0xFF
    bad = tmp_path / "bad.backup"
    with zipfile.ZipFile(bad, "w") as zf:
        zf.writestr(backup.MANIFEST, manifest)
        zf.writestr(backup.DATABASE, bytes(db))
    _refused(bad, current, "night.backup.damaged")


def _rewrite(file: Path, out: Path, **changes: object) -> None:
    with zipfile.ZipFile(file) as zf:
        manifest, db = json.loads(zf.read(backup.MANIFEST)), zf.read(backup.DATABASE)
    manifest.update(changes)
    with zipfile.ZipFile(out, "w") as zf:
        zf.writestr(backup.MANIFEST, json.dumps(manifest))
        zf.writestr(backup.DATABASE, db)


@pytest.mark.parametrize("field", ["format_version", "schema_version"])
def test_newer_version_refused(source: Journal, tmp_path: Path, current: Path,
                               field: str) -> None:
    file = tmp_path / "night.backup"
    backup.create(source, file)
    newer = tmp_path / "newer.backup"
    _rewrite(file, newer, **{field: 99})
    _refused(newer, current, "night.backup.newer")


def test_files_that_are_not_ours_refused(source: Journal, tmp_path: Path,
                                         current: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    _refused(text, current, "night.backup.not_ours")
    _refused(current, current, "night.backup.not_ours")  # a bare SQLite file
    foreign = tmp_path / "photos.zip"
    with zipfile.ZipFile(foreign, "w") as zf:
        zf.writestr("photo.jpg", b"\xff\xd8")
    _refused(foreign, current, "night.backup.not_ours")
    file = tmp_path / "night.backup"
    backup.create(source, file)
    other = tmp_path / "other.backup"
    _rewrite(file, other, format="someone-else")
    _refused(other, current, "night.backup.not_ours")


def test_missing_file_refused(tmp_path: Path, current: Path) -> None:
    _refused(tmp_path / "nowhere.backup", current, "night.backup.unreadable")
