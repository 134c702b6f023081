"""The table's clock domain (issue 31): a simulated 3-hour game on the fake clock (the
banks' drift: 0 ms is the target), the domain's share of one press (apply, the summary
the journal keeps, the view), the resume of that 3-hour session, and a real run on the
monotonic clock, presses read as the app reads them, against a reference clock read
apart (target: under 50 ms over 5 minutes).

Run: .venv/bin/python bench/clock_domain.py [--real-seconds 300]
(`make bench` runs it with its defaults: a 20 s real run, inside the others' time limit.)
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games.clock import commands as c
from companion.games.clock.params import read_preset
from companion.games.clock.rules import RULES
from companion.games.clock.view import clock_view, next_deadline
from companion.journal import Journal
from companion.session import Session


def setup(players: int) -> dict:
    params = read_preset({"mode": "bank", "time": "45m", "increment": "5s"}).params
    assert params is not None
    return {"preset": "bench", "params": params.to_setup(), "start": 0,
            "players": [{"name": f"P{i}"} for i in range(players)]}


def ms(values: list[float]) -> str:
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (f"median {statistics.median(values) * 1000:.3f} ms, "
            f"p99 {p99 * 1000:.3f}, max {max(values) * 1000:.3f}")


def three_hours(path: Path, players: int) -> tuple[int, int, int, list[float]]:
    """A 3-hour game on the fake clock, journaled; (game id, actions, drift in ms, the
    domain's time per press)."""
    journal = Journal(path)
    session = Session.start(RULES, journal, setup(players))
    rng = random.Random(31)
    at = start = 5_000_000
    session.dispatch(c.Start(at))
    used = [0] * players
    turns = [0] * players
    per_press: list[float] = []
    actions = 1
    while at - start < 3 * 3600 * 1000:
        seat = session.state.active
        length = rng.randint(1, 12_000)
        turn_start = at
        while at + 10_000 < turn_start + length:  # checkpoints every 10 s of a turn
            at += 10_000
            session.dispatch(c.Checkpoint(at))
            actions += 1
        at = turn_start + length
        state = session.state
        t = time.perf_counter()
        after, _ = RULES.apply(state, c.Switch(at))
        RULES.summary(after)
        clock_view(after, at)
        next_deadline(after, at)
        per_press.append(time.perf_counter() - t)
        session.dispatch(c.Switch(at))
        actions += 1
        used[seat] += length
        turns[seat] += 1
    expected = [45 * 60_000 - u + 5000 * n for u, n in zip(used, turns, strict=True)]
    drift = sum(abs(s.bank_ms - x) for s, x in zip(session.state.seats, expected,
                                                   strict=True))
    drift += abs(session.state.elapsed_ms - (at - start))
    journal.close()
    return session.game_id, actions, drift, per_press


def real_run(seconds: float, players: int) -> tuple[int, int, float]:
    """Presses at random moments for `seconds`, each read once from the monotonic clock
    as the app reads it (ms) and applied through a journaled session; the clock's time
    (charged + pause) against a reference `perf_counter` read at the same moments.
    Returns (presses, the clock's elapsed ms, the reference's elapsed ms)."""
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as folder:
        journal = Journal(Path(folder) / "real.sqlite3")
        session = Session.start(RULES, journal, setup(players))
        ref_start = time.perf_counter()
        session.dispatch(c.Start(time.monotonic_ns() // 1_000_000))
        presses = 0
        while time.perf_counter() - ref_start < seconds:
            time.sleep(rng.uniform(0.05, 1.5))
            now = time.monotonic_ns() // 1_000_000
            kind = rng.random()
            state = session.state
            if state.status == "paused":
                session.dispatch(c.Resume(now))
            elif kind < 0.1:
                session.dispatch(c.Pause(now))
            elif kind < 0.3:
                session.dispatch(c.Checkpoint(now))
            else:
                session.dispatch(c.Switch(now))
            presses += 1
        now = time.monotonic_ns() // 1_000_000
        reference = (time.perf_counter() - ref_start) * 1000
        session.dispatch(c.Close(now))
        state = session.state
        clock = sum(s.used_ms for s in state.seats) + state.pause_ms + state.admin_ms
        journal.close()
    return presses, clock, reference


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--real-seconds", type=float, default=20.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "journal.sqlite3"
        game_id, actions, drift, per_press = three_hours(path, args.players)
        print(f"3-hour game on the fake clock: {args.players} players, {actions} journaled"
              f" actions, banks' drift {drift} ms (target 0)")
        print(f"one press, domain only (apply + summary + view + next deadline), "
              f"{len(per_press)} presses: {ms(per_press)}")
        journal = Journal(path)
        record = journal.game(game_id)
        resumes = []
        for _ in range(args.runs):
            t = time.perf_counter()
            Session.resume(RULES, journal, game_id, record)
            resumes.append(time.perf_counter() - t)
        journal.close()
        print(f"resume of the 3-hour session, {args.runs} runs: {ms(resumes)}")
    presses, clock, reference = real_run(args.real_seconds, args.players)
    print(f"real run of {args.real_seconds:.0f} s: {presses} presses journaled, the clock "
          f"{clock} ms, the reference {reference:.3f} ms: drift {abs(clock - reference):.3f}"
          f" ms (target < 50)")


if __name__ == "__main__":
    main()
