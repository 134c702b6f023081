"""The card of the next ROLL, known before the table rolls.

The play screen lays that card out while the table plays and swaps it in when ROLL is
touched; the swap is right only if the card predicted is the card the roll then shows,
for every state a table can reach (after undo, redo, powers, placements, recoveries).
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from companion.games.evil import RULES
from companion.games.evil import commands as c
from companion.games.evil.card import next_roll_card, turn_card
from companion.journal import Journal
from companion.session import Session
from tests.helpers.evil import setup
from tests.helpers.evil_play import act, next_action

RULES_VERSION = 2  # the rulebook's order: "ROLL" only once each slot holds a treasure


def _session(seed: int, players: int, minutes: int) -> Session:
    game = setup(seed=seed, players=players, rules_version=RULES_VERSION,
                 treasures={"red": minutes, "green": minutes + 5, "blue": minutes + 10})
    return Session.start(RULES, Journal(":memory:"), game)


@given(seed=st.integers(0, 10_000), players=st.integers(2, 5),
       minutes=st.sampled_from([15, 30, 45]), table=st.integers(0, 1_000))
def test_the_card_predicted_is_the_card_the_roll_shows(
        seed: int, players: int, minutes: int, table: int) -> None:
    # "À la fin du tour de chaque joueur, le professeur joue : lancez les 3 dés pour
    # résoudre son tour." The app rolls them from the game's seed and its draws, so the
    # state after a roll, and its card, are known before the table touches ROLL
    session = _session(seed, players, minutes)
    rolls = 0
    for n in range(120):
        if session.state.outcome is not None:
            break
        action: Any = next_action(session, table * 1000 + n)
        if isinstance(action, c.Roll):
            before = session.state
            predicted = next_roll_card(RULES, before)
            act(session, action)
            assert session.state is not before
            assert predicted == turn_card(session.state, session.steps, "do")
            rolls += 1
        else:
            act(session, action)
    assert rolls > 0


def test_no_card_is_predicted_while_the_roll_would_be_refused() -> None:
    # "Lorsque le marqueur de temps atteint ou dépasse les cases marquées du symbole de
    # pouvoir spécial [...] les joueurs décident ensemble du personnage concerné": that
    # choice (or a treasure to place) comes before the next roll, which is refused
    session = _session(seed=3, players=3, minutes=30)
    for n in range(400):
        state = session.state
        if state.pending_powers or state.empty_colours:
            assert next_roll_card(RULES, state) is None
            return
        act(session, next_action(session, n) if n % 7 else c.Roll())
    raise AssertionError("no roll opened a power or a placement: the test proves nothing")


def test_predicting_changes_nothing() -> None:
    session = _session(seed=5, players=2, minutes=30)
    state = session.state
    before = repr(state)
    card = next_roll_card(RULES, state)
    assert card is not None
    assert repr(state) == before and next_roll_card(RULES, state) == card
