"""Castor invariants over random games: totals, limits, undo/redo and journal replay.

Games are drawn action by action: mostly actions the screens would offer (from
`trick_view` and `playable_values`), mixed with arbitrary commands that the rules must
refuse without changing anything, and with undo and redo.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import config
from companion.games.castor import RULES, playable_values, trick_view
from companion.games.castor import commands as c
from companion.games.castor import events as e
from companion.games.castor.params import CARD_MAX, CastorParams
from companion.games.castor.rules import game_standings
from companion.games.castor.scoring import score_round, standings
from companion.games.castor.state import CastorState, Sheet
from companion.games.castor.tricks import piles, round_cards, round_plans, tally
from companion.journal import Journal
from companion.messages import RuleError
from companion.session import Session

NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve")
AGENTS = ("belton", "martha", "agent3", "agent4", "agent5")
PARAMS = config.load(use_default_user_file=False).data["games"]["castor"]
P = CastorParams.from_config(PARAMS)
SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@st.composite
def setups(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(2, 5))
    agents = draw(st.permutations(AGENTS))
    with_agents = draw(st.booleans())
    params = config.merge(PARAMS, {"medals_to_win": draw(st.integers(1, 3)),
                                   "malus_when_none": draw(st.booleans())})
    return {"params": params,
            "players": [{"name": NAMES[i], "agent": agents[i] if with_agents else None}
                        for i in range(n)],
            "first_leader": draw(st.integers(0, n - 1))}


def sheets(n: int) -> st.SearchStrategy[Sheet]:
    column = st.lists(st.integers(0, 9), min_size=n, max_size=n).map(tuple)
    return st.builds(Sheet, st.lists(st.integers(-2, 30), min_size=n, max_size=n).map(tuple),
                     column, column)


# -- scoring ---------------------------------------------------------------------------
@SETTINGS
@given(st.integers(2, 5).flatmap(sheets), st.booleans())
def test_a_round_total_is_plan_plus_bonus_minus_malus(sheet, malus_when_none):
    params = CastorParams.from_config(config.merge(PARAMS, {"malus_when_none": malus_when_none}))
    score = score_round(params, sheet)
    size = params.table_size(len(sheet.plan))
    for i, total in enumerate(score.totals):
        assert total == sheet.plan[i] + score.bonus[i] - score.malus[i]
        assert score.bonus[i] == (size.bonus if sheet.green[i] == min(sheet.green) else 0)
        malus_due = sheet.yellow[i] == max(sheet.yellow) and (
            max(sheet.yellow) > 0 or malus_when_none)
        assert score.malus[i] == (size.malus if malus_due else 0)
    assert score.winners and all(score.totals[w] == max(score.totals) for w in score.winners)
    assert set(score.winners) == {i for i, t in enumerate(score.totals) if t == max(t2 for t2 in
                                                                                 score.totals)}


@SETTINGS
@given(st.integers(2, 5).flatmap(lambda n: st.lists(sheets(n), max_size=8)),
       st.integers(1, 3))
def test_medals_are_the_round_wins_up_to_the_deciding_round(round_sheets, to_win):
    params = CastorParams.from_config(config.merge(PARAMS, {"medals_to_win": to_win}))
    n = len(round_sheets[0].plan) if round_sheets else 3
    result = standings(params, n, round_sheets)
    counted = [s for number, s in enumerate(result.scores, 1) if result.counts(number)]
    assert sum(result.medals) == sum(len(s.winners) for s in counted)
    if result.finished:
        assert result.winners == tuple(i for i, m in enumerate(result.medals) if m >= to_win)
        earlier = standings(params, n, round_sheets[: result.decided_round - 1])
        assert not earlier.finished
    else:
        assert max(result.medals, default=0) < to_win and result.winners == ()


# -- random games through the session ----------------------------------------------------
def junk(state: CastorState) -> st.SearchStrategy[Any]:
    """Loose commands: mostly refused, sometimes accepted."""
    n = len(state.players)
    names = st.sampled_from([*NAMES[: n + 1], "", "Zoé"])
    colours = st.sampled_from(["mauve", "blue", "green", "yellow", "red"])
    small = st.integers(-1, 20)
    column = st.lists(st.integers(-1, 12), min_size=n - 1, max_size=n + 1).map(tuple)
    return st.one_of(
        st.builds(c.PlayCard, names, colours, small),
        st.builds(c.TakeTrick, st.integers(-1, 7), st.none() | st.integers(0, 7)),
        st.builds(c.DrawPower, st.sampled_from([*AGENTS, "nobody"])),
        st.builds(c.ChooseLeader, names),
        st.builds(c.SetTrumps, st.none() | st.lists(colours, max_size=3).map(tuple)),
        st.builds(c.EnterSheet, st.integers(0, len(state.rounds) + 2), column, column, column),
        st.builds(c.DeleteRound, st.integers(0, len(state.rounds) + 1)),
        st.just(c.CancelTracking()),
        st.builds(c.NoteComplice, st.sampled_from([*c.COMPLICE_ACTIONS, "x"]),
                  st.sampled_from(["", "blue wins", "x" * 90])),
        st.builds(c.AwardTrick, st.none() | names),
        st.builds(c.MoveCard, names, names, colours, small),
        st.builds(c.MovePlan, names, names, small),
    )


def offered(state: CastorState, draw: st.DrawFn) -> Any:
    """An action the screens would offer now (None when there is none)."""
    view = trick_view(state)
    n = len(state.players)
    choices: list[Any] = []
    if view is not None:
        if view.choosing:
            return c.ChooseLeader(draw(st.sampled_from([p.name for p in state.players])))
        if view.next_player is not None:
            colour = draw(st.sampled_from(state.params.colour_names))
            values = playable_values(state, colour)
            if values:
                choices.append(c.PlayCard(view.next_player, colour, draw(st.sampled_from(values))))
        if view.complete:
            done = state.tracking.done if state.tracking else ()
            left = state.params.plan_counts - round_plans(done)
            plans = sorted(left.elements())
            plan = draw(st.sampled_from(plans))
            extra = None
            if view.extra_plan and len(plans) > 1 and draw(st.booleans()):
                extra = draw(st.sampled_from([v for v in plans if v != plan] or plans))
            choices += [c.TakeTrick(plan, extra)] * 4
        if not view.cards:
            agents = [p.agent for p in state.players if p.agent]
            if agents:
                choices.append(c.DrawPower(draw(st.sampled_from(agents))))
            choices.append(c.SetTrumps(draw(st.sampled_from([None, (), ("blue", "mauve")]))))
    if choices and draw(st.integers(0, 11)):
        return draw(st.sampled_from(choices))  # mostly follow the tricks
    number = draw(st.integers(1, len(state.rounds) + 1))
    green = tuple(draw(st.integers(0, 16 // n)) for _ in range(n))
    yellow = tuple(draw(st.integers(0, 12 // n)) for _ in range(n))
    plan = tuple(draw(st.integers(0, 60 // n)) for _ in range(n))
    return c.EnterSheet(number, plan, green, yellow)


def check_limits(state: CastorState) -> None:
    p = state.params
    n = len(state.players)
    dealt = p.cards_per_round(n)
    for record in state.rounds:
        sheet = record.sheet
        assert len(sheet.plan) == len(sheet.green) == len(sheet.yellow) == n
        assert min((*sheet.plan, *sheet.green, *sheet.yellow)) >= 0
        assert sum(sheet.green) <= min(p.colour(p.bonus_colour).count, dealt)
        assert sum(sheet.yellow) <= min(p.colour(p.malus_colour).count, dealt)
        assert sum(sheet.green) + sum(sheet.yellow) <= dealt
        assert sum(sheet.plan) <= len(p.plan_cards) * p.plan_plausible_high
        if record.tricks:
            assert len(record.tricks) == p.tricks_per_round
            if not record.edited:
                assert sheet == tally(p, n, record.tricks)
    if state.tracking is not None:
        tricks = (*state.tracking.done, state.tracking.current)
        assert len(state.tracking.done) < p.tricks_per_round
        for trick in tricks:
            seats = [card.player for card in trick.cards]
            assert len(seats) == len(set(seats)) <= n
        # values beyond the settings' guesses are accepted (noted), within what a card prints
        for (colour, value), _count in round_cards(tricks).items():
            assert 0 <= value <= p.colour(colour).plausible_high
        for value in round_plans(state.tracking.done):
            assert 0 <= value <= p.plan_plausible_high
        # the piles never hold a card twice more than was played, nor negative points
        for pile in piles(n, tricks):
            assert pile.plan >= 0
    summary = RULES.summary(state)
    for number, totals in enumerate(summary["rounds"], 1):
        score = game_standings(state).scores[number - 1]
        assert totals == [a + b - m for a, b, m in zip(score.plan, score.bonus, score.malus,
                                                       strict=True)]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups(), st.data())
def test_undo_redo_and_replay_reproduce_every_state(setup, data):
    journal = Journal(":memory:")
    session = Session.start(RULES, journal, setup)
    for _ in range(data.draw(st.integers(1, 160))):
        roll = data.draw(st.integers(0, 9))
        if roll == 0 and session.can_undo():
            before = session.state
            session.undo()
            session.redo()
            assert session.state == before
            session.undo()
            continue
        if roll == 1 and session.can_redo():
            session.redo()
            continue
        state = session.state
        command = data.draw(junk(state)) if roll == 2 else offered(state, data.draw)
        try:
            session.dispatch(command)
        except RuleError:
            assert session.state is state  # refused: nothing changed
            continue
        after = session.state
        check_limits(after)
        session.undo()
        assert session.state == state
        session.redo()
        assert session.state == after
    resumed = Session.resume(RULES, journal, session.game_id)
    assert resumed.state == session.state
    assert journal.game(session.game_id).summary == RULES.summary(session.state)
    assert resumed.can_undo() == session.can_undo()
    assert resumed.can_redo() == session.can_redo()
    journal.close()


# -- whole rounds with a real deal ------------------------------------------------------
def deck(params: CastorParams) -> list[tuple[str, int]]:
    return [(spec.name, value) for spec in params.colours
            for value in range(spec.low, spec.high + 1) for _ in range(spec.copies)]


@SETTINGS
@given(st.integers(2, 5), st.randoms(use_true_random=False))
def test_a_dealt_round_tracked_trick_by_trick_adds_up(n, rng: random.Random):
    state = RULES.initial_state({"params": PARAMS,
                                 "players": [{"name": NAMES[i]} for i in range(n)]})
    cards = deck(state.params)
    rng.shuffle(cards)
    hands = {NAMES[i]: cards[i * 12:(i + 1) * 12] for i in range(n)}
    dealt = Counter(card for hand in hands.values() for card in hand)
    plans = list(state.params.plan_cards)
    rng.shuffle(plans)
    for k in range(12):
        view = trick_view(state)
        for name in view.to_play:
            card = hands[name].pop(rng.randrange(len(hands[name])))
            state, _ = RULES.apply(state, c.PlayCard(name, *card))
        state, _ = RULES.apply(state, c.TakeTrick(plans[k]))
    assert state.tracking is None and len(state.rounds) == 1
    sheet = state.rounds[0].sheet
    assert sum(sheet.plan) == sum(plans[:12])
    assert sum(sheet.green) == sum(v for (colour, _), v in dealt.items() if colour == "green")
    assert sum(sheet.yellow) == sum(v for (colour, _), v in dealt.items() if colour == "yellow")
    assert round_cards(state.rounds[0].tricks) == dealt
    check_limits(state)


# -- cards the settings did not expect ------------------------------------------------------
@SETTINGS
@given(st.lists(st.tuples(st.sampled_from(P.colour_names), st.integers(0, CARD_MAX)),
                min_size=2, max_size=2),
       st.integers(0, CARD_MAX))
def test_any_printable_value_is_accepted_and_scored_with_notes_exactly_off_guess(cards, plan):
    # seed: "60 cartes Action" and "20 cartes Plan machiavélique (d'une valeur de 1 à 6)":
    # counts, not values; the settings' values and copies are guesses, never a refusal
    state = RULES.initial_state({"params": PARAMS, "players": [{"name": "Ann"},
                                                               {"name": "Bob"}]})
    seen: Counter[tuple[str, int]] = Counter()
    for name, (colour, value) in zip(("Ann", "Bob"), cards, strict=True):
        state, events = RULES.apply(state, c.PlayCard(name, colour, value))
        spec = P.colour(colour)
        expected = []
        if not spec.low <= value <= spec.high:
            expected = [e.CheckCards("value", value, colour, spec.low, spec.high)]
        elif seen[(colour, value)] >= spec.copies:
            expected = [e.CheckCards("copies", value, colour, spec.low, spec.high, spec.copies)]
        seen[(colour, value)] += 1
        assert [ev for ev in events if isinstance(ev, e.CheckCards)] == expected
    state, events = RULES.apply(state, c.TakeTrick(plan))
    noted = [ev for ev in events if isinstance(ev, e.CheckCards)]
    assert noted == ([] if plan in P.plan_counts else
                     [e.CheckCards("plan_value", plan, low=1, high=6)])
    winner = state.tracking.done[0].winner
    assert tally(P, 2, state.tracking.done).plan[winner] == plan
