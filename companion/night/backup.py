"""A full backup file of the journal, and its restore (on this device or another).

Format: a zip holding `manifest.json` and `journal.sqlite3`. The database copy is
made with SQLite's online backup API, so it is consistent even while a game is being
played; the manifest says what the file is (`format`), its `format_version`, the
journal's `schema_version`, when and by which app it was made, the counts of games,
actions and players, and the copy's size and SHA-256. Why a zip rather than the bare
SQLite file: the manifest lets a restore refuse a file that is not ours or from a
newer version before opening anything, and the checksum (with zip's own CRC) catches
a truncated or damaged copy that SQLite might only notice when it reads a bad page.

API:
- `create(journal, path) -> Manifest`: writes the backup atomically.
- `check(path) -> Manifest`: the manifest of a valid backup; raises `BackupError`
  (a translatable message) for a file that is not a backup
  (`night.backup.not_ours`), truncated or damaged (`night.backup.damaged`), from a
  newer version (`night.backup.newer`), unreadable (`night.backup.unreadable`), or
  refused as hostile or foreign (`night.backup.refused`, with the reason).

Before a byte is extracted, a restore checks that the file is a plain zip of exactly
the two entries (no encryption, stored or deflated only), that their declared sizes
are bounded (`MAX_MANIFEST`, `MAX_DATABASE`, a compression ratio of at most
`MAX_RATIO` above `RATIO_FREE`) and that the card has room; entries are then streamed,
never past their declared size (a lying header stops there). The manifest must have
exactly our keys, each of its type and bounds (`created` a date between 2000 and
3000). The database must pass SQLite's quick check, have the journal's tables with
the journal's columns, no other table, and no trigger nor view; its derived tables
(`game_facts`, `snapshots`: computed from the others) are dropped by the restore when
their columns are not this journal's, and computed again.
- `restore(path, journal_path) -> Path | None`: checks everything first, then keeps
  the current journal aside as `<name>.before-restore-<stamp>` (returned; None if
  there was none) and puts the backup's journal in its place. Close the app's
  `Journal` before restoring, and open it again afterwards.
- `restore_all(path, journal_path, config_dir=None) -> Restored`: the same, and the
  table's own files with it (below); `Restored` says the journal kept aside, the files
  written, the files of the table's kept aside, and the files restored but broken.
- All or nothing: the journal (opened there as a start opens it: checked, migrated)
  and the files (loaded there by the app's loaders) are staged beside their places,
  then take them together (`companion.night.swap`); any failure leaves the journal
  and the table's files exactly as they were. `finish_pending(journal_path)`: what
  the start runs first, finishing or undoing a restore a kill left half done.

The table's own files (format version 2): the score pad's templates (`pad/*.yaml`)
and the clock's presets (`clock/*.yaml`) beside the user's config file
(`config_dir`, default `own_config_dir()`) go into the backup as entries of those
names, each at most the config reader's 64 KiB (a bigger one is broken anyway and
left out), at most `MAX_OWN_FILES` of them, each listed in the manifest's `files`
with its size and SHA-256. A restore accepts only entries the manifest lists, named
`pad/<name>.yaml` or `clock/<name>.yaml` (letters, digits, `_`, `-`, `.`; no folder,
no `..` of their own: nothing is ever written outside those two folders), of the size
and checksum the manifest says. They take their places with the journal; a file
of the table's of the same name and other content is kept aside
(`<name>.yaml.before-restore-<stamp>`, which the loaders never read); the table's
files the backup does not hold are left as they are. A restored template or preset
that its loader lists as broken is restored all the same and listed as broken (as
the setup screens list it); one its loader fails on refuses the restore. A version 1
backup (no `files`) restores the journal only.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import json
import os
import re
import shutil
import sqlite3
import tempfile
import time
import zipfile
import zlib
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, BinaryIO

import companion
from companion.files import SIDE_FILES, aside_name, fsync_dir, open_regular
from companion.game import GameNight, OwnFileRefused
from companion.games import KINDS, night_for
from companion.journal import SCHEMA, SCHEMA_VERSION, Journal, JournalError
from companion.messages import CompanionError
from companion.night import swap

FORMAT = "table-companion-backup"
FORMAT_VERSION = 2
MANIFEST = "manifest.json"
DATABASE = "journal.sqlite3"
MAX_OWN_FILES = 300  # the loaders read 200 templates and 100 presets
MAX_OWN_SIZE = 64 * 1024  # the config reader's bound: a bigger file never loads
_TABLES = ("games", "actions", "players", "game_players")
#: tables of data computed from the others (a game's facts, its snapshots): a backup's
#: that do not have this journal's columns are dropped, and the app computes them again
_DERIVED = ("game_facts", "snapshots")


@functools.cache
def own_folders() -> dict[str, GameNight]:
    """The folders of the table's own files beside its config file, each its game's
    (`GameNight.own_folder`: the score pad's templates, the clock's presets). Asked
    when a backup is made or read, not when the app starts."""
    found = {}
    for kind in KINDS:
        night = night_for(kind)
        if night.own_folder:
            found[night.own_folder] = night
    return found


@functools.cache
def own_name() -> re.Pattern[str]:
    """How the backup names one of the table's own files: `<folder>/<name>.yaml`."""
    folders = "|".join(map(re.escape, own_folders()))
    return re.compile(rf"^({folders})/[A-Za-z0-9][A-Za-z0-9_.-]{{0,79}}\.yaml$")


