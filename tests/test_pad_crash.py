"""A score pad game killed with SIGKILL at random points reopens exactly after its last
commit, on the same cell (issue 30: "a power cut mid-entry (the game reopens on the
same cell, nothing acknowledged lost: the crash test gains score pad games)")."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games.pad.rules import RULES
from companion.games.pad.view import sheet_view
from companion.journal import FILE_NAME, Journal
from companion.session import Session
from tests.helpers import tables

CHILD = Path(__file__).with_name("helpers") / "crash_child.py"
RUNS = 30


@pytest.mark.slow
def test_sigkill_mid_entry_loses_nothing_acknowledged(tmp_path):
    path = tmp_path / FILE_NAME
    game = tables.table_setup("pad")
    journal = Journal(path)
    game_id = Session.start(RULES, journal, game).game_id
    journal.close()
    twin = Session.start(RULES, Journal(":memory:"), game)
    expected = [tables.digest(twin)]
    cells = [sheet_view(twin.state).current]

    def expected_after(entries: int) -> str:
        while len(expected) <= entries:
            tables.act(twin, tables.next_action(twin, len(expected) - 1))
            expected.append(tables.digest(twin))
            cells.append(sheet_view(twin.state).current)
        return expected[entries]

    rng = random.Random(20261127)
    committed = kills_in_play = 0
    for run in range(RUNS):
        child = subprocess.Popen([sys.executable, str(CHILD), str(path), str(game_id), "pad"],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        ready = child.stdout.readline()
        assert ready.startswith("ready"), child.stderr.read()
        for _ in range(rng.randint(1, 4)):  # after a few acknowledged entries
            ready += child.stdout.readline()
        child.kill()
        child.wait(timeout=10)
        output = ready + child.stdout.read()
        child.stdout.close()
        child.stderr.close()
        lines = [line.split() for line in output.splitlines(keepends=True) if line.endswith("\n")]
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
        resumed = Session.resume(RULES, journal, game_id)
        entries = len(journal.entries(game_id))
        got = tables.digest(resumed)
        journal.close()
        assert entries in (printed, printed + 1), f"run {run}: {entries} vs {printed}"
        assert got == expected_after(entries), f"run {run}"
        # the game reopens on the cell the keypad was on
        assert sheet_view(resumed.state).current == cells[entries]
        committed = entries
    assert kills_in_play >= RUNS // 2 and committed > RUNS
