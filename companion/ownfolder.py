"""The table's own folders (`pad/` for score pad templates, `clock/` for clock
presets): read with a bound on the whole folder's work, and each file's reading kept
while the file is unchanged.

A folder's bound is on its files (at most `MAX_FILES`) and on the bytes read (at most
`MAX_BYTES` in all, each file counted as the reader reads it: at most
`config.MAX_BYTES` and one). The files are taken by name; each one past the bound is
refused, named, with a `Problem`, and never read. A bound per file alone would let a
folder of many files each under it take seconds (a set-up frozen, `check-config`
slow).

`Cache` keeps what reading a file gave, keyed by its stat (name, size, mtime_ns, inode,
device): a folder read again costs a stat per file, and only a changed file is parsed
again. It lives in memory only (a start parses its files: nothing is trusted from disk
but the files themselves). It is safe to use from a worker thread.
"""

from __future__ import annotations

import os
import stat
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from companion import config
from companion.config import Problem
from companion.messages import msg

MAX_FILES = 100  # files read from one of the table's own folders
MAX_BYTES = 1024 * 1024  # bytes read from one of them, every file together

T = TypeVar("T")
Key = tuple[str, int, int, int, int]


@dataclass(frozen=True)
class Listing:
    """The files to read (by name) and a problem naming each file refused."""

    files: tuple[Path, ...]
    refused: tuple[Problem, ...]


def _cost(path: Path) -> int:
    """The bytes the reader reads of this file (a special file or one gone: none)."""
    try:
        info = os.stat(path)
    except OSError:
        return 0
    if not stat.S_ISREG(info.st_mode):
        return 0
    return min(info.st_size, config.MAX_BYTES + 1)


def listing(folder: Path | None, *, max_files: int = MAX_FILES,
            max_bytes: int = MAX_BYTES) -> Listing:
    """The folder's `*.yaml` (not hidden), by name, within the bound. A named pipe, a
    folder or a link to nothing is listed to be read (the reader names it broken)."""
    if folder is None or not folder.is_dir():
        return Listing((), ())
    try:
        found = sorted(p for p in folder.glob("*.yaml") if not p.name.startswith("."))
    except OSError as exc:
        return Listing((), (Problem(str(folder), None, "", msg(
            "core.config.unreadable", reason=exc.strerror or str(exc))),))
    files: list[Path] = []
    refused: list[Problem] = []
    total = 0
    for path in found:
        if len(files) >= max_files:
            refused.append(Problem(str(path), None, "", msg(
                "core.config.folder_files", n=max_files)))
            continue
        cost = _cost(path)
        if total + cost > max_bytes:
            refused.append(Problem(str(path), None, "", msg(
                "core.config.folder_bytes", limit=max_bytes // 1024)))
            continue
        total += cost
        files.append(path)
    return Listing(tuple(files), tuple(refused))


def _key(path: Path) -> Key | None:
    """What says a regular file is unchanged; None for anything else (read each time:
    the reader refuses it at once)."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode):
        return None
    return (path.name, info.st_size, info.st_mtime_ns, info.st_ino, info.st_dev)


class Cache:
    """What each file's reading gave, kept while the file's stat is unchanged."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: dict[str, tuple[Key, object]] = {}

    def read(self, path: Path, reader: Callable[[Path], T]) -> T:
        """`reader(path)`, or what it gave last time if the file is unchanged. The stat
        is taken before the read: a file changed while read is read again next time."""
        key = _key(path)
        name = str(path)
        with self._lock:
            kept = self._kept.get(name)
        if key is not None and kept is not None and kept[0] == key:
            return kept[1]  # type: ignore[return-value]
        result = reader(path)
        with self._lock:
            if key is None:
                self._kept.pop(name, None)
            else:
                self._kept[name] = (key, result)
        return result

    def keep_only(self, folder: Path, files: tuple[Path, ...]) -> None:
        """Forget the files of `folder` no longer listed (removed, or past the bound)."""
        listed = {str(p) for p in files}
        with self._lock:
            for name in [n for n in self._kept if Path(n).parent == folder
                         and n not in listed]:
                del self._kept[name]

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
