"""Moving and syncing files so that a power cut never leaves a file half-moved.

The journal's own file is never deleted: a journal that cannot be read, one replaced by
a restore, and one replaced by a salvage are each kept beside it under a new name.

Where a file is expected (the config, the settings, a backup to restore), only a
regular file is opened (`open_regular`): a named pipe or a device put in its place is
refused with a message, never waited on.
"""

from __future__ import annotations

import errno
import os
import stat
import time
from pathlib import Path
from typing import BinaryIO

#: SQLite's side files, which belong to the journal and move with it
SIDE_FILES = ("-wal", "-shm")


def restore_marker(journal_path: Path) -> Path:
    """Where a restore keeps its intent beside the journal (`night.swap`): a start
    looks for it before it loads the restore's code."""
    return journal_path.with_name(journal_path.name + ".restoring")


def aside_name(path: Path, label: str) -> Path:
    """`<name>.<label>-<stamp>` beside `path`, a name no file has (nor its side files)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    kept = path.with_name(f"{path.name}.{label}-{stamp}")
    n = 1
    while any(os.path.lexists(kept.with_name(kept.name + s)) for s in ("", *SIDE_FILES)):
        n += 1
        kept = path.with_name(f"{path.name}.{label}-{stamp}-{n}")
    return kept


def keep_aside(path: Path, label: str) -> Path:
    """Rename `path` (and its side files) to `<name>.<label>-<stamp>`, never over an
    existing file; return the new path."""
    kept = aside_name(path, label)
    os.replace(path, kept)
    for suffix in SIDE_FILES:
        side = path.with_name(path.name + suffix)
        if side.exists():
            os.replace(side, kept.with_name(kept.name + suffix))
    return kept


def fsync_dir(folder: Path) -> None:
    """Make a rename in `folder` durable (best effort: some file systems refuse it)."""
    try:
        fd = os.open(str(folder), os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class NotRegularFile(OSError):
    """A path where a file is expected names something else (a named pipe, a device,
    a socket, a folder): refused at once, never read or waited on."""


def _kind(mode: int) -> str:
    for test, kind in ((stat.S_ISFIFO, "named pipe"), (stat.S_ISDIR, "folder"),
                       (stat.S_ISCHR, "device"), (stat.S_ISBLK, "device"),
                       (stat.S_ISSOCK, "socket")):
        if test(mode):
            return kind
    return "special file"


def open_regular(path: Path | str) -> BinaryIO:
    """`path` opened for reading in binary, only if it is (or links to) a regular file.

    Opened without waiting (O_NONBLOCK: a named pipe with no writer would otherwise
    block the open, and a start, for ever), then checked on the descriptor itself
    (fstat, so nothing can be swapped in between); the file then reads as usual.
    Raises NotRegularFile (an OSError, whose strerror says what was found instead),
    or the OSError of the open (FileNotFoundError...)."""
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFile(errno.EINVAL, f"not a regular file: a {_kind(mode)}",
                                 str(path))
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular_text(path: Path | str) -> str:
    """The UTF-8 text of a regular file (`open_regular`: never waits on a pipe)."""
    with open_regular(path) as handle:
        return handle.read().decode("utf-8")
