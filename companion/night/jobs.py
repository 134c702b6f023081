"""Long game-night work as steps: each job is a generator that yields `Progress`
between pieces of work and returns its result, so the UI can run it off its thread,
show what is being done and stop between two steps (cancel).

The jobs only chain the game-night functions (`history`, `stats`, `export`,
`backup`); `run(job)` drives one to its end, as a plain call would. Stale cached facts
(the first statistics after an upgrade or a restore: a replay per Mr. Bond game) are
computed 500 games at a time first, which is where the time goes on a large history.
"""

from __future__ import annotations

import contextlib
from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass
from datetime import tzinfo
from pathlib import Path
from typing import TypeVar

from companion.games import night_for
from companion.i18n import Translator
from companion.journal import Journal
from companion.messages import Message, msg
from companion.night import backup, export, history, stats
from companion.night.facts import _stamp, refresh
from companion.night.roster import link_missing

T = TypeVar("T")
CHUNK = 500  # games per step: well under a tenth of a second each on a Pi


@dataclass(frozen=True)
class Progress:
    """What is being done, and how far: `done` of `total` steps."""

    what: Message
    done: int
    total: int
    cancellable: bool = True


Job = Generator[Progress, None, T]


def run(job: Job[T]) -> T:
    """Drive a job to its end and return its result."""
    while True:
        try:
            next(job)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]


def stale_games(journal: Journal, include: Sequence[str] | None = None) -> list[int]:
    """The games whose cached facts are missing or older than the game."""
    rows = journal.read(
        "SELECT g.id, g.kind, g.updated, g.finished, g.abandoned, f.stamp"
        " FROM games g LEFT JOIN game_facts f ON f.game_id = g.id ORDER BY g.started, g.id")
    return [gid for gid, kind, updated, finished, abandoned, stamp in rows
            if night_for(kind).listed and (include is None or kind in include)
            and stamp != _stamp(updated, finished, abandoned)]


def _prepare(journal: Journal, steps: int, include: Sequence[str] | None = None
             ) -> Generator[Progress, None, int]:
    """Link the players and bring the cached facts up to date, a chunk at a time;
    returns the number of steps taken, for the caller's own count."""
    link_missing(journal)
    stale = stale_games(journal, include)
    chunks = [stale[i:i + CHUNK] for i in range(0, len(stale), CHUNK)]
    total = steps + len(chunks)
    yield Progress(msg("night.progress.reading"), 0, total)
    for k, chunk in enumerate(chunks):
        yield Progress(msg("night.progress.facts", done=k * CHUNK, total=len(stale)), k + 1,
                       total)
        refresh(journal, chunk)
    return total


def history_page(journal: Journal, kind: str | None, limit: int) -> Job[list[history.GameLine]]:
    total = yield from _prepare(journal, 2, None if kind is None else (kind,))
    yield Progress(msg("night.progress.history"), total - 1, total)
    return history.games(journal, kind=kind, limit=limit)


def game_log(journal: Journal, game_id: int
             ) -> Job[tuple[history.GameLine, list[history.LogLine]]]:
    yield Progress(msg("night.progress.log"), 0, 2)
    line = history.game(journal, game_id)
    yield Progress(msg("night.progress.log"), 1, 2)
    return line, history.log(journal, game_id)


@dataclass(frozen=True)
class StatsScreenData:
    """What the statistics screen shows: the statistics, and the recent finished games
    of each kind with a score line (newest first)."""

    statistics: stats.Statistics
    recent: dict[str, list[history.GameLine]]


def statistics(journal: Journal, line_kinds: Sequence[str] = (), recent: int = 0
               ) -> Job[StatsScreenData]:
    total = yield from _prepare(journal, 2 + len(line_kinds))
    yield Progress(msg("night.progress.stats"), total - 1 - len(line_kinds), total)
    result = stats.statistics(journal)
    lines: dict[str, list[history.GameLine]] = {}
    for k, kind in enumerate(line_kinds):
        yield Progress(msg("night.progress.history"), total - len(line_kinds) + k, total)
        lines[kind] = history.games(journal, kind=kind, status="finished", limit=recent)
    return StatsScreenData(result, lines)


def export_file(journal: Journal, what: str, path: Path, translator: Translator,
                tz: tzinfo | None = None) -> Job[list[Path]]:
    """The CSV or the BG Stats file, written to `path`; the CSV with the score pad's
    long table beside it (`export.scores_path`) when a score pad game has a cell to put
    in it. Returns the files written, `path` first."""
    total = yield from _prepare(journal, 3)
    yield Progress(msg(f"night.progress.{what}"), total - 2, total)
    scores: str | None = None
    if what == "csv":
        text: str | Iterator[str] = export.csv_text(journal, translator=translator, tz=tz)
        scores = export.scores_csv_text(journal, translator=translator, tz=tz)
    else:  # in pieces, encoded while written
        text = export.json_chunks(export.bgstats(journal, translator=translator, tz=tz))
    yield Progress(msg("night.progress.writing", path=str(path)), total - 1, total)
    written: list[Path] = []
    try:  # both files or neither: a failed second write takes the first away
        export.write(path, text)
        written.append(path)
        if scores is not None:
            export.write(export.scores_path(path), scores)
            written.append(export.scores_path(path))
    except BaseException:
        for made in written:
            with contextlib.suppress(OSError):
                made.unlink()
        raise
    return written


def make_backup(journal: Journal, path: Path) -> Job[backup.Manifest]:
    yield Progress(msg("night.progress.backup"), 0, 1)
    return backup.create(journal, path)


def check_backup(path: Path) -> Job[backup.Manifest]:
    yield Progress(msg("night.progress.check", name=path.name), 0, 1)
    return backup.check(path)


def restore_backup(path: Path, journal_path: Path, config_dir: Path | None = None
                   ) -> Job[backup.Restored]:
    """Put the backup in the journal's place (the journal must be closed), with the
    table's own templates and presets, all or nothing (`backup.restore_all`, which
    opens the staged journal as a start does: checked, migrated), so the screen can
    open it at once after (`Journal.already_checked`)."""
    yield Progress(msg("night.progress.restore", name=path.name), 0, 1, cancellable=False)
    return backup.restore_all(path, journal_path, config_dir)

