"""Issue 14, cases 4, 5 and 9: hostile files in the restore list are refused, before
more than a bounded number of bytes is written, with a message (never a crash), and
the current journal is untouched."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import struct
import tracemalloc
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.journal import Journal
from companion.night import backup, roster
from tests.test_night_support import castor, open_journal, sheet

MiB = 1024 * 1024
#: what any refusal may write at most (the largest block read while streaming, and more)
WRITE_BOUND = 2 * MiB
MEMORY_BOUND = 32 * MiB


def _written() -> int:
    """Bytes this process has written so far (files, pipes), from the kernel."""
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("wchar:"):
            return int(line.split()[1])
    raise AssertionError("no wchar in /proc/self/io")


@pytest.fixture
def current(tmp_path: Path) -> Path:
    j = open_journal(tmp_path / "current")
    roster.add(j, "Kept")
    j.close()
    return tmp_path / "current" / "journal.sqlite3"


@pytest.fixture
def good(tmp_path: Path) -> tuple[bytes, dict[str, object]]:
    """A real backup's database and manifest, to build hostile files from."""
    j = open_journal(tmp_path / "source")
    a, b = roster.add(j, "Ann").id, roster.add(j, "Bob").id
    castor(j, [a, b], [sheet([10, 5], [1, 2], [0, 3])])
    file = tmp_path / "good.zip"
    backup.create(j, file)
    j.close()
    with zipfile.ZipFile(file) as zf:
        return zf.read(backup.DATABASE), json.loads(zf.read(backup.MANIFEST))


def _zip(path: Path, entries: list[tuple[str | zipfile.ZipInfo, bytes]],
         compression: int = zipfile.ZIP_DEFLATED) -> Path:
    with zipfile.ZipFile(path, "w", compression=compression) as zf:
        for name, data in entries:
            zf.writestr(name, data)
    return path


def _manifest_for(db: bytes, base: dict[str, object], **changes: object) -> bytes:
    manifest = dict(base, size=len(db), sha256=hashlib.sha256(db).hexdigest())
    manifest.update(changes)
    return json.dumps(manifest).encode()


def _patch(path: Path, name: str, **fields: int) -> None:
    """Rewrite a zip entry's header fields in place (local and central headers):
    method, flags or file_size, as a hostile tool would."""
    data = bytearray(path.read_bytes())
    raw = name.encode()
    offsets = {"flags": (6, 8), "method": (8, 10), "file_size": (22, 24)}
    for signature, shift in ((b"PK\x03\x04", 0), (b"PK\x01\x02", 2)):
        start = 0
        while (at := data.find(signature, start)) >= 0:
            start = at + 4
            name_at = at + (30 if shift == 0 else 46)
            if bytes(data[name_at:name_at + len(raw)]) != raw:
                continue
            for field, value in fields.items():
                offset = offsets[field][0 if shift == 0 else 1]
                fmt = "<I" if field == "file_size" else "<H"
                struct.pack_into(fmt, data, at + offset, value)
    path.write_bytes(bytes(data))


def _refused(file: Path, target: Path, keys: tuple[str, ...] = ("night.backup.refused",),
             ) -> backup.BackupError:
    before = hashlib.sha256(target.read_bytes()).hexdigest()
    tracemalloc.start()
    written = _written()
    try:
        with pytest.raises(backup.BackupError) as caught:
            backup.restore(file, target)
        written = _written() - written
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert caught.value.message.key in keys, caught.value.message
    assert written < WRITE_BOUND, f"{written} bytes written before refusing"
    assert peak < MEMORY_BOUND, f"{peak} bytes of memory"
    assert hashlib.sha256(target.read_bytes()).hexdigest() == before
    assert [p.name for p in target.parent.iterdir() if "restore" in p.name] == []
    return caught.value


Maker = Callable[[Path, bytes, dict[str, object]], Path]


def encrypted(tmp: Path, db: bytes, base: dict[str, object]) -> Path:
    path = _zip(tmp / "x.zip", [(backup.MANIFEST, _manifest_for(db, base)),
                                (backup.DATABASE, db)])
    _patch(path, backup.DATABASE, flags=0x1)
    return path


