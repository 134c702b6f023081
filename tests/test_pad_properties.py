"""Score pad invariants: any sequence of entries, corrections, undos and redos through a
real Session replays to the same state (from the journal, and from a snapshot); ranks
and winners agree with a brute-force ranking; lowest-wins never ranks the highest
scorer first."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.pad import commands as c
from companion.games.pad import scoring
from companion.games.pad import view as view_module
from companion.games.pad.outcome import outcome
from companion.games.pad.rules import RULES, cells
from companion.games.pad.scoring import exact
from companion.games.pad.view import sheet_view, standings_view
from companion.journal import Journal
from companion.messages import RuleError
from companion.session import Session, replay
from companion.snapshot import decode, encode
from tests.pad_helpers import play, setup, start, template

TEXTS = st.one_of(st.integers(-200, 200).map(str),
                  st.tuples(st.integers(0, 50), st.integers(0, 50)).map(lambda t: f"{t[0]}+{t[1]}"),
                  st.sampled_from(["-", "--3", "3+", "x", "", "2.5"]))


VALID = st.one_of(st.integers(-200, 200).map(str),
                  st.tuples(st.integers(0, 50), st.integers(0, 50)).map(lambda t: f"{t[0]}+{t[1]}"))
OPS = st.one_of(
    st.tuples(st.just("next"), VALID), st.tuples(st.just("next"), VALID),
    st.tuples(st.just("next"), VALID), st.tuples(st.just("next"), TEXTS),
    st.tuples(st.just("fix"), st.integers(0, 99), st.integers(0, 99), VALID),
    st.tuples(st.just("clear"), st.integers(0, 99), st.integers(0, 99)),
    st.tuples(st.just("tie"), st.integers(0, 99), VALID),
    st.tuples(st.just("leave"), st.integers(0, 9)),
    st.just(("undo",)), st.just(("redo",)), st.just(("end",)))


def command(state: Any, op: tuple[Any, ...]) -> Any:
    """An operation resolved against the state: the keypad's next cell, a correction of
    any cell (most are valid, some are refused), a clear, a tie input, a player leaving."""
    n = len(state.players)
    shape = state.template.shape
    ids = [cat.id for cat in state.template.categories if cat.entered]
    if op[0] == "next":
        view = sheet_view(state)
        if view.current is None:
            return c.End()
        return c.SetCell(view.current_seat if view.current_seat is not None else 0,
                         *view.current, op[1])
    if op[0] in ("fix", "clear"):
        seat = op[1] % n
        if shape == "rounds":
            where: tuple[Any, Any] = (op[2] % (len(state.rounds) + 1), None)
        else:
            where = (None, ids[op[2] % len(ids)])
        return c.SetCell(seat, *where, op[3]) if op[0] == "fix" else c.ClearCell(seat, *where)
    if op[0] == "tie":
        return c.SetTieInput(op[1] % n, "leftover_food", op[2])
    if op[0] == "leave":
        return c.Leave(op[1] % n)
    return c.End()


def drive(session: Session, ops: list[Any]) -> int:
    """Runs the operations; returns how many were done (not refused)."""
    done = 0
    for op in ops:
        try:
            if op[0] == "undo":
                session.undo()
            elif op[0] == "redo":
                session.redo()
            else:
                session.dispatch(command(session.state, op))
            done += 1
        except RuleError:
            pass  # refused: nothing changed (checked by the replay below)
    return done


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["rounds-highest", "rounds-lowest", "first-to-100", "skat"]),
       st.integers(1, 5), st.data())
def test_any_rounds_game_replays_to_the_same_state(ident, n, data):
    journal = Journal(":memory:")
    session = Session.start(RULES, journal, setup(ident, n, confirmed_count=True))
    session.snapshot_every = 4
    assert drive(session, data.draw(st.lists(OPS, min_size=20, max_size=60))) > 0
    entries = journal.entries(session.game_id)
    replayed = replay(RULES, setup(ident, n, confirmed_count=True), entries)
    assert replayed.state == session.state
    resumed = Session.resume(RULES, journal, session.game_id)  # from its newest snapshot
    assert resumed.state == session.state
    assert decode(RULES.state_type, encode(session.state)) == session.state
    assert sheet_view(resumed.state) == sheet_view(session.state)
    assert journal.game(session.game_id).summary == RULES.summary(session.state)
    while resumed.can_undo():
        resumed.undo()
    assert resumed.state == RULES.initial_state(setup(ident, n, confirmed_count=True))
    journal.close()


def looked_at(session: Session, data: Any, seen: list[Any], ops: Any = OPS
              ) -> Iterator[Any]:
    """After each of a drawn list of actions, a state looked at before (a standings
    page, a replay, another game's: any of `seen` or since), then the state now."""
    for op in data.draw(st.lists(ops, min_size=10, max_size=40)):
        with contextlib.suppress(RuleError):
            drive(session, [op])
        seen.append(session.state)
        yield seen[data.draw(st.integers(0, len(seen) - 1))]
        yield session.state


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["rounds-highest", "rounds-lowest", "first-to-100", "skat"]),
       st.integers(1, 5), st.data())
