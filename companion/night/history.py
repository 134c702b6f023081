"""The history of every game: lines for the history screen, a game's log, resume and
abandon.

API for the screens:
- `games(journal, *, kind=None, player_id=None, status=None, newest_first=True,
  limit=None, offset=0) -> list[GameLine]`: one line per game (the dice tray is not a
  game and never appears): kind, start date, duration in seconds (started..updated),
  status ("finished", "abandoned", "unfinished"), the seats (`Seat`: the name used
  then, the roster player's current name and colour, score, winner, Castor medals,
  Bond best kill), and for Pr. Evil the outcome, treasures recovered and lost and the
  difficulty (the setup's optional `"difficulty"`). A score pad game also has its
  template (id, name per language, how it is won), each seat's rank, exit
  ("eliminated", "left") and team, the co-op outcome ("won", "lost"), whether it was
  won outright; a clock session each seat's time, turns, longest turn and overtime.
  A clock that ran beside a score pad game (its setup's `pad_game`) gives that game's
  seats their times and the game its played time (`GameLine.clock_ms`).
- `game(journal, game_id) -> GameLine`.
- `log(journal, game_id) -> list[LogLine]`: every journal action in order, as
  translatable messages: the command's name (`<kind>.command.<Name>`, or
  `night.command.<kind>.<Name>` for kinds whose catalog has none), then what it did
  (Pr. Evil, Castor and Bond instructions); undo and redo say which action they
  took back or did again (`night.log.undo` / `night.log.redo`).
- `resume(journal, game_id) -> Session`: an unfinished game (refused otherwise,
  `night.error.not_resumable`).
- `abandon(journal, game_id)`: an unfinished game stops counting (refused for a
  finished or already abandoned one, `night.error.not_abandonable`).
- `sheet_cells(journal, record) -> list`: a score pad game's cells, for its chart and
  the long table.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.games import night_for, rules_for
from companion.journal import DamagedRow, Entry, GameRecord, Journal
from companion.messages import CompanionError, Message, RuleError, msg
from companion.names import NAME_MAX, shown_name, tidy_text
from companion.night.facts import Facts, all_facts, game_facts
from companion.night.roster import link_missing
from companion.records import decode
from companion.session import History, Session, Step

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Seat:
    seat: int
    name_then: str  # the name in the game's setup
    player_id: int | None  # the roster player, when linked
    name: str  # the roster player's current name (or the name then)
    colour: str
    score: int | None
    winner: bool
    medals: int | None = None
    best_kill: int | None = None
    rank: int | None = None  # the score pad (None: out of the ranking)
    out: str | None = None  # the score pad: "eliminated" or "left"
    team: int | None = None  # the score pad: the seat's team (0-based)
    time_ms: int | None = None  # the clock (or the clock beside a score pad game)
    turns: int | None = None
    longest_ms: int | None = None
    overtime_ms: int | None = None

    @property
    def average_ms(self) -> int | None:
        """The clock's average turn."""
        if self.time_ms is None or not self.turns:
            return None
        return round(self.time_ms / self.turns)


@dataclass(frozen=True)
class GameLine:
    id: int
    kind: str
    started: float
    updated: float
    status: str  # "finished", "abandoned", "unfinished" or "damaged"
    seats: tuple[Seat, ...]
    outcome: str | None
    difficulty: str | None
    recovered: int | None
    lost: int | None
    rounds: int | None
    damage: str | None = None  # status "damaged": what cannot be read
    template: str | None = None  # the score pad's template id
    template_name: dict[str, str] | None = None  # per language ("" for any)
    win: str | None = None  # "highest", "lowest", "coop", "places"
    instant: bool = False  # won outright
    start_player: int | None = None  # seat
    bgg_id: int | None = None
    #: the clock's played time (a clock session's, or the one beside a score pad game)
    clock_ms: int | None = None
    clock_game: int | None = None  # a score pad game's clock session (its game id)
    pad_game: int | None = None  # a clock session's score pad game

    @property
    def duration(self) -> float:
        return max(self.updated - self.started, 0.0)

    @property
    def played_minutes(self) -> int:
        """Minutes played: the clock's played time where a clock ran (pauses left
        out), else from start to the last action."""
        if self.clock_ms is not None:
            return round(self.clock_ms / 60000)
        return round(self.duration / 60)

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        found: dict[int, list[int]] = {}
        for seat in self.seats:
            if seat.team is not None:
                found.setdefault(seat.team, []).append(seat.seat)
        return tuple(tuple(found[k]) for k in sorted(found))

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats if s.winner)


