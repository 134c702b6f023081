"""Benchmark: the statistics screen's data with years of history (5 000 games).

Builds a temporary journal: a roster of 12 players and 5 000 games (Castor, Bond and
Pr. Evil in turn, 2 to 4 players, real setups, summaries and journal actions copied
from games played through the rules), then times `companion.night.stats.statistics`
cold (every game's facts computed and cached, once after an upgrade or a restore)
and warm (what the screen costs each time it opens), and `history.games` (the
history screen's list). Run: `.venv/bin/python bench/stats_history.py [games]`.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.journal import Journal
from companion.night import history, roster, stats
from tests.test_night_support import bond, castor, evil, sheet


def templates(scratch: Path) -> list[tuple[str, dict, dict, list[tuple]]]:
    j = Journal(scratch / "templates.sqlite3")
    ids = [roster.add(j, f"T{i}").id for i in range(4)]
    castor(j, ids[:3], [sheet([5, 5, 0], [1, 1, 2], [0, 0, 3])] * 2)
    castor(j, ids[:4], [sheet([6, 4, 3, 2], [1, 2, 2, 3], [0, 1, 2, 3]),
                        sheet([2, 6, 3, 4], [2, 1, 2, 3], [1, 0, 2, 3]),
                        sheet([6, 4, 3, 2], [1, 2, 2, 3], [0, 1, 2, 3])])
    bond(j, ids[:3], [(0, 3), (1, 4), (2, 2), (0, 4), (1, 1), (2, 3)], undo_last=True)
    bond(j, ids[:2], [(0, 2), (1, 4), (0, 3)])
    evil(j, ids[:3], won=True, difficulty="expert")
    evil(j, ids[:2], won=False)
    out = []
    for record in j.games():
        actions = j.read("SELECT seq, verb, command, events, at FROM actions WHERE game_id = ?",
                         (record.id,))
        out.append((record.kind, record.setup, record.summary, actions))
    j.close()
    return out


def build(path: Path, games: int, scratch: Path) -> Journal:
    shapes = templates(scratch)
    j = Journal(path)
    players = [roster.add(j, f"Player {i}").id for i in range(12)]
    rng = random.Random(1)
    start = time.time() - games * 86400 / 3
    with j.writing() as db:
        for n in range(games):
            kind, setup, summary, actions = shapes[n % len(shapes)]
            seats = rng.sample(players, len(setup["players"]))
            names = [f"Player {pid - 1}" for pid in seats]
            setup = dict(setup, players=[dict(p, name=name, roster_id=pid) for p, name, pid
                                         in zip(setup["players"], names, seats, strict=True)])
            summary = dict(summary, players=names)
            if "winners" in summary:
                old = [p["name"] for p in shapes[n % len(shapes)][1]["players"]]
                summary["winners"] = [names[old.index(w)] for w in summary["winners"]]
            began = start + n * 86400 / 3
            gid = db.execute(
                "INSERT INTO games(kind, setup, started, updated, finished, abandoned, summary)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (kind, json.dumps(setup), began, began + 2400, int(summary["finished"]),
                 int(n % 50 == 0), json.dumps(summary))).lastrowid
            db.executemany("INSERT INTO actions VALUES (?, ?, ?, ?, ?, ?)",
                           [(gid, *a) for a in actions])
            db.executemany("INSERT INTO game_players VALUES (?, ?, ?)",
                           [(gid, seat, pid) for seat, pid in enumerate(seats)])
    return j


def timed(call, repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        began = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - began)
    return best * 1000


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    with tempfile.TemporaryDirectory() as tmp:
        j = build(Path(tmp) / "journal.sqlite3", games, Path(tmp))
        began = time.perf_counter()
        stats.statistics(j)
        cold = (time.perf_counter() - began) * 1000
        warm = timed(lambda: stats.statistics(j))
        listing = timed(lambda: history.games(j, limit=50))
        actions = j.read("SELECT COUNT(*) FROM actions")[0][0]
        print(f"{games} games, {actions} actions, 12 players")
        print(f"statistics, cold (facts computed and cached): {cold:.0f} ms")
        print(f"statistics, warm (the screen opening):        {warm:.0f} ms")
        print(f"history list (50 newest):                     {listing:.0f} ms")
        j.close()


if __name__ == "__main__":
    main()
