"""What history and statistics need from one game, derived once and cached.

A game's facts (players as named then, scores, winners, medals, Bond's best kill,
Pr. Evil's outcome and difficulty) come from its journal row (setup and summary) and,
for a game that asks (Bond's kills), from its actions with undo and redo taken into
account; each game derives its own (`companion.game.GameNight.facts`, in its
package's `night.py`). They are
cached in the `game_facts` table under a stamp of the game's `updated`, `finished`
and `abandoned` columns and of `FACTS_VERSION`, so a game is read in full only once
after it changes, and years of history open quickly.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games import night_for
from companion.i18n import is_placeholder, placeholder_number  # the guests' names
from companion.journal import Entry, GameRecord, Journal, game_record
from companion.messages import Message

#: bump when the derivation changes: every cached fact is then computed again
FACTS_VERSION = 2


@dataclass(frozen=True)
class Facts:
    game_id: int
    kind: str
    started: float
    updated: float
    status: str  # "finished", "abandoned" or "unfinished"
    names: tuple[str, ...]  # the names used in that game, by seat
    scores: tuple[int | None, ...]  # by seat; None when the game has no scores
    winners: tuple[int, ...]  # seats; every seat of a won co-operative game
    medals: tuple[int, ...] | None = None  # Castor, by seat
    best_kills: tuple[int | None, ...] | None = None  # Bond, by seat (None: no kill)
    outcome: str | None = None  # Pr. Evil: "won" or "lost"
    difficulty: str | None = None  # Pr. Evil: as the setup gave it
    recovered: int | None = None  # Pr. Evil treasures
    lost: int | None = None
    rounds: int | None = None  # Castor rounds scored, Pr. Evil turns
    damage: str | None = None  # status "damaged": what cannot be read in the journal
    # the score pad: its template (id, name per language ("" for any), how it is won),
    # ranks by seat (None: out of the ranking), each seat's exit ("eliminated", "left")
    template: str | None = None
    template_name: dict[str, str] | None = None
    win: str | None = None  # "highest", "lowest", "coop", "places"
    ranks: tuple[int | None, ...] | None = None
    out: tuple[str | None, ...] | None = None
    instant: bool = False  # won outright (the winners are the instant winners)
    teams: tuple[tuple[int, ...], ...] | None = None  # seats per team
    start_player: int | None = None  # seat
    bgg_id: int | None = None
    # the clock: per seat total, turns, longest turn, overtime (ms); the session's
    # duration and pause (ms); the score pad game it ran beside
    times_ms: tuple[int, ...] | None = None
    turns: tuple[int, ...] | None = None
    longest_ms: tuple[int, ...] | None = None
    overtime_ms: tuple[int, ...] | None = None
    duration_ms: int | None = None
    pause_ms: int | None = None
    pad_game: int | None = None

    @property
    def cooperative(self) -> bool:
        return night_for(self.kind).cooperative(self)

    @property
    def lowest(self) -> bool:
        """The lowest score is the best (a score pad template that says so)."""
        return self.win == "lowest"

    @property
    def section(self) -> str:
        """What the statistics group this game under: its kind, or for the score pad
        its template ("pad:7-wonders": the scores of different templates never mix)."""
        return night_for(self.kind).section(self)

    @property
    def played_ms(self) -> int | None:
        """A clock's played time: its duration less its pauses."""
        if self.duration_ms is None:
            return None
        return max(self.duration_ms - (self.pause_ms or 0), 0)

    @property
    def counted(self) -> bool:
        """Finished and not abandoned: the games statistics count."""
        return self.status == "finished"

    def to_json(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        data.pop("game_id")
        return data

    @classmethod
    def from_json(cls, game_id: int, data: Mapping[str, Any]) -> Facts:
        fields = dict(data)
        for key in ("names", "scores", "winners", "medals", "best_kills", "ranks", "out",
                    "times_ms", "turns", "longest_ms", "overtime_ms"):
            if fields.get(key) is not None:
                fields[key] = tuple(fields[key])
        if fields.get("teams") is not None:
            fields["teams"] = tuple(tuple(team) for team in fields["teams"])
        return cls(game_id=game_id, **fields)


def as_guests(message: Message, guest: Callable[[int], str]) -> Message:
    """`message` with every placeholder name in its parameters (nested ones too) said
    as `guest(n)`: a guest keeps one name in every screen and language ("Joueur 3" in
    French wherever the game, set up in English, said "Player 3")."""
    def fix(value: Any) -> Any:
        if isinstance(value, Message):
            return as_guests(value, guest)
        if isinstance(value, str):
            number = placeholder_number(value)
            return value if number is None else guest(number)
        return value

    return Message(message.key, {k: fix(v) for k, v in message.params.items()})


def forget_placeholders(journal: Journal) -> int:
    """Take out of the roster the placeholder seats that older versions turned into
    players when they linked past games by name. Such a player is named like a
    placeholder, was created at the start of the first game it is linked to (that is
    how the linking dates it), and no setup ever picked it from the roster. A player
    someone added or renamed by hand is kept. Returns how many were removed."""
    suspects = [(pid, created) for pid, name, created in
                journal.read("SELECT id, name, created FROM players") if is_placeholder(name)]
    doomed = []
    for pid, created in suspects:
        links = journal.read("SELECT gp.seat, g.setup, g.started FROM game_players gp"
                             " JOIN games g ON g.id = gp.game_id WHERE gp.player_id = ?",
                             (pid,))
        if not links or min(started for _, _, started in links) != created:
            continue
        if any(_picked(setup, seat, pid) for seat, setup, _ in links):
            continue
        doomed.append(pid)
    if doomed:
        with journal.writing() as db:
            for pid in doomed:
                db.execute("DELETE FROM game_players WHERE player_id = ?", (pid,))
                db.execute("DELETE FROM players WHERE id = ?", (pid,))
    return len(doomed)


def _picked(setup: str, seat: int, pid: int) -> bool:
    """Whether the game's setup chose this seat's player from the roster."""
    try:
        seats = json.loads(setup).get("players") or []
        return isinstance(seats[seat], Mapping) and seats[seat].get("roster_id") == pid
    except (ValueError, AttributeError, IndexError, TypeError):
        return False


def status_of(finished: Any, abandoned: Any) -> str:
    if abandoned:
        return "abandoned"
    return "finished" if finished else "unfinished"


def effective(entries: Iterable[Entry]) -> list[Entry]:
    """The `do` entries in force after every undo and redo, oldest first."""
    steps: list[Entry] = []
    cursor = 0
    for entry in entries:
        if entry.verb == "do":
            del steps[cursor:]
            steps.append(entry)
            cursor += 1
        elif entry.verb == "undo":
            cursor = max(cursor - 1, 0)
        else:
            cursor = min(cursor + 1, len(steps))
    return steps[:cursor]


def ints(values: Any, n: int) -> tuple[int | None, ...]:
    """`n` integers by seat from a summary's list (None where it has none)."""
    values = list(values) if isinstance(values, (list, tuple)) else []
    out = [v if isinstance(v, int) and not isinstance(v, bool) else None for v in values[:n]]
    return tuple(out + [None] * (n - len(out)))


def seats_named(names: Sequence[str], winners: Any) -> tuple[int, ...]:
    """The seats whose names a summary's list names."""
    wanted = set(winners or [])
    return tuple(i for i, name in enumerate(names) if name in wanted)


def int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def ms(values: Any, n: int) -> tuple[int, ...]:
    """Durations by seat (0 where the summary has none)."""
    return tuple(v or 0 for v in ints(values, n))


def compute(
    game_id: int, kind: str, setup: Mapping[str, Any], summary: Mapping[str, Any],
    started: float, updated: float, finished: Any, abandoned: Any,
    entries: Sequence[Entry] = (),
) -> Facts:
    """The facts of one game, as its game tells them (`GameNight.facts`); `entries`
    only for a game whose facts read its actions."""
    seats = setup.get("players") if isinstance(setup.get("players"), list) else []
    # the rules strip names; summaries name winners that way
    names = tuple(str(s.get("name", "")).strip() if isinstance(s, Mapping) else ""
                  for s in seats)
    base: dict[str, Any] = dict(game_id=game_id, kind=kind, started=started, updated=updated,
                                status=status_of(finished, abandoned), names=names)
    told = night_for(kind).facts(base, setup, summary, entries)
    if told is not None:
        return told
    n = len(base["names"])
    return Facts(**base, scores=ints(summary.get("scores"), n),
                 winners=seats_named(base["names"], summary.get("winners")))


def _stamp(updated: float, finished: Any, abandoned: Any) -> str:
    return f"{FACTS_VERSION}:{updated!r}:{int(bool(finished))}:{int(bool(abandoned))}"


def all_facts(journal: Journal, *, include: Sequence[str] | None = None) -> list[Facts]:
    """Every game's facts (oldest first), computing and caching the stale ones."""
    rows = journal.read(
        "SELECT g.id, g.kind, g.updated, g.finished, g.abandoned, f.stamp, f.facts"
        " FROM games g LEFT JOIN game_facts f ON f.game_id = g.id ORDER BY g.started, g.id")
    found: list[tuple[int, Facts | None]] = []
    for gid, kind, updated, finished, abandoned, stamp, cached in rows:
        if not night_for(kind).listed or (include is not None and kind not in include):
            continue
        fresh = stamp == _stamp(updated, finished, abandoned)
        found.append((gid, _cached(gid, cached) if fresh else None))
    stale = [gid for gid, facts in found if facts is None]
    computed = {f.game_id: f for f in refresh(journal, stale)} if stale else {}
    return [facts if facts is not None else computed[gid] for gid, facts in found]


def _cached(game_id: int, cached: Any) -> Facts | None:
    """A cached row, or None to compute it again (a damaged cache is only a cache)."""
    try:
        return Facts.from_json(game_id, json.loads(cached))
    except (ValueError, TypeError, RecursionError):
        return None


def refresh(journal: Journal, game_ids: Sequence[int]) -> list[Facts]:
    """Compute the facts of these games and store them in the cache (a damaged game
    is not cached: it is read again, and listed as damaged, every time)."""
    out: list[Facts] = []
    for start in range(0, len(game_ids), 500):
        chunk = list(game_ids[start:start + 500])
        marks = ",".join("?" * len(chunk))
        rows = journal.read(
            "SELECT id, kind, setup, summary, started, updated, finished, abandoned"
            f" FROM games WHERE id IN ({marks})", chunk)
        computed = [_row_facts(journal, *row) for row in rows]
        out += computed
        stamps = {r[0]: _stamp(r[5], r[6], r[7]) for r in rows}
        _store(journal, [(f.game_id, stamps[f.game_id],
                          json.dumps(f.to_json(), separators=(",", ":")))
                         for f in computed if f.damage is None])
    return out


def _store(journal: Journal, rows: list[tuple[int, str, str]]) -> None:
    if not rows or journal.read_only is not None:  # read-only: computed again next time
        return
    with journal.writing() as db:
        db.executemany(
            "INSERT OR REPLACE INTO game_facts(game_id, stamp, facts) VALUES (?, ?, ?)", rows)


def _row_facts(journal: Journal, gid: int, kind: Any, setup: Any, summary: Any,
               started: Any, updated: Any, finished: Any, abandoned: Any) -> Facts:
    """One `games` row's facts; a row that cannot be read gives damaged facts."""
    record = game_record(gid, kind, setup, started, updated, finished, abandoned, summary)
    return _record_facts(journal, record)


def _record_facts(journal: Journal, record: GameRecord) -> Facts:
    if record.damaged is not None:
        return damaged(record, record.damaged)
    entries: list[Entry] = []
    if night_for(record.kind).reads_actions:
        entries, damage = journal.readable_entries(record.id)
        if damage is not None:
            return damaged(record, f"action {damage['seq']}: {damage['reason']}")
    try:
        return compute(record.id, record.kind, record.setup, record.summary, record.started,
                       record.updated, record.finished, record.abandoned, entries)
    except (TypeError, ValueError, AttributeError, KeyError, IndexError,
            RecursionError) as exc:  # valid JSON of the wrong shape
        return damaged(record, f"{type(exc).__name__}: {str(exc)[:80]}")


def damaged(record: GameRecord, reason: str) -> Facts:
    """A game listed as damaged: its number, kind and dates, no players nor scores."""
    return Facts(game_id=record.id, kind=record.kind, started=record.started,
                 updated=record.updated, status="damaged", names=(), scores=(),
                 winners=(), damage=reason)


def game_facts(journal: Journal, game_id: int) -> Facts:
    """One game's facts (not cached: a single game is cheap)."""
    return _record_facts(journal, journal.game(game_id))