@dataclass(frozen=True)
class LogLine:
    seq: int
    at: float
    verb: str  # "do", "undo", "redo"; "damaged": the log stops there
    title: Message  # the command (or "undone: ...")
    details: tuple[Message, ...]  # what it did


def _links(journal: Journal) -> dict[int, dict[int, tuple[int, str, str]]]:
    rows = journal.read("SELECT gp.game_id, gp.seat, p.id, p.name, p.colour"
                        " FROM game_players gp JOIN players p ON p.id = gp.player_id")
    out: dict[int, dict[int, tuple[int, str, str]]] = {}
    for gid, seat, pid, name, colour in rows:
        out.setdefault(gid, {})[seat] = (pid, shown_name(name, f"#{pid}"), colour)
    return out


def _line(facts: Facts, links: dict[int, tuple[int, str, str]],
          clock: Facts | None = None) -> GameLine:
    """A history line; `clock`: the clock session that ran beside this score pad game."""
    seats = []
    winners = set(facts.winners)
    team_of = {s: t for t, team in enumerate(facts.teams or ()) for s in team}
    timed = facts if facts.times_ms is not None else clock
    for i, stored in enumerate(facts.names):
        # tidied a line at a time, as lines are read: an older game's names too
        name_then = shown_name(stored)
        pid, name, colour = links.get(i, (None, name_then, ""))
        t = _clock_seat(timed, facts.names, i)
        seats.append(Seat(i, name_then, pid, name, colour, facts.scores[i], i in winners,
                          None if facts.medals is None else facts.medals[i],
                          None if facts.best_kills is None else facts.best_kills[i],
                          None if facts.ranks is None else facts.ranks[i],
                          None if facts.out is None else facts.out[i], team_of.get(i),
                          *t))
    return GameLine(facts.game_id, facts.kind, facts.started, facts.updated, facts.status,
                    tuple(seats), facts.outcome, facts.difficulty, facts.recovered,
                    facts.lost, facts.rounds, facts.damage, facts.template,
                    facts.template_name, facts.win, facts.instant, facts.start_player,
                    facts.bgg_id, timed.played_ms if timed is not None else None,
                    clock.game_id if clock is not None else None, facts.pad_game)


def _clock_seat(clock: Facts | None, names: Sequence[str], seat: int
                ) -> tuple[int | None, int | None, int | None, int | None]:
    """A seat's clock figures (time, turns, longest turn, overtime): the clock's seat of
    the same name (a clock beside a score pad game may seat the table otherwise)."""
    if clock is None or clock.times_ms is None:
        return None, None, None, None
    name = names[seat].casefold()
    found = [i for i, n in enumerate(clock.names) if n.casefold() == name]
    if not found:
        return None, None, None, None
    i = found[0]
    return (clock.times_ms[i], (clock.turns or ())[i], (clock.longest_ms or ())[i],
            (clock.overtime_ms or ())[i])


def _clocks(journal: Journal) -> dict[int, Facts]:
    """The clock session beside each score pad game (the latest, if several ran)."""
    out: dict[int, Facts] = {}
    for f in all_facts(journal, include=("clock",)):
        if f.pad_game is not None and f.status != "damaged":
            out[f.pad_game] = f
    return out


def games(
    journal: Journal, *, kind: str | None = None, player_id: int | None = None,
    status: str | None = None, newest_first: bool = True, limit: int | None = None,
    offset: int = 0,
) -> list[GameLine]:
    link_missing(journal)
    links = _links(journal)
    facts = all_facts(journal, include=None if kind is None else (kind,))
    if status is not None:
        facts = [f for f in facts if f.status == status]
    if player_id is not None:
        facts = [f for f in facts
                 if any(pid == player_id for pid, _, _ in links.get(f.game_id, {}).values())]
    if newest_first:
        facts.reverse()
    end = None if limit is None else offset + limit
    page = facts[offset:end]
    clocks = _clocks(journal) if any(night_for(f.kind).clock_beside for f in page) else {}
    return [_line(f, links.get(f.game_id, {}), clocks.get(f.game_id)) for f in page]


def game(journal: Journal, game_id: int) -> GameLine:
    facts = game_facts(journal, game_id)
    clock = _clocks(journal).get(game_id) if night_for(facts.kind).clock_beside else None
    return _line(facts, _links(journal).get(game_id, {}), clock)


# -- the log ---------------------------------------------------------------------------
def command_name(kind: str, command: Any) -> Message:
    """What a command is called in a log line, with its character where it names one
    ("Power activated: Edward Wyre")."""
    return night_for(kind).command_name(command)