def unknown_compression(tmp: Path, db: bytes, base: dict[str, object]) -> Path:
    path = _zip(tmp / "x.zip", [(backup.MANIFEST, _manifest_for(db, base)),
                                (backup.DATABASE, db)])
    _patch(path, backup.DATABASE, method=99)
    return path


def lzma_compression(tmp: Path, db: bytes, base: dict[str, object]) -> Path:
    return _zip(tmp / "x.zip", [(backup.MANIFEST, _manifest_for(db, base)),
                                (backup.DATABASE, db)], compression=zipfile.ZIP_LZMA)


def deep_manifest(tmp: Path, db: bytes, base: dict[str, object]) -> Path:
    deep = b"[" * 8000 + b"]" * 8000  # under the size bound, past json's recursion
    return _zip(tmp / "x.zip", [(backup.MANIFEST, deep), (backup.DATABASE, db)])


def deeper_manifest(tmp: Path, db: bytes, base: dict[str, object]) -> Path:
    deep = b'{"format": "table-companion-backup", "x": ' + b"[" * 500_000 + b"]" * 500_000
    return _zip(tmp / "x.zip", [(backup.MANIFEST, deep + b"}"), (backup.DATABASE, db)])


def huge_created(tmp: Path, db: bytes, base: dict[str, object]) -> Path:
    return _zip(tmp / "x.zip", [(backup.MANIFEST, _manifest_for(db, base, created=1e308)),
                                (backup.DATABASE, db)])


def textual_created(tmp: Path, db: bytes, base: dict[str, object]) -> Path:
    return _zip(tmp / "x.zip", [
        (backup.MANIFEST, _manifest_for(db, base, created="next tuesday")),
        (backup.DATABASE, db)])


def nan_created(tmp: Path, db: bytes, base: dict[str, object]) -> Path:
    text = _manifest_for(db, base, created=0.0).replace(b'"created": 0.0', b'"created": NaN')
    return _zip(tmp / "x.zip", [(backup.MANIFEST, text), (backup.DATABASE, db)])


def nested_counts(tmp: Path, db: bytes, base: dict[str, object]) -> Path:
    return _zip(tmp / "x.zip", [
        (backup.MANIFEST, _manifest_for(db, base, games={"n": [1, 2]})),
        (backup.DATABASE, db)])


def extra_keys(tmp: Path, db: bytes, base: dict[str, object]) -> Path:
    return _zip(tmp / "x.zip", [
        (backup.MANIFEST, _manifest_for(db, base, comment="x" * 100)),
        (backup.DATABASE, db)])


def database_bomb(tmp: Path, db: bytes, base: dict[str, object]) -> Path:
    # an honest header: 64 MiB of zeros in 64 KiB (the 2 MB zip of 2 GiB, smaller)
    zeros = bytes(64 * MiB)
    return _zip(tmp / "x.zip", [(backup.MANIFEST, _manifest_for(zeros, base)),
                                (backup.DATABASE, zeros)])


def lying_database_bomb(tmp: Path, db: bytes, base: dict[str, object]) -> Path:
    # the header says 1 MiB, the stream inflates to 64 MiB
    zeros = bytes(64 * MiB)
    path = _zip(tmp / "x.zip", [(backup.MANIFEST, _manifest_for(zeros[:MiB], base)),
                                (backup.DATABASE, zeros)])
    _patch(path, backup.DATABASE, file_size=MiB)
    return path


def manifest_bomb(tmp: Path, db: bytes, base: dict[str, object]) -> Path:
    # the "1 MB zip with a 1 GiB manifest", at 64 MiB
    big = b'{"format": "table-companion-backup", "pad": "' + b" " * (64 * MiB) + b'"}'
    return _zip(tmp / "x.zip", [(backup.MANIFEST, big), (backup.DATABASE, db)])


def lying_manifest_bomb(tmp: Path, db: bytes, base: dict[str, object]) -> Path:
    big = b'{"format": "table-companion-backup", "pad": "' + b" " * (64 * MiB) + b'"}'
    path = _zip(tmp / "x.zip", [(backup.MANIFEST, big), (backup.DATABASE, db)])
    _patch(path, backup.MANIFEST, file_size=400)
    return path


