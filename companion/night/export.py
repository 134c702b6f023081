"""Export the history: CSV (one row per game per player) and Board Game Stats plays.

API:
- `csv_text(journal, *, translator=None, tz=None) -> str`: every game (finished,
  abandoned, unfinished; the dice tray is not a game), one row per seat (a game
  damaged in the journal: one row, status "damaged", no seat), columns
  `CSV_COLUMNS`; dates are ISO 8601 in `tz` (default: the device's local time).
  A text cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return gets a
  leading `'` (`neutralise`), so a spreadsheet never runs a name as a formula. Every
  text (CSV and BG Stats) is tidied first (`companion.names.tidy_text`): no NUL, ESC
  or other control character, no line separator, no bidi override or isolate, which
  an older journal or a restored backup may hold; names also at most `NAME_MAX`.
- `bgstats(journal, *, translator=None, tz=None) -> dict` and
  `bgstats_text(...) -> str`: a Board Game Stats play file of the finished games.
- `write(path, text)`: written atomically (temporary file, fsync, rename).

The Board Game Stats file follows the shape of that app's own export and shared
play files: top-level `about`, `games`, `players`, `locations`, `plays`, `userInfo`;
a play has `uuid`, `gameRefId`, `playDate` and `entryDate`/`modificationDate`
("YYYY-MM-DD hh:mm:ss"), `durationMin`, `rounds`, `ignored`, `manualWinner`,
`usesTeams`, `board`, `playImages`, `rating`, `scoringSetting`, `expansionPlays`,
`locationRefId` and `playerScores` (`playerRefId`, `score` as text, `winner`,
`newPlayer`, `startPlayer`, `seatOrder`, `rank`, `role`); a game has `cooperative`,
`highestWins`, `noPoints`, `bggId`. Sources: the TypeScript model of a BG Stats
backup in github.com/exp111/BGGCatalogStats (src/model/bg-stats.ts) and a shared BG
Stats play file (pastebin.com/iDbHyBui, "This is a Play file that can be read by
Board Game Stats"). UUIDs are derived from our ids (uuid5), so exporting twice gives
the same plays and BG Stats does not import them twice. `bggId` is 0 (our games are
not matched to BoardGameGeek); `startPlayer` is false (not recorded); `rank` is 0.
"""

from __future__ import annotations

import csv
import io
import json
import os
import uuid
from collections.abc import Iterable, Iterator
from datetime import datetime, tzinfo
from pathlib import Path
from typing import Any

from companion.i18n import Translator
from companion.journal import Journal
from companion.names import tidy_text
from companion.night.facts import COOPERATIVE
from companion.night.history import GameLine, games

CSV_COLUMNS = (
    "game_id", "game", "kind", "started", "duration_min", "status", "seat", "player_id",
    "player", "name_then", "score", "winner", "medals", "best_kill", "outcome",
    "difficulty", "recovered", "lost",
)
_NAMESPACE = uuid.UUID("5b0f3c0e-8d53-4a52-9a3e-7c1d2f4a6b10")


def _when(ts: float, tz: tzinfo | None, fmt: str | None = None) -> str:
    moment = datetime.fromtimestamp(ts, tz)
    return moment.strftime(fmt) if fmt else moment.isoformat(timespec="seconds")