def _owner(folder_name: str) -> GameNight:
    return own_folders()[folder_name]


class BackupError(CompanionError):
    """A backup file that cannot be made or restored; the message says why."""


@dataclass(frozen=True)
class Manifest:
    format: str
    format_version: int
    schema_version: int
    created: float
    app_version: str
    games: int
    actions: int
    players: int
    size: int
    sha256: str
    files: tuple[tuple[str, int, str], ...] = ()  # the table's own: name, size, SHA-256


@dataclass(frozen=True)
class Restored:
    """What a restore did: the journal kept aside (None: there was none), the table's
    files written, its files of the same names kept aside, and those written that do
    not load (each as `pad/<name>.yaml`)."""

    kept: Path | None
    files: tuple[str, ...] = ()
    kept_files: tuple[Path, ...] = ()
    broken: tuple[str, ...] = ()


def own_config_dir() -> Path:
    """The folder whose `pad/` and `clock/` hold the table's own templates and presets
    (beside the user's config file)."""
    from companion.games.pad.templates import user_dir

    return user_dir().parent


def _own_files(config_dir: Path) -> list[tuple[str, bytes]]:
    """The table's own template and preset files, as the backup names them."""
    found: list[tuple[str, bytes]] = []
    for folder in own_folders():
        where = config_dir / folder
        if not where.is_dir():
            continue
        for path in sorted(where.glob("*.yaml")):
            name = f"{folder}/{path.name}"
            if not own_name().match(name) or len(found) >= MAX_OWN_FILES:
                continue
            try:
                with open_regular(path) as handle:  # a pipe or a folder is skipped
                    data = handle.read(MAX_OWN_SIZE + 1)
            except OSError:
                continue
            if len(data) <= MAX_OWN_SIZE:
                found.append((name, data))
    return found


def _counts(db: sqlite3.Connection) -> tuple[int, int, int]:
    return tuple(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]  # type: ignore[return-value]
                 for table in ("games", "actions", "players"))


def _digest(path: Path) -> str:
    sha = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            sha.update(block)
    return sha.hexdigest()


