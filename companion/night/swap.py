"""Files put in their places together, or not at all: a restore's journal and the
table's own files (templates, clock presets), which live in different folders.

How: everything new is written first into staging folders (`.restore-<token>`) beside
the places it goes, so each final rename stays on one file system and is atomic. An
intent file beside the journal (`<journal>.restoring`, JSON, written to a temporary
name, synced, then renamed) says at each moment what a start must do:

- `staging`: nothing in place has changed yet; the staging folders it lists (and the
  folders made for them) are removed.
- `forward`: the decision is taken; every rename it lists is done (a file in the way
  first moved to its `kept` name), those already done skipped.
- `back`: a rename failed; those done are undone, in reverse order.

Each step looks at what is on disk before it acts, so a step done twice (a process
killed in the middle, then the start) does nothing the second time: a start after a
kill at any point ends on the old files or on the new ones, whole. `finish` is what
the start runs, before the journal is opened.

Every file-system step goes through `OPS`, so that a test can make any one of them
fail (a full card) or kill the process there.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from companion.files import fsync_dir, restore_marker

log = logging.getLogger(__name__)

STAGING_PREFIX = ".restore-"
FORMAT = "table-companion-swap"


class Ops:
    """The file-system steps of a swap (and of the staging writes)."""

    def mkdir(self, path: Path) -> None:
        os.mkdir(path)

    def create(self, path: Path) -> BinaryIO:
        return open(path, "xb")  # closed by the caller

    def write(self, handle: BinaryIO, data: bytes) -> None:
        handle.write(data)

    def sync(self, handle: BinaryIO) -> None:
        handle.flush()
        os.fsync(handle.fileno())

    def sync_file(self, path: Path) -> None:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def sync_dir(self, folder: Path) -> None:
        fsync_dir(folder)

    def rename(self, source: Path, target: Path) -> None:
        os.replace(source, target)

    def remove(self, path: Path) -> None:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()

    def rmdir(self, path: Path) -> None:
        os.rmdir(path)


OPS = Ops()


def write_file(path: Path, data: bytes) -> None:
    """A new file of `data`, synced."""
    with OPS.create(path) as handle:
        OPS.write(handle, data)
        OPS.sync(handle)


@dataclass(frozen=True)
class Entry:
    """One place: what is there moves to `kept` (None: nothing there, or nothing to
    keep), then `staged` (None: nothing new) takes its place."""

    target: Path
    kept: Path | None
    staged: Path | None


class NotUndone(Exception):
    """A rename failed and undoing those done failed too: the intent file is left, and
    the next start undoes the rest. `reason`: why the rename failed."""

    def __init__(self, reason: BaseException) -> None:
        super().__init__(str(reason))
        self.reason = reason


def marker_for(journal_path: Path) -> Path:
    return restore_marker(journal_path)


@dataclass
class Swap:
    """One swap, from its first staging folder to its last rename. Used as a context
    manager: leaving it by an exception before `commit` removes everything staged."""

    marker: Path
    info: dict[str, Any] = field(default_factory=dict)
    staging: list[Path] = field(default_factory=list)
    made: list[Path] = field(default_factory=list)  # folders made for the staging
    token: str = field(default_factory=lambda: secrets.token_hex(4))
    committed: bool = False

    def __enter__(self) -> Swap:
        return self

    def __exit__(self, kind: Any, *_: Any) -> None:
        if kind is not None and not self.committed:
            try:
                self.abandon()
            except OSError as exc:  # the intent file says staging: the start cleans
                log.error("removing a refused restore's staging failed (%s)", exc)

    def _write(self, state: str, entries: list[Entry] | None = None) -> None:
        entries = entries or []
        _write_marker(self.marker, {
            "format": FORMAT, "state": state, "info": self.info,
            "staging": [str(p) for p in self.staging], "made": [str(p) for p in self.made],
            "entries": [[str(e.target), _str(e.kept), _str(e.staged)] for e in entries]})

    def stage(self, folder: Path) -> Path:
        """A new staging folder inside `folder` (made with its missing parents): the
        intent file names them all before any is made."""
        missing = []
        for parent in (folder, *folder.parents):
            if parent.exists() or parent.is_symlink():
                break
            missing.append(parent)
        staging = folder / f"{STAGING_PREFIX}{self.token}"
        self.made += reversed(missing)
        self.staging.append(staging)
        self._write("staging")
        try:
            for made in reversed(missing):
                OPS.mkdir(made)
            OPS.mkdir(staging)
        except OSError as exc:  # said of the folder (a file in its place, read-only)
            raise OSError(exc.errno, exc.strerror, str(folder)) from exc
        return staging

    def commit(self, entries: list[Entry]) -> None:
        """Every entry in place (the decision taken when the intent file says
        `forward`), then the staging removed. A failed rename undoes those done and
        raises its OSError; NotUndone if undoing failed too."""
        self._write("forward", entries)
        self.committed = True
        try:
            _forward(entries)
        except BaseException as exc:
            log.error("a restore's rename failed (%s): undoing it", exc)
            self._undo(entries, exc)
            raise
        try:
            _clean(self.marker, self.staging, [])
        except OSError as exc:  # everything is in place: the start cleans the rest
            log.error("cleaning after a restore failed (%s)", exc)

    def _undo(self, entries: list[Entry], exc: BaseException) -> None:
        """Undo the renames done; NotUndone when the old files cannot be told to be
        back in place with nothing left that a start would redo."""
        try:
            self._write("back", entries)
            said = True
        except OSError as again:
            log.error("the restore's intent could not be turned back (%s)", again)
            said = False
        try:
            _backward(entries)
        except OSError as again:
            log.error("undoing the restore failed too (%s): the start does it", again)
            raise NotUndone(exc) from again
        try:
            _clean(self.marker, self.staging, self.made)
        except OSError as again:
            if not said:  # the intent file still says forward: a start would redo it
                raise NotUndone(exc) from again
            log.error("cleaning after an undone restore failed (%s)", again)

    def abandon(self) -> None:
        """Before `commit`: the staging removed, the table's files never touched."""
        _clean(self.marker, self.staging, self.made)


