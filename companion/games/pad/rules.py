"""The score pad as a pure reducer: `apply(state, command) -> (state, events)`.

A game keeps a copy of its template (the setup holds it as plain data), so a later
edit of the template file never changes it. Cells hold what the table typed and its
value; totals, ranks and the end are derived (`outcome`). Any cell may be corrected at
any time, even after the end; a new round opens only once the last one is complete,
and the game ends only once no round holds a blank (a blank is never a zero).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from companion.games.pad import commands as c
from companion.games.pad import events as e
from companion.games.pad.entry import evaluate, shown
from companion.games.pad.outcome import Outcome, outcome
from companion.games.pad.scoring import (
    RoundMemo,
    blanks,
    category_of,
    category_points,
    exact,
    missing_in_category,
    missing_in_round,
    plain,
    stored,
    units,
)
from companion.games.pad.state import Cell, Exit, PadState, Player, Row
from companion.games.pad.template import (
    TemplateError,
    TieBreak,
    label,
    label_in_sentence,
    label_text,
    parse,
)
from companion.messages import Message, RuleError, msg
from companion.names import clean_name

Events = list[Any]
#: the most players a pad takes, whatever its template says (a count outside the
#: template's range is allowed once confirmed)
HARD_MAX_PLAYERS = 20
_COLOUR_MAX = 32


class PadRules:
    kind = "pad"
    commands = c.COMMANDS
    state_type = PadState

    def initial_state(self, setup: Mapping[str, Any]) -> PadState:
        raw = setup.get("template")
        try:
            template = parse(raw)
        except TemplateError as exc:
            raise RuleError("pad.error.template", key=exc.problems[0][0] or "-") from exc
        players = _players(setup.get("players"))
        confirmed = setup.get("confirmed_count", False) is True
        if not template.players_min <= len(players) <= template.players_max and not confirmed:
            raise RuleError("pad.error.players_count", low=template.players_min,
                            high=template.players_max, n=len(players))
        start = setup.get("start_player", 0)
        if not _is_int(start) or not 0 <= start < len(players):
            raise RuleError("pad.error.start_player", n=len(players))
        teams = _teams(setup.get("teams"), len(players))
        n = len(players)
        return PadState(
            template=template, players=players, start_player=int(start),
            start_drawn=setup.get("start_drawn", False) is True, teams=teams,
            confirmed_count=confirmed,
            categories=tuple((None,) * n for _ in template.categories)
            if template.shape == "categories" else (),
            exits=(None,) * n)

    def check_resumable(self, setup: Mapping[str, Any]) -> None:
        pass  # one version of these rules so far

    def summary(self, state: PadState) -> dict[str, Any]:
        return summary(state)

    def apply(self, state: PadState, command: Any) -> tuple[PadState, Events]:
        handler = _HANDLERS.get(type(command))
        if handler is None:
            raise RuleError("core.error.unknown_command", name=type(command).__name__)
        return handler(state, command)


RULES = PadRules()


# -- setup -----------------------------------------------------------------------------
def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _players(raw: Any) -> tuple[Player, ...]:
    if not isinstance(raw, (list, tuple)) or not 1 <= len(raw) <= HARD_MAX_PLAYERS:
        raise RuleError("pad.error.players_count", low=1, high=HARD_MAX_PLAYERS,
                        n=len(raw) if isinstance(raw, (list, tuple)) else 0)
    players = []
    for item in raw:
        if not isinstance(item, Mapping):
            raise RuleError("core.error.empty_name")
        name = clean_name(item.get("name"))
        if not name:
            raise RuleError("core.error.empty_name")
        roster = item.get("roster_id", item.get("player_id"))
        colour = item.get("colour")
        players.append(Player(name, int(roster) if _is_int(roster) else None,
                              str(colour)[:_COLOUR_MAX] if isinstance(colour, str) and colour
                              else None))
    if len({p.name.casefold() for p in players}) != len(players):
        raise RuleError("core.error.duplicate_name")
    return tuple(players)


def _teams(raw: Any, n: int) -> tuple[tuple[int, ...], ...]:
    if raw is None or raw == []:
        return ()
    if not isinstance(raw, (list, tuple)) or len(raw) < 2 or not all(
            isinstance(team, (list, tuple)) and team and all(_is_int(s) for s in team)
            for team in raw):
        raise RuleError("pad.error.teams")
    seats = sorted(s for team in raw for s in team)
    if seats != list(range(n)):
        raise RuleError("pad.error.teams")
    return tuple(tuple(int(s) for s in team) for team in raw)


# -- helpers ---------------------------------------------------------------------------
def _name(state: PadState, seat: int) -> str:
    return state.players[seat].name


def _names(state: PadState, seats: Iterable[int]) -> tuple[str, ...]:
    return tuple(_name(state, s) for s in seats)


def _seat(state: PadState, seat: Any) -> int:
    if not _is_int(seat) or not 0 <= seat < len(state.players):
        raise RuleError("pad.error.no_seat", seat=str(seat), n=len(state.players))
    return int(seat)


def _value(state: PadState, expression: Any) -> tuple[str, int | float]:
    number = evaluate(expression, whole=state.template.whole)
    return " ".join(str(expression).split()), stored(number)


def _with_cell(rows: tuple[Row, ...], index: int, seat: int, cell: Cell | None
               ) -> tuple[Row, ...]:
    row = list(rows[index])
    row[seat] = cell
    return (*rows[:index], tuple(row), *rows[index + 1:])


def _shown(value: int | float) -> str:
    return shown(exact(value))


def _where(state: PadState, seat: int, round_: Any, category: Any, opening: bool
           ) -> tuple[str, int]:
    """Which row a cell command names: ("round", index) or ("category", index)."""
    t = state.template
    if t.shape == "rounds":
        if category is not None:
            raise RuleError("pad.error.rounds_sheet")
        if not _is_int(round_) or not 0 <= round_ <= len(state.rounds) - (0 if opening else 1):
            raise RuleError("pad.error.no_round", round=str(round_ + 1 if _is_int(round_)
                                                            else round_))
        out = state.exits[seat]
        if out is not None and round_ >= out.rounds:
            raise RuleError("pad.error.player_out", player=_name(state, seat))
        return "round", int(round_)
    if round_ is not None:
        raise RuleError("pad.error.categories_sheet")
    found = category_of(state, category) if isinstance(category, str) else None
    if found is None:
        raise RuleError("pad.error.no_category", category=str(category))
    if not found[1].entered:
        raise RuleError("pad.error.computed", category=label(found[1].name))
    return "category", found[0]


def blank_list(state: PadState, owed: tuple[tuple[int, tuple[int, ...]], ...]) -> Message:
    """Every round with a blank and whose it is: "round 1: Ann; round 3: Bob, Cy"."""
    parts = [msg("pad.blank.round", round=r + 1, players=", ".join(_names(state, seats)))
             for r, seats in owed]
    said = parts[-1]
    for part in reversed(parts[:-1]):
        said = msg("pad.blank.join", first=part, rest=said)
    return said


# -- commands --------------------------------------------------------------------------
def _set_cell(state: PadState, cmd: c.SetCell) -> tuple[PadState, Events]:
    seat = _seat(state, cmd.seat)
    kind, index = _where(state, seat, cmd.round, cmd.category, opening=True)
    text, value = _value(state, cmd.expression)
    cell = Cell(text, value)
    events: Events = []
    if kind == "round":
        if index == len(state.rounds):
            _check_can_open(state)
            state = replace(state, rounds=(*state.rounds, (None,) * len(state.players)))
            events.append(e.RoundOpened(index + 1))
        old = state.rounds[index][seat]
        if old == cell:
            raise RuleError("pad.error.unchanged")
        state = replace(state, rounds=_with_cell(state.rounds, index, seat, cell))
        events.append(e.CellSet(_name(state, seat), index + 1, None,
                                None if old is None else old.text,
                                None if old is None else _shown(old.value), text,
                                _shown(value)))
        return state, events
    cat = state.template.categories[index]
    old = state.categories[index][seat]
    if old == cell:
        raise RuleError("pad.error.unchanged")
    note = None
    if (cat.low is not None and exact(value) < cat.low) or (
            cat.high is not None and exact(value) > cat.high):
        note = "range"
    state = replace(state, categories=_with_cell(state.categories, index, seat, cell))
    events.append(e.CellSet(_name(state, seat), None, cat.id,
                            None if old is None else old.text,
                            None if old is None else _shown(old.value), text, _shown(value),
                            note, cat.name))
    return state, events


def _check_can_open(state: PadState) -> None:
    if state.finished:
        raise RuleError("pad.error.finished")
    count = state.template.rounds_count
    if count is not None and len(state.rounds) >= count:
        raise RuleError("pad.error.rounds_count", n=count)
    if state.rounds:
        missing = missing_in_round(state, len(state.rounds) - 1)
        if missing:
            raise RuleError("pad.error.round_incomplete", round=len(state.rounds),
                            players=", ".join(_names(state, missing)))


def _clear_cell(state: PadState, cmd: c.ClearCell) -> tuple[PadState, Events]:
    seat = _seat(state, cmd.seat)
    kind, index = _where(state, seat, cmd.round, cmd.category, opening=False)
    if kind == "round":
        old = state.rounds[index][seat]
        if old is None:
            raise RuleError("pad.error.blank")
        rounds = _with_cell(state.rounds, index, seat, None)
        events: Events = [e.CellCleared(_name(state, seat), index + 1, None, old.text,
                                        _shown(old.value))]
        if index == len(rounds) - 1 and all(cell is None for cell in rounds[-1]):
            rounds = rounds[:-1]  # an empty last round is no round: the sheet closes it
            events.append(e.RoundClosed(index + 1))
        return replace(state, rounds=rounds), events
    cat = state.template.categories[index]
    old = state.categories[index][seat]
    if old is None:
        raise RuleError("pad.error.blank")
    return replace(state, categories=_with_cell(state.categories, index, seat, None)), [
        e.CellCleared(_name(state, seat), None, cat.id, old.text, _shown(old.value),
                      cat.name)]


def _set_tie_input(state: PadState, cmd: c.SetTieInput) -> tuple[PadState, Events]:
    seat = _seat(state, cmd.seat)
    breaker = next((tb for tb in state.template.tiebreak
                    if tb.input is not None and tb.input == cmd.key), None)
    if breaker is None:
        raise RuleError("pad.error.no_tie_input", key=str(cmd.key))
    text, value = _value(state, cmd.expression)
    row = state.tie_row(cmd.key)
    old = row[seat]
    cell = Cell(text, value)
    if old == cell:
        raise RuleError("pad.error.unchanged")
    row = (*row[:seat], cell, *row[seat + 1:])
    inputs = (*((k, r) for k, r in state.tie_inputs if k != cmd.key), (cmd.key, row))
    after = replace(state, tie_inputs=tuple(sorted(inputs)))
    events: Events = [e.TieInputSet(_name(state, seat), cmd.key,
                                    None if old is None else _shown(old.value),
                                    _shown(value), breaker.name)]
    if after.finished:
        before, now = outcome(state), outcome(after)
        # the win is said once every tie-breaker is in, and again if a correction
        # changes it
        if _tie_for_the_win(now) is None and (
                _tie_for_the_win(before) is not None or before.winners != now.winners
                or before.tie != now.tie):
            events += _ended(after)
    return after, events


def _settle_tie(state: PadState, cmd: c.SettleTie) -> tuple[PadState, Events]:
    if state.template.ties != "chosen" or state.template.win not in ("highest", "lowest"):
        raise RuleError("pad.error.ties_shared")
    tied = outcome(replace(state, settled=(), settled_among=())).undecided
    if not tied:
        raise RuleError("pad.error.no_tie")
    winners = cmd.winners
    if not isinstance(winners, tuple) or not winners or len(set(winners)) != len(winners) \
            or not all(_is_int(s) and s in tied for s in winners) or len(winners) >= len(tied):
        raise RuleError("pad.error.settle", players=", ".join(_names(state, tied)))
    return replace(state, settled=tuple(sorted(winners)), settled_among=tied), [
        e.TieSettled(_names(state, sorted(winners)))]


def _out(state: PadState, seat: int, how: str) -> tuple[PadState, Events]:
    if state.finished:
        raise RuleError("pad.error.finished")
    if not state.active(seat):
        raise RuleError("pad.error.already_out", player=_name(state, seat))
    if sum(1 for s in range(len(state.players)) if state.active(s)) <= 1:
        raise RuleError("pad.error.last_player")
    opened = len(state.rounds)
    if opened and state.rounds[-1][seat] is None:
        opened -= 1  # the round under way owes nothing more of theirs
    exits = list(state.exits)
    exits[seat] = Exit(how, opened)
    return replace(state, exits=tuple(exits)), [e.PlayerOut(_name(state, seat), how)]


def _eliminate(state: PadState, cmd: c.Eliminate) -> tuple[PadState, Events]:
    seat = _seat(state, cmd.seat)
    if not state.template.eliminate:
        raise RuleError("pad.error.no_elimination")
    return _out(state, seat, "eliminated")


def _leave(state: PadState, cmd: c.Leave) -> tuple[PadState, Events]:
    return _out(state, _seat(state, cmd.seat), "left")


def _instant_win(state: PadState, cmd: c.InstantWin) -> tuple[PadState, Events]:
    if not state.template.instant_win:
        raise RuleError("pad.error.no_instant_win")
    if state.finished:
        raise RuleError("pad.error.finished")
    seats = cmd.seats
    if not isinstance(seats, tuple) or not seats or len(set(seats)) != len(seats):
        raise RuleError("pad.error.instant_seats")
    for seat in seats:
        _seat(state, seat)
        if not state.active(seat):
            raise RuleError("pad.error.already_out", player=_name(state, seat))
    reason = " ".join(str(cmd.reason or "").split())[:80]
    winners = tuple(sorted({m for s in seats for u in units(state) if s in u for m in u
                            if state.active(m)}))
    return replace(state, instant=winners, instant_reason=reason, finished=True), [
        e.WonOutright(_names(state, winners), reason)]


def _coop(state: PadState, cmd: c.CoopOutcome) -> tuple[PadState, Events]:
    if state.template.win != "coop":
        raise RuleError("pad.error.not_coop")
    if state.finished:
        raise RuleError("pad.error.finished")
    if not isinstance(cmd.won, bool):
        raise RuleError("pad.error.not_coop")
    return replace(state, coop_won=cmd.won, finished=True), [e.CoopEnded(cmd.won)]


def _set_places(state: PadState, cmd: c.SetPlaces) -> tuple[PadState, Events]:
    if state.template.win != "places":
        raise RuleError("pad.error.not_places")
    if state.finished:
        raise RuleError("pad.error.finished")
    order = cmd.order
    active = [s for s in range(len(state.players)) if state.active(s)]
    if not isinstance(order, tuple) or not all(
            isinstance(g, tuple) and g and all(_is_int(s) for s in g) for g in order) \
            or sorted(s for g in order for s in g) != active:
        raise RuleError("pad.error.places", players=", ".join(_names(state, active)))
    return replace(state, places=order, finished=True), [
        e.PlacesSet(tuple(_names(state, g) for g in order))]


def _end(state: PadState, _: c.End) -> tuple[PadState, Events]:
    t = state.template
    if state.finished:
        raise RuleError("pad.error.finished")
    if t.win == "coop":
        raise RuleError("pad.error.coop_outcome")
    if t.win == "places":
        raise RuleError("pad.error.places_needed")
    if t.shape == "rounds":
        if not state.rounds:
            raise RuleError("pad.error.nothing_entered")
        owed = blanks(state)  # in any round: a blank is never a zero
        if len(owed) == 1:
            raise RuleError("pad.error.round_incomplete", round=owed[0][0] + 1,
                            players=", ".join(_names(state, owed[0][1])))
        if owed:
            raise RuleError("pad.error.blanks", cells=blank_list(state, owed))
    else:
        for i, cat in enumerate(t.categories):
            missing = missing_in_category(state, i)
            if missing:
                raise RuleError("pad.error.category_incomplete", category=label(cat.name),
                                players=", ".join(_names(state, missing)))
    state = replace(state, finished=True)
    return state, _ended(state)


def _ended(state: PadState) -> Events:
    """What the end says: the winners and how their tie went; or, tied for the win, the
    tie-breaker to ask or the table's choice (no shared win said before it is asked)."""
    result = outcome(state)
    waiting = _tie_for_the_win(result)
    if waiting is not None:
        seats, tb = waiting
        return [e.TieWaits(_names(state, seats), tb.name)]
    if result.undecided:
        return [e.TieWaits(_names(state, result.undecided))]
    events: Events = [e.GameEnded(_names(state, result.winners))]
    broken = tie_broken(state, result)
    if broken is not None:
        events.append(broken)
    return events