def create(journal: Journal, path: Path | str, config_dir: Path | None = None) -> Manifest:
    target = Path(path)
    own = _own_files(own_config_dir() if config_dir is None else Path(config_dir))
    try:
        with tempfile.TemporaryDirectory(prefix="companion-backup-") as tmp:
            copy = Path(tmp) / DATABASE
            journal.backup_into(copy)
            db = sqlite3.connect(str(copy))
            try:
                db.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
                games, actions, players = _counts(db)
                version = db.execute("PRAGMA user_version").fetchone()[0]
            finally:
                db.close()
            manifest = Manifest(FORMAT, FORMAT_VERSION, version, time.time(),
                                getattr(companion, "__version__", ""), games, actions,
                                players, copy.stat().st_size, _digest(copy),
                                tuple((name, len(data), hashlib.sha256(data).hexdigest())
                                      for name, data in own))
            partial = target.with_name(target.name + ".partial")
            with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED) as zf:
                zf.writestr(MANIFEST, json.dumps(asdict(manifest), indent=2, sort_keys=True))
                zf.write(copy, DATABASE)
                for name, data in own:
                    zf.writestr(name, data)
            with partial.open("rb") as handle:
                os.fsync(handle.fileno())
            os.replace(partial, target)
            fsync_dir(target.parent)
    except (OSError, sqlite3.Error) as exc:  # a full card, one turned read-only
        with contextlib.suppress(OSError):  # no half-written backup left beside them
            target.with_name(target.name + ".partial").unlink(missing_ok=True)
        raise BackupError("night.backup.write_failed", path=str(target),
                          reason=getattr(exc, "strerror", None) or str(exc)) from exc
    return manifest


# -- what a restore accepts: checked before a byte is extracted ---------------------------
MAX_MANIFEST = 16 * 1024  # ours is about 400 bytes
MAX_DATABASE = 2 * 1024**3  # years of game nights are tens of megabytes
#: a journal deflates 3 to 20 times; zeroed free pages more: a bomb far more
MAX_RATIO = 200
RATIO_FREE = 8 * 1024**2  # below this size any ratio is accepted
CREATED = (946684800.0, 32503680000.0)  # 2000-01-01 to 3000-01-01
_COMPRESSIONS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)
_BLOCK = 64 * 1024


def _refuse(path: str, reason: str) -> BackupError:
    return BackupError("night.backup.refused", path=path, reason=reason)


def _directory_problem(handle: BinaryIO) -> str | None:
    """Read the zip's end record before zipfile reads its whole directory: a file of
    millions of entries is refused without listing them. None: a handful of entries."""
    try:
        handle.seek(0, os.SEEK_END)
        size = handle.tell()
        handle.seek(max(0, size - (22 + 0xFFFF)))
        tail = handle.read()
    except OSError:
        return None  # reading fails again below, with the reason
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or len(tail) - at < 22:
        return None  # not a zip: zipfile says so below
    entries, directory = int.from_bytes(tail[at + 10:at + 12], "little"), \
        int.from_bytes(tail[at + 12:at + 16], "little")
    if entries > MAX_OWN_FILES + 4 or directory > (MAX_OWN_FILES + 4) * 200:
        # a few more are named by _entries
        return f"{entries} entries"
    return None


