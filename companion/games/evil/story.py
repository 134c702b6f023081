"""A finished game's story in a few lines, for its end screen: the turns played, the
treasures recovered and lost with their colours, the powers turned up, the difficulty.
Pure code: messages the UI translates."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from companion.games.evil import events as e
from companion.games.evil.state import EvilState
from companion.messages import Message, msg


def powers_turned_up(steps: Sequence[Any]) -> list[str]:
    """The characters whose tile was turned face up, in game order, each once."""
    names: dict[str, None] = {}
    for step in steps:
        for event in step.events:
            if isinstance(event, e.PowerActivated):
                names.setdefault(event.character)
    return list(names)


def story(state: EvilState, steps: Sequence[Any],
          colour_name: Callable[[str], str] = str) -> list[Message]:
    """`steps` are the session's done steps; `colour_name` writes a colour in the
    table's language. The game ends in the turn that decided it, so `turn` is the
    number of turns played."""
    lines = [msg("evil.story.turns", n=state.turn)]
    for kind, treasures in (("recovered", state.recovered), ("lost", state.lost)):
        if treasures:
            lines.append(msg(f"evil.story.{kind}", n=len(treasures),
                             colours=", ".join(colour_name(t.colour) for t in treasures)))
        else:
            lines.append(msg(f"evil.story.no_{kind}"))
    powers = powers_turned_up(steps)
    lines.append(msg("evil.story.powers", names=", ".join(powers)) if powers
                 else msg("evil.story.no_powers"))
    if state.difficulty:
        lines.append(msg("evil.story.difficulty",
                         name=msg(f"evil.difficulty.{state.difficulty}")))
    return lines
