"""Replay speed: Session.resume of a 5 000-command Pr. Evil journal (target: <= 200 ms).

Run: .venv/bin/python bench/replay.py [--commands 5000] [--runs 7]
Builds the journal in a temporary file by playing as a table does (replacements placed,
powers settled, dice rolled, now and then an undo and a redo), then times reopening it.
So that 5 000 commands are one game (far longer than a real one), the win and loss
thresholds are raised: every command is a real `apply` on replay, not an undo.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from companion import config
from companion.games.evil import RULES
from companion.games.evil import commands as c
from companion.journal import Journal
from companion.session import Session

CHARACTERS = ["Nathan Goodspeed", "Edward Wyre", "Irene Elder", "Leroy Johnson"]


def build(path: Path, commands: int, seed: int = 1) -> int:
    params = dict(config.load(use_default_user_file=False).get("games.evil"),
                  recovered_to_win=100_000, lost_to_lose=100_000)
    setup = {"params": params, "seed": seed, "first_player": 0,
             "players": [{"name": f"P{i}", "character": ch} for i, ch in enumerate(CHARACTERS)],
             "treasures": {"red": 45, "green": 50, "blue": 55}}
    journal = Journal(path)
    session = Session.start(RULES, journal, setup)
    rng = random.Random(seed)
    written = 0
    while written < commands:
        state = session.state
        if rng.random() < 0.03 and session.can_undo():
            session.undo()
            if rng.random() < 0.5:
                session.redo()
                written += 1
        elif state.pending_powers:
            session.dispatch(c.SkipPower())
        elif state.empty_colours:
            session.dispatch(c.PlaceTreasure(state.empty_colours[0], rng.choice([40, 45, 50, 55])))
        elif rng.random() < 0.08:
            session.dispatch(c.Recover(rng.choice(state.params.colours)))
        else:
            session.dispatch(c.Roll())
        written += 1
    journal.close()
    return session.game_id


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "journal.sqlite3"
        game_id = build(path, args.commands)
        timings, cpu = [], []
        for _ in range(args.runs):
            start, start_cpu = time.perf_counter(), time.process_time()
            journal = Journal(path)
            session = Session.resume(RULES, journal, game_id)
            timings.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            entries = len(journal.entries(game_id))
            # the steps before the snapshot are read from the journal when asked for:
            # counted while it is open
            kinds: dict[str, int] = {}
            for step in session.steps:
                name = type(step.command).__name__
                kinds[name] = kinds.get(name, 0) + 1
            journal.close()
        print(f"journal: {entries} actions ({len(session.steps)} commands done after undo/redo), "
              f"turn {session.state.turn}; done: {dict(sorted(kinds.items()))}")
        print(f"resume (open + read + replay), {args.runs} runs: "
              f"median {statistics.median(timings) * 1000:.1f} ms, "
              f"min {min(timings) * 1000:.1f} ms, max {max(timings) * 1000:.1f} ms; "
              f"CPU time median {statistics.median(cpu) * 1000:.1f} ms "
              "(the wall clock includes waiting for a shared CPU)")


if __name__ == "__main__":
    main()
