"""One app per data folder: a lock taken at start, held for the process's life.

Two apps writing one journal each number their actions from what they read at start,
so the second fails every save ("UNIQUE constraint failed"). The first to start takes
an exclusive `flock` on `<data folder>/companion.lock`; a second is told "already
running" before it opens the journal. The kernel releases the lock when the process
dies, however it dies (a kill, a power cut leaves no lock behind: flock is not a file's
content). A folder where no lock file can be made (a read-only card) is not locked: a
journal there opens read-only, and two that only look write nothing.
"""

from __future__ import annotations

import errno
import fcntl
import logging
import os
from contextlib import suppress
from pathlib import Path

from companion.messages import CompanionError

log = logging.getLogger(__name__)

LOCK_NAME = "companion.lock"

#: the locks this process holds, by folder (kept open: closing one releases it)
_held: dict[Path, int] = {}


class AlreadyRunning(CompanionError):
    """Another process holds the data folder's lock."""


def lock(folder: Path | str) -> bool:
    """Take the data folder's lock for this process (again: nothing more to do).
    Raises AlreadyRunning (`core.error.already_running`) when another process holds it;
    False when no lock can be taken there (a read-only folder), True when held."""
    folder = Path(folder).resolve()
    if folder in _held:
        return True
    fd = _open(folder / LOCK_NAME)
    if fd is None:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        os.close(fd)
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            raise AlreadyRunning("core.error.already_running", path=str(folder)) from exc
        log.warning("no lock on %s: %s", folder, exc.strerror)
        return False
    _held[folder] = fd
    return True


def free(folder: Path | str) -> bool:
    """Whether no other process holds the folder's lock now (taken then let go)."""
    folder = Path(folder).resolve()
    if folder in _held:
        return True
    fd = _open(folder / LOCK_NAME)
    if fd is None:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    finally:
        os.close(fd)  # lets go of it, if taken
    return True


def release(folder: Path | str) -> None:
    """Let go of the folder's lock (a process that ends lets go by itself)."""
    fd = _held.pop(Path(folder).resolve(), None)
    if fd is not None:
        os.close(fd)


def _open(path: Path) -> int | None:
    """The lock file, made if need be; None where none can be (a read-only folder)."""
    with suppress(OSError):  # the journal's open says what is wrong with the folder
        path.parent.mkdir(parents=True, exist_ok=True)
    for flags in (os.O_RDWR | os.O_CREAT, os.O_RDONLY):
        try:
            return os.open(path, flags | os.O_CLOEXEC | os.O_NOFOLLOW, 0o644)
        except OSError as exc:
            if exc.errno not in (errno.EROFS, errno.EACCES, errno.EPERM):
                log.warning("no lock file %s: %s", path, exc.strerror)
                return None
    return None