def stored_sizes_differ(tmp: Path, db: bytes, base: dict[str, object]) -> Path:
    path = _zip(tmp / "x.zip", [(backup.MANIFEST, _manifest_for(db, base)),
                                (backup.DATABASE, db)], compression=zipfile.ZIP_STORED)
    _patch(path, backup.DATABASE, file_size=len(db) * 50)
    return path


def extra_entry(tmp: Path, db: bytes, base: dict[str, object]) -> Path:
    return _zip(tmp / "x.zip", [(backup.MANIFEST, _manifest_for(db, base)),
                                (backup.DATABASE, db), ("../../evil.sh", b"rm -rf /")])


def duplicate_entry(tmp: Path, db: bytes, base: dict[str, object]) -> Path:
    with pytest.warns(UserWarning):  # zipfile warns of the duplicate name it writes
        return _zip(tmp / "x.zip", [(backup.MANIFEST, _manifest_for(db, base)),
                                    (backup.DATABASE, db), (backup.DATABASE, b"x" * 10)])


def many_entries(tmp: Path, db: bytes, base: dict[str, object]) -> Path:
    # a directory of 30 000 entries: refused from the zip's end record, never listed
    path = tmp / "x.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(backup.MANIFEST, _manifest_for(db, base))
        zf.writestr(backup.DATABASE, db)
        for i in range(30_000):
            zf.writestr(f"{i}", b"")
    return path


def _database(tmp: Path, sql: str) -> bytes:
    """A journal changed by `sql` (made by the test itself)."""
    path = tmp / "made.sqlite3"
    Journal(path).close()
    db = sqlite3.connect(path)
    db.executescript(sql)
    db.execute("PRAGMA journal_mode=DELETE")
    db.close()
    return path.read_bytes()


def _with_database(tmp: Path, data: bytes, base: dict[str, object]) -> Path:
    counts = dict(games=0, actions=0, players=0)
    return _zip(tmp / "x.zip", [(backup.MANIFEST, _manifest_for(data, base, **counts)),
                                (backup.DATABASE, data)])


def wrong_game_columns(tmp: Path, db: bytes, base: dict[str, object]) -> Path:
    data = _database(tmp, "DROP TABLE game_facts; DROP TABLE game_players; DROP TABLE actions;"
                          " DROP TABLE games; CREATE TABLE games(id INTEGER PRIMARY KEY, x);"
                          " CREATE TABLE actions(game_id, seq, verb, command, events, at);")
    return _with_database(tmp, data, base)


def wrong_action_columns(tmp: Path, db: bytes, base: dict[str, object]) -> Path:
    data = _database(tmp, "DROP TABLE actions; CREATE TABLE actions(game_id INTEGER, seq TEXT,"
                          " verb TEXT, command TEXT, at REAL);")
    return _with_database(tmp, data, base)


def with_trigger(tmp: Path, db: bytes, base: dict[str, object]) -> Path:
    data = _database(tmp, "CREATE TRIGGER t AFTER INSERT ON actions BEGIN"
                          " DELETE FROM games; END;")
    return _with_database(tmp, data, base)


HOSTILE: list[Maker] = [
    encrypted, unknown_compression, lzma_compression, deep_manifest, deeper_manifest,
    huge_created, textual_created, nan_created, nested_counts, extra_keys, database_bomb,
    lying_database_bomb, manifest_bomb, lying_manifest_bomb, stored_sizes_differ,
    extra_entry, duplicate_entry, many_entries, wrong_game_columns, wrong_action_columns,
    with_trigger,
]


@pytest.mark.parametrize("make", HOSTILE, ids=[m.__name__ for m in HOSTILE])
def test_a_hostile_backup_is_refused_before_writing_much(tmp_path, current, good, make):
    db, base = good
    file = make(tmp_path, db, base)
    # (a manifest nested too deep for Python 3.11's json is damaged; 3.13's json reads
    # it, and a list is not our manifest)
    error = _refused(file, current, ("night.backup.refused", "night.backup.damaged",
                                     "night.backup.not_ours"))
    assert error.message.params["path"] == str(file)


