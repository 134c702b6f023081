"""Where the table was in a game, for what the journal does not hold: a view shown over
the play screen (the score pad's standings) or a menu open (a player's), so that the
exact screen comes back after a power cut (issue 29). The journal says the game's
state; this small file beside it says which of the game's screens was on show.

`remember(folder, record)` replaces the file atomically (a temporary file, fsync,
rename, fsync of the folder) before the screen is shown; `recall(folder, game_id)`
gives the record of that game, or None: no file, another game's, or a file that cannot
be read (a convenience is lost, never the game). Pure: no Kivy.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

from companion.files import fsync_dir, read_regular_text

log = logging.getLogger(__name__)
NAME = "screen.json"
MAX_BYTES = 4096  # a record is a few dozen bytes: anything larger is not ours


def remember(folder: Path | None, record: dict[str, Any]) -> None:
    """Keep `record` ({"game": id, "screen": name, ...}, plain JSON values) durably."""
    if folder is None:
        return
    path = Path(folder) / NAME
    tmp = path.with_name(NAME + ".tmp")
    try:
        with tmp.open("w", encoding="utf-8") as handle:
            handle.write(json.dumps(record))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
        fsync_dir(path.parent)
    except OSError as exc:  # a read-only card: the screen still changes
        log.warning("the screen shown could not be kept: %s", exc)
        tmp.unlink(missing_ok=True)


def recall(folder: Path | None, game_id: int) -> dict[str, Any] | None:
    """The record kept for `game_id`, or None."""
    if folder is None:
        return None
    path = Path(folder) / NAME
    try:
        if not path.exists() or path.stat().st_size > MAX_BYTES:
            return None
        record = json.loads(read_regular_text(path))
    except (OSError, ValueError) as exc:
        log.warning("the screen kept could not be read: %s", exc)
        return None
    if not isinstance(record, dict) or record.get("game") != game_id \
            or not isinstance(record.get("screen"), str):
        return None
    return record
