"""Invariants of Pr. Evil over random command sequences, on a real journal file."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from companion.games.evil import RULES
from companion.games.evil import commands as c
from companion.games.evil import events as e
from companion.games.evil.dice import DICE
from companion.games.evil.rules import RULES_VERSION
from companion.games.evil.state import EvilState
from companion.journal import FILE_NAME, Journal
from companion.messages import RuleError
from companion.session import Session
from tests.helpers.evil import CHARACTERS, history_of, setup

# rule variants: the shipped defaults and layouts the config allows
VARIANTS: list[dict[str, Any]] = [
    {},
    {"power_spaces": [1, 2, 12]},
    {"dial_steps": 8, "power_spaces": [2, 4, 6], "treasure_minutes": {"min": 5, "max": 35},
     "lost_to_lose": 3},
    {"recovered_to_win": 2, "dice": {"clock": ["clock1", "clock2", "clock3"],
                                     "professor": ["time5", "time10", "time15", "passage"]}},
]

COLOURS = ("red", "green", "blue", "pink")
FACES = ("chevron1", "chevron2", "chevron3", "chevron4", "passage", "time5", "time10",
         "time15", "red", "green", "blue", "pink", "clock1", "clock2", "clock3")
MINUTES = st.one_of(st.sampled_from(range(5, 60, 5)), st.sampled_from([0, 7, 60, -5]))

# a whole turn as the table plays it: replacements placed, powers settled, dice rolled
turns = st.tuples(st.just("turn"), st.sampled_from(range(20, 60, 5)), st.booleans())

commands = st.one_of(
    turns,
    turns,
    turns,
    st.just(c.Roll()),
    st.builds(c.EnterRoll, st.sampled_from(FACES[:8]), st.sampled_from(COLOURS),
              st.sampled_from(FACES[12:])),
    st.builds(c.Reroll, st.sampled_from((*DICE, "hand"))),
    st.builds(c.SetDie, st.sampled_from(DICE), st.sampled_from(FACES)),
    st.builds(c.PlaceTreasure, st.sampled_from(COLOURS), MINUTES),
    st.builds(c.PlaceTreasure, st.sampled_from(COLOURS[:3]), st.sampled_from(range(5, 60, 5))),
    st.builds(c.Recover, st.sampled_from(COLOURS)),
    st.builds(c.MarkLost, st.sampled_from(COLOURS)),
    st.builds(c.MoveTime, st.sampled_from([1, -1, 1, -1, 2])),
    st.builds(c.MoveTreasure, st.sampled_from(COLOURS), st.sampled_from([1, -1])),
    st.builds(c.ActivatePower, st.sampled_from(CHARACTERS)),
    st.builds(c.SetPlayer, st.sampled_from(("Ann", "Bob", "Cid", "Zed"))),
    st.just(c.SkipPower()),
    st.builds(c.FlipPowerDown, st.sampled_from(CHARACTERS)),
    st.just("undo"),
    st.just("redo"),
)

games = st.fixed_dictionaries({
    "variant": st.sampled_from(range(len(VARIANTS))),
    "version": st.sampled_from([None, RULES_VERSION, RULES_VERSION]),
    "players": st.integers(2, 5),
    "seed": st.integers(0, 2**31),
    "first": st.integers(0, 4),
    "treasures": st.fixed_dictionaries({
        colour: st.sampled_from(range(5, 60, 5)) for colour in ("red", "green", "blue")}),
})


def check_invariants(state: EvilState) -> None:
    p = state.params
    assert 0 <= state.time < p.dial_steps
    for colour, treasure in zip(p.colours, state.slots, strict=True):
        if treasure is not None:
            assert treasure.colour == colour
            assert 1 <= treasure.steps <= p.dial_steps - 1
            assert 0 <= state.marker_position(colour) < p.dial_steps
    assert len(state.recovered) <= p.recovered_to_win
    if state.rules_version < 2:
        assert len(state.lost) <= p.lost_to_lose
        assert (state.outcome == "lost") == (len(state.lost) == p.lost_to_lose)
    else:
        # the deciding roll records every treasure it took: one move can take several
        assert len(state.lost) < p.lost_to_lose + len(p.colours)
        assert (state.outcome == "lost") == (len(state.lost) >= p.lost_to_lose)
        # a roll waits only for a replacement, and only while a slot is empty
        assert state.pending_clock is None or state.empty_colours or state.outcome
    assert (state.outcome == "won") == (len(state.recovered) == p.recovered_to_win)
    assert state.pending_powers >= 0 and state.turn >= 1
    assert 0 <= state.active < len(state.players)
    assert set(state.powers_up) <= {player.character for player in state.players}
    assert len(set(state.powers_up)) == len(state.powers_up)


def expand(session: Session, script: list[tuple[Any, bool]]) -> Iterator[tuple[Any, bool]]:
    """The script's actions, a turn being expanded against the state when it comes."""
    for action, check_undo in script:
        if not (isinstance(action, tuple) and action[0] == "turn"):
            yield action, check_undo
            continue
        _, minutes, activate = action
        state = session.state
        if state.outcome is not None:
            yield "undo", False  # the table takes back the last move and plays on
            continue
        for colour in state.empty_colours:
            yield c.PlaceTreasure(colour, min(minutes, state.params.max_minutes)), check_undo
        for _ in range(session.state.pending_powers):
            state = session.state
            free = [p.character for p in state.players if p.character not in state.powers_up]
            yield (c.ActivatePower(free[0]) if activate and free else c.SkipPower()), False
        yield c.Roll(), check_undo


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(game=games, script=st.lists(st.tuples(commands, st.booleans()), min_size=20, max_size=120))
def test_random_games_keep_their_invariants_undo_and_replay(game, script):
    raw = setup(players=game["players"], seed=game["seed"], first_player=game["first"],
                rules_version=game["version"],
                treasures=game["treasures"] if game["variant"] != 2 else {"red": 20, "blue": 35},
                **VARIANTS[game["variant"]])
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / FILE_NAME
        journal = Journal(path)
        session = Session.start(RULES, journal, raw)
        check_invariants(session.state)
        refused = 0
        for action, check_undo in expand(session, script):
            before, stacks = session.state, history_of(session)
            written = len(journal.entries(session.game_id))
            rolling = isinstance(action, (c.Roll, c.EnterRoll))
            try:
                if action == "undo":
                    session.undo()
                elif action == "redo":
                    session.redo()
                else:
                    session.dispatch(action)
            except RuleError:
                if isinstance(action, c.Roll) and before.rules_version >= 2 \
                        and before.outcome is None:
                    # refused rolls: only while something is left for the table to settle
                    assert (before.empty_colours or before.pending_powers
                            or before.pending_clock is not None)
                refused += 1
                # refused: nothing changed, nothing written
                assert session.state == before and history_of(session) == stacks
                assert len(journal.entries(session.game_id)) == written
                continue
            after = session.state
            check_invariants(after)
            if rolling and after.rules_version >= 2:
                # by the rules a slot is never empty when the dice are rolled
                assert not before.empty_colours and before.pending_clock is None
            if check_undo and action not in ("undo", "redo"):
                session.undo()
                assert session.state == before
                session.redo()
                assert session.state == after
        event(f"outcome: {session.state.outcome}")
        event(f"journal entries: {len(journal.entries(session.game_id)) // 20 * 20}+")
        event(f"refused: {refused * 10 // max(1, len(script))}0%")
        journal.close()
        reopened = Journal(path)
        resumed = Session.resume(RULES, reopened, session.game_id)
        assert resumed.state == session.state
        assert history_of(resumed) == history_of(session)
        assert reopened.game(session.game_id).summary == RULES.summary(session.state)
        reopened.close()


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31), rolls=st.integers(1, 40))
def test_long_games_of_rolls_only(seed, rolls):
    """Rolling (and placing replacements, skipping powers) as the table does most."""
    state = RULES.initial_state(setup(seed=seed))
    for _ in range(rolls):
        if state.outcome is not None:
            break
        for colour in state.empty_colours:
            state, _ = RULES.apply(state, c.PlaceTreasure(colour, 5 * (1 + seed % 11)))
        while state.pending_powers:
            state, _ = RULES.apply(state, c.SkipPower())
        turn, draws = state.turn, state.draws
        state, _ = RULES.apply(state, c.Roll())
        check_invariants(state)
        assert state.draws == draws + 3
        assert state.turn == (turn + 1 if state.outcome is None else turn)


