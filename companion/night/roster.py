"""The roster: players (name, colour) kept across games, picked at setup.

A game's setup keeps the name used when it was played; the link table
`game_players(game_id, seat, player_id)` ties each seat to a roster player, so a
renamed player keeps their history and the history shows the current name.

API for the screens (every refusal is a `RuleError` with a translation key):
- `pages(journal, *, include_retired=False, size=PAGE)`: the same players (active
  first, then retired) a page at a time, each page one query, for long lists.
- `count(journal) -> int`: every player, retired ones included.
- `players(journal, *, include_retired=False) -> list[RosterPlayer]`: by name. A
  name an earlier version or a restored backup let in is read tidied
  (`companion.names.shown_name`: no control or bidi character, at most `NAME_MAX`,
  `#<id>` when nothing is left), when a player's `name` is first asked for; the row
  itself is left as it is.
- `add(journal, name, colour="") -> RosterPlayer`: refuses a name
  `companion.names.check_name` refuses (empty, longer than `NAME_MAX`, control or
  bidi-override characters), a name already used, compared trimmed and
  case-insensitively (`night.error.name_taken`, or `night.error.name_retired` when
  the name belongs to a retired player, who can be brought back instead), and a
  colour that is not `#rrggbb` or empty (`night.error.colour`).
- `rename(journal, player_id, name)`, `recolour(journal, player_id, colour)`,
  `retire(journal, player_id)`, `unretire(journal, player_id)`: history is kept;
  a retired player is no longer offered at setup but stays in history and stats.
- `setup_players(journal, player_ids, extra=None) -> list[dict]`: the setup's player
  list for the chosen roster players, in seat order: `{"name": ..., "roster_id": ...}`
  plus the per-seat extras (e.g. `{"character": ...}` for Pr. Evil, `{"agent": ...}`
  for Castor). Refuses retired, unknown or repeated players.
- `link_game(journal, game_id)`: record the seats' roster links from the setup's
  `roster_id`s, or by name, a name typed at set-up joining the roster (call it right
  after `Session.start`); `link_missing(journal)` links
  every game that has no link yet (by `roster_id`, else by name, adding the name to
  the roster), so a game started without the roster still counts in the statistics.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from companion.journal import Journal, fold_name
from companion.messages import RuleError
from companion.names import checked_name, shown_name, tidy_name
from companion.night.facts import forget_placeholders, is_placeholder

_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
#: kinds whose games have no players (the dice tray)
NO_PLAYERS = ("tray",)


@dataclass(frozen=True)
class RosterPlayer:
    id: int
    stored: str  # the name as the journal holds it (an earlier version's may be hostile)
    colour: str  # "#rrggbb", or "" when none was chosen (the screen picks one by id)
    retired: bool
    created: float

    @cached_property
    def name(self) -> str:
        """The name shown and used for new games: tidied when first asked for, so a
        roster of thousands costs only the names a screen shows."""
        return shown_name(self.stored, f"#{self.id}")


def _clean_name(name: Any) -> str:
    # the rules every name entry point shares (length, control and bidi characters)
    return checked_name(name)


def _clean_colour(colour: Any) -> str:
    text = str(colour or "").strip()
    if text and not _COLOUR.match(text):
        raise RuleError("night.error.colour", colour=text)
    return text.lower()


def _row(row: Sequence[Any]) -> RosterPlayer:
    pid, name, colour, retired, created = row
    # a name an earlier version or a restored backup let in is shown tidied (the row
    # keeps it): as long and as clean as a typed one
    return RosterPlayer(int(pid), name, colour, bool(retired), created)


_SELECT = "SELECT id, name, colour, retired, created FROM players"


def players(journal: Journal, *, include_retired: bool = False) -> list[RosterPlayer]:
    where = "" if include_retired else " WHERE retired = 0"
    rows = journal.read(f"{_SELECT}{where} ORDER BY folded, id")
    return [_row(r) for r in rows]


#: players a page holds (`pages`): a screen shows the first at once
PAGE = 200


def pages(journal: Journal, *, include_retired: bool = False,
          size: int = PAGE) -> Iterator[list[RosterPlayer]]:
    """The roster a page at a time: the active players by name, then (with
    `include_retired`) the retired ones. Each page is one query from where the last
    ended (names are unique), so a screen shows the first page in the frame that opens
    it and reads the others a page a frame, however long the roster."""
    for retired in ((0, 1) if include_retired else (0,)):
        after: str | None = None
        while True:
            where, args = ("", ()) if after is None else (" AND folded > ?", (after,))
            rows = journal.read(f"SELECT id, name, colour, retired, created, folded"
                                f" FROM players WHERE retired = ?{where}"
                                f" ORDER BY folded, id LIMIT ?", (retired, *args, size))
            if rows:
                yield [_row(r[:5]) for r in rows]
            if len(rows) < size:
                break
            after = rows[-1][5]


def count(journal: Journal) -> int:
    """How many players the roster holds, retired ones included."""
    return int(journal.read("SELECT COUNT(*) FROM players")[0][0])


def get(journal: Journal, player_id: Any) -> RosterPlayer:
    rows = journal.read(f"{_SELECT} WHERE id = ?", (player_id,)) if isinstance(
        player_id, int) and not isinstance(player_id, bool) else []
    if not rows:
        raise RuleError("night.error.no_such_player", player=str(player_id))
    return _row(rows[0])


def _check_free(journal: Journal, name: str, but: int | None = None) -> None:
    rows = journal.read("SELECT id, name, retired FROM players WHERE folded = ?",
                        (fold_name(name),))
    for pid, other, retired in rows:
        if pid != but:
            key = "night.error.name_retired" if retired else "night.error.name_taken"
            raise RuleError(key, name=shown_name(other, f"#{pid}"))


def add(journal: Journal, name: Any, colour: Any = "") -> RosterPlayer:
    clean = _clean_name(name)
    paint = _clean_colour(colour)
    _check_free(journal, clean)
    now = time.time()
    with journal.writing() as db:
        cursor = db.execute(
            "INSERT INTO players(name, folded, colour, created) VALUES (?, ?, ?, ?)",
            (clean, fold_name(clean), paint, now))
        pid = int(cursor.lastrowid or 0)
    return RosterPlayer(pid, clean, paint, False, now)


def rename(journal: Journal, player_id: int, name: Any) -> RosterPlayer:
    get(journal, player_id)
    clean = _clean_name(name)
    _check_free(journal, clean, but=player_id)
    with journal.writing() as db:
        db.execute("UPDATE players SET name = ?, folded = ? WHERE id = ?",
                   (clean, fold_name(clean), player_id))
    return get(journal, player_id)


def recolour(journal: Journal, player_id: int, colour: Any) -> RosterPlayer:
    get(journal, player_id)
    paint = _clean_colour(colour)
    with journal.writing() as db:
        db.execute("UPDATE players SET colour = ? WHERE id = ?", (paint, player_id))
    return get(journal, player_id)


def _set_retired(journal: Journal, player_id: int, retired: bool) -> RosterPlayer:
    get(journal, player_id)
    with journal.writing() as db:
        db.execute("UPDATE players SET retired = ? WHERE id = ?", (int(retired), player_id))
    return get(journal, player_id)


def retire(journal: Journal, player_id: int) -> RosterPlayer:
    return _set_retired(journal, player_id, True)


def unretire(journal: Journal, player_id: int) -> RosterPlayer:
    return _set_retired(journal, player_id, False)


def setup_players(
    journal: Journal, player_ids: Sequence[int],
    extra: Sequence[Mapping[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """The setup's `players` list for the chosen roster players, in seat order."""
    if extra is not None and len(extra) != len(player_ids):
        raise RuleError("night.error.extra_length", n=len(player_ids))
    if len(set(player_ids)) != len(player_ids):
        raise RuleError("core.error.duplicate_name")
    out = []
    for seat, pid in enumerate(player_ids):
        player = get(journal, pid)
        if player.retired:
            raise RuleError("night.error.retired", name=player.name)
        entry: dict[str, Any] = dict(extra[seat]) if extra is not None else {}
        entry.update(name=player.name, roster_id=player.id)
        out.append(entry)
    return out


