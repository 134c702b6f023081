"""The score pad's domain (issue 30): resuming a finished 8 x 200 game beside reading its
snapshot (target: within 1.2x), and the domain's share of entering a value on an
8 x 50 sheet (apply, the summary the journal keeps, the sheet and the standings).

Run: .venv/bin/python bench/pad_domain.py [--players 8] [--rounds 200] [--runs 15]
The resume is the app's: `Session.resume` given the game's row as the journal listed
it, so the newest snapshot (the session writes one every 100 actions) and the actions
after it. "Reading the snapshot" is that snapshot read and decoded, nothing else.
Each run times both, in turn, in the opposite order the next run.
`--writer`: the game played as the app plays it, through the journal's writer (its
snapshots taken on the writer's thread) at a table that never pauses, and cut before
the close (a power cut: the snapshot the close would take never written), so the tail
after the newest snapshot is as long as the writer leaves it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games.pad import commands as c
from companion.games.pad.rules import RULES
from companion.games.pad.template import to_data
from companion.games.pad.templates import load
from companion.games.pad.view import sheet_view, standings_view
from companion.journal import Journal
from companion.session import Session
from companion.snapshot import decode, version
from companion.writer import Writer


def setup(players: int) -> dict:
    template = load(own_dir=Path("/nonexistent")).get("rounds-highest")
    assert template is not None
    return {"template": to_data(template), "start_player": 0,
            "players": [{"name": f"P{i}"} for i in range(players)]}


def text(r: int, seat: int) -> str:
    return f"{(r * 7 + seat * 3) % 40}+{seat}" if (r + seat) % 3 else str(-(r % 9))


def build(path: Path, players: int, rounds: int, writer: bool = False) -> int:
    journal = Journal(path)
    session = Session.start(RULES, journal, setup(players))
    if writer:  # never quiet, never closed: only the snapshots it takes without a pause
        session.writer = Writer(journal, quiet=3600)

    def play(command: c.SetCell | c.End) -> None:
        session.dispatch(command)
        session.settle()

    for r in range(rounds):
        for seat in range(players):
            play(c.SetCell(seat, r, None, text(r, seat)))
    play(c.SetCell(0, rounds // 2, None, "99"))  # a correction, late
    play(c.End())
    if session.writer is not None:
        session.writer.submit(lambda journal: None).wait()  # what it took is written
    journal.close()
    return session.game_id


def journal_seq(path: Path, game_id: int) -> int:
    journal = Journal(path, read_only=True)
    try:
        return int(journal.read("SELECT MAX(seq) FROM snapshots WHERE game_id = ?",
                                (game_id,))[0][0] or 0)
    finally:
        journal.close()


def ms(values: list[float]) -> str:
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (f"median {statistics.median(values) * 1000:.2f} ms, min {min(values) * 1000:.2f},"
            f" max {max(values) * 1000:.2f}, p99 {p99 * 1000:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--entry-rounds", type=int, default=50)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--writer", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "journal.sqlite3"
        game_id = build(path, args.players, args.rounds, args.writer)
        journal = Journal(path)
        record = journal.game(game_id)
        root = RULES.state_type
        resume: list[float] = []
        read: list[float] = []

        def time_resume() -> None:
            t = time.perf_counter()
            Session.resume(RULES, journal, game_id, record)
            resume.append(time.perf_counter() - t)

        def time_read() -> None:
            t = time.perf_counter()
            snap = journal.latest_snapshot(game_id, version(root))
            assert snap is not None
            decode(root, snap.state)
            read.append(time.perf_counter() - t)

        for k in range(args.runs):
            for timed in (time_resume, time_read) if k % 2 else (time_read, time_resume):
                timed()
        session = Session.resume(RULES, journal, game_id, record)
        entries = len(journal.entries(game_id, with_events=False))
        journal.close()
        state = session.state
        ratio = statistics.median(resume) / statistics.median(read)
        newest = journal_seq(path, game_id)
        print(f"finished game: {args.players} players x {len(state.rounds)} rounds, {entries} "
              f"journal entries, finished={state.finished}, newest snapshot at {newest}"
              f" (a tail of {entries - newest})")
        print(f"resume (newest snapshot + the actions after it), {args.runs} runs: {ms(resume)}")
        print(f"snapshot read and decoded alone: {ms(read)}")
        print(f"ratio of the medians: {ratio:.2f} (target <= 1.2)")

    # the domain's share of one entry on an 8 x 50 sheet (no journal: pure work)
    base = RULES.initial_state(setup(args.players))
    for r in range(args.entry_rounds - 1):
        for seat in range(args.players):
            base, _ = RULES.apply(base, c.SetCell(seat, r, None, text(r, seat)))
    entry: list[float] = []
    for k in range(200):
        seat, r = k % args.players, k % (args.entry_rounds - 1)
        t = time.perf_counter()
        after, _ = RULES.apply(base, c.SetCell(seat, r, None, f"{k}+1"))
        RULES.summary(after)
        sheet_view(after)
        standings_view(after)
        entry.append(time.perf_counter() - t)
    print(f"one entry on a {args.players} x {args.entry_rounds} sheet (apply + summary + sheet"
          f" + standings), 200 entries: {ms(entry)}")


if __name__ == "__main__":
    main()
