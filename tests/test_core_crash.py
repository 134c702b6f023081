"""A game killed with SIGKILL at random points reopens exactly after its last commit."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.games.evil import RULES
from companion.journal import FILE_NAME, Journal
from companion.session import Session
from tests.helpers.evil import digest, setup
from tests.helpers.evil_play import act, next_action

CHILD = Path(__file__).with_name("helpers") / "crash_child.py"
RUNS = 60


@pytest.mark.slow
def test_sigkill_at_random_points_loses_nothing_committed(tmp_path):
    path = tmp_path / FILE_NAME
    game = setup(seed=99, players=3, treasures={"red": 40, "green": 50, "blue": 55})
    journal = Journal(path)
    game_id = Session.start(RULES, journal, game).game_id
    journal.close()
    # the same table, played in memory: the state after every number of actions
    twin = Session.start(RULES, Journal(":memory:"), game)
    expected = [digest(twin)]

    def expected_after(entries: int) -> str:
        while len(expected) <= entries:
            act(twin, next_action(twin, len(expected) - 1))
            expected.append(digest(twin))
        return expected[entries]

    rng = random.Random(20261125)
    committed = 0
    kills_in_play = 0
    started = time.monotonic()
    for run in range(RUNS):
        child = subprocess.Popen([sys.executable, str(CHILD), str(path), str(game_id)],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if run % 6 == 5:
            time.sleep(rng.uniform(0.0, 0.3))  # may land while opening and replaying
        else:
            ready = child.stdout.readline()
            assert ready.startswith("ready"), child.stderr.read()
            time.sleep(rng.uniform(0.0, 0.03))
        child.kill()
        child.wait(timeout=10)
        output = ready + child.stdout.read()
        # a print cut by the kill is not a report of a commit
        lines = [line.split() for line in output.splitlines(keepends=True)
                 if line.endswith("\n")]
        child.stdout.close()
        child.stderr.close()
        printed = committed
        for fields in lines:
            if fields[0] == "ready":
                assert int(fields[1]) == committed and fields[2] == expected_after(committed)
            else:
                printed = int(fields[0])
                assert fields[1] == expected_after(printed), f"run {run}: diverged"
        if printed > committed:
            kills_in_play += 1

        journal = Journal(path)
        assert journal.moved_aside is None
        resumed = Session.resume(RULES, journal, game_id)
        entries = len(journal.entries(game_id))
        journal.close()
        # the kill may land between a commit and its print, never lose a printed one
        assert entries in (printed, printed + 1), f"run {run}: {entries} vs {printed}"
        assert digest(resumed) == expected_after(entries), f"run {run}"
        committed = entries
        ready = ""
    assert kills_in_play >= RUNS // 2, "the kills should mostly land while playing"
    assert committed > RUNS, "the game should have moved on"
    print(f"{RUNS} kills, {kills_in_play} while playing, {committed} entries committed")
    assert time.monotonic() - started < 60
