"""What the score pad's screens show, computed from the state (pure)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.games.pad.commands import SetCell
from companion.games.pad.entry import Number, evaluate, shown
from companion.games.pad.outcome import Outcome, outcome
from companion.games.pad.rules import RULES, tie_broken, tie_line
from companion.games.pad.scoring import (
    blanks,
    category_points,
    exact,
    missing_in_category,
    missing_in_round,
    plain,
    required,
    stored,
    unit_total,
)
from companion.games.pad.state import Cell, PadState
from companion.games.pad.template import Derive, label
from companion.messages import Message, RuleError, msg


@dataclass(frozen=True)
class CellView:
    text: str  # what the table typed ("3+6+2"), "" when blank
    value: int | float | None  # the cell's points (a derived category's, computed)
    note: str | None  # "check": outside the category's configured range
    missing: bool  # blank and owed by an active player
    entered: int | float | None = None  # the value typed, when points derive from it
    said: Message | None = None  # a derived category's: what was typed and what it scores


@dataclass(frozen=True)
class RowView:
    round: int | None  # 0-based round index (rounds sheet)
    category: str | None  # category id (categories sheet)
    label: Message
    cells: tuple[CellView, ...]  # per seat
    computed: bool = False  # a calculation's result: not entered
    points: bool = True  # False: an input only, not added to the total


@dataclass(frozen=True)
class ColumnView:
    seat: int
    name: str
    colour: str | None
    total: int | float
    rank: int | None
    out: str | None  # None, "eliminated" or "left"
    team: int | None  # team index
    winner: bool


@dataclass(frozen=True)
class SheetView:
    shape: str
    columns: tuple[ColumnView, ...]
    rows: tuple[RowView, ...]
    missing: tuple[int, ...]  # seats missing in the current round / unfilled categories
    current: tuple[int | None, str | None] | None  # (round, category) the keypad goes to
    current_seat: int | None
    can_open_round: bool  # a new round may start (the last one is complete)
    end_offered: bool
    finished: bool
    #: every round holding a blank owed, the open one too: (round index, seats)
    blanks: tuple[tuple[int, tuple[int, ...]], ...] = ()


@dataclass(frozen=True)
class EntryView:
    seat: int
    rank: int | None
    name: str
    colour: str | None
    total: int | float
    team: int | None
    winner: bool
    out: str | None


@dataclass(frozen=True)
class TieView:
    seats: tuple[int, ...]
    names: tuple[str, ...]
    key: str | None  # the raw input to ask each of them (SetTieInput), else None
    category: str | None  # a category tie-breaker whose cells are blank
    label: Message | None
    choose: bool  # `ties: chosen`: the table picks the winner (SettleTie)


@dataclass(frozen=True)
class StandingsView:
    entries: tuple[EntryView, ...]  # by rank; out players last
    end: Message | None  # the end condition's state ("Ann reached 100")
    ties: tuple[TieView, ...]
    winners: tuple[str, ...]
    finished: bool
    tie: Message | None = None  # how the tie for the win went ("Bob wins the tie on coins")


@dataclass(frozen=True)
class Preview:
    text: str
    value: int | float | None  # the cell's value if committed
    points: int | float | None  # the cell's points (derived categories)
    total: int | float | None  # the player's new total
    error: Message | None
    note: str | None = None
    said: Message | None = None  # a derived category's: "11 coins → 3"


def _team_of(state: PadState, seat: int) -> int | None:
    for i, team in enumerate(state.teams):
        if seat in team:
            return i
    return None


def _out(state: PadState, seat: int) -> str | None:
    out = state.exits[seat]
    return None if out is None else out.how


def _shown_total(state: PadState, result: Outcome, seat: int) -> int | float:
    """A column's total: a team scoring its own shows the team's score."""
    if state.teams and state.template.team_score == "own":
        for team in state.teams:
            if seat in team:
                return stored(unit_total(state, team, result.totals))
    return stored(result.totals[seat])


def _cell(cell: Cell | None, missing: bool, note: str | None = None,
          points: Number | None = None) -> CellView:
    if cell is None:
        return CellView("", plain(points), None, missing)
    entered = cell.value if points is not None and exact(cell.value) != points else None
    return CellView(cell.text, cell.value if points is None else plain(points), note, False,
                    entered)


def _figure(value: int | float | Number) -> str:
    """A value as the sheet writes it, with a true minus sign."""
    return shown(exact(value) if isinstance(value, float) else value).replace("-", "\u2212")


def derived_said(derive: Derive | None, value: int | float | None,
                 points: int | float | Number | None) -> Message | None:
    """A derived category's cell as the table reads it, what was typed and what it
    scores ("11 coins → 3"): 9 coins and 11 coins both score 3, and a correction types
    the coins."""
    if derive is None or derive.calc is not None or value is None or points is None:
        return None
    typed = _figure(value)
    entered: Message | str = typed if derive.unit is None else msg(
        f"pad.unit.{derive.unit}", n=value)
    return msg("pad.cell.derived", entered=entered, points=_figure(points))


#: the last sheet asked and its view: an entry changes one round, and the view of every
#: other round is a function of that round's cells and of what `_same_rounds_basis`
#: compares, so it is taken from the last view (50 rounds of 8 were most of an entry's
#: work on the screen, and the Pi's CPU pays it at every entry)
_last_sheet: tuple[PadState, SheetView] | None = None


def _same_rounds_basis(a: PadState, b: PadState) -> bool:
    """Whether a round's row view is the same in `a` and `b` for the same cells: who owes
    a cell depends on the template (teams scoring their own), the teams and the exits."""
    return (a.template is b.template and len(a.players) == len(b.players)
            and a.teams == b.teams and a.exits == b.exits)


def _round_row(state: PadState, r: int) -> RowView:
    row = state.rounds[r]
    owed = set(missing_in_round(state, r))
    return RowView(r, None, msg("pad.ui.round", round=r + 1),
                   tuple(_cell(row[s], s in owed) for s in range(len(state.players))))


def sheet_view(state: PadState) -> SheetView:
    global _last_sheet
    last = _last_sheet  # read once: another thread may replace it
    if last is not None and last[0] is state:
        return last[1]
    view = _sheet_view(state, last)
    _last_sheet = (state, view)
    return view


def _sheet_view(state: PadState, last: tuple[PadState, SheetView] | None) -> SheetView:
    t = state.template
    result = outcome(state)
    n = len(state.players)
    columns = tuple(ColumnView(s, p.name, p.colour, _shown_total(state, result, s),
                               result.ranks[s], _out(state, s), _team_of(state, s),
                               s in result.winners and state.finished)
                    for s, p in enumerate(state.players))
    rows: list[RowView] = []
    if t.shape == "rounds":
        before, kept = (last[0].rounds, last[1].rows) if last is not None \
            and _same_rounds_basis(last[0], state) else ((), ())
        for r, row in enumerate(state.rounds):
            same = r < len(before) and before[r] is row  # (a row view per round)
            rows.append(kept[r] if same else _round_row(state, r))
    else:
        for i, cat in enumerate(t.categories):
            owed = set(missing_in_category(state, i))
            cells = []
            for s in range(n):
                cell = state.categories[i][s]
                note = "check" if cell is not None and (
                    (cat.low is not None and exact(cell.value) < cat.low)
                    or (cat.high is not None and exact(cell.value) > cat.high)) else None
                if not cat.entered:
                    points = category_points(state, i, s)
                    cells.append(CellView("", plain(points), None, False))
                elif cat.derive is not None:
                    points = category_points(state, i, s)
                    cells.append(replace(
                        _cell(cell, s in owed, note, points),
                        entered=None if cell is None else cell.value,
                        said=derived_said(cat.derive, None if cell is None else cell.value,
                                          points)))
                else:
                    cells.append(_cell(cell, s in owed, note))
            rows.append(RowView(None, cat.id, label(cat.name), tuple(cells),
                                not cat.entered, cat.points))
    current, seat, missing = _current(state)
    can_open = t.shape == "rounds" and not state.finished and (
        t.rounds_count is None or len(state.rounds) < t.rounds_count) and (
        not state.rounds or not missing_in_round(state, len(state.rounds) - 1))
    return SheetView(t.shape, columns, tuple(rows), missing, current, seat, can_open,
                     result.end_offered, state.finished,
                     blanks(state) if t.shape == "rounds" else ())


def _current(state: PadState) -> tuple[tuple[int | None, str | None] | None, int | None,
                                         tuple[int, ...]]:
    """The cell the keypad goes to next, its seat, and the seats missing there."""
    t = state.template
    if t.shape == "rounds":
        if state.rounds:
            last = len(state.rounds) - 1
            missing = missing_in_round(state, last)
            if missing:
                return (last, None), missing[0], missing
        if state.finished or (t.rounds_count is not None
                              and len(state.rounds) >= t.rounds_count):
            # no round to open: the keypad goes to the first blank of an earlier round
            owed = blanks(state)
            if owed:
                return (owed[0][0], None), owed[0][1][0], owed[0][1]
            return None, None, ()
        first = next((s for s in range(len(state.players))
                      if required(state, s, len(state.rounds))), None)
        return (len(state.rounds), None), first, ()
    for i, cat in enumerate(t.categories):
        missing = missing_in_category(state, i)
        if missing:
            return (None, cat.id), missing[0], missing
    return None, None, ()


def next_cell(state: PadState, seat: int, round_: int | None, category: str | None
              ) -> tuple[int, int | None, str | None] | None:
    """Where Enter goes after this cell: the next player in seat order owing a cell in
    the same row, then the next row's first; None at the end of the sheet."""
    t = state.template
    n = len(state.players)
    if t.shape == "rounds":
        assert round_ is not None
        for s in range(seat + 1, n):
            if required(state, s, round_):
                return s, round_, None
        more = t.rounds_count is None or round_ + 1 < t.rounds_count
        if round_ + 1 < len(state.rounds) or (more and not state.finished):
            first = next((s for s in range(n) if required(state, s, round_ + 1)), None)
            return None if first is None else (first, round_ + 1, None)
        return None
    ids = [cat.id for cat in t.categories if cat.entered]
    index = ids.index(category) if category in ids else -1
    for s in range(seat + 1, n):
        if required(state, s):
            return s, None, category
    for ident in ids[index + 1:]:
        first = next((s for s in range(n) if required(state, s)), None)
        if first is not None:
            return first, None, ident
    return None