def _entries(zf: zipfile.ZipFile, path: str
             ) -> tuple[zipfile.ZipInfo, zipfile.ZipInfo, list[zipfile.ZipInfo]]:
    """The manifest's and the database's entries, once each, and the table's own files
    (named as `own_name` says, once each, at most `MAX_OWN_FILES` of `MAX_OWN_SIZE`),
    nothing else, plain (no encryption, stored or deflated), of bounded size and
    compression ratio."""
    infos = zf.infolist()
    names = [info.filename for info in infos]
    if MANIFEST not in names:
        raise BackupError("night.backup.not_ours", path=path)
    own = [n for n in names if n not in (MANIFEST, DATABASE)]
    strange = [n for n in own if not own_name().match(n)]
    if strange or sorted(n for n in names if n in (MANIFEST, DATABASE)) != sorted(
            (MANIFEST, DATABASE)) or len(set(names)) != len(names) or len(
            own) > MAX_OWN_FILES:
        shown = strange or names
        raise _refuse(path, "entries: " + ", ".join(repr(n[:40]) for n in shown[:5]))
    found = {info.filename: info for info in infos}
    for info in infos:
        if info.flag_bits & 0x1:
            raise _refuse(path, f"{info.filename}: encrypted")
        if info.compress_type not in _COMPRESSIONS:
            raise _refuse(path, f"{info.filename}: compression {info.compress_type}")
        if info.compress_type == zipfile.ZIP_STORED and info.compress_size != info.file_size:
            raise _refuse(path, f"{info.filename}: sizes")
    manifest, database = found[MANIFEST], found[DATABASE]
    if manifest.file_size > MAX_MANIFEST or manifest.compress_size > MAX_MANIFEST:
        raise _refuse(path, f"{MANIFEST}: {manifest.file_size} bytes")
    if database.file_size > MAX_DATABASE:
        raise _refuse(path, f"{DATABASE}: {database.file_size} bytes")
    if database.file_size > max(RATIO_FREE, database.compress_size * MAX_RATIO):
        raise _refuse(path, f"{DATABASE}: compression ratio")
    files = [found[n] for n in own]
    for info in files:
        if info.file_size > MAX_OWN_SIZE or info.compress_size > MAX_OWN_SIZE:
            raise _refuse(path, f"{info.filename[:60]}: {info.file_size} bytes")
    return manifest, database, files


def _inflate(zf: zipfile.ZipFile, info: zipfile.ZipInfo, out: Any, path: str) -> int:
    """Stream an entry into `out`, never past its declared size (a lying header is
    refused after at most that many bytes); returns the bytes written."""
    written = 0
    with zf.open(info) as src:
        while block := src.read(_BLOCK):
            written += len(block)
            if written > info.file_size:
                raise _refuse(path, f"{info.filename}: longer than declared")
            out.write(block)
    if written != info.file_size:
        raise BackupError("night.backup.damaged", path=path, reason=info.filename)
    return written


def _create(path: Path) -> BinaryIO:
    try:
        return swap.OPS.create(path)
    except OSError as exc:
        raise _write_failed(exc, path) from exc


class _Out:
    """A file written through `swap.OPS` (where a test makes the card full)."""

    def __init__(self, handle: BinaryIO) -> None:
        self.handle = handle

    def write(self, data: bytes) -> None:
        try:
            swap.OPS.write(self.handle, data)
        except OSError as exc:  # the card full: never said as a backup unreadable
            raise _write_failed(exc, Path(self.handle.name)) from exc


