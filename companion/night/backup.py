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
  newer version (`night.backup.newer`) or unreadable (`night.backup.unreadable`).
- `restore(path, journal_path) -> Path | None`: checks everything first (the current
  data is untouched when refused), then keeps the current journal aside as
  `<name>.before-restore-<stamp>` (returned; None if there was none) and puts the
  backup's journal in its place. Close the app's `Journal` before restoring, and open
  it again afterwards.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import tempfile
import time
import zipfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import companion
from companion.journal import SCHEMA_VERSION, Journal
from companion.messages import CompanionError

FORMAT = "table-companion-backup"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
DATABASE = "journal.sqlite3"
_TABLES = ("games", "actions", "players", "game_players")


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


def _counts(db: sqlite3.Connection) -> tuple[int, int, int]:
    return tuple(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]  # type: ignore[return-value]
                 for table in ("games", "actions", "players"))


def _digest(path: Path) -> str:
    sha = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            sha.update(block)
    return sha.hexdigest()


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(str(path), os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def create(journal: Journal, path: Path | str) -> Manifest:
    target = Path(path)
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
                                players, copy.stat().st_size, _digest(copy))
            partial = target.with_name(target.name + ".partial")
            with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED) as zf:
                zf.writestr(MANIFEST, json.dumps(asdict(manifest), indent=2, sort_keys=True))
                zf.write(copy, DATABASE)
            with partial.open("rb") as handle:
                os.fsync(handle.fileno())
            os.replace(partial, target)
            _fsync_dir(target.parent)
    except OSError as exc:
        raise BackupError("night.backup.write_failed", path=str(target),
                          reason=exc.strerror or str(exc)) from exc
    return manifest


def _manifest(zf: zipfile.ZipFile, path: str) -> Manifest:
    try:
        data: Any = json.loads(zf.read(MANIFEST).decode("utf-8"))
    except KeyError as exc:
        raise BackupError("night.backup.not_ours", path=path) from exc
    except (ValueError, UnicodeDecodeError) as exc:
        raise BackupError("night.backup.damaged", path=path, reason=str(exc)) from exc
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError("night.backup.not_ours", path=path)
    fv, sv = data.get("format_version"), data.get("schema_version")
    if not isinstance(fv, int) or not isinstance(sv, int):
        raise BackupError("night.backup.damaged", path=path, reason="manifest")
    if fv > FORMAT_VERSION or sv > SCHEMA_VERSION:
        raise BackupError("night.backup.newer", path=path, version=max(fv, sv))
    try:
        return Manifest(**{k: data[k] for k in Manifest.__dataclass_fields__})
    except (KeyError, TypeError) as exc:
        raise BackupError("night.backup.damaged", path=path, reason="manifest") from exc


def _extract(path: Path, into: Path) -> tuple[Manifest, Path]:
    """Check the file and extract its journal into `into`; raises BackupError."""
    name = str(path)
    try:
        with path.open("rb") as handle:
            head = handle.read(4)
    except OSError as exc:
        raise BackupError("night.backup.unreadable", path=name,
                          reason=exc.strerror or str(exc)) from exc
    if head != b"PK\x03\x04":
        raise BackupError("night.backup.not_ours", path=name)
    db_path = into / DATABASE
    try:
        with zipfile.ZipFile(path) as zf:
            manifest = _manifest(zf, name)
            if DATABASE not in zf.namelist():
                raise BackupError("night.backup.damaged", path=name, reason=DATABASE)
            with zf.open(DATABASE) as src, db_path.open("wb") as dst:
                for block in iter(lambda: src.read(1 << 20), b""):
                    dst.write(block)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError) as exc:
        raise BackupError("night.backup.damaged", path=name, reason=str(exc)) from exc
    except OSError as exc:
        raise BackupError("night.backup.unreadable", path=name,
                          reason=exc.strerror or str(exc)) from exc
    if db_path.stat().st_size != manifest.size or _digest(db_path) != manifest.sha256:
        raise BackupError("night.backup.damaged", path=name, reason="checksum")
    _check_database(db_path, manifest, name)
    return manifest, db_path


def _check_database(db_path: Path, manifest: Manifest, name: str) -> None:
    try:
        db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
        try:
            check = db.execute("PRAGMA quick_check").fetchone()
            if check is None or check[0] != "ok":
                raise BackupError("night.backup.damaged", path=name, reason=str(check))
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise BackupError("night.backup.newer", path=name, version=version)
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
            if not set(_TABLES[:2]) <= tables:
                raise BackupError("night.backup.not_ours", path=name)
            counts = _counts(db) if "players" in tables else None
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        raise BackupError("night.backup.damaged", path=name, reason=str(exc)) from exc
    if counts is not None and counts != (manifest.games, manifest.actions, manifest.players):
        raise BackupError("night.backup.damaged", path=name, reason="counts")


def check(path: Path | str) -> Manifest:
    with tempfile.TemporaryDirectory(prefix="companion-restore-") as tmp:
        manifest, _ = _extract(Path(path), Path(tmp))
    return manifest


def restore(path: Path | str, journal_path: Path | str) -> Path | None:
    target = Path(journal_path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BackupError("night.backup.write_failed", path=str(target.parent),
                          reason=exc.strerror or str(exc)) from exc
    # extract next to the journal, so the final rename stays on one file system
    with tempfile.TemporaryDirectory(prefix=".restore-", dir=target.parent) as tmp:
        _, db_path = _extract(Path(path), Path(tmp))
        with db_path.open("rb") as handle:
            os.fsync(handle.fileno())
        kept = None
        try:
            if target.exists():
                kept = _aside(target)
            os.replace(db_path, target)
            _fsync_dir(target.parent)
        except OSError as exc:
            raise BackupError("night.backup.write_failed", path=str(target),
                              reason=exc.strerror or str(exc)) from exc
    return kept


def _aside(target: Path) -> Path:
    """Keep the current journal (and its WAL files) aside, never overwritten."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    kept = target.with_name(f"{target.name}.before-restore-{stamp}")
    n = 1
    while kept.exists():
        n += 1
        kept = target.with_name(f"{target.name}.before-restore-{stamp}-{n}")
    os.replace(target, kept)
    for suffix in ("-wal", "-shm"):
        side = target.with_name(target.name + suffix)
        if side.exists():
            os.replace(side, kept.with_name(kept.name + suffix))
    return kept
