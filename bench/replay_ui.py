"""Resuming a long journal: what the app does at start after a power cut.

The parent writes one unfinished Pr. Evil game of about 5 000 (and 50 000) journal
entries (rolls, power choices, placements, manual adjustments, undos: see bench.games)
to a file, with the snapshots the session writes every 200 actions; a fresh child
process then opens the journal and times `Session.resume` (the newest snapshot, then
the actions after it), the first time cold and then repeated, beside reading that
snapshot and those actions alone (the floor a resume cannot go under) and beside a
full replay of every entry (what a resume cost before snapshots).

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
    parser.add_argument("--repeats", type=int, default=7)
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
    full: list[float] = []
    entries = tail = 0
    record = journal.game(args.game)
    root = type(RULES.initial_state(record.setup))
    for k in range(args.repeats):
        cpu, t = time.process_time(), time.perf_counter()
        session = Session.resume(RULES, journal, args.game)
        resume.append(time.perf_counter() - t)
        resume_cpu.append(time.process_time() - cpu)
        t = time.perf_counter()  # the floor: the snapshot and the tail read and decoded
        snap = journal.latest_snapshot(args.game, version(root))
        if snap is not None:
            decode(root, snap.state)
        tail = len(journal.entries_between(args.game, snap.seq if snap else 0))
        read.append(time.perf_counter() - t)
        t = time.perf_counter()
        snap = journal.latest_snapshot(args.game, version(root))
        if snap is None:  # a game shorter than the snapshot interval
            history = History(RULES.initial_state(record.setup))
        else:
            history = History(None, base=snap.done, base_state=decode(root, snap.state))
        replay_onto(history, RULES, journal.entries_between(args.game, snap.seq if snap else 0))
        floor.append(time.perf_counter() - t)
        if k < 3:  # before snapshots: every entry read and applied again
            t = time.perf_counter()
            entries = len(replay(RULES, record.setup,
                                 journal.entries(args.game, with_events=False)).steps)
            full.append(time.perf_counter() - t)
    entries = len(journal.entries(args.game, with_events=False))
    result = {"open_s": open_s, "resume_s": resume, "resume_cpu_s": resume_cpu, "read_s": read,
              "floor_s": floor, "full_s": full, "tail": tail, "entries": entries,
              "steps": len(session.steps),
              "turn": session.state.turn}
    journal.close()
    args.out.write_text(json.dumps(result), encoding="utf-8")
    return 0


def measure(workdir: Path, actions: int = 5000, repeats: int = 7) -> dict[str, Any]:
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
                                summary(raw["read_s"])["median"])}


if __name__ == "__main__":
    sys.exit(child_main())
