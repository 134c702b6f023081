"""`companion journal check --salvage` (issue 33, item 5): derived columns of a game's row
computed again instead of dropping the game, actions read one row at a time past a
damaged page, a newer journal refused, and a swap that leaves a journal in place and
the old one recoverable whenever it is killed."""

from __future__ import annotations

import hashlib
import json
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games import rules_for
from companion.journal import FILE_NAME, Journal, JournalError
from companion.journal_check import check, salvage
from companion.session import Session, replay
from tests.test_core_snapshots import _evil_game
from tests.test_night_damaged import a_night, damage
from tests.test_night_support import params

ROOT = Path(__file__).resolve().parents[1]


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize(("column", "how"), [
    ("summary", "not json"), ("summary", "wrong type"), ("summary", "not utf-8"),
    ("started", "wrong type"), ("updated", "wrong type"), ("finished", "wrong type"),
])
def test_a_game_damaged_only_in_derived_columns_is_kept_whole(
        tmp_path: Path, column: str, how: str) -> None:
    _, ids = a_night(tmp_path)
    path = tmp_path / FILE_NAME
    victim = ids["bond_done"]
    j = Journal(path)
    before = j.game(victim)
    entries = j.entries(victim)
    j.close()
    if column in ("updated", "finished"):
        db = sqlite3.connect(path)
        db.execute(f"UPDATE games SET {column} = 'later' WHERE id = ?", (victim,))
        db.commit()
        db.close()
    else:
        damage(path, victim, "games", column, how)
    if column != "finished":  # a flag of the wrong type reads as not finished
        assert Journal(path).game(victim).damaged is not None
    saved = salvage(path)
    assert saved.games == len(ids)
    j = Journal(path)
    after = j.game(victim)
    assert after.damaged is None
    assert j.entries(victim) == entries  # every action kept, events computed again
    rules = rules_for("bond")
    assert after.summary == rules.summary(replay(rules, after.setup, entries).state)
    assert after.summary == before.summary and after.finished == before.finished
    # a time that cannot be read: the start no later than the first action (and the
    # last time), the last time no earlier than the last action (and the start)
    if column == "started":
        assert after.started == min(entries[0].at, before.updated)
    elif column == "updated":
        assert after.updated == max(entries[-1].at, before.started)
    else:
        assert (after.started, after.updated) == (before.started, before.updated)
    assert check(path).ok
    j.close()


@pytest.mark.parametrize(("column", "how"), [("setup", "not json"), ("kind", "not utf-8")])
def test_a_game_whose_kind_or_setup_cannot_be_read_is_left_out(
        tmp_path: Path, column: str, how: str) -> None:
    _, ids = a_night(tmp_path)
    path = tmp_path / FILE_NAME
    damage(path, ids["bond"], "games", column, how)
    saved = salvage(path)
    assert saved.games == len(ids) - 1
    assert [d.game for d in saved.report.damages] == [ids["bond"]]