def standings_view(state: PadState) -> StandingsView:
    result = outcome(state)
    entries = [EntryView(s, result.ranks[s], p.name, p.colour,
                         _shown_total(state, result, s), _team_of(state, s),
                         s in result.winners, _out(state, s))
               for s, p in enumerate(state.players)]
    entries.sort(key=lambda en: (en.rank is None, en.rank or 0, en.seat))
    ties = [TieView(seats, tuple(state.players[s].name for s in seats), tb.input,
                    tb.category, label(tb.name), False)
            for seats, tb in result.pending]
    if result.undecided:
        ties.append(TieView(result.undecided,
                            tuple(state.players[s].name for s in result.undecided),
                            None, None, None, True))
    broken = tie_broken(state, result)
    return StandingsView(tuple(entries), _end_message(state, result), tuple(ties),
                         tuple(state.players[s].name for s in result.winners),
                         state.finished, None if broken is None else
                         tie_line(broken, ahead=not state.finished))


def _end_message(state: PadState, result: Outcome) -> Message | None:
    t = state.template
    if result.reached:
        names = ", ".join(state.players[s].name for s in result.reached)
        return msg("pad.end.reached", players=names, score=t.reach)
    if result.end_offered:
        return msg("pad.end.count", n=len(state.rounds))
    if t.reach is not None and t.shape == "rounds":
        return msg("pad.end.target", score=t.reach)
    if t.rounds_count is not None and t.shape == "rounds":
        return msg("pad.end.rounds_left", n=t.rounds_count - len(state.rounds))
    return None