def link_game(journal: Journal, game_id: int) -> None:
    """Record the roster link of each seat of a game just started: its `roster_id`, or
    else the roster player of its name, a name typed at set-up joining the roster now
    (the roster learns as the table plays). A seat nobody named stays a guest."""
    if journal.read_only is not None:  # read-only: linked when it can be written
        return
    record = journal.game(game_id)
    known = {f: pid for pid, f in journal.read("SELECT id, folded FROM players")}
    with journal.writing() as db:
        _link_seats(db, game_id, record.setup.get("players"), record.started, known,
                    set(known.values()))


def link_missing(journal: Journal) -> int:
    """Link every game with players but no link yet; returns how many were linked."""
    forget_placeholders(journal)
    marks = ",".join("?" * len(NO_PLAYERS))
    rows = journal.read(
        "SELECT id, setup, started FROM games WHERE kind NOT IN (" + marks + ")"
        " AND id NOT IN (SELECT game_id FROM game_players) ORDER BY started, id",
        NO_PLAYERS)
    if not rows or journal.read_only is not None:  # read-only: links wait for later
        return 0

    known = {f: pid for pid, f in journal.read("SELECT id, folded FROM players")}
    ids = set(known.values())
    count = 0
    with journal.writing() as db:
        for gid, setup, started in rows:
            try:
                seats = json.loads(setup).get("players") or []
            except (ValueError, AttributeError, TypeError, RecursionError):
                continue  # a damaged row: listed as damaged, linked to nobody
            if _link_seats(db, gid, seats, started, known, ids):
                count += 1
    return count


def _link_seats(db: Any, game_id: int, seats: Any, started: float, known: dict[str, int],
                ids: set[int]) -> bool:
    """Link a game's seats: by `roster_id`, else by name, adding a name the roster does
    not know yet (created when the game started). False for seats of the wrong shape."""
    if not isinstance(seats, list):
        return False
    for seat, item in enumerate(seats):
        if not isinstance(item, Mapping):
            continue
        pid = item.get("roster_id")
        if not (isinstance(pid, int) and pid in ids):
            # the roster holds only names it would accept (the game keeps its own)
            name = tidy_name(item.get("name", ""))
            if not name or is_placeholder(name):
                continue  # a guest seat, not a roster player
            pid = known.get(fold_name(name))
            if pid is None:
                cursor = db.execute(
                    "INSERT INTO players(name, folded, created) VALUES (?, ?, ?)",
                    (name, fold_name(name), started))
                pid = known[fold_name(name)] = int(cursor.lastrowid or 0)
                ids.add(pid)
        db.execute("INSERT OR IGNORE INTO game_players(game_id, seat, player_id)"
                   " VALUES (?, ?, ?)", (game_id, seat, pid))
    return True
