"""A deterministic table: what it does next depends only on the game and the action count.

The crash test's child process plays with it against a journal file while the parent,
playing the same table in memory, knows the state after every committed action.
"""

from __future__ import annotations

import random
from typing import Any

from companion.games.evil import commands as c
from companion.session import Session


def undo_or_redo(session: Session, draw: float) -> str | None:
    """A table's second thoughts: "undo" for 6 % of the draws, "redo" for 4 %."""
    if draw < 0.06 and session.can_undo():
        return "undo"
    if draw < 0.10 and session.can_redo():
        return "redo"
    return None


def next_action(session: Session, seq: int) -> Any:
    """The next action ("undo", "redo" or a command) for the `seq`-th journal entry."""
    rng = random.Random(seq)
    state = session.state
    if state.outcome is not None:
        return "undo"
    draw = rng.random()
    if (back := undo_or_redo(session, draw)) is not None:
        return back
    if state.pending_powers:
        free = [p.character for p in state.players if p.character not in state.powers_up]
        return c.ActivatePower(rng.choice(free)) if free and draw < 0.6 else c.SkipPower()
    if state.empty_colours:
        return c.PlaceTreasure(state.empty_colours[0], rng.choice(range(15, 60, 5)))
    if draw < 0.15:
        return c.Recover(rng.choice(state.params.colours))
    if draw < 0.18 and state.powers_up:
        return c.FlipPowerDown(state.powers_up[0])
    return c.Roll()


def act(session: Session, action: Any) -> None:
    if action == "undo":
        session.undo()
    elif action == "redo":
        session.redo()
    else:
        session.dispatch(action)