def _tie_for_the_win(result: Outcome) -> tuple[tuple[int, ...], TieBreak] | None:
    """The tie for the win still waiting for a tie-breaker's input, if any (a tie
    further down waits too, but the win is decided)."""
    return next(((seats, tb) for seats, tb in result.pending
                 if set(seats) & set(result.winners)), None)


def tie_broken(state: PadState, result: Outcome) -> e.TieBroken | None:
    """How the tie for the win went, as the log and the screens say it."""
    tie = result.tie
    if tie is None:
        return None
    return e.TieBroken(_names(state, tie.first), tie.breaker.name, shown(tie.value),
                       tuple(shown(v) for v in tie.beaten))


def tie_line(event: e.TieBroken, ahead: bool = False) -> Message:
    """"Bob wins the tie on coins, 11 to 9" (`ahead`, the game going on: "Bob is ahead
    on coins, 11 to 9"); "Still tied on coins (9 each)"."""
    what = label_in_sentence(event.label)
    if not event.beaten:
        return msg("pad.say.tie_still", what=what, value=event.value)
    values = msg("pad.say.tie_values", best=event.value, rest=", ".join(event.beaten))
    key = "pad.say.tie_ahead" if ahead else "pad.say.tie_won"
    return msg(key if len(event.winners) == 1 else f"{key}_shared",
               players=", ".join(event.winners), what=what, values=values)


