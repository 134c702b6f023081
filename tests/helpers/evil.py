"""Building Pr. Evil games for tests: setups, hand-placed states, digests."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest

from companion import config
from companion.games.evil import RULES
from companion.games.evil import commands as c
from companion.games.evil.state import EvilState, Treasure
from companion.journal import Journal
from companion.messages import RuleError
from companion.session import Session

CHARACTERS = ("Nathan Goodspeed", "Edward Wyre", "Irene Elder", "Leroy Johnson",
              "Destiny Bradshaw")
NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve")

_DEFAULTS: dict[str, Any] | None = None


def default_params() -> dict[str, Any]:
    """The `games.evil` section of the shipped defaults (a fresh copy each time)."""
    global _DEFAULTS
    if _DEFAULTS is None:
        _DEFAULTS = config.load(use_default_user_file=False).data["games"]["evil"]
    return config.merge(_DEFAULTS, {})


def setup(players: int = 2, seed: int = 7, treasures: Mapping[str, int] | None = None,
          first_player: int = 0, rules_version: int | None = None,
          **params: Any) -> dict[str, Any]:
    """A game setup as the UI builds it; `params` override the default rule parameters.
    Without `rules_version` it is a setup written before rules versions existed."""
    raw = {
        "params": config.merge(default_params(), params),
        "players": [{"name": NAMES[i], "character": CHARACTERS[i]} for i in range(players)],
        "seed": seed,
        "treasures": dict(treasures if treasures is not None
                          else {"red": 45, "green": 30, "blue": 55}),
        "first_player": first_player,
    }
    if rules_version is not None:
        raw["rules_version"] = rules_version
    return raw


def new_state(**kwargs: Any) -> EvilState:
    return RULES.initial_state(setup(**kwargs))


def at(state: EvilState, time: int | None = None, **slots: int | None) -> EvilState:
    """The same state with the time marker and treasures put by hand: `red=3` puts the red
    treasure 3 steps ahead of the time marker, `red=None` empties its slot."""
    if time is not None:
        state = replace(state, time=time)
    new = list(state.slots)
    for colour, steps in slots.items():
        index = state.params.colours.index(colour)
        new[index] = None if steps is None else Treasure(
            colour, steps * state.params.step_minutes, steps)
    return replace(state, slots=tuple(new))


def roll(professor: str, colour: str, clock: str) -> c.EnterRoll:
    return c.EnterRoll(professor, colour, clock)


def apply(state: EvilState, *commands: Any) -> tuple[EvilState, list[Any]]:
    """Apply commands in turn; the events of them all."""
    events: list[Any] = []
    for command in commands:
        state, new = RULES.apply(state, command)
        events += list(new)
    return state, events


def start(journal: Journal, **kwargs: Any) -> Session:
    return Session.start(RULES, journal, setup(**kwargs))


def history_of(session: Session) -> tuple[Any, ...]:
    """The whole do/undo/redo stacks, for comparing a live session with its replay."""
    history = session._history  # the stacks are the point of the comparison
    return (history.initial, tuple(history.steps), history.cursor)


def digest(session: Session) -> str:
    """A short fingerprint of the state and the stacks (stable across processes)."""
    history = session._history
    text = repr((session.state, history.cursor, len(history.steps),
                 [step.command for step in history.steps]))
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def refused(state: EvilState, command: Any, key: str) -> RuleError:
    """The rules refuse `command` in `state` with the message `key`."""
    with pytest.raises(RuleError) as caught:
        RULES.apply(state, command)
    assert caught.value.message.key == key
    return caught.value


def of(events: Any, kind: type) -> list[Any]:
    """The events of one kind."""
    return [ev for ev in events if isinstance(ev, kind)]