def _str(path: Path | None) -> str | None:
    return None if path is None else str(path)


def _write_marker(marker: Path, data: dict[str, Any]) -> None:
    temporary = marker.with_name(marker.name + ".tmp")
    if temporary.exists():
        OPS.remove(temporary)
    write_file(temporary, json.dumps(data, indent=1).encode("utf-8"))
    OPS.rename(temporary, marker)
    OPS.sync_dir(marker.parent)


def _exists(path: Path) -> bool:
    return path.exists() or path.is_symlink()


def _forward(entries: list[Entry]) -> None:
    for entry in entries:
        placed = entry.staged is not None and not _exists(entry.staged)
        if entry.kept is not None and _exists(entry.target) and not _exists(entry.kept) \
                and not placed:
            OPS.rename(entry.target, entry.kept)
        if entry.staged is not None and _exists(entry.staged):
            OPS.rename(entry.staged, entry.target)
    for folder in sorted({e.target.parent for e in entries}):
        OPS.sync_dir(folder)


def _backward(entries: list[Entry]) -> None:
    for entry in reversed(entries):
        if entry.staged is not None and not _exists(entry.staged) and _exists(entry.target):
            OPS.rename(entry.target, entry.staged)
        if entry.kept is not None and _exists(entry.kept) and not _exists(entry.target):
            OPS.rename(entry.kept, entry.target)
    for folder in sorted({e.target.parent for e in entries}):
        OPS.sync_dir(folder)


def _clean(marker: Path, staging: list[Path], made: list[Path]) -> None:
    """The staging folders removed, then the folders made for them (when empty), then
    the intent file: last, so that a start after a kill here cleans again."""
    for folder in staging:
        if folder.name.startswith(STAGING_PREFIX) and _exists(folder):
            OPS.remove(folder)
    for folder in reversed(made):
        try:
            OPS.rmdir(folder)
        except FileNotFoundError:
            pass
        except OSError:  # not empty: something else is kept there now
            pass
    for path in (marker.with_name(marker.name + ".tmp"), marker):
        if _exists(path):
            OPS.remove(path)
    OPS.sync_dir(marker.parent)


def finish(marker: Path) -> dict[str, Any] | None:
    """Finish a swap a process left (killed, the power cut): the intent file's state
    and info, or None when there was none. Run before the journal is opened."""
    if not _exists(marker):
        temporary = marker.with_name(marker.name + ".tmp")
        if _exists(temporary):  # an intent file never put in place: nothing else made
            OPS.remove(temporary)
        return None
    try:
        data = json.loads(marker.read_bytes().decode("utf-8"))
        state = data["state"]
        staging = [Path(p) for p in data["staging"]]
        made = [Path(p) for p in data["made"]]
        entries = [Entry(Path(t), None if k is None else Path(k),
                         None if s is None else Path(s)) for t, k, s in data["entries"]]
    except (ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
        log.error("the restore's intent file %s cannot be read (%s): left as it is",
                  marker, exc)
        return None
    if state == "forward":
        _forward(entries)
        made = []  # they hold the files now
    elif state == "back":
        _backward(entries)
    _clean(marker, staging, made)
    log.warning("a restore left unfinished was %s", "finished" if state == "forward"
                else "undone")
    return {"state": state, "info": data.get("info", {})}