#: penalty points at most per command (a clock's started intervals: far below it)
PENALTY_MAX = 1000


def _penalty(state: PadState, cmd: c.Penalty) -> tuple[PadState, Events]:
    seat = _seat(state, cmd.seat)
    if state.finished:
        raise RuleError("pad.error.finished")
    if state.template.win not in ("highest", "lowest"):
        raise RuleError("pad.error.penalty_win")
    if not _is_int(cmd.points) or not 1 <= cmd.points <= PENALTY_MAX:
        raise RuleError("pad.error.penalty_points", high=PENALTY_MAX)
    penalties = list(state.penalties or (0,) * len(state.players))
    penalties[seat] += cmd.points
    return replace(state, penalties=tuple(penalties)), [
        e.PenaltyWritten(_name(state, seat), cmd.points, penalties[seat])]


_HANDLERS: dict[type, Any] = {
    c.SetCell: _set_cell,
    c.ClearCell: _clear_cell,
    c.SetTieInput: _set_tie_input,
    c.SettleTie: _settle_tie,
    c.Eliminate: _eliminate,
    c.Leave: _leave,
    c.InstantWin: _instant_win,
    c.CoopOutcome: _coop,
    c.SetPlaces: _set_places,
    c.End: _end,
    c.Penalty: _penalty,
}


