"""Replay of a long journal: what the app does at start after a power cut.

The parent writes one unfinished Pr. Evil game of about 5 000 journal entries (rolls,
power choices, placements, manual adjustments, undos: see bench.games) to a file; a
fresh child process then opens the journal and times `Session.resume` (read every
entry, decode it, apply every command again), the first time cold and then repeated.
Reading the entries alone is timed too, to show where the time goes.

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
from bench.stats import summary


def child_main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.replay_ui")
    parser.add_argument("journal", type=Path)
    parser.add_argument("game", type=int)
    parser.add_argument("out", type=Path)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args(argv)

    from companion.games.evil import RULES
    from companion.journal import Journal
    from companion.session import Session

    t = time.perf_counter()
    journal = Journal(args.journal)  # opening checks the file (PRAGMA quick_check)
    open_s = time.perf_counter() - t
    resume: list[float] = []
    resume_cpu: list[float] = []  # the machine is shared: CPU time shows the work alone
    read: list[float] = []
    entries = 0
    for _ in range(args.repeats):
        cpu, t = time.process_time(), time.perf_counter()
        session = Session.resume(RULES, journal, args.game)
        resume.append(time.perf_counter() - t)
        resume_cpu.append(time.process_time() - cpu)
        t = time.perf_counter()
        entries = len(journal.entries(args.game))
        read.append(time.perf_counter() - t)
    result = {"open_s": open_s, "resume_s": resume, "resume_cpu_s": resume_cpu, "read_s": read,
              "entries": entries, "steps": len(session.steps), "turn": session.state.turn}
    journal.close()
    args.out.write_text(json.dumps(result), encoding="utf-8")
    return 0


def measure(workdir: Path, actions: int = 5000, repeats: int = 7) -> dict[str, Any]:
    path = workdir / "replay" / "journal.sqlite3"
    game, mix = make_journal(path, actions)
    out = workdir / "replay" / "result.json"
    subprocess.run([sys.executable, "-m", "bench.replay_ui", str(path), str(game), str(out),
                    "--repeats", str(repeats)], check=True, timeout=600)
    raw = json.loads(out.read_text(encoding="utf-8"))
    return {"entries": raw["entries"], "mix": dict(mix.most_common()),
            "steps": raw["steps"], "turn": raw["turn"], "open_s": raw["open_s"],
            "first_s": raw["resume_s"][0], "resume_s": summary(raw["resume_s"]),
            "first_cpu_s": raw["resume_cpu_s"][0], "resume_cpu_s": summary(raw["resume_cpu_s"]),
            "read_s": summary(raw["read_s"])}


if __name__ == "__main__":
    sys.exit(child_main())
