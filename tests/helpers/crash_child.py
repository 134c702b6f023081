"""The crash test's child: plays a journaled game until it is killed.

Usage: python crash_child.py JOURNAL GAME_ID [KIND]. After each action is committed it
prints `<entries committed> <digest>` and flushes, so the parent knows what was durable.
Without KIND the game is Pr. Evil's table (`tests.helpers.evil_play`); with one, the
deterministic table of that kind (`tests.helpers.tables`).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion.games import rules_for
from companion.journal import Journal
from companion.session import Session
from tests.helpers import evil, evil_play, tables


def main() -> None:
    path, game_id = sys.argv[1], int(sys.argv[2])
    kind = sys.argv[3] if len(sys.argv) > 3 else None
    digest = tables.digest if kind else evil.digest
    act = tables.act if kind else evil_play.act
    next_action = tables.next_action if kind else evil_play.next_action
    journal = Journal(path)
    session = Session.resume(rules_for(kind or "evil"), journal, game_id)
    seq = len(journal.entries(game_id))
    print("ready", seq, digest(session), flush=True)
    while True:
        act(session, next_action(session, seq))
        seq += 1
        sys.stdout.write(f"{seq} {digest(session)}\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
