"""Clock sessions for the tests: a setup from a built-in preset or from a preset
file's data, and a script of commands applied to a state."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from companion.games.clock.params import read_preset
from companion.games.clock.presets import load_presets
from companion.games.clock.rules import RULES
from companion.games.clock.state import ClockState

NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal")


def params(data: dict[str, Any]) -> dict[str, Any]:
    """A preset file's data as a setup's params (refused data fails the test)."""
    read = read_preset(data)
    assert read.problems == [], read.problems
    assert read.params is not None
    return read.params.to_setup()


def setup(preset: str | dict[str, Any], players: int = 2, *, start: int = 0,
          **extra: Any) -> dict[str, Any]:
    if isinstance(preset, str):
        found = load_presets(own=None).get(preset)
        assert found is not None, preset
        data = found.params.to_setup()
        preset_id = preset
    else:
        data, preset_id = params(preset), "test"
    return {"preset": preset_id, "params": data, "seed": 7, "start": start,
            "players": [{"name": n, "colour": ""} for n in NAMES[:players]], **extra}


def state(preset: str | dict[str, Any], players: int = 2, **extra: Any) -> ClockState:
    return RULES.initial_state(setup(preset, players, **extra))


def run(state: ClockState, commands: Iterable[Any]) -> tuple[ClockState, list[Any]]:
    """Apply every command; the state after and every event, in order."""
    events: list[Any] = []
    for command in commands:
        state, happened = RULES.apply(state, command)
        events.extend(happened)
    return state, events


def banks(state: ClockState) -> list[int]:
    return [s.bank_ms for s in state.seats]