def preview(state: PadState, seat: int, round_: int | None, category: str | None,
            expression: str) -> Preview:
    """The cell's value and the player's new total if `expression` were committed,
    or the entry error (nothing is journaled)."""
    try:
        value = evaluate(expression, whole=state.template.whole)
        after, _ = RULES.apply(state, SetCell(seat, round_, category, expression))
    except RuleError as exc:
        if exc.message.key == "pad.error.unchanged":
            after, value = state, evaluate(expression, whole=state.template.whole)
        else:
            return Preview(expression, None, None, None, exc.message)
    result = outcome(after)
    points: Number | None = exact(stored(value))
    note = None
    said = None
    if category is not None:
        for i, cat in enumerate(after.template.categories):
            if cat.id == category:
                points = category_points(after, i, seat)
                said = derived_said(cat.derive, stored(value), points)
                cell = after.categories[i][seat]
                if cell is not None and ((cat.low is not None and exact(cell.value) < cat.low)
                                         or (cat.high is not None
                                             and exact(cell.value) > cat.high)):
                    note = "check"
    return Preview(" ".join(expression.split()), stored(value), plain(points),
                   _shown_total(after, result, seat), None, note, said)


__all__ = ["CellView", "ColumnView", "EntryView", "Preview", "RowView", "SheetView",
           "StandingsView", "TieView", "next_cell", "preview", "sheet_view", "standings_view"]