adjustments = st.one_of(
    st.builds(c.MoveTime, st.sampled_from([1, -1, -1])),
    st.builds(c.MoveTreasure, st.sampled_from(COLOURS[:3]), st.sampled_from([1, 1, -1])),
    st.builds(c.PlaceTreasure, st.sampled_from(COLOURS[:3]), st.sampled_from([45, 50, 55])),
    st.just(c.Roll()),
    st.just(c.SkipPower()),
)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**31), script=st.lists(adjustments, min_size=5, max_size=60))
def test_markers_stay_on_the_dial_under_manual_adjustments(seed, script):
    """Long treasures pushed forward and the time marker pulled back: the refusals that
    keep a marker from lapping the time marker."""
    state = RULES.initial_state(setup(seed=seed, treasures={"red": 55, "green": 50,
                                                            "blue": 45}))
    for command in script:
        try:
            state, _ = RULES.apply(state, command)
        except RuleError:
            continue
        check_invariants(state)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31), rolls=st.integers(1, 40),
       minutes=st.sampled_from(range(5, 60, 5)))
def test_rolls_in_the_seed_order_pass_the_turn_once_the_black_die_is_applied(seed, rolls,
                                                                              minutes):
    """Rules version 2: a roll that loses a treasure to the white dice keeps the turn and
    the time marker until the replacement is placed; then the black die moves time from
    where it stood and the dice pass on, once."""
    state = RULES.initial_state(setup(seed=seed, rules_version=RULES_VERSION,
                                      treasures={"red": minutes, "green": 30, "blue": 55}))
    for _ in range(rolls):
        if state.outcome is not None:
            break
        for colour in state.empty_colours:
            state, _ = RULES.apply(state, c.PlaceTreasure(colour, minutes))
        while state.pending_powers:
            state, _ = RULES.apply(state, c.SkipPower())
        if state.outcome is not None or state.empty_colours:
            continue
        turn, time = state.turn, state.time
        state, _ = RULES.apply(state, c.Roll())
        check_invariants(state)
        if state.pending_clock is not None:
            assert state.turn == turn and state.time == time and state.empty_colours
            assert state.pending_clock in state.params.die_faces("clock")
            state, events = RULES.apply(state, c.PlaceTreasure(state.empty_colours[0], minutes))
            check_invariants(state)
            # the new marker was placed relative to the time before the black die
            placed = next(ev for ev in events if isinstance(ev, e.TreasurePlaced))
            assert placed.position == (time + minutes // 5) % state.params.dial_steps
        assert state.turn == (turn + 1 if state.outcome is None else turn)