def test_the_good_backup_these_are_made_from_is_accepted(tmp_path, current, good):
    db, base = good
    file = _zip(tmp_path / "ok.zip", [(backup.MANIFEST, _manifest_for(db, base)),
                                      (backup.DATABASE, db)])
    assert backup.check(file).games == 1
    assert backup.restore(file, current) is not None
    assert len(Journal(current).games()) == 1


def test_a_real_journal_deflates_far_below_the_ratio_bound(tmp_path):
    # a journal of many games deflates well, but far below the bound
    j = open_journal(tmp_path / "many")
    a, b = roster.add(j, "Ann").id, roster.add(j, "Bob").id
    for day in range(60):
        castor(j, [a, b], [sheet([10, 5], [1, 2], [0, 3])] * 2, day=day)
    file = tmp_path / "many.zip"
    backup.create(j, file)
    j.close()
    with zipfile.ZipFile(file) as zf:
        info = zf.getinfo(backup.DATABASE)
    assert info.file_size / info.compress_size < backup.MAX_RATIO / 4
    assert backup.check(file).games == 60


def extra_table(tmp: Path, db: bytes, base: dict[str, object]) -> Path:
    data = _database(tmp, "CREATE TABLE notes(id INTEGER PRIMARY KEY, text TEXT);")
    return _with_database(tmp, data, base)


@pytest.mark.parametrize("sql", [
    # the snapshots of another layout (issue 33, item 8: every resume then failed with
    # "no such column", every game at its 100th action)
    "DROP TABLE snapshots; CREATE TABLE snapshots(game_id INTEGER, seq INTEGER,"
    " blob BLOB, PRIMARY KEY (game_id, seq));",
    "DROP TABLE snapshots; CREATE TABLE snapshots(game_id, seq, done, version, state,"
    " extra);",
    "DROP TABLE game_facts; CREATE TABLE game_facts(game_id INTEGER PRIMARY KEY, x);",
], ids=["snapshots of other columns", "snapshots with one more", "facts of other columns"])
def test_a_backup_whose_derived_tables_differ_restores_and_plays_on(tmp_path, current, good,
                                                                    sql):
    """Derived tables (snapshots, a game's cached facts) of other columns are dropped
    by the restore and computed again: the games are all there, resume, and a long
    game writes its snapshots again."""
    from companion.games import rules_for
    from companion.session import Session
    from tests.helpers.evil import setup as evil_setup
    from tests.test_core_snapshots import _play_one

    source = open_journal(tmp_path / "derived")
    session = Session.start(rules_for("evil"), source, evil_setup(seed=11))
    session.snapshot_every = 5
    for _ in range(12):
        _play_one(session)
    state, game = session.state, session.game_id
    source.close()
    made = tmp_path / "derived" / "journal.sqlite3"
    db = sqlite3.connect(made)
    db.executescript(sql)
    db.execute("PRAGMA journal_mode=DELETE")
    counts = {table: db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
              for table in ("games", "actions", "players")}
    db.close()
    data = made.read_bytes()
    file = _zip(tmp_path / "derived.zip", [
        (backup.MANIFEST, _manifest_for(data, good[1], **counts)),
        (backup.DATABASE, data)])
    assert backup.check(file).games == 1
    assert backup.restore(file, current) is not None
    j = Journal(current)
    resumed = Session.resume(rules_for("evil"), j, game)
    assert resumed.state == state
    resumed.snapshot_every = 1
    resumed.dispatch(resumed.undo())  # a "do": a snapshot written in the new table
    assert j.read("SELECT MAX(seq) FROM snapshots") == [(resumed._seq,)]
    assert Session.resume(rules_for("evil"), j, game)._history._base > 0
    j.close()


def test_a_backup_with_a_table_of_its_own_is_refused(tmp_path, current, good):
    db, base = good
    error = _refused(extra_table(tmp_path, db, base), current, ("night.backup.refused",))
    assert error.message.params["reason"] == "table notes"
