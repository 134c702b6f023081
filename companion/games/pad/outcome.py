"""The state of the game as the table reads it: totals, ranks, winners, ties waiting
for a tie-breaker input or the table's choice, and whether the end is offered (pure)."""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.pad.entry import Number
from companion.games.pad.ranking import first_tie, rank, ranks_of_groups
from companion.games.pad.scoring import (
    blanks,
    category_of,
    exact,
    totals,
    unit_total,
    units,
)
from companion.games.pad.state import PadState
from companion.games.pad.template import TieBreak


@dataclass(frozen=True)
class TieWon:
    """How the tie for the win on points went (the standings, the end page and the log
    say it): the tie-breaker that decided it, or the last one, still tied."""

    breaker: TieBreak
    first: tuple[int, ...]  # seats it put first (several: still tied, the win shared)
    value: Number  # their value
    beaten: tuple[Number, ...]  # the values it put behind them, best first; () still tied


@dataclass(frozen=True)
class Outcome:
    totals: tuple[Number, ...]  # per seat, its own points
    unit_totals: tuple[Number, ...]  # per unit (team or player)
    ranks: tuple[int | None, ...]  # per seat; None: out of the ranking (or no ranking yet)
    winners: tuple[int, ...]  # seats
    #: tied seats waiting for a tie-breaker's input, with that tie-breaker
    pending: tuple[tuple[tuple[int, ...], TieBreak], ...]
    undecided: tuple[int, ...]  # `ties: chosen`: seats tied for the win, not yet chosen
    end_offered: bool  # the fixed count is played, or a total reached the end score
    reached: tuple[int, ...]  # seats whose unit reached the end score
    tie: TieWon | None = None  # the tie for the win on points, once its values are in


def _breaker(state: PadState, tb: TieBreak, members: tuple[int, ...]) -> Number | None:
    if tb.category is not None:
        found = category_of(state, tb.category)
        assert found is not None  # a checked template
        row = state.categories[found[0]]
    else:
        row = state.tie_row(str(tb.input))
    values = [row[s] for s in members]
    if any(v is None for v in values):
        return None
    return sum(exact(v.value) for v in values if v is not None)


#: the last state asked and its outcome: a screen asks it of one state several times
#: (the sheet, the headline, the preview, the summary); a state is immutable, so the
#: same object has the same outcome
_last: tuple[PadState, Outcome] | None = None


def outcome(state: PadState) -> Outcome:
    """Totals, ranks, winners, ties waiting and the end condition of `state`."""
    global _last
    last = _last  # read once: another thread may replace it
    if last is not None and last[0] is state:
        return last[1]
    result = _outcome(state)
    _last = (state, result)
    return result


def _outcome(state: PadState) -> Outcome:
    t = state.template
    seat_totals = totals(state)
    all_units = units(state)
    active = [u for u in all_units if any(state.active(s) for s in u)]
    unit_totals = tuple(unit_total(state, u, seat_totals) for u in active)
    offered, reached = _end(state, active, unit_totals)
    n = len(state.players)
    seat_ranks: list[int | None] = [None] * n
    pending: list[tuple[tuple[int, ...], TieBreak]] = []
    undecided: tuple[int, ...] = ()
    if t.win == "coop":
        winners: tuple[int, ...] = ()
        if state.coop_won:
            winners = tuple(s for s in range(n) if state.active(s))
            for s in winners:
                seat_ranks[s] = 1
        return Outcome(seat_totals, unit_totals, tuple(seat_ranks), winners, (), (),
                       offered, reached)
    if t.win == "places":
        place_ranks = ranks_of_groups(state.places, n)
        winners = tuple(state.places[0]) if state.places else ()
        return Outcome(seat_totals, unit_totals, place_ranks, winners, (), (), offered,
                       reached)
    breakers = [[_breaker(state, tb, u) for u in active] for tb in t.tiebreak]
    ranked = rank(unit_totals, t.win == "lowest", breakers, [tb.better for tb in t.tiebreak])
    groups = [list(g) for g in ranked.groups]
    pending = [(tuple(s for u in group for s in active[u] if state.active(s)), t.tiebreak[b])
               for group, b in ranked.pending]
    if state.instant:
        first = [i for i, u in enumerate(active) if set(u) & set(state.instant)]
        rest = [[u for u in g if u not in first] for g in groups]
        groups = [first, *[g for g in rest if g]]
        pending = []
    elif t.ties == "chosen" and groups and len(groups[0]) > 1 and not any(
            set(g) == set(groups[0]) for g, _ in ranked.pending):
        tied = {s for u in groups[0] for s in active[u] if state.active(s)}
        chosen = [u for u in groups[0] if set(active[u]) & set(state.settled)]
        if chosen and tied == set(state.settled_among):
            groups = [chosen, [u for u in groups[0] if u not in chosen], *groups[1:]]
        else:
            undecided = tuple(sorted(tied))
    unit_ranks = ranks_of_groups(groups, len(active))
    for u, members in enumerate(active):
        for s in members:
            if state.active(s):
                seat_ranks[s] = unit_ranks[u]
    winners = tuple(sorted(s for u in groups[0] for s in active[u] if state.active(s))) \
        if groups else ()
    tie = None
    story = None if state.instant else first_tie(
        unit_totals, t.win == "lowest", breakers, [tb.better for tb in t.tiebreak])
    if story is not None and (story.beaten or t.ties == "shared"):  # (else the table chose)
        values = breakers[story.breaker]
        tb = t.tiebreak[story.breaker]
        beaten = sorted((values[u] for u in story.beaten), reverse=tb.better != "lower")
        tie = TieWon(tb, tuple(sorted(s for u in story.first for s in active[u]
                                      if state.active(s))),
                     values[story.first[0]], tuple(beaten))  # type: ignore[arg-type]
    return Outcome(seat_totals, unit_totals, tuple(seat_ranks), winners, tuple(pending),
                   undecided, offered, reached, tie)


def _end(state: PadState, active: list[tuple[int, ...]], unit_totals: tuple[Number, ...]
         ) -> tuple[bool, tuple[int, ...]]:
    t = state.template
    if t.shape != "rounds" or not state.rounds or blanks(state):  # a blank is not a zero
        return False, ()
    reached: tuple[int, ...] = ()
    if t.reach is not None:
        reached = tuple(s for u, total in zip(active, unit_totals, strict=True)
                        if total >= t.reach for s in u if state.active(s))
    counted = t.rounds_count is not None and len(state.rounds) >= t.rounds_count
    return bool(reached) or counted, reached
