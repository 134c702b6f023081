"""Pr. Evil games played by a script, through the real Session and Journal: the journals
the start-up and replay benchmarks open. Pure domain code (no Kivy)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from companion import config as config_module
from companion.games.evil import RULES
from companion.games.evil import commands as c
from companion.journal import Journal
from companion.session import Session

PLAYERS = (("Anne", "Nathan Goodspeed"), ("Bruno", "Edward Wyre"), ("Chloé", "Irene Elder"))
MINUTES = 55  # the longest a treasure may be placed for: long games
CLOSE_STEPS = 2  # a treasure this close to the time marker is recovered or pushed back


def evil_setup(seed: int = 2024) -> dict[str, Any]:
    """A setup as the app builds it (setup screen + CompanionApp.start_game)."""
    params = config_module.load(use_default_user_file=False).get("games.evil")
    return {"params": params, "seed": seed,
            "players": [{"name": n, "character": ch} for n, ch in PLAYERS],
            "treasures": {colour: MINUTES for colour in params["colours"]}}


def next_command(state: Any) -> Any:
    """What the table does next: answer the app's questions, recover treasures the time
    marker is about to reach (one short of a victory), then push them back with the manual
    adjustments; otherwise roll."""
    if state.pending_powers:
        return c.SkipPower()
    if state.empty_colours:
        return c.PlaceTreasure(state.empty_colours[0], MINUTES)
    for colour in state.params.colours:
        treasure = state.slot(colour)
        if treasure is not None and treasure.steps <= CLOSE_STEPS:
            if len(state.recovered) < state.params.recovered_to_win - 1:
                return c.Recover(colour)
            return push_back(state, colour)
    return c.Roll()


def push_back(state: Any, colour: str) -> Any:
    """Time back one step (all treasures gain a step) or, if that is blocked, one treasure."""
    if all(t is None or t.steps + 1 < state.params.dial_steps for t in state.slots):
        return c.MoveTime(-1)
    return c.MoveTreasure(colour, 1)


def play(session: Session, actions: int) -> Counter[str]:
    """Append at least `actions` journal entries to a game that never ends (a command that
    would end it is undone and the clock pushed back instead), stopping where the play
    screen shows no dialog. Returns what was journaled, by command (and "undo")."""
    done: Counter[str] = Counter()
    while sum(done.values()) < actions or not settled(session.state):
        command = next_command(session.state)
        session.dispatch(command)
        done[type(command).__name__] += 1
        if session.state.outcome is not None:
            session.undo()
            done["undo"] += 1
            lowest = min((t for t in session.state.slots if t is not None),
                         key=lambda t: t.steps)
            command = push_back(session.state, lowest.colour)
            session.dispatch(command)
            done[type(command).__name__] += 1
    return done


def settled(state: Any) -> bool:
    """No dialog would open on the play screen for this state."""
    return not state.pending_powers and not state.empty_colours and state.outcome is None


def make_journal(path: Path, actions: int, seed: int = 2024, rules_version: int | None = None
                 ) -> tuple[int, Counter[str]]:
    """A journal file holding one unfinished game of about `actions` entries. Returns the
    game id and the mix of entries. `rules_version`: set in the setup as the setup screen
    does today (None: none, a game from before rules versions, played in the old order)."""
    journal = Journal(path)
    # written once for the benchmarks: no need to wait for the disk after each action
    journal.read("PRAGMA synchronous=OFF")
    setup = evil_setup(seed)
    if rules_version is not None:
        setup["rules_version"] = rules_version
    try:
        session = Session.start(RULES, journal, setup)
        return session.game_id, play(session, actions)
    finally:
        journal.close()