def _manifest(zf: zipfile.ZipFile, info: zipfile.ZipInfo, path: str) -> Manifest:
    buffer = io.BytesIO()
    _inflate(zf, info, buffer, path)
    try:
        data: Any = json.loads(buffer.getvalue().decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise BackupError("night.backup.damaged", path=path, reason=MANIFEST) from exc
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError("night.backup.not_ours", path=path)
    fv, sv = data.get("format_version"), data.get("schema_version")
    if _whole(fv, 1, 10**6) and _whole(sv, 0, 10**6) and (
            fv > FORMAT_VERSION or sv > SCHEMA_VERSION):
        raise BackupError("night.backup.newer", path=path, version=max(fv, sv))
    problem = _manifest_problem(data)
    if problem is not None:
        raise _refuse(path, f"{MANIFEST}: {problem}")
    fields = {k: data[k] for k in Manifest.__dataclass_fields__ if k in data}
    fields["files"] = tuple(tuple(item) for item in data.get("files", []))
    return Manifest(**fields)


def _whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _manifest_problem(data: dict[str, Any]) -> str | None:
    """What is wrong with the manifest's shape, or None: exactly our keys, each of its
    type and within bounds (a date the screen can show, counts a journal can hold)."""
    fields = set(Manifest.__dataclass_fields__)
    if set(data) != fields and not (set(data) == fields - {"files"}
                                    and data.get("format_version") == 1):
        return "keys"
    created = data["created"]
    if isinstance(created, bool) or not isinstance(created, (int, float)) or not (
            CREATED[0] <= created <= CREATED[1]):
        return "created"
    if not isinstance(data["app_version"], str) or len(data["app_version"]) > 40:
        return "app_version"
    for key in ("games", "actions", "players"):
        if not _whole(data[key], 0, 10**9):
            return key
    if not _whole(data["size"], 1, MAX_DATABASE):
        return "size"
    digest = data["sha256"]
    if not (isinstance(digest, str) and len(digest) == 64
            and all(ch in "0123456789abcdef" for ch in digest)):
        return "sha256"
    if not (_whole(data["format_version"], 1, FORMAT_VERSION)
            and _whole(data["schema_version"], 0, SCHEMA_VERSION)):
        return "version"
    return _files_problem(data.get("files", []))


def _files_problem(files: Any) -> str | None:
    """The manifest's list of the table's own files: [name, size, sha256] each, named
    as a restore accepts, once each, of bounded size."""
    if not isinstance(files, list) or len(files) > MAX_OWN_FILES:
        return "files"
    seen = set()
    for item in files:
        if not (isinstance(item, list) and len(item) == 3 and isinstance(item[0], str)
                and own_name().match(item[0]) and item[0] not in seen
                and _whole(item[1], 0, MAX_OWN_SIZE) and isinstance(item[2], str)
                and len(item[2]) == 64 and all(c in "0123456789abcdef" for c in item[2])):
            return "files"
        seen.add(item[0])
    return None


Extracted = tuple[Manifest, Path, list[tuple[str, Path]]]


def _extract(path: Path, into: Path) -> Extracted:
    """Check the file and extract its journal into `into`, and the table's own files
    into `into/own/` (by a name of ours: never a path the archive gives); raises
    BackupError."""
    name = str(path)
    try:  # only a regular file (a named pipe would hang the restore), opened once
        handle = open_regular(path)
    except OSError as exc:
        raise BackupError("night.backup.unreadable", path=name,
                          reason=exc.strerror or str(exc)) from exc
    with handle:
        return _extract_from(handle, name, into)


def _extract_from(handle: BinaryIO, name: str, into: Path) -> Extracted:
    try:
        head = handle.read(4)
    except OSError as exc:
        raise BackupError("night.backup.unreadable", path=name,
                          reason=exc.strerror or str(exc)) from exc
    if head != b"PK\x03\x04":
        raise BackupError("night.backup.not_ours", path=name)
    db_path = into / DATABASE
    problem = _directory_problem(handle)
    if problem is not None:
        raise _refuse(name, problem)
    try:
        with zipfile.ZipFile(handle) as zf:
            manifest_info, database_info, own_infos = _entries(zf, name)
            manifest = _manifest(zf, manifest_info, name)
            if manifest.size != database_info.file_size:
                raise BackupError("night.backup.damaged", path=name, reason="size")
            listed = {item[0]: item for item in manifest.files}
            if sorted(listed) != sorted(info.filename for info in own_infos):
                raise _refuse(name, "files: not as the manifest lists them")
            _room_for(into, database_info.file_size)
            with _create(db_path) as dst:
                _inflate(zf, database_info, _Out(dst), name)
            own = _inflate_own(zf, own_infos, listed, into, name)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, zlib.error,
            NotImplementedError, RuntimeError, ValueError) as exc:
        raise BackupError("night.backup.damaged", path=name, reason=str(exc)[:120]) from exc
    except OSError as exc:
        raise BackupError("night.backup.unreadable", path=name,
                          reason=exc.strerror or str(exc)) from exc
    if _digest(db_path) != manifest.sha256:
        raise BackupError("night.backup.damaged", path=name, reason="checksum")
    _check_database(db_path, manifest, name)
    return manifest, db_path, own


