"""Shared set-up for the score pad's tests: built-in templates and a game at a seat."""

from __future__ import annotations

from typing import Any

from companion.games.pad import templates
from companion.games.pad.rules import RULES
from companion.games.pad.state import PadState
from companion.games.pad.template import to_data

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")
CATALOGUE = templates.load(own_dir=templates.BUILTIN_DIR / "none")


def template(ident: str) -> dict[str, Any]:
    found = CATALOGUE.get(ident)
    assert found is not None, ident
    return to_data(found)


def setup(ident: str | dict[str, Any], n: int = 3, **extra: Any) -> dict[str, Any]:
    data = template(ident) if isinstance(ident, str) else ident
    return {"template": data, "players": [{"name": NAMES[i]} for i in range(n)],
            "start_player": 0, "start_drawn": False, **extra}


def start(ident: str | dict[str, Any], n: int = 3, **extra: Any) -> PadState:
    return RULES.initial_state(setup(ident, n, **extra))


def play(state: PadState, *commands: Any) -> PadState:
    for command in commands:
        state, _ = RULES.apply(state, command)
    return state
