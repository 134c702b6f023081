"""Resuming a long journal: what the app does at start after a power cut.

The parent writes one unfinished Pr. Evil game of about 5 000 (and 50 000) journal
entries (rolls, power choices, placements, manual adjustments, undos: see bench.games)
to a file, with the snapshots the session writes every 100 actions; a fresh child
process then opens the journal and times `Session.resume` given the game's row as the
journal listed it (what the app's start and its resume buttons do: the row is read once,
to list the game), so the newest snapshot, then the actions after it; the first time
cold and then repeated, beside reading that snapshot and those actions alone (the floor
a resume cannot go under), beside the game's row alone (what a resume that must read it
adds) and beside a full replay of every entry (what a resume cost before snapshots).
Each round times them in turn, in the opposite order the next round.

    python -m bench.replay_ui JOURNAL GAME_ID OUT.json --repeats N
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.games import make_journal
from bench.stats import ratio, summary


def child_main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.replay_ui")
    parser.add_argument("journal", type=Path)
    parser.add_argument("game", type=int)
    parser.add_argument("out", type=Path)
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args(argv)

    from companion.games.evil import RULES
    from companion.journal import Journal
    from companion.session import History, Session, replay, replay_onto
    from companion.snapshot import decode, version

    t = time.perf_counter()
    journal = Journal(args.journal)  # opening checks the file (PRAGMA quick_check)
    open_s = time.perf_counter() - t
    resume: list[float] = []
    resume_cpu: list[float] = []  # the machine is shared: CPU time shows the work alone
    read: list[float] = []
    floor: list[float] = []  # the snapshot read and decoded, the tail read and applied
    row: list[float] = []  # the game's row alone (read once, when the games are listed)
    full: list[float] = []
    record = journal.game(args.game)
    root = type(RULES.initial_state(record.setup))
    session: Session | None = None
    tail = 0

    def time_resume() -> None:
        nonlocal session
        cpu, t = time.process_time(), time.perf_counter()
        resumed = Session.resume(RULES, journal, args.game, record)
        resume.append(time.perf_counter() - t)
        resume_cpu.append(time.process_time() - cpu)
        session = resumed  # the one before is freed here, untimed, as the floor's history

    def time_read() -> None:  # the snapshot and the tail read and decoded
        nonlocal tail
        t = time.perf_counter()
        snap = journal.latest_snapshot(args.game, version(root))
        if snap is not None:
            decode(root, snap.state)
        tail = len(journal.entries_between(args.game, snap.seq if snap else 0))
        read.append(time.perf_counter() - t)

    def time_floor() -> None:
        t = time.perf_counter()
        snap = journal.latest_snapshot(args.game, version(root))
        if snap is None:  # a game shorter than the snapshot interval
            history = History(RULES.initial_state(record.setup))
        else:
            history = History(None, base=snap.done, base_state=decode(root, snap.state))
        replay_onto(history, RULES, journal.entries_between(args.game, snap.seq if snap else 0))
        floor.append(time.perf_counter() - t)

    def time_row() -> None:
        t = time.perf_counter()
        journal.game(args.game)
        row.append(time.perf_counter() - t)

    for k in range(args.repeats):
        # the first resume is cold, as at start; then whichever runs first in a round
        # pays for what the round before left (caches, freed memory): each in turn
        order = (time_resume, time_read, time_floor, time_row)
        for timed in order if k % 2 == 0 else order[::-1]:
            timed()
    for _ in range(min(3, args.repeats)):  # before snapshots: every entry read and applied
        # again; after the rounds above, so that no resume follows the freeing of its
        # tens of thousands of records
        t = time.perf_counter()
        replay(RULES, record.setup, journal.entries(args.game, with_events=False))
        full.append(time.perf_counter() - t)
    assert session is not None
    entries = len(journal.entries(args.game, with_events=False))
    result = {"open_s": open_s, "resume_s": resume, "resume_cpu_s": resume_cpu, "read_s": read,
              "floor_s": floor, "row_s": row, "full_s": full, "tail": tail, "entries": entries,
              "steps": len(session.steps),
              "turn": session.state.turn}
    journal.close()
    args.out.write_text(json.dumps(result), encoding="utf-8")
    return 0


def measure(workdir: Path, actions: int = 5000, repeats: int = 15) -> dict[str, Any]:
    path = workdir / f"replay-{actions}" / "journal.sqlite3"
    game, mix = make_journal(path, actions)
    out = path.parent / "result.json"
    subprocess.run([sys.executable, "-m", "bench.replay_ui", str(path), str(game), str(out),
                    "--repeats", str(repeats)], check=True, timeout=600)
    raw = json.loads(out.read_text(encoding="utf-8"))
    return {"entries": raw["entries"], "mix": dict(mix.most_common()),
            "steps": raw["steps"], "turn": raw["turn"], "open_s": raw["open_s"],
            "first_s": raw["resume_s"][0], "resume_s": summary(raw["resume_s"]),
            "first_cpu_s": raw["resume_cpu_s"][0], "resume_cpu_s": summary(raw["resume_cpu_s"]),
            "read_s": summary(raw["read_s"]), "floor_s": summary(raw["floor_s"]),
            "full_s": summary(raw["full_s"]), "tail": raw["tail"],
            "ratio": ratio(summary(raw["resume_s"])["median"], summary(raw["floor_s"])["median"]),
            "ratio_read": ratio(summary(raw["resume_s"])["median"],
                                summary(raw["read_s"])["median"]),
            "row_s": summary(raw["row_s"]),
            # a resume that reads the row as well (not one the app makes)
            "ratio_with_row": ratio(summary(raw["resume_s"])["median"]
                                    + summary(raw["row_s"])["median"],
                                    summary(raw["floor_s"])["median"])}


if __name__ == "__main__":
    sys.exit(child_main())