def test_the_sheet_taken_from_the_last_view_is_the_sheet_computed_afresh(ident, n, data):
    """The sheet keeps the rows of rounds an action did not touch: after any entry,
    correction, clear, leaving, undo or redo it is what a view computed from nothing
    gives, whichever state was looked at before."""
    journal = Journal(":memory:")
    session = Session.start(RULES, journal, setup(ident, n, confirmed_count=True))
    for state in looked_at(session, data, [session.state]):
        assert sheet_view(state) == view_module._sheet_view(state, None)
    journal.close()


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["rounds-highest", "rounds-lowest", "first-to-100", "skat"]),
       st.integers(1, 5), st.data())
def test_the_summary_keeps_untouched_rounds_cells_and_equals_one_made_afresh(ident, n, data):
    """The cells (a finished game's summary holds them) are made again only for the
    rounds an action replaced: after any entry, correction, clear, leaving, undo or
    redo, and whichever state was listed before (another game's, an older one), they
    are every cell typed in, round by round."""
    journal = Journal(":memory:")
    session = Session.start(RULES, journal, setup(ident, n, confirmed_count=True))
    other = Session.start(RULES, journal, setup(ident, max(1, n - 1), confirmed_count=True))
    drive(other, [("next", "5")] * 6)
    for state in looked_at(session, data, [session.state, other.state]):
        names = [p.name for p in state.players]
        assert cells(state) == [
            [names[seat], r + 1, cell.text, cell.value]
            for r, row in enumerate(state.rounds)
            for seat, cell in enumerate(row) if cell is not None]
        # the summary written at every action holds the sheet only once it is final
        assert RULES.summary(state).get("cells") == (cells(state) if state.finished
                                                     else None)
    journal.close()


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["rounds-highest", "rounds-lowest", "first-to-100", "skat"]),
       st.integers(1, 5), st.booleans(), st.data())
def test_the_totals_kept_from_the_last_sums_are_the_cells_added_up(ident, n, decimals,
                                                                    data):
    """Each total changes by the rounds an action replaced: after any entry (quarters
    where the template takes decimals, expressions), correction, clear, leaving, undo
    or redo, and whichever state was added up before (another game's, an older one),
    it is the start score plus every value typed, added up afresh."""
    sheet = dict(template(ident), whole=not decimals)
    journal = Journal(":memory:")
    session = Session.start(RULES, journal, setup(sheet, n, confirmed_count=True))
    other = Session.start(RULES, journal, setup(sheet, max(1, n - 1), confirmed_count=True))
    drive(other, [("next", "5")] * 6)
    quarters = st.integers(-400, 400).map(lambda v: f"{v / 4:g}")
    ops = st.one_of(OPS, st.tuples(st.just("next"), quarters),
                    st.tuples(st.just("fix"), st.integers(0, 99), st.integers(0, 99), quarters))
    for state in looked_at(session, data, [session.state, other.state], ops):
        start = state.template.start
        assert [scoring.player_total(state, seat) for seat in range(len(state.players))] \
            == [start + sum(exact(row[seat].value) for row in state.rounds
                            if row[seat] is not None)
                + (state.penalties[seat] * (1 if state.template.win == "lowest" else -1)
                   if state.penalties else 0)
                for seat in range(len(state.players))]
    journal.close()


