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
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

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
    return totals(state)[seat]


def _sheet_totals(state: PadState) -> tuple[Number, ...]:
    seats = len(state.players)
    if state.template.shape == "rounds":
        values = _round_values(seats, state.rounds)
        columns = zip(*values, strict=True) if values else [()] * seats
        return tuple(_whole(state.template.start + sum(column)) for column in columns)
    sums: list[Number] = []
    for seat in range(seats):
        total: Number = 0
        for i, cat in enumerate(state.template.categories):
            if cat.points:
                points = category_points(state, i, seat)
                if points is not None:
                    total += points
        sums.append(total)
    return tuple(sums)


class RoundMemo:
    """What `make(key, index, row)` gives for each round's row, kept while the row is
    the same object under the same `key`: a row is immutable and an action replaces
    one, so a sheet of 50 rounds makes one again, not 50. The last call's results are
    read and replaced whole: a call on another thread at worst makes again what it
    finds changed."""

    def __init__(self, make: Callable[[Any, int, Row], Any]) -> None:
        self._make = make
        self._last: tuple[Any, tuple[Row, ...], tuple[Any, ...]] = (None, (), ())

    def __call__(self, key: Any, rounds: tuple[Row, ...]) -> tuple[Any, ...]:
        last_key, last_rounds, last_made = self._last
        same = last_key == key
        made = tuple(
            last_made[r] if same and r < len(last_rounds) and last_rounds[r] is row
            else self._make(key, r, row)
            for r, row in enumerate(rounds))
        self._last = (key, rounds, made)
        return made


def _whole(value: Number) -> Number:
    """A sum as a plain int when it is whole (quarters adding up to 7 leave 7/1)."""
    return int(value) if isinstance(value, Fraction) and value.denominator == 1 else value


#: each round's values as exact numbers (a blank: 0), by seat
_round_values = RoundMemo(
    lambda _seats, _r, row: tuple(0 if cell is None else exact(cell.value) for cell in row))


def totals(state: PadState) -> tuple[Number, ...]:
    """Each seat's own points (`player_total`)."""
    sheet = _sheet_totals(state)
    if not state.penalties:
        return sheet
    sign = 1 if state.template.win == "lowest" else -1
    return tuple(total + sign * points
                 for total, points in zip(sheet, state.penalties, strict=True))


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


def _owed(key: tuple[tuple[bool, ...], tuple[Any, ...]], r: int, row: Row) -> tuple[int, ...]:
    scorers, exits = key
    return tuple(s for s, cell in enumerate(row) if cell is None and scorers[s]
                 and (exits[s] is None or r < exits[s].rounds))


#: each round's seats owing a cell (`missing_in_round`, for every round at once)
_round_blanks = RoundMemo(_owed)


def blanks(state: PadState) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Every round holding a blank the table owes, first round first: (round index,
    seats). A blank is never a zero: any of them, in any round, keeps the game from
    ending."""
    key = (tuple(scorer(state, s) for s in range(len(state.players))), state.exits)
    return tuple((r, seats) for r, seats in enumerate(_round_blanks(key, state.rounds))
                 if seats)


def category_of(state: PadState, ident: str) -> tuple[int, Category] | None:
    for i, cat in enumerate(state.template.categories):
        if cat.id == ident:
            return i, cat
    return None


def out_of_range(cat: Category, cell: Cell) -> bool:
    value = exact(cell.value)
    return (cat.low is not None and value < cat.low) or (
        cat.high is not None and value > cat.high)
