"""A journal on a read-only card or folder (issue 33, item 6): opened read-only (games
can be looked at, every acknowledged action among them, even those still in a WAL),
with a message that says the card is read-only and what to do; nothing is changed.

Worn SD cards turn read-only; chmod does not stop root, so as root (as here) the folder
is a read-only bind mount (tests/helpers/read_only.py)."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games import rules_for
from companion.i18n import Translator
from companion.journal import FILE_NAME, Journal, JournalError
from companion.night import history
from companion.session import Session
from tests.helpers.read_only import read_only
from tests.test_core_snapshots import _evil_game

ROOT = Path(__file__).resolve().parents[1]

#: plays a Pr. Evil game, prints each acknowledged action, then waits to be killed:
#: its last actions stay in the WAL (never checkpointed), beside its -shm file
PLAYER = """
import sys
from companion.journal import Journal
from tests.test_core_snapshots import _evil_game
journal = Journal(sys.argv[1])
session = _evil_game(journal, rolls=int(sys.argv[2]), every=7)
print(session.game_id, session._seq, flush=True)
sys.stdin.readline()
"""


def _digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()}


def _killed_while_playing(folder: Path, actions: int) -> tuple[int, int]:
    player = subprocess.Popen([sys.executable, "-c", PLAYER, str(folder / FILE_NAME),
                               str(actions)], cwd=ROOT, text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert player.stdout is not None
    game, seq = map(int, player.stdout.readline().split())
    player.send_signal(signal.SIGKILL)
    player.wait(timeout=10)
    return game, seq


@pytest.mark.parametrize("left", ["checkpointed", "wal and shm", "wal alone"])
def test_a_journal_on_a_read_only_card_opens_read_only_with_every_action(
        tmp_path: Path, left: str) -> None:
    folder = tmp_path / "card"
    folder.mkdir()
    if left == "checkpointed":
        journal = Journal(folder / FILE_NAME)
        session = _evil_game(journal, rolls=30, every=7)
        game, seq = session.game_id, session._seq
        journal.close()
        assert sorted(p.name for p in folder.iterdir()) == [FILE_NAME]
    else:
        game, seq = _killed_while_playing(folder, 30)
        assert os.path.getsize(folder / f"{FILE_NAME}-wal") > 0
        if left == "wal alone":  # the -shm lost (it is only an index of the WAL)
            (folder / f"{FILE_NAME}-shm").unlink()
    before = _digest(folder)
    with read_only(folder) as how:
        journal = Journal(folder / FILE_NAME)
        assert journal.read_only is not None
        said = Translator("en").message(journal.read_only)
        assert "is read-only" in said and "Copy the file journal.sqlite3" in said
        assert "Free some space" not in said
        assert "est en lecture seule" in Translator("fr").message(journal.read_only)
        # games can be looked at: every acknowledged action, and the game resumes
        assert len(journal.entries(game)) == seq
        [line] = history.games(journal)
        assert line.id == game and line.status in ("finished", "unfinished")
        resumed = Session.resume(rules_for("evil"), journal, game)
        assert resumed._seq == seq
        # nothing can be written: refused with the same message, nothing changed
        with pytest.raises(JournalError) as caught:
            resumed.dispatch(resumed.undo())
        assert caught.value.message.key == "core.error.card_read_only_open"
        journal.close()
        assert _digest(folder) == before, how
    assert _digest(folder) == before


def test_a_read_only_card_without_a_journal_says_so(tmp_path: Path) -> None:
    folder = tmp_path / "card"
    folder.mkdir()
    with read_only(folder), pytest.raises(JournalError) as caught:
        Journal(folder / FILE_NAME)
    assert caught.value.message.key == "core.error.card_read_only"
    said = Translator("en").message(caught.value.message)
    assert "read-only" in said and "new card" in said
    assert list(folder.iterdir()) == []