@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["7-wonders", "wingspan"]), st.integers(2, 5), st.data())
def test_any_categories_game_replays_to_the_same_state(ident, n, data):
    journal = Journal(":memory:")
    session = Session.start(RULES, journal, setup(ident, n))
    session.snapshot_every = 5
    assert drive(session, data.draw(st.lists(OPS, min_size=20, max_size=60))) > 0
    assert replay(RULES, setup(ident, n), journal.entries(session.game_id)).state == session.state
    assert Session.resume(RULES, journal, session.game_id).state == session.state
    assert decode(RULES.state_type, encode(session.state)) == session.state
    journal.close()


def brute_ranks(totals: list[int], active: list[bool], lower: bool) -> list[int | None]:
    ranks: list[int | None] = []
    for i, total in enumerate(totals):
        if not active[i]:
            ranks.append(None)
            continue
        ahead = sum(1 for j, other in enumerate(totals) if active[j] and (
            other < total if lower else other > total))
        ranks.append(1 + ahead)
    return ranks


@settings(max_examples=100)
@given(st.booleans(), st.integers(1, 8),
       st.lists(st.lists(st.integers(-30, 30), min_size=8, max_size=8), min_size=1, max_size=6),
       st.lists(st.integers(0, 7), max_size=3))
def test_ranks_and_winners_agree_with_a_brute_force_ranking(lower, n, rows, leaving):
    state = start("rounds-lowest" if lower else "rounds-highest", n)
    for r, row in enumerate(rows):
        state = play(state, *[c.SetCell(s, r, None, str(row[s])) for s in range(n)])
    for seat in leaving:
        with contextlib.suppress(RuleError):
            state = play(state, c.Leave(seat))
    totals = [sum(row[s] for row in rows) for s in range(n)]
    active = [state.exits[s] is None for s in range(n)]
    expected = brute_ranks(totals, active, lower)
    result = outcome(state)
    assert list(result.ranks) == expected
    assert sorted(result.winners) == [s for s in range(n) if expected[s] == 1]
    # standings sorted by rank, out players last
    ranks = [en.rank for en in standings_view(state).entries]
    assert ranks == sorted(ranks, key=lambda r: (r is None, r or 0))
    if lower:  # lowest wins never ranks the highest scorer first
        live = [totals[s] for s in range(n) if active[s]]
        for s in range(n):
            if active[s] and totals[s] == max(live) and min(live) < max(live):
                assert result.ranks[s] != 1 and s not in result.winners


@settings(max_examples=60)
@given(st.integers(2, 5), st.data())
def test_tie_breakers_agree_with_a_brute_force_lexicographic_ranking(n, data):
    """Wingspan: total, then unused food, then shared (every input filled)."""
    state = start("wingspan", n)
    ids = [cat.id for cat in state.template.categories]
    values = data.draw(st.lists(st.lists(st.integers(0, 3), min_size=n, max_size=n),
                                min_size=len(ids), max_size=len(ids)))
    food = data.draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    for ident, row in zip(ids, values, strict=True):
        state = play(state, *[c.SetCell(s, None, ident, str(row[s])) for s in range(n)])
    state = play(state, *[c.SetTieInput(s, "leftover_food", str(food[s])) for s in range(n)])
    keys = [(sum(row[s] for row in values), food[s]) for s in range(n)]
    expected = [1 + sum(1 for other in keys if other > key) for key in keys]
    assert list(outcome(state).ranks) == expected
    assert [exact(v) for v in outcome(state).totals] == [k[0] for k in keys]


