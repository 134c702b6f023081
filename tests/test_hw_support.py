"""Helpers shared by the hardware tests (no tests here)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from companion.games import rules_for
from companion.journal import Journal
from companion.session import Session
from tests.helpers.checked import load


def section(**changes: Any) -> dict[str, Any]:
    """The default `hardware` section, with dotted keys changed: ring__port="loop://"."""

    data = copy.deepcopy(load(use_default_user_file=False).get("hardware"))
    for dotted, value in changes.items():
        node = data
        *parents, last = dotted.split("__")
        for key in parents:
            node = node[key]
        node[last] = value
    return data


def evil_session(seed: int = 1) -> Session:
    params = load(use_default_user_file=False).get("games.evil")
    setup = {"params": params, "seed": seed,
             "players": [{"name": "A", "character": "Irene Elder"},
                         {"name": "B", "character": "Edward Wyre"}],
             "treasures": {"red": 45, "green": 30, "blue": 20}}
    return Session.start(rules_for("evil"), Journal(":memory:"), setup)


class MainThread:
    """Stands for Kivy's Clock: presses queue here, the test drains them."""

    def __init__(self) -> None:
        self.queue: list[Callable[[], None]] = []

    def __call__(self, fn: Callable[[], None]) -> None:
        self.queue.append(fn)

    def drain(self) -> int:
        count = 0
        while self.queue:
            self.queue.pop(0)()
            count += 1
        return count


def play_a_game(session: Session, steps: int = 40) -> list[Any]:
    """Roll, resolving pending powers, until the game ends or `steps` actions."""
    from companion.games.evil.commands import Roll, SkipPower

    updates = []
    for _ in range(steps):
        if session.state.outcome is not None:
            break
        if session.state.pending_powers:
            session.dispatch(SkipPower())
        else:
            session.dispatch(Roll())
        updates.append(session.state)
    return updates
