"""Moving and syncing files so that a power cut never leaves a file half-moved.

The journal's own file is never deleted: a journal that cannot be read, one replaced by
a restore, and one replaced by a salvage are each kept beside it under a new name.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

#: SQLite's side files, which belong to the journal and move with it
SIDE_FILES = ("-wal", "-shm")


def keep_aside(path: Path, label: str) -> Path:
    """Rename `path` (and its side files) to `<name>.<label>-<stamp>`, never over an
    existing file; return the new path."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    kept = path.with_name(f"{path.name}.{label}-{stamp}")
    n = 1
    while kept.exists():
        n += 1
        kept = path.with_name(f"{path.name}.{label}-{stamp}-{n}")
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