# -- for history, statistics and exports -------------------------------------------------
#: each round's `[name, round, text, value]` for every cell typed in, by the names
_round_cells = RoundMemo(lambda names, r, row: [
    [names[seat], r + 1, cell.text, cell.value]
    for seat, cell in enumerate(row) if cell is not None])


def cells(state: PadState) -> list[list[Any]]:
    """Every cell typed in, as the long table lists them: `[name, round, text, value]`
    round by round, then `[name, category id, text, points]` category by category."""
    t = state.template
    names = [p.name for p in state.players]
    out = [cell for row in _round_cells(tuple(names), state.rounds) for cell in row]
    for i, cat in enumerate(t.categories):
        if state.categories:
            # the category's points (coins: a point per 3; science: the sets), the text
            # the table typed ("" for a calculated one); an input that scores no points
            # of its own (a science symbol) has none
            for seat, cell in enumerate(state.categories[i]):
                points = category_points(state, i, seat) if cat.points else None
                if cell is not None or points is not None:
                    out.append([names[seat], cat.id, "" if cell is None else cell.text,
                                plain(points)])
    return out


def summary(state: PadState) -> dict[str, Any]:
    """What the history, the statistics and the exports read without replaying the
    game. A finished game's holds its cells too; a game going on leaves them out: they
    are the whole sheet, written again at every action (8 players' 200 rounds: 48 KB to
    the card each time), and a reader replays the game for them
    (`night.history.sheet_cells`)."""
    t = state.template
    result = outcome(state)
    names = [p.name for p in state.players]
    played = len(state.rounds) if t.shape == "rounds" else None
    # the round being played (home's "round 3"): the last one while it still misses
    # scores, else the next
    turn = 0
    if played is not None:
        turn = played if state.finished or (
            played and missing_in_round(state, played - 1)) else played + 1
    return {
        "finished": state.finished,
        "players": names,
        "template": t.id,
        "template_name": label_text(t.name),
        "win": t.win,
        "totals": [plain(v) for v in result.totals],
        "ranks": list(result.ranks),
        # a finished game tied for the win has none until its tie-breaker is asked
        "winners": [] if state.finished and (_tie_for_the_win(result) is not None
                                             or result.undecided) else
        [names[s] for s in result.winners] if state.finished or t.win in (
            "highest", "lowest") else [],
        "rounds": played,
        "turn": turn,
        "start_player": names[state.start_player],
        "start_drawn": state.start_drawn,
        "teams": [[names[s] for s in team] for team in state.teams] or None,
        "coop_won": state.coop_won,
        "instant_win": [names[s] for s in state.instant] or None,
        "out": [None if x is None else x.how for x in state.exits],
        "bgg_id": t.bgg_id,
        **({"cells": cells(state)} if state.finished else {}),
    }