PLAIN = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 200) | st.floats(allow_nan=False)
    | st.sampled_from(["", "x", "rounds", "categories", "highest", "lowest", "coop", "places",
                       "shared", "chosen", "sum", "own", "science_sets", "a", "b", "c"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["id", "name", "shape", "win", "rounds", "count", "start", "end",
                         "reach", "categories", "derive", "per", "table", "calc", "inputs",
                         "range", "min", "max", "points", "tiebreak", "category", "input",
                         "better", "ties", "teams", "score", "players", "en", "fr", "0", "1"]),
        inner, max_size=5),
    max_leaves=20)


@settings(max_examples=300)
@given(st.dictionaries(st.sampled_from(["id", "shape", "win", "rounds", "categories",
                                        "tiebreak", "ties", "teams", "players", "name",
                                        "whole", "check", "bgg_id"]), PLAIN, max_size=8))
def test_any_plain_data_is_a_template_or_a_list_of_problems(data):
    from companion.games.pad.template import TemplateError, parse, to_data

    try:
        template = parse(data)
    except TemplateError as exc:
        assert exc.problems and all(m.key.startswith("pad.template.") for _, m in exc.problems)
    else:
        assert parse(to_data(template)) == template


ANY = st.none() | st.booleans() | st.integers(-2, 9) | st.text(max_size=4) | st.tuples(
    st.integers(-1, 4)) | st.tuples(st.tuples(st.integers(-1, 4)))


@settings(max_examples=300)
@given(st.sampled_from(["rounds-highest", "7-wonders", "wingspan"]),
       st.lists(st.sampled_from(sorted(RULES.commands)).flatmap(
           lambda name: st.tuples(st.just(name), st.lists(ANY, min_size=4, max_size=4))),
           max_size=12))
def test_commands_of_any_shape_are_refused_or_applied(ident, raw):
    import dataclasses

    state = start(ident, 3)
    for name, values in raw:
        cls = RULES.commands[name]
        fields = dataclasses.fields(cls)
        command = cls(*values[:len(fields)])
        try:
            after, _ = RULES.apply(state, command)
        except RuleError:
            continue
        state = after
        sheet_view(state), standings_view(state), RULES.summary(state)


@settings(max_examples=100)
@given(st.booleans(), st.sampled_from(["sum", "own"]),
       st.lists(st.lists(st.integers(-20, 20), min_size=6, max_size=6), min_size=1, max_size=4),
       st.permutations(range(6)), st.integers(2, 3))
def test_team_ranks_agree_with_a_brute_force_ranking_of_team_scores(lower, mode, rows, seats,
                                                                     teams_n):
    from tests.pad_helpers import template

    size = 6 // teams_n
    teams = [sorted(seats[i * size:(i + 1) * size]) for i in range(teams_n)]
    data = dict(template("rounds-lowest" if lower else "rounds-highest"), teams={"score": mode})
    state = start(data, 6, teams=teams)
    for r, row in enumerate(rows):
        for s in range(6):
            if mode == "sum" or any(team[0] == s for team in teams):
                state = play(state, c.SetCell(s, r, None, str(row[s])))
    scores = [sum(row[s] for row in rows for s in (team if mode == "sum" else team[:1]))
              for team in teams]
    team_ranks = [1 + sum(1 for o in scores if (o < sc if lower else o > sc)) for sc in scores]
    expected = [next(team_ranks[i] for i, team in enumerate(teams) if s in team)
                for s in range(6)]
    assert list(outcome(state).ranks) == expected
    assert sheet_view(state).missing == ()  # a team scoring its own owes one column
