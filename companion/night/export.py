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
  `bgstats_text(...) -> str`: a Board Game Stats play file of the finished games;
  `play_uuid(game_id)`: a game's uuid in it.
- `write(path, text)`: written atomically (temporary file, fsync, rename).

The Board Game Stats file is a `.bgsplay` (`BGSTATS_SUFFIX`), BG Stats' play file: the
JSON it attaches when plays are shared ("You can import this file using Board Game
Stats.") and imports to add them, of one play or many; its backup
(`BGStatsExport.json`) is the whole app's data instead (groups, challenges, tags). It
is written field by field as BG Stats writes its own: top-level `about`, `games`,
`players`, `locations` (none), `plays` (the newest first), `userInfo`, `tags` (none);
ids 1, 2, 3... in the order each game and player first appears, oldest play first (a
new template or player takes the next id, none moves); uuids derived from our ids
(uuid5), so exporting twice gives the same records and BG Stats, which matches on
them, imports nothing twice. `userInfo.meRefId` is an anonymous player (id 1,
`isAnonymous`, as BG Stats keeps one): a table has no owner, and a "me" in no play
gives none of them to whoever imports the file. A game has `cooperative`,
`highestWins`, `noPoints`, `usesTeams`, `bggId` (a score pad template's `bgg_id`, else
0) and BG Stats' other game fields left as it leaves them unknown ("" or 0). A play
has `gameRefId`, `playDate`/`entryDate` (its start), `modificationDate` ("YYYY-MM-DD
hh:mm:ss"), `durationMin`, `rounds`, `ignored`, `manualWinner`, `usesTeams`, `board`,
`bggId` 0 (the play's own BoardGameGeek id, until BG Stats posts it), no
`locationRefId` (BG Stats writes none for a play without a location), and
`playerScores`: `playerRefId`, `score` as text ("" for a game won without points),
`winner`, `newPlayer` (the player's first play of that game), `startPlayer`,
`seatOrder` from 1 (0 is "not set"), `rank` (0: out of the ranking), `team` "1",
"2"... with teams, `role`. `manualWinner` is true when the winners are not what the
scores alone make them (the best score wins; no score, no winner): a tie-breaker, an
instant win, a co-op victory, a team's total; BG Stats then keeps them as given.

Sources: a real BG Stats export of 217 plays (github.com/sqrtxander/bgstats-wrapped,
sampleData.json); the TypeScript model of BG Stats' backup and export in
github.com/exp111/BGGCatalogStats (src/model/bg-stats.ts); readers of the format:
theiam79/BGStats.Bot (src/BGStats.Bot/Models/*.cs, `.bgsplay` attachments),
adrianocola/bgstats-merger (index.js: "me" looked up among the players),
luceleaftea/end-of-year-bgstats-summary (general_summary.py: a year's `.bgsplay`),
TalitaJames/bgStats-dataVisualiser (dataGathering.py: the top-level `tags`),
gnidan/bgstats-elo-ratings (src/index.ts: `games[id - 1]`), sqrtxander/bgstats-wrapped
(get_data.py); a writer, ctuncan/bga_bgstats (bga_bgstats.py: many plays in one
`.bgsplay`). `tests/test_night_pad_export.py::read_back` reads the file as they do.

Score pad games are exported as their templates: each template is a game of its own
(name in the translator's language). A play's `durationMin` is the clock's played
time (pauses left out) when a clock ran beside the game (`GameLine.played_minutes`),
else from its start to its last action. Clock sessions are not plays (no winners).

- `scores_csv_text(journal, *, translator=None, tz=None) -> str | None`: the long
  table of every score pad game, one row per cell entered (`SCORES_COLUMNS`: the game,
  the player, the round (from 1) or the category (its id and name), what was typed, its
  points, and the player's total in that game); None when no score pad game has a cell
  to put in it. The CSV export writes it beside the other (`scores_path`), only when
  there is one (a second file of headers alone would be noise).

The CSV's per-seat rows also say a score pad seat's template, rank, exit and team, and
a clock's time per seat (a clock session's, or the clock beside a score pad game):
total, turns, average and longest turn, overtime, in seconds.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import uuid
from collections.abc import Iterable, Iterator
from datetime import datetime, tzinfo
from pathlib import Path
from typing import Any

from companion.games import night_for
from companion.i18n import Translator
from companion.journal import Journal
from companion.names import tidy_text
from companion.night.history import GameLine, games, sheet_cells

CSV_COLUMNS = (
    "game_id", "game", "kind", "started", "duration_min", "status", "seat", "player_id",
    "player", "name_then", "score", "winner", "medals", "best_kill", "outcome",
    "difficulty", "recovered", "lost", "template", "rank", "out", "team", "time_s",
    "turns", "average_turn_s", "longest_turn_s", "overtime_s",
)
SCORES_COLUMNS = (
    "game_id", "game", "template", "started", "status", "seat", "player_id", "player",
    "round", "category", "category_name", "input", "points", "total",
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


def label_in(name: dict[str, str] | None, language: str) -> str:
    """A template's (or a category's) name in the language: its own, else English's,
    else the one it has."""
    if not name:
        return ""
    return name.get(language) or name.get("en") or name.get("") or next(iter(name.values()))


def line_name(translator: Translator, line: GameLine) -> str:
    """What a game is called in an export: a score pad game by its template."""
    title = night_for(line.kind).title(line, translator.language)
    return title if title is not None else _game_name(translator, line.kind)


def _seconds(ms: int | None) -> float | None:
    return None if ms is None else round(ms / 1000, 1)


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
                line.id, line_name(tr, line), line.kind, _when(line.started, tz),
                line.played_minutes, line.status, seat.seat + 1, seat.player_id,
                seat.name, seat.name_then, seat.score, seat.winner, seat.medals,
                seat.best_kill, line.outcome, line.difficulty, line.recovered, line.lost,
                line.template, seat.rank, seat.out,
                None if seat.team is None else seat.team + 1, _seconds(seat.time_ms),
                seat.turns, _seconds(seat.average_ms), _seconds(seat.longest_ms),
                _seconds(seat.overtime_ms))])
    return out.getvalue()


def scores_path(path: Path) -> Path:
    """Where the long table goes beside the CSV: `<name>-scores.csv`."""
    return path.with_name(f"{path.stem}-scores{path.suffix or '.csv'}")


def scores_csv_text(journal: Journal, *, translator: Translator | None = None,
                    tz: tzinfo | None = None) -> str | None:
    """The long table of every score pad game: one row per cell entered; None when
    there is no cell to put in it."""
    tr = translator or Translator("en")
    rows = 0
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(SCORES_COLUMNS)
    for line in games(journal, kind="pad", newest_first=False):
        if line.status == "damaged":
            continue
        record = journal.game(line.id)
        template = record.setup.get("template") or {}
        names = {c.get("id"): c.get("name") for c in template.get("categories") or []
                 if isinstance(c, dict)}
        listed = [str(x) for x in record.summary.get("players") or []]
        for cell in sheet_cells(journal, record):
            if not isinstance(cell, list) or len(cell) != 4 or cell[0] not in listed:
                continue  # a cell of the wrong shape: not exported
            who, where, text, points = cell
            seat = line.seats[listed.index(who)]
            is_round = isinstance(where, int) and not isinstance(where, bool)
            name = names.get(where)
            category_name = label_in(name if isinstance(name, dict) else (
                {"": name} if isinstance(name, str) else None), tr.language)
            writer.writerow([_cell(v) for v in (
                line.id, line_name(tr, line), line.template, _when(line.started, tz),
                line.status, seat.seat + 1, seat.player_id, seat.name,
                where if is_round else None, None if is_round else where,
                None if is_round else category_name or where,
                str(text) if text != "" else None, points, seat.score)])
            rows += 1
    return out.getvalue() if rows else None


def _uuid(what: str, ident: Any) -> str:
    return str(uuid.uuid5(_NAMESPACE, f"{what}:{ident}")).upper()


_BG_DATE = "%Y-%m-%d %H:%M:%S"
#: BG Stats' play file: what it shares plays in and imports them from, one play or
#: many; its backup (`BGStatsExport.json`) is the whole app's data instead
BGSTATS_SUFFIX = ".bgsplay"


def play_uuid(game_id: int) -> str:
    """The BG Stats uuid of a game of the journal: the same at every export, so BG Stats
    does not import a play twice."""
    return _uuid("play", game_id)


def bgstats(journal: Journal, *, translator: Translator | None = None,
            tz: tzinfo | None = None) -> dict[str, Any]:
    tr = translator or Translator("en")
    finished = [line for line in games(journal, status="finished", newest_first=False)
                if night_for(line.kind).ranked]
    # ids as BG Stats gives them: 1, 2, 3... in the order each game and player first
    # appears, oldest play first, so a new template or player takes the next id and no
    # earlier one moves (uuids, not ids, are what BG Stats matches on)
    game_ids: dict[str, int] = {}
    for line in finished:
        game_ids.setdefault(_section(line), len(game_ids) + 1)
    sections = list(game_ids)
    last = {section: max(g.updated for g in finished if _section(g) == section)
            for section in sections}
    first = {section: next(g for g in reversed(finished) if _section(g) == section)
             for section in sections}  # the newest game names the template
    teamed = {_section(line) for line in finished if line.teams}
    players: dict[Any, dict[str, Any]] = {
        ANONYMOUS: _anonymous(tr, finished[0].started if finished else 0.0, tz)}
    plays = []
    seen: set[tuple[str, int]] = set()
    for line in finished:
        section = _section(line)
        scores = []
        teams = line.teams
        no_points = _no_points(line)
        for seat in line.seats:
            pid = _player_ref(players, seat, line, tz)
            new = (section, pid) not in seen
            seen.add((section, pid))
            score: dict[str, Any] = {
                "playerRefId": pid,
                "score": "" if seat.score is None or no_points else str(seat.score),
                "winner": seat.winner,
                "newPlayer": new,
                "startPlayer": line.start_player == seat.seat,
                "seatOrder": seat.seat + 1,  # from 1: BG Stats reads 0 as "not set"
                "rank": seat.rank or 0,
                "role": "",
            }
            if teams and seat.team is not None:
                score["team"] = str(seat.team + 1)  # as BG Stats writes it: "1", "2"...
            scores.append(score)
        plays.append(_play(line, game_ids[section], scores, _manual_winner(line), tz))
    return {
        "about": tr("night.export.about"),
        "games": [_game(tr, section, game_ids[section], first[section], last[section],
                        section in teamed, tz) for section in sections],
        "players": list(players.values()),
        "locations": [],
        "plays": plays[::-1],  # the newest first, as BG Stats lists them
        # a table has no owner: "me" is the anonymous player, who is in no play, so
        # importing the file gives none of its plays to whoever imports it
        "userInfo": {"meRefId": players[ANONYMOUS]["id"]},
        "tags": [],  # BG Stats' own tag list: none given (a reader looks names up in it)
    }


ANONYMOUS = "anonymous"  # the anonymous player's key among the players


def _anonymous(tr: Translator, when: float, tz: tzinfo | None) -> dict[str, Any]:
    """The player BG Stats keeps for a seat with nobody named, id 1 as in its exports."""
    return {
        "id": 1,
        "uuid": _uuid("player", ANONYMOUS),
        "name": tr("night.export.anonymous"),
        "isAnonymous": True,
        "modificationDate": _when(when, tz, _BG_DATE),
        "bggUsername": "",
    }


def _section(line: GameLine) -> str:
    """A game of BG Stats: a kind, or a score pad template."""
    return night_for(line.kind).section(line)


def _game(tr: Translator, section: str, ident: int, line: GameLine, last: float,
          teams: bool, tz: tzinfo | None) -> dict[str, Any]:
    """A game record with every field BG Stats writes on one; what the app does not
    know (BoardGameGeek's name, year, designers, images, player counts and times) is
    left as BG Stats leaves it unknown: "" or 0."""
    name, bgg_id = _text(line_name(tr, line)), line.bgg_id or 0
    cooperative = night_for(line.kind).cooperative(line)
    highest, no_points = _highest_wins(line), _no_points(line)
    return {
        "id": ident,
        "uuid": _uuid("game", section),
        "name": name,
        "modificationDate": _when(last, tz, _BG_DATE),
        "cooperative": cooperative,
        "highestWins": highest,
        "noPoints": no_points,
        "usesTeams": teams,
        "bggId": bgg_id,  # the game's BoardGameGeek id (a play's own is on the play)
        "bggName": "",
        "bggYear": 0,
        "designers": "",
        "urlThumb": "",
        "urlImage": "",
        "isBaseGame": 1,
        "isExpansion": 0,
        "rating": 0,
        "minPlayerCount": 0,
        "maxPlayerCount": 0,
        "minPlayTime": 0,
        "maxPlayTime": 0,
        "minAge": 0,
        "tags": [],
        "copies": [],
    }


def _player_ref(players: dict[Any, dict[str, Any]], seat: Any, line: GameLine,
                tz: tzinfo | None) -> int:
    # unlinked seats (none after roster.link_missing) are players of their own
    key = seat.player_id if seat.player_id is not None else 10**9 + line.id * 100 + seat.seat
    if key not in players:
        players[key] = {
            "id": len(players) + 1,
            "uuid": _uuid("player", key),
            "name": _text(seat.name),
            "isAnonymous": False,
            "modificationDate": _when(line.updated, tz, _BG_DATE),
            "bggUsername": "",
        }
    return int(players[key]["id"])


def _highest_wins(line: GameLine) -> bool:
    return night_for(line.kind).highest_wins(line)


def _no_points(line: GameLine) -> bool:
    """A game won without points (co-op, places): BG Stats' `noPoints`; its seats get
    no score, as BG Stats writes them ("")."""
    return night_for(line.kind).no_points(line)


def _manual_winner(line: GameLine) -> bool:
    """Whether the winners are other than the scores alone make them: a tie-breaker, an
    instant win, a co-op victory, a team's total. Without it BG Stats may work the
    winners out again from the scores (the best score wins; no score, no winner)."""
    points = [seat.score for seat in line.seats]
    if None in points or _no_points(line):
        by_score = [False] * len(points)
    else:
        best = (max if _highest_wins(line) else min)(points)
        by_score = [p == best for p in points]
    return [seat.winner for seat in line.seats] != by_score


def _play(line: GameLine, game_ref: int, scores: list[dict[str, Any]], manual: bool,
          tz: tzinfo | None) -> dict[str, Any]:
    return {
        "uuid": _uuid("play", line.id),
        "gameRefId": game_ref,
        "playDate": _when(line.started, tz, _BG_DATE),
        "entryDate": _when(line.started, tz, _BG_DATE),
        "modificationDate": _when(line.updated, tz, _BG_DATE),
        "durationMin": line.played_minutes,
        "rounds": line.rounds or 0,
        "ignored": False,
        "manualWinner": manual,
        "usesTeams": bool(line.teams),
        "board": _text(line.difficulty or ""),
        "playImages": "[]",
        "rating": 0,
        "scoringSetting": 0,
        # the play's own BoardGameGeek id, 0 until BG Stats posts the play there (the
        # game's id is on the game: given here, every play would read as posted)
        "bggId": 0,
        "importPlayId": 0,
        "nemestatsId": 0,
        "expansionPlays": [],
        # no locationRefId: BG Stats writes none for a play without a location (0
        # would name a location that is not in the file)
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
    try:
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
    except BaseException:  # a full stick, a cancel: no half-written file left behind
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