def _details(kind: str, step: Step) -> tuple[Message, ...]:
    return tuple(night_for(kind).describe(step))


def log(journal: Journal, game_id: int) -> list[LogLine]:
    """The game's journal replayed into readable lines (oldest first). A damaged game
    raises `DamagedRow`; a game damaged from some action on is told up to there, then
    one line says where the damage starts (`verb` "damaged", `night.log.damaged`)."""
    record = journal.game(game_id)
    if record.damaged is not None:
        raise DamagedRow("core.error.damaged_game", game=game_id, reason=record.damaged)
    try:
        rules = rules_for(record.kind)
    except KeyError as exc:
        raise RuleError("night.error.unknown_kind", kind=record.kind) from exc
    try:
        history = History(rules.initial_state(record.setup))
    except Exception as exc:  # a setup of the wrong shape: the row is damaged
        raise DamagedRow("core.error.damaged_game", game=game_id,
                         reason=_why(exc)) from exc
    entries, damage = journal.readable_entries(game_id)
    out: list[LogLine] = []
    for entry in entries:
        try:
            out.append(_log_line(record.kind, rules, history, entry))
        except Exception as exc:  # valid JSON these rules cannot replay: damaged here
            damage = {"seq": entry.seq, "reason": _why(exc)}
            break
    if damage is not None:
        out.append(LogLine(damage["seq"], out[-1].at if out else record.started, "damaged",
                           msg("night.log.damaged", n=damage["seq"] + 1,
                               reason=damage["reason"]), ()))
    return out


def _why(exc: Exception) -> str:
    if isinstance(exc, CompanionError):
        return exc.message.key
    return f"{type(exc).__name__}: {str(exc)[:80]}"


#: a log's parameters that hold one player's name
_NAME_PARAMS = frozenset({"player", "name", "winner", "leader"})
LOG_TEXT_MAX = 200  # characters of any other text a log line quotes


def _tidied(message: Message) -> Message:
    """A log line's message with the texts it quotes tidied (`companion.names`): an
    older game's names, typed before names were checked, read like today's."""
    params: dict[str, Any] = {}
    for key, value in message.params.items():
        if isinstance(value, Message):
            value = _tidied(value)
        elif isinstance(value, str):
            value = (shown_name(value, tidy_text(value, NAME_MAX)) if key in _NAME_PARAMS
                     else tidy_text(value, LOG_TEXT_MAX))
        params[key] = value
    return Message(message.key, params)


def _log_line(kind: str, rules: Any, history: History, entry: Entry) -> LogLine:
    if entry.verb == "do":
        command = decode(rules.commands, entry.command or {})
        after, events = rules.apply(history.state, command)
        step = Step(command, tuple(events), history.state, after)
        history.do(step)
        return LogLine(entry.seq, entry.at, "do", command_name(kind, command),
                       tuple(_tidied(m) for m in _details(kind, step)))
    step = history.back(rules, entry.verb, entry.command)
    title = msg(f"night.log.{entry.verb}", what=command_name(kind, step.command))
    return LogLine(entry.seq, entry.at, entry.verb, title, ())


# -- resume and abandon ---------------------------------------------------------------------
def _unfinished(journal: Journal, game_id: int, error: str) -> Any:
    record = journal.game(game_id)
    if record.finished or record.abandoned:
        raise RuleError(error, game=game_id)
    return record


def resume(journal: Journal, game_id: int) -> Session:
    record = _unfinished(journal, game_id, "night.error.not_resumable")
    return Session.resume(rules_for(record.kind), journal, game_id, record)


def abandon(journal: Journal, game_id: int) -> None:
    _unfinished(journal, game_id, "night.error.not_abandonable")
    journal.abandon(game_id)


def sheet_cells(journal: Journal, record: GameRecord) -> list[Any]:
    """A score pad game's cells as its summary lists them (`pad.rules.cells`): a
    finished game's summary holds them; a game going on is replayed from its newest
    snapshot for them (its summary, written at every action, leaves them out). Empty
    for a game whose actions cannot be read or replayed (resuming it says why)."""
    stored = record.summary.get("cells")
    if isinstance(stored, list):
        return stored
    if record.damaged is not None:
        return []
    return night_for(record.kind).cells(journal, record)


def kinds_in(journal: Journal) -> Sequence[str]:
    """The kinds of game in the history, for the screen's filter."""
    return [k for (k,) in journal.read("SELECT DISTINCT kind FROM games ORDER BY kind")
            if night_for(k).listed]