def _inflate_own(zf: zipfile.ZipFile, infos: list[zipfile.ZipInfo],
                 listed: dict[str, tuple[str, int, str]], into: Path, name: str
                 ) -> list[tuple[str, Path]]:
    """The table's own files, each into a file named by its index, checked against the
    manifest's size and checksum."""
    folder = into / "own"
    try:
        swap.OPS.mkdir(folder)
    except OSError as exc:
        raise _write_failed(exc, folder) from exc
    out = []
    for k, info in enumerate(infos):
        _, size, digest = listed[info.filename]
        buffer = io.BytesIO()
        _inflate(zf, info, buffer, name)
        data = buffer.getvalue()
        if len(data) != size or hashlib.sha256(data).hexdigest() != digest:
            raise BackupError("night.backup.damaged", path=name,
                              reason=f"{info.filename[:60]}: checksum")
        part = folder / str(k)
        with _create(part) as handle:
            _Out(handle).write(data)
        out.append((info.filename, part))
    return out


def _room_for(folder: Path, size: int) -> None:
    """A restore must not fill the card: the copy and a margin must fit."""
    free = shutil.disk_usage(folder).free
    if size + 16 * 1024**2 > free:
        raise BackupError("night.backup.write_failed", path=str(folder),
                          reason=f"{size} bytes needed, {free} free")


def _journal_columns() -> dict[str, list[tuple[Any, ...]]]:
    """The columns of the journal's tables, from the schema itself."""
    db = sqlite3.connect(":memory:")
    try:
        db.executescript(SCHEMA)
        return {table: _columns(db, table) for table in (*_TABLES, *_DERIVED)}
    finally:
        db.close()


def _columns(db: sqlite3.Connection, table: str) -> list[tuple[Any, ...]]:
    # name, declared type, not null, primary key (cid and default left out)
    return [(r[1], r[2].upper(), r[3], r[5])
            for r in db.execute(f"PRAGMA table_info({table})")]


def _check_database(db_path: Path, manifest: Manifest, name: str) -> None:
    try:
        db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
        try:
            db.execute("PRAGMA trusted_schema=OFF")  # run nothing the file defines
            check = db.execute("PRAGMA quick_check").fetchone()
            if check is None or check[0] != "ok":
                raise BackupError("night.backup.damaged", path=name, reason=str(check))
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise BackupError("night.backup.newer", path=name, version=version)
            objects = db.execute("SELECT type, name FROM sqlite_master").fetchall()
            tables = {n for type_, n in objects if type_ == "table"}
            if not set(_TABLES[:2]) <= tables:
                raise BackupError("night.backup.not_ours", path=name)
            problem = _schema_problem(db, objects)
            if problem is not None:
                raise _refuse(name, problem)
            counts = _counts(db) if "players" in tables else None
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        raise BackupError("night.backup.damaged", path=name, reason=str(exc)) from exc
    if counts is not None and counts != (manifest.games, manifest.actions, manifest.players):
        raise BackupError("night.backup.damaged", path=name, reason="counts")


def _schema_problem(db: sqlite3.Connection, objects: list[tuple[str, str]]) -> str | None:
    """The journal's tables with the journal's columns, no other table, and no trigger
    nor view (they would run on the app's own writes). A derived table of other columns
    is no problem: `_drop_stale_derived` drops it."""
    for type_, object_name in objects:
        if type_ in ("trigger", "view"):  # SQLite's object types, not kinds of game
            return f"{type_} {object_name[:40]}"
    expected = _journal_columns()
    present = {n for type_, n in objects if type_ == "table"}
    for table in sorted(present):
        if table not in expected and not table.startswith("sqlite_"):
            return f"table {table[:40]}"
    for table in _TABLES:
        if table in present and _columns(db, table) != expected[table]:
            return f"columns of {table}"
    return None