#: what makes a spreadsheet read a cell as a formula (OWASP, "CSV Injection")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralise(text: str) -> str:
    """A text cell a spreadsheet shows as text: one starting like a formula gets a
    leading single quote. Only the CSV does this; the BG Stats file keeps exact names."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, str):
        return neutralise(tidy_text(value))
    return value  # numbers stay numbers (a negative score is not a formula)


def _text(value: str) -> str:
    """A text of the BG Stats file: no control, separator nor bidi character (the names
    are already tidied by `history`; a game's other texts come from its journal)."""
    return tidy_text(value)


def _game_name(translator: Translator, kind: str) -> str:
    key = f"core.games.{kind}"
    return translator(key) if translator.has(key) else kind


def csv_text(journal: Journal, *, translator: Translator | None = None,
             tz: tzinfo | None = None) -> str:
    tr = translator or Translator("en")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for line in games(journal, newest_first=False):
        if line.status == "damaged":  # listed, with what can still be said of it
            writer.writerow([_cell(v) for v in (
                line.id, _game_name(tr, line.kind), line.kind, _when(line.started, tz), "",
                line.status)] + [""] * (len(CSV_COLUMNS) - 6))
        for seat in line.seats:
            writer.writerow([_cell(v) for v in (
                line.id, _game_name(tr, line.kind), line.kind, _when(line.started, tz),
                round(line.duration / 60), line.status, seat.seat + 1, seat.player_id,
                seat.name, seat.name_then, seat.score, seat.winner, seat.medals,
                seat.best_kill, line.outcome, line.difficulty, line.recovered, line.lost)])
    return out.getvalue()


def _uuid(what: str, ident: Any) -> str:
    return str(uuid.uuid5(_NAMESPACE, f"{what}:{ident}")).upper()


_BG_DATE = "%Y-%m-%d %H:%M:%S"


def bgstats(journal: Journal, *, translator: Translator | None = None,
            tz: tzinfo | None = None) -> dict[str, Any]:
    tr = translator or Translator("en")
    finished = games(journal, status="finished", newest_first=False)
    kinds = sorted({line.kind for line in finished})
    game_ids = {kind: i for i, kind in enumerate(kinds, start=1)}
    last = {kind: max(g.updated for g in finished if g.kind == kind) for kind in kinds}
    players: dict[int, dict[str, Any]] = {}
    plays = []
    seen: set[tuple[str, int]] = set()
    for line in finished:
        scores = []
        for seat in line.seats:
            pid = _player_ref(players, seat, line, tz)
            new = (line.kind, pid) not in seen
            seen.add((line.kind, pid))
            scores.append({
                "playerRefId": pid,
                "score": "" if seat.score is None else str(seat.score),
                "winner": seat.winner,
                "newPlayer": new,
                "startPlayer": False,
                "seatOrder": seat.seat,
                "rank": 0,
                "role": "",
            })
        plays.append(_play(line, game_ids[line.kind], scores, tz))
    return {
        "about": tr("night.export.about"),
        "games": [{
            "id": game_ids[kind],
            "uuid": _uuid("game", kind),
            "name": _game_name(tr, kind),
            "modificationDate": _when(last[kind], tz, _BG_DATE),
            "cooperative": kind in COOPERATIVE,
            "highestWins": True,
            "noPoints": kind in COOPERATIVE,
            "bggId": 0,
        } for kind in kinds],
        "players": [players[k] for k in sorted(players)],
        "locations": [],
        "plays": plays,
        "userInfo": {"meRefId": 0},
    }


def _player_ref(players: dict[int, dict[str, Any]], seat: Any, line: GameLine,
                tz: tzinfo | None) -> int:
    # unlinked seats (none after roster.link_missing) get ids past every roster id
    pid = seat.player_id if seat.player_id is not None else 10**9 + line.id * 100 + seat.seat
    if pid not in players:
        players[pid] = {
            "id": pid,
            "uuid": _uuid("player", pid),
            "name": _text(seat.name),
            "isAnonymous": False,
            "modificationDate": _when(line.updated, tz, _BG_DATE),
            "bggUsername": "",
        }
    return pid


def _play(line: GameLine, game_ref: int, scores: list[dict[str, Any]],
          tz: tzinfo | None) -> dict[str, Any]:
    return {
        "uuid": _uuid("play", line.id),
        "gameRefId": game_ref,
        "playDate": _when(line.started, tz, _BG_DATE),
        "entryDate": _when(line.started, tz, _BG_DATE),
        "modificationDate": _when(line.updated, tz, _BG_DATE),
        "durationMin": round(line.duration / 60),
        "rounds": line.rounds or 0,
        "ignored": False,
        "manualWinner": False,
        "usesTeams": False,
        "board": _text(line.difficulty or ""),
        "playImages": "[]",
        "rating": 0,
        "scoringSetting": 0,
        "bggId": 0,
        "importPlayId": 0,
        "nemestatsId": 0,
        "expansionPlays": [],
        "locationRefId": 0,
        "playerScores": scores,
    }


def json_chunks(data: Any) -> Iterator[str]:
    """A JSON file (BG Stats') as small pieces of text: a club's file is megabytes, and
    joining or encoding it in one call would hold Python's lock (and so the screen,
    while this runs beside it) for tens of milliseconds."""
    yield from json.JSONEncoder(ensure_ascii=False, indent=2).iterencode(data)
    yield "\n"


def bgstats_text(journal: Journal, **kwargs: Any) -> str:
    return "".join(json_chunks(bgstats(journal, **kwargs)))


WRITE_BATCH = 1 << 16  # characters joined and written at a time


def write(path: Path | str, text: str | Iterable[str]) -> None:
    """Write atomically: a half-written export never replaces a good one. `text` may
    come in pieces; they are written a batch at a time."""
    target = Path(path)
    tmp = target.with_name(target.name + ".tmp")
    with tmp.open("w", encoding="utf-8", newline="") as handle:
        if isinstance(text, str):
            handle.write(text)
        else:
            batch: list[str] = []
            size = 0
            for piece in text:
                batch.append(piece)
                size += len(piece)
                if size >= WRITE_BATCH:
                    handle.write("".join(batch))
                    batch, size = [], 0
            handle.write("".join(batch))
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, target)
