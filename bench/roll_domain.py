"""ROLL to committed, in the domain alone: Session.dispatch(Roll()) on a journal file.

Run: .venv/bin/python bench/roll_domain.py [--rolls 1000]
Times each dispatch (rules, encoding, the SQLite commit with synchronous=FULL, observers:
none) over the given number of rolls; the moves between rolls (placing replacements,
settling powers, undoing a finished game) are not timed. Target: p99 <= 20 ms, screen
update included (measured by the UI benchmark).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from companion import config
from companion.games.evil import RULES
from companion.games.evil import commands as c
from companion.journal import Journal
from companion.session import Session


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=1000)
    args = parser.parse_args()
    params = config.load(use_default_user_file=False).get("games.evil")
    setup = {"params": params, "seed": 42, "first_player": 0,
             "players": [{"name": "Ann", "character": "Irene Elder"},
                         {"name": "Bob", "character": "Edward Wyre"}],
             "treasures": {"red": 45, "green": 50, "blue": 55}}
    with tempfile.TemporaryDirectory() as folder:
        journal = Journal(Path(folder) / "journal.sqlite3")
        session = Session.start(RULES, journal, setup)
        timings = []
        while len(timings) < args.rolls:
            state = session.state
            if state.outcome is not None:
                session.undo()
                continue
            if state.pending_powers:
                session.dispatch(c.SkipPower())
                continue
            if state.empty_colours:
                session.dispatch(c.PlaceTreasure(state.empty_colours[0], 55))
                continue
            start = time.perf_counter()
            session.dispatch(c.Roll())
            timings.append(time.perf_counter() - start)
        journal.close()
    timings.sort()
    p99 = timings[min(len(timings) - 1, int(len(timings) * 0.99))]
    print(f"dispatch(Roll()) to commit, {len(timings)} rolls: "
          f"median {statistics.median(timings) * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms, "
          f"max {timings[-1] * 1000:.2f} ms")


if __name__ == "__main__":
    main()