def _stale_derived(db: sqlite3.Connection) -> list[str]:
    """The derived tables of the backup whose columns are not this journal's."""
    expected = _journal_columns()
    present = {n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    return [t for t in _DERIVED if t in present and _columns(db, t) != expected[t]]


def _drop_stale_derived(db_path: Path) -> list[str]:
    """Drop the backup's derived tables of other columns (the journal recreates them
    empty when it opens: facts and snapshots are computed again); the dropped ones."""
    db = sqlite3.connect(str(db_path))
    try:
        db.execute("PRAGMA trusted_schema=OFF")
        stale = _stale_derived(db)
        for table in stale:
            db.execute(f'DROP TABLE "{table}"')
        db.commit()
    finally:
        db.close()
    return stale


def check(path: Path | str) -> Manifest:
    with tempfile.TemporaryDirectory(prefix="companion-restore-") as tmp:
        manifest, _, _ = _extract(Path(path), Path(tmp))
    return manifest


def restore(path: Path | str, journal_path: Path | str) -> Path | None:
    """The journal only (the table's own files stay as they are)."""
    return restore_all(path, journal_path, own=False).kept


def finish_pending(journal_path: Path | str) -> dict[str, Any] | None:
    """A restore that a killed process (or a power cut) left half done, finished or
    undone (`swap.finish`): what the start runs before it opens the journal. None:
    there was none; else its state (`forward`: finished; else undone) and info."""
    return swap.finish(swap.marker_for(Path(journal_path)))


def _write_failed(exc: OSError, where: Path) -> BackupError:
    return BackupError("night.backup.write_failed", path=str(exc.filename or where),
                       reason=exc.strerror or str(exc) or type(exc).__name__)


def restore_all(path: Path | str, journal_path: Path | str,
                config_dir: Path | None = None, *, own: bool = True) -> Restored:
    """All or nothing: the backup's journal and files are checked and written in
    staging folders beside their places, then take them together (`swap`); any
    failure leaves the journal and the table's files exactly as they were."""
    target = Path(journal_path)
    config = own_config_dir() if config_dir is None else Path(config_dir)
    marker = swap.marker_for(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        swap.finish(marker)  # one a killed process left: finished before another
    except OSError as exc:
        raise _write_failed(exc, target.parent) from exc
    name = str(path)
    try:
        with swap.Swap(marker, info={"backup": name}) as job:
            _, db_path, files = _extract(Path(path), job.stage(target.parent))
            _ready(db_path, name)
            entries, kept = _journal_entries(target, db_path)
            own_entries, written, broken = _stage_own(job, files, config, name) \
                if own else ([], [], ())
            entries += own_entries
            job.info["kept"] = None if kept is None else str(kept)
            job.commit(entries)
    except swap.NotUndone as exc:
        reason = exc.reason
        raise BackupError("night.backup.not_undone", path=name, reason=getattr(
            reason, "strerror", None) or str(reason) or type(reason).__name__) from exc
    except OSError as exc:
        raise _write_failed(exc, target.parent) from exc
    kept_files = tuple(e.kept for e in own_entries if e.kept is not None)
    return Restored(kept, tuple(written), kept_files, broken)


def _ready(db_path: Path, name: str) -> None:
    """The extracted journal made ready where it is staged: the backup's derived tables
    of other columns dropped, then opened as a start opens it (checked, migrated), so
    a journal the app would not open is refused here; then synced."""
    try:
        _drop_stale_derived(db_path)
        journal = Journal(db_path)
        try:
            if journal.moved_aside is not None or journal.read_only is not None:
                raise BackupError("night.backup.damaged", path=name, reason="journal")
        finally:
            journal.close()
    except sqlite3.DatabaseError as exc:
        if getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or \
                "disk is full" in str(exc):  # the card, not the backup
            raise BackupError("night.backup.write_failed", path=str(db_path.parent),
                              reason=str(exc)[:120]) from exc
        raise BackupError("night.backup.damaged", path=name,
                          reason=str(exc)[:120]) from exc
    except JournalError as exc:
        reason = exc.message.params.get("reason") or exc.message.key
        raise BackupError("night.backup.damaged", path=name,
                          reason=str(reason)[:120]) from exc
    for suffix in ("", *SIDE_FILES):
        side = db_path.with_name(db_path.name + suffix)
        if side.exists():
            swap.OPS.sync_file(side)
    swap.OPS.sync_dir(db_path.parent)


def _journal_entries(target: Path, db_path: Path) -> tuple[list[swap.Entry], Path | None]:
    """The journal's place and its side files': the current ones kept aside under one
    name (`<name>.before-restore-<stamp>`), the staged ones put in their place. Also
    the name the current journal is kept under (None: there was none)."""
    sides = [target.with_name(target.name + s) for s in (*SIDE_FILES, "")]
    kept = aside_name(target, "before-restore") if any(map(os.path.lexists, sides)) \
        else None
    entries = []
    for suffix in (*SIDE_FILES, ""):  # the old side files first: never the new's
        place = target.with_name(target.name + suffix)
        staged = db_path.with_name(db_path.name + suffix)
        aside = kept.with_name(kept.name + suffix) if kept is not None and \
            os.path.lexists(place) else None
        if aside is not None or staged.exists():
            entries.append(swap.Entry(place, aside, staged if staged.exists() else None))
    return entries, kept if target.exists() or target.is_symlink() else None


def _stage_own(job: swap.Swap, files: list[tuple[str, Path]], config_dir: Path, name: str
               ) -> tuple[list[swap.Entry], list[str], tuple[str, ...]]:
    """The table's own files written into a staging folder inside `pad/` and
    `clock/` under `config_dir` (the name checked again: only those two folders), and
    loaded there by the app's own loaders: a file a loader fails on (rather than
    listing it as broken) refuses the restore. The entries to put them in place (a
    different file of the same name kept aside; an identical one left), the names
    restored, and those that do not load."""
    by_folder: dict[str, list[tuple[str, bytes]]] = {}
    for part_name, part in files:
        if not own_name().match(part_name):  # checked before extracting; never trusted twice
            continue
        folder_name, file_name = part_name.split("/")
        by_folder.setdefault(folder_name, []).append((file_name, part.read_bytes()))
    entries, written, staged_in = [], [], {}
    for folder_name, items in by_folder.items():
        folder = config_dir / folder_name
        staging = staged_in[folder_name] = job.stage(folder)
        for file_name, data in items:
            target = folder / file_name
            written.append(f"{folder_name}/{file_name}")
            swap.write_file(staging / file_name, data)  # the same too: loaded below
            if target.is_file() and not target.is_symlink() and _same(target, data):
                continue
            kept = aside_name(target, "before-restore") if os.path.lexists(target) \
                else None
            entries.append(swap.Entry(target, kept, staging / file_name))
        swap.OPS.sync_dir(staging)
    broken = _broken(staged_in, name)
    return entries, written, tuple(n for n in written if n in broken)


def _same(path: Path, data: bytes) -> bool:
    try:
        with open_regular(path) as handle:
            return handle.read(MAX_OWN_SIZE + 1) == data
    except OSError:
        return False


def _broken(staged_in: dict[str, Path], name: str) -> set[str]:
    """The staged files their game's loader lists as broken; one it fails on is
    refused."""
    bad: set[str] = set()
    for folder_name in own_folders():
        if folder_name not in staged_in:
            continue
        try:
            broken = _owner(folder_name).broken_own(staged_in[folder_name])
        except OwnFileRefused as exc:
            raise _refuse(name, f"{exc.where}: {type(exc.cause).__name__}") from exc.cause
        bad |= {f"{folder_name}/{b}" for b in broken}
    return bad
