"""Golden Pr. Evil journals: games written by the app before the rules were versioned
(the black die resolved before a "time presses" loss was replaced), with the state after
every entry. `tests/test_evil_golden.py` replays them and compares.

Regenerate only for a new rules version, never to make a failing replay pass:
`.venv/bin/python -m tests.helpers.evil_golden tests/golden/evil_v1_journals.json`
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from companion.games.evil import RULES
from companion.games.evil import commands as c
from companion.journal import Journal
from companion.records import decode, encode
from companion.session import History, Session, Step
from tests.helpers.evil import setup
from tests.helpers.evil_play import act, next_action


def snapshot(state: Any) -> dict[str, Any]:
    """What a state means at the table, in plain JSON (fields added later are left out)."""
    def treasure(t: Any) -> list[Any] | None:
        return None if t is None else [t.colour, t.minutes, t.steps]

    roll = state.last_roll
    return {
        "time": state.time,
        "draws": state.draws,
        "slots": [treasure(t) for t in state.slots],
        "recovered": [treasure(t) for t in state.recovered],
        "lost": [treasure(t) for t in state.lost],
        "active": state.active,
        "turn": state.turn,
        "pending_powers": state.pending_powers,
        "powers_up": list(state.powers_up),
        "outcome": state.outcome,
        "last_roll": None if roll is None else [roll.professor, roll.colour, roll.clock,
                                                 roll.source],
        "can_change_roll": state.before_roll is not None,
    }


# scripted turns that reach the cases the versioning is about: "time presses" losses,
# losses to both dice in one roll, re-rolls and corrections, and deciding rolls
_SCRIPTED: list[Any] = [
    c.EnterRoll("time10", "red", "clock1"),  # red 2 steps: lost by the professor die
    c.SetDie("clock", "clock2"),
    c.PlaceTreasure("red", 5),
    c.EnterRoll("time5", "green", "clock2"),
    c.Reroll("professor"),
    c.SetDie("professor", "time5"),
    c.PlaceTreasure("red", 10),
    c.EnterRoll("time10", "blue", "clock2"),
    c.PlaceTreasure("red", 5),
    c.EnterRoll("chevron1", "red", "clock2"),
    c.SetDie("professor", "passage"),
]

# a deciding roll whose black die reaches two treasures at once
_DECIDING: list[Any] = [
    c.EnterRoll("chevron1", "blue", "clock1"),  # red (1 step) lost
    c.PlaceTreasure("red", 50),
    c.EnterRoll("chevron1", "blue", "clock1"),  # green (1 step left) lost
    c.PlaceTreasure("green", 5),
    c.EnterRoll("chevron1", "red", "clock1"),  # green lost again: 3 lost
    c.PlaceTreasure("green", 5),
    *[c.MoveTreasure("blue", -1)] * 6,
    c.EnterRoll("chevron2", "red", "clock2"),  # green and blue reached: the game ends
    c.SetDie("clock", "clock1"),
    c.SetDie("clock", "clock2"),
]


def _scripted(journal: Journal, seed: int, script: list[Any],
              treasures: dict[str, int]) -> Session:
    session = Session.start(RULES, journal, setup(
        players=3, seed=seed, first_player=1, treasures=treasures))
    for command in script:
        if isinstance(command, (c.Roll, c.EnterRoll)):
            while session.state.pending_powers:
                session.dispatch(c.SkipPower())
        session.dispatch(command)  # the script only holds accepted commands
    session.undo()
    session.undo()
    session.redo()
    return session


def _played(journal: Journal, seed: int, actions: int) -> Session:
    rng = random.Random(seed)
    raw = setup(players=2 + seed % 4, seed=seed, first_player=seed % 3,
                treasures={"red": rng.choice(range(5, 60, 5)),
                           "green": rng.choice(range(5, 60, 5)),
                           "blue": rng.choice(range(5, 60, 5))})
    raw["difficulty"] = "standard"
    session = Session.start(RULES, journal, raw)
    for seq in range(actions):
        act(session, next_action(session, seq + seed * 1000))
    return session


def build(path: Path) -> dict[str, Any]:
    journal = Journal(path)
    games = [_scripted(journal, 17, _SCRIPTED, {"red": 10, "green": 40, "blue": 50}),
             _scripted(journal, 23, _DECIDING, {"red": 5, "green": 10, "blue": 50})]
    games += [_played(journal, seed, 160) for seed in (3, 4, 5)]
    out = []
    for session in games:
        record = journal.game(session.game_id)
        entries = journal.entries(session.game_id)
        states = []
        history = History(RULES.initial_state(record.setup))
        for entry in entries:
            if entry.verb == "do":
                command = decode(RULES.commands, entry.command or {})
                after, events = RULES.apply(history.state, command)
                assert [encode(ev) for ev in events] == entry.events
                history.do(Step(command, tuple(events), history.state, after))
            elif entry.verb == "undo":
                history.undo()
            else:
                history.redo()
            states.append(snapshot(history.state))
        assert history.state == session.state
        out.append({
            "setup": record.setup,
            "entries": [{"verb": en.verb, "command": en.command, "events": en.events}
                        for en in entries],
            "states": states,
        })
    journal.close()
    return {"about": "Pr. Evil journals written before rules_version existed (old order)",
            "initial": [snapshot(RULES.initial_state(g["setup"])) for g in out],
            "games": out}


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        data = build(Path(folder) / "journal.sqlite3")
    Path(sys.argv[1]).write_text(json.dumps(data, separators=(",", ":"), sort_keys=True) + "\n")
