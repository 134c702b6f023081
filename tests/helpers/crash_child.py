"""The crash test's child: plays a journaled game until it is killed.

Usage: python crash_child.py JOURNAL GAME_ID. After each action is committed it prints
`<entries committed> <digest>` and flushes, so the parent knows what was durable.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion.games.evil import RULES
from companion.journal import Journal
from companion.session import Session
from tests.helpers.evil import digest
from tests.helpers.evil_play import act, next_action


def main() -> None:
    path, game_id = sys.argv[1], int(sys.argv[2])
    journal = Journal(path)
    session = Session.resume(RULES, journal, game_id)
    seq = len(journal.entries(game_id))
    print("ready", seq, digest(session), flush=True)
    while True:
        act(session, next_action(session, seq))
        seq += 1
        sys.stdout.write(f"{seq} {digest(session)}\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