# -- the log ---------------------------------------------------------------------------
def _where_msg(round_: int | None, category: str | None, name: Any) -> Message:
    if round_ is not None:
        return msg("pad.say.round", round=round_)
    return label(name) if name else msg("pad.say.category", category=str(category))


def describe(events: Iterable[Any]) -> list[Message]:
    """One line per event, for the log and the screen."""
    out: list[Message] = []
    for event in events:
        match event:
            case e.CellSet(old_text=None) as ev:
                key = "pad.say.entered" if ev.text == ev.value else "pad.say.entered_sum"
                out.append(msg(key, where=_where_msg(ev.round, ev.category, ev.label),
                               player=ev.player, text=ev.text, value=ev.value))
                if ev.note == "range":
                    out.append(msg("pad.say.check_range", player=ev.player,
                                   where=_where_msg(ev.round, ev.category, ev.label)))
            case e.CellSet() as ev:
                out.append(msg("pad.say.corrected",
                               where=_where_msg(ev.round, ev.category, ev.label),
                               player=ev.player, old=ev.old_value, value=ev.value))
                if ev.note == "range":
                    out.append(msg("pad.say.check_range", player=ev.player,
                                   where=_where_msg(ev.round, ev.category, ev.label)))
            case e.CellCleared() as ev:
                out.append(msg("pad.say.cleared", where=_where_msg(ev.round, ev.category,
                                                                   ev.label),
                               player=ev.player, old=ev.old_value))
            case e.RoundOpened(round=number):
                out.append(msg("pad.say.round_opened", round=number))
            case e.RoundClosed(round=number):
                out.append(msg("pad.say.round_closed", round=number))
            case e.TieInputSet(player=player, value=value, label=name):
                out.append(msg("pad.say.tie_input", player=player, value=value,
                               what=label(name)))
            case e.TieSettled(winners=winners):
                out.append(msg("pad.say.tie_settled", players=", ".join(winners)))
            case e.PlayerOut(player=player, how=how):
                out.append(msg(f"pad.say.{how}", player=player))
            case e.WonOutright(winners=winners, reason=reason):
                out.append(msg("pad.say.instant_win", players=", ".join(winners)))
                if reason:
                    out.append(msg("pad.say.reason", reason=reason))
            case e.CoopEnded(won=won):
                out.append(msg("pad.say.coop_won" if won else "pad.say.coop_lost"))
            case e.PlacesSet(order=order):
                out.append(msg("pad.say.places", places="; ".join(
                    f"{i + 1}. {', '.join(g)}" for i, g in enumerate(order))))
            case e.PenaltyWritten(player=player, points=points, total=total):
                out.append(msg("pad.say.penalty", player=player, n=points, total=total))
            case e.GameEnded(winners=winners):
                out.append(msg("pad.say.game_won" if len(winners) == 1 else
                               "pad.say.game_shared", players=", ".join(winners)))
            case e.TieBroken() as ev:
                out.append(tie_line(ev))
            case e.TieWaits(players=players, label=name):
                out.append(msg("pad.head.tie_input", players=", ".join(players),
                               what=label(name)) if name else
                           msg("pad.head.tie_choose", players=", ".join(players)))
    return out

