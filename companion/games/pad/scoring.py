"""Points from what the table entered: derived points, totals, teams (pure).

Derived points come from a small closed vocabulary, never from evaluated text:
- `per: N`: floor(input / N) (7 Wonders' coins: a point per 3 coins);
- `table`: the points of the largest listed input not above the value (below the
  first: the first's points; above the last: the last's);
- `calc`: a named calculation over other categories' inputs: `science_sets` is the sum
  of the squares of the three counts plus 7 per complete set (7 Wonders' science).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from companion.games.pad.entry import DECIMALS, Number
from companion.games.pad.state import Cell, PadState, Row
from companion.games.pad.template import Category, Derive

Units = tuple[tuple[int, ...], ...]


def exact(value: int | float) -> Number:
    """A stored value as an exact number (a float holds at most two decimals)."""
    if isinstance(value, float):
        return Fraction(value).limit_denominator(10**DECIMALS)
    return value


def stored(value: Number) -> int | float:
    """An exact value as the state keeps it (plain JSON types)."""
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else round(float(value), DECIMALS)
    return value


def plain(value: Number | None) -> int | float | None:
    return None if value is None else stored(value)


def science_sets(counts: Sequence[Number]) -> Number:
    """Each symbol's count squared, plus 7 per complete set of the three symbols."""
    whole = [max(0, math.floor(c)) for c in counts]
    return sum(c * c for c in whole) + 7 * min(whole)


def derived(derive: Derive, value: Number) -> Number:
    if derive.per is not None:
        return math.floor(value / derive.per)
    points = derive.table[0][1]
    for entry, table_points in derive.table:
        if entry <= value:
            points = table_points
    return points


def category_points(state: PadState, index: int, seat: int) -> Number | None:
    """A category's points for a seat; None while blank (or while a calculation's
    inputs are)."""
    cat = state.template.categories[index]
    if cat.derive is not None and cat.derive.calc is not None:
        counts = []
        for ident in cat.derive.inputs:
            cell = state.categories[_index(state, ident)][seat]
            if cell is None:
                return None
            counts.append(exact(cell.value))
        return science_sets(counts)
    cell = state.categories[index][seat]
    if cell is None:
        return None
    value = exact(cell.value)
    return value if cat.derive is None else derived(cat.derive, value)


def _index(state: PadState, ident: str) -> int:
    for i, cat in enumerate(state.template.categories):
        if cat.id == ident:
            return i
    raise KeyError(ident)


def player_total(state: PadState, seat: int) -> Number:
    """The seat's own points: the start score and every round, or every scoring
    category; less its penalty points (more, where the lowest wins)."""
    total = _sheet_total(state, seat)
    if state.penalties:
        points = state.penalties[seat]
        total += points if state.template.win == "lowest" else -points
    return total


def _sheet_total(state: PadState, seat: int) -> Number:
    if state.template.shape == "rounds":
        return _round_sums(state.template.start, len(state.players), state.rounds)[seat]
    total: Number = 0
    for i, cat in enumerate(state.template.categories):
        if cat.points:
            points = category_points(state, i, seat)
            if points is not None:
                total += points
    return total


#: the rounds last added up: (start, seats), the rows, each seat's sum and each row's
#: values. A row is immutable and an entry replaces one, so the next sums change by
#: the rows replaced, added or taken away alone (50 rounds of 8 were added up again at
#: every entry). Exact numbers: taking a row's values away leaves no rounding behind.
#: Read and replaced whole: sums made on another thread at worst start again.
_last_sums: tuple[tuple[Number, int], tuple[Row, ...], tuple[Number, ...],
                  tuple[tuple[Number, ...], ...]] | None = None


def _whole(value: Number) -> Number:
    """A sum as a plain int when it is whole (a correction of 2.5 to 3 leaves 7/1)."""
    return int(value) if isinstance(value, Fraction) and value.denominator == 1 else value


def _row_values(row: Row) -> tuple[Number, ...]:
    return tuple(0 if cell is None else exact(cell.value) for cell in row)


def _round_sums(start: Number, seats: int, rounds: tuple[Row, ...]) -> tuple[Number, ...]:
    """Each seat's start score plus every round's value (a blank adds nothing)."""
    global _last_sums
    last = _last_sums
    if last is not None and last[0] == (start, seats):
        _shape, before, sums, values = last
        if before is rounds:
            return sums
        new_sums = list(sums)
        new_values = list(values[:len(rounds)])
        for r in range(max(len(rounds), len(before))):
            old = before[r] if r < len(before) else None
            row = rounds[r] if r < len(rounds) else None
            if old is row:
                continue
            if old is not None:
                new_sums = [total - value for total, value in zip(new_sums, values[r],
                                                                  strict=True)]
            if row is not None:
                row_values = _row_values(row)
                if r < len(new_values):
                    new_values[r] = row_values
                else:
                    new_values.append(row_values)
                new_sums = [total + value for total, value in zip(new_sums, row_values,
                                                                  strict=True)]
        result, kept = tuple(_whole(v) for v in new_sums), tuple(new_values)
    else:
        kept = tuple(_row_values(row) for row in rounds)
        result = tuple(_whole(start + sum(row[seat] for row in kept))
                       for seat in range(seats))
    _last_sums = ((start, seats), rounds, result, kept)
    return result


def totals(state: PadState) -> tuple[Number, ...]:
    return tuple(player_total(state, seat) for seat in range(len(state.players)))


def units(state: PadState) -> Units:
    """Who ranks together: each team, or each player alone."""
    if state.teams:
        return state.teams
    return tuple((seat,) for seat in range(len(state.players)))


def unit_total(state: PadState, members: tuple[int, ...], seat_totals: Sequence[Number]
               ) -> Number:
    """A team's score: its members' sum, or (`teams: {score: own}`) the one its first
    member's column holds."""
    if len(members) > 1 and state.template.team_score == "own":
        return seat_totals[members[0]]
    return sum(seat_totals[s] for s in members)


def scorer(state: PadState, seat: int) -> bool:
    """Whether this seat's column is filled in: with teams scoring their own, only a
    team's first member's."""
    if state.teams and state.template.team_score == "own":
        return any(team[0] == seat for team in state.teams)
    return True


def required(state: PadState, seat: int, round_index: int | None = None) -> bool:
    """Whether the table owes this cell: an active scorer (a player out owes nothing
    from the round they left)."""
    if not scorer(state, seat):
        return False
    out = state.exits[seat]
    if out is None:
        return True
    return round_index is not None and round_index < out.rounds


def missing_in_round(state: PadState, index: int) -> tuple[int, ...]:
    row = state.rounds[index]
    return tuple(s for s in range(len(state.players))
                 if row[s] is None and required(state, s, index))


def missing_in_category(state: PadState, index: int) -> tuple[int, ...]:
    cat = state.template.categories[index]
    if not cat.entered:
        return ()
    row = state.categories[index]
    return tuple(s for s in range(len(state.players)) if row[s] is None and required(state, s))


def round_complete(state: PadState, index: int) -> bool:
    return not missing_in_round(state, index)


def category_of(state: PadState, ident: str) -> tuple[int, Category] | None:
    for i, cat in enumerate(state.template.categories):
        if cat.id == ident:
            return i, cat
    return None


def out_of_range(cat: Category, cell: Cell) -> bool:
    value = exact(cell.value)
    return (cat.low is not None and value < cat.low) or (
        cat.high is not None and value > cat.high)