def _damaged_page(tmp_path: Path) -> tuple[Path, int, list[tuple[int, str]], int]:
    """A long game whose actions fill many pages, one page in their middle overwritten
    (a worn card's damage): the journal, the game, its actions, the page number."""
    path = tmp_path / FILE_NAME
    journal = Journal(path)
    other = _evil_game(journal, rolls=10)
    session = Session.start(rules_for("tray"), journal, {
        "params": params("tray"),
        "seed": 5, "dice": ["d6", "d20", "d6", "d6"]})
    from companion.games.tray.commands import Roll as roll
    for _ in range(400):
        session.dispatch(roll())
    journal.close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=DELETE")
    rows = db.execute("SELECT seq, command FROM actions WHERE game_id = ? ORDER BY seq",
                      (session.game_id,)).fetchall()
    pages = [p for (p,) in db.execute("SELECT pageno FROM dbstat WHERE name = 'actions'"
                                      " AND pagetype = 'leaf' ORDER BY pageno")]
    size = db.execute("PRAGMA page_size").fetchone()[0]
    db.close()
    assert len(pages) > 10
    page = pages[len(pages) // 2]
    data = bytearray(path.read_bytes())
    data[(page - 1) * size:page * size] = b"\xa5" * size
    path.write_bytes(bytes(data))
    assert other.game_id != session.game_id
    return path, session.game_id, rows, page


def test_actions_before_a_damaged_page_are_kept(tmp_path: Path) -> None:
    path, game, rows, _ = _damaged_page(tmp_path)
    j = Journal(path, read_only=True)
    with pytest.raises(sqlite3.DatabaseError):  # a query reading them all fails there
        j.readable_entries(game)
    j.close()
    report = check(path)
    [hurt] = [d for d in report.damages if d.game == game]
    assert 0 < hurt.seq < len(rows)
    saved = salvage(path)
    j = Journal(path)
    kept = j.entries(game)
    assert len(kept) == hurt.seq  # every readable action before the damaged page
    assert [(e.seq, e.command) for e in kept] == [
        (seq, json.loads(command)) for seq, command in rows[:hurt.seq]]
    assert Session.resume(rules_for("tray"), j, game).can_undo()
    assert len(j.games()) == 2 and saved.games == 2
    j.close()


def test_a_journal_from_a_newer_app_is_refused_not_rewritten(tmp_path: Path) -> None:
    _, ids = a_night(tmp_path)
    path = tmp_path / FILE_NAME
    damage(path, ids["bond"], "actions", "command", "not json")
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 9")
    db.execute("PRAGMA journal_mode=DELETE")
    db.close()
    before = sorted((p.name, _sha(p)) for p in tmp_path.iterdir())
    for run in (check, salvage):
        with pytest.raises(JournalError) as caught:
            run(path)
        assert caught.value.message.key == "core.error.journal_newer"
    assert sorted((p.name, _sha(p)) for p in tmp_path.iterdir()) == before


#: runs a salvage, killing itself (SIGKILL) at the swap's `n`th file operation
KILLED = """
import os, signal, sys
from pathlib import Path
from companion import journal_check
n = int(sys.argv[2])
calls = 0
def killing(real):
    def step(*args, **kwargs):
        global calls
        if calls == n:
            os.kill(os.getpid(), signal.SIGKILL)
        calls += 1
        return real(*args, **kwargs)
    return step
swap = journal_check._swap
def counted_swap(source, building):
    os.link, os.replace = killing(os.link), killing(os.replace)
    journal_check.fsync_dir = killing(journal_check.fsync_dir)
    Path.unlink = killing(Path.unlink)
    return swap(source, building)
journal_check._swap = counted_swap
journal_check.salvage(sys.argv[1])
print("done", calls, flush=True)
"""


def test_a_kill_at_any_point_of_the_swap_leaves_a_journal_and_the_old_one(
        tmp_path: Path) -> None:
    """Before the kill point the old journal is at its name; after it the salvaged
    one is; the old one is always there, at its own name or at the kept one, byte for
    byte, and its WAL is never left beside the new journal."""
    source = tmp_path / "source"
    _, ids = a_night(source)
    original = source / FILE_NAME
    damage(original, ids["bond"], "actions", "command", "not json")
    old = _sha(original)
    steps = None
    n = 0
    while steps is None or n <= steps:
        folder = tmp_path / f"kill-{n}"
        shutil.copytree(source, folder)
        run = subprocess.run([sys.executable, "-c", KILLED, str(folder / FILE_NAME), str(n)],
                             cwd=ROOT, capture_output=True, text=True, timeout=60)
        if run.returncode == 0:
            steps = int(run.stdout.split()[1])  # the swap's operations, all done
        else:
            assert run.returncode == -signal.SIGKILL, run.stderr
        live = folder / FILE_NAME
        assert live.is_file(), n  # a journal is always there
        kept = [p for p in folder.glob(f"{FILE_NAME}.before-salvage-*")
                if not p.name.endswith(("-wal", "-shm"))]
        copies = [p for p in (live, *kept) if _sha(p) == old]
        assert copies, n  # the old journal, byte for byte, at one of its names
        assert not (folder / f"{FILE_NAME}-wal").exists() or _sha(live) == old
        journal = Journal(live)  # and it opens: the old one, or the salvaged one
        games = {g.id for g in journal.games()}
        journal.close()
        if _sha(live) == old and run.returncode != 0:
            assert games == set(ids.values())
        else:
            assert check(live).ok and games == set(ids.values())
        n += 1
    assert steps is not None and steps >= 5


def test_salvage_leaves_the_old_journal_and_its_wal_byte_for_byte(tmp_path: Path) -> None:
    """Issue 44, item 6: actions a crash left in the journal's WAL are salvaged, and the
    old journal and its WAL are kept as they were (not merged into each other)."""
    live = tmp_path / "live"
    live.mkdir()
    journal = Journal(live / FILE_NAME)
    session = _evil_game(journal, rolls=12, every=1000)
    crashed = tmp_path / "crashed"
    crashed.mkdir()
    for suffix in ("", "-wal"):  # the files as a pulled plug leaves them
        shutil.copy(live / (FILE_NAME + suffix), crashed / (FILE_NAME + suffix))
    seq = len(journal.entries(session.game_id))
    journal.close()
    path = crashed / FILE_NAME
    wal = crashed / (FILE_NAME + "-wal")
    assert wal.stat().st_size > 0
    before = {"": _sha(path), "-wal": _sha(wal)}
    done = salvage(path)
    assert _sha(done.kept) == before[""]
    assert _sha(done.kept.with_name(done.kept.name + "-wal")) == before["-wal"]
    assert sorted(p.name for p in crashed.iterdir() if "salvag" in p.name
                  and "before-salvage" not in p.name) == []  # no working copy left
    salvaged = Journal(path)
    (game,) = salvaged.games()
    assert len(salvaged.entries(game.id)) == seq
    salvaged.close()
