"""Issue 14, cases 1 and 8: a journal that cannot be written now (full disk, another
program's lock) stays where it is; only what SQLite calls corrupt is moved aside."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.journal import FILE_NAME, Journal, JournalError
from tests.helpers.evil import start
from tests.helpers.evil_play import act, next_action

ROOT = Path(__file__).resolve().parents[1]


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _aside(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if ".unreadable-" in p.name)


def _journal_with_games(path: Path, games: int = 2, actions: int = 12) -> list[int]:
    journal = Journal(path)
    ids = []
    for seed in range(games):
        session = start(journal, seed=seed)
        for seq in range(actions):
            act(session, next_action(session, seq))
        ids.append(session.game_id)
    journal.close()
    return ids


HOLDER = textwrap.dedent("""
    import sqlite3, sys
    path, how = sys.argv[1], sys.argv[2]
    db = sqlite3.connect(path, isolation_level=None)
    if how == "everything":  # nobody else may even read
        db.execute("PRAGMA locking_mode=EXCLUSIVE")
        db.execute("BEGIN EXCLUSIVE")
        db.execute("UPDATE games SET updated = updated")
    elif how == "writes":  # readers may read, nobody else may write
        db.execute("BEGIN EXCLUSIVE" if "wal" in sys.argv[3:] else "BEGIN IMMEDIATE")
        db.execute("UPDATE games SET updated = updated")
    print("locked", flush=True)
    sys.stdin.readline()
    db.execute("ROLLBACK")
    db.close()
""")


@pytest.fixture
def holder(tmp_path: Path) -> Iterator[object]:
    """Another process holding a lock on a journal until released."""
    children: list[subprocess.Popen[str]] = []

    def hold(path: Path, how: str, *extra: str) -> subprocess.Popen[str]:
        child = subprocess.Popen([sys.executable, "-c", HOLDER, str(path), how, *extra],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert child.stdout is not None and child.stdout.readline().strip() == "locked"
        children.append(child)
        return child

    yield hold
    for child in children:
        if child.poll() is None:
            child.communicate("\n", timeout=10)


def release(child: subprocess.Popen[str]) -> None:
    child.communicate("\n", timeout=10)


def test_a_journal_locked_by_another_program_is_not_moved_and_waits(tmp_path, holder):
    # case 1: "A lock holder has its files renamed under it."
    path = tmp_path / FILE_NAME
    ids = _journal_with_games(path)
    before = _sha(path)
    child = holder(path, "everything")
    with pytest.raises(JournalError) as caught:
        Journal(path, timeout=0.2)
    assert caught.value.message.key == "core.error.journal_open"
    assert "locked" in caught.value.message.params["reason"]
    assert _aside(tmp_path) == [] and path.exists()
    release(child)
    assert _sha(path) == before
    journal = Journal(path)  # the lock gone, the same journal opens with its games
    assert journal.moved_aside is None and journal.read_only is None
    assert [g.id for g in journal.games()] == ids


def test_a_journal_being_written_by_another_program_opens_read_only(tmp_path, holder):
    path = tmp_path / FILE_NAME
    ids = _journal_with_games(path)
    import sqlite3

    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=DELETE")  # switching to WAL needs the whole file
    db.close()
    child = holder(path, "writes")
    journal = Journal(path, timeout=0.2)
    assert journal.moved_aside is None and _aside(tmp_path) == []
    assert journal.read_only is not None
    assert journal.read_only.key == "core.error.journal_read_only"
    assert [g.id for g in journal.games()] == ids  # still readable
    assert len(journal.entries(ids[0])) == 12
    with pytest.raises(JournalError) as caught:
        start(journal, seed=5)
    assert caught.value.message.key == "core.error.journal_read_only"
    journal.close()
    release(child)
    again = Journal(path)
    assert again.read_only is None and [g.id for g in again.games()] == ids


def test_a_write_lock_taken_during_play_refuses_the_action_and_loses_nothing(tmp_path,
                                                                            holder):
    path = tmp_path / FILE_NAME
    journal = Journal(path, timeout=0.2)
    session = start(journal, seed=3)
    for seq in range(5):
        act(session, next_action(session, seq))
    child = holder(path, "writes", "wal")
    state = session.state
    with pytest.raises(JournalError) as caught:
        act(session, next_action(session, 5))
    assert caught.value.message.key == "core.error.journal_write"
    assert session.state == state
    release(child)
    act(session, next_action(session, 5))  # the lock gone, play goes on
    assert len(journal.entries(session.game_id)) == 6
    assert _aside(tmp_path) == []


FULL_DISK = textwrap.dedent("""
    import json, resource, signal, sys
    sys.path.insert(0, sys.argv[3])
    from companion.journal import Journal, JournalError
    from companion.games.evil import RULES
    from companion.session import Session
    from tests.helpers.evil_play import act, next_action
    path, limit = sys.argv[1], int(sys.argv[2])
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    out = {"opened": False, "acknowledged": 0}
    try:
        journal = Journal(path, timeout=0.2)
        out.update(opened=True, moved=str(journal.moved_aside or ""),
                   read_only=journal.read_only.key if journal.read_only else "")
        game_id = journal.games()[0].id
        session = Session.resume(RULES, journal, game_id)
        seq = len(journal.entries(game_id))
        for _ in range(5000):
            act(session, next_action(session, seq))
            seq += 1
            out["acknowledged"] = seq
    except JournalError as exc:
        out["error"] = exc.message.key
    print(json.dumps(out))
""")


def _full_disk(path: Path, limit: int) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", FULL_DISK, str(path), str(limit), str(ROOT)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("room", ["none", "some"])
def test_a_full_disk_keeps_the_journal_in_place(tmp_path, room):
    # case 1: "When the disk is full ... Journal treats the write error as an
    # unreadable file and moves the journal aside"
    path = tmp_path / FILE_NAME
    ids = _journal_with_games(path, games=1, actions=20)
    size = path.stat().st_size
    # none: not a byte more may be written; some: the WAL fills up during play
    limit = 1 if room == "none" else max(size, 32768) + 48 * 1024
    out = _full_disk(path, limit)
    assert _aside(tmp_path) == [] and path.exists()
    if room == "none":
        assert out.get("error") in ("core.error.journal_open", "core.error.journal_write")
    else:
        assert out["opened"] and not out["moved"] and out["read_only"] == ""
        assert out["error"] == "core.error.journal_write"
        assert out["acknowledged"] > 20  # it played until the disk was full
    # space freed: the next start opens the same journal, every acknowledged action in it
    journal = Journal(path)
    assert journal.moved_aside is None and [g.id for g in journal.games()] == ids
    assert len(journal.entries(ids[0])) == max(20, int(out["acknowledged"]))


def test_only_what_sqlite_calls_corrupt_is_moved_aside(tmp_path):
    path = tmp_path / FILE_NAME
    _journal_with_games(path, games=1)
    data = bytearray(path.read_bytes())
    for page in range(1, len(data) // 4096):
        data[4096 * page] = 0x77  # no such b-tree page type: every table damaged
    path.write_bytes(bytes(data))
    journal = Journal(path)
    assert journal.moved_aside is not None
    assert journal.moved_aside.read_bytes() == bytes(data)
    assert journal.games() == []


TMPFS_CHILD = textwrap.dedent("""
    import json, os, shutil, subprocess, sys
    sys.path.insert(0, sys.argv[3])
    from companion.journal import Journal, JournalError
    from companion.games.evil import RULES
    from companion.session import Session
    from tests.helpers.evil_play import act, next_action
    source, folder = sys.argv[1], sys.argv[2]
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=384k", "tmpfs", folder],
                             capture_output=True)
    if mounted.returncode != 0:
        print(json.dumps({"no_mount": mounted.stderr.decode()[-200:]}))
        sys.exit(0)
    path = os.path.join(folder, "journal.sqlite3")
    shutil.copyfile(source, path)
    filler = os.path.join(folder, "filler")
    handle = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:  # the card is full: not one more byte
        while True:
            os.write(handle, b"x" * 4096)
    except OSError:
        pass
    try:
        while True:
            os.write(handle, b"x")
    except OSError:
        pass
    os.ftruncate(handle, max(0, os.fstat(handle).st_size - int(sys.argv[4])))
    os.close(handle)
    out = {"acknowledged": 0, "moved": []}
    try:
        journal = Journal(path, timeout=0.2)
        out["read_only"] = journal.read_only.key if journal.read_only else ""
        game_id = journal.games()[0].id
        session = Session.resume(RULES, journal, game_id)
        seq = len(journal.entries(game_id))
        out["acknowledged"] = seq
        for _ in range(2000):
            act(session, next_action(session, seq))
            seq += 1
            out["acknowledged"] = seq
    except JournalError as exc:
        out["error"] = exc.message.key
    out["moved"] = [n for n in os.listdir(folder) if "unreadable" in n]
    os.remove(filler)  # space freed: the next start opens the same journal
    again = Journal(path)
    out["after"] = {"moved": str(again.moved_aside or ""),
                    "entries": len(again.entries(again.games()[0].id))}
    print(json.dumps(out))
""")


@pytest.mark.parametrize("room", [0, 96 * 1024])
def test_a_really_full_disk_keeps_the_journal_in_place(tmp_path, room):
    # a small tmpfs filled to the last byte (ENOSPC, SQLITE_FULL), in a private mount
    # namespace; where the system allows none, the size limit of a child stands in
    path = tmp_path / FILE_NAME
    _journal_with_games(path, games=1, actions=20)
    mount_point = tmp_path / "card"
    mount_point.mkdir()
    out: dict[str, object] = {"no_mount": "no unshare"}
    for unshare in (["unshare", "-rm"], ["unshare", "-m"]):
        try:
            done = subprocess.run([*unshare, sys.executable, "-c", TMPFS_CHILD, str(path),
                                   str(mount_point), str(ROOT), str(room)],
                                  capture_output=True, text=True, timeout=120)
        except FileNotFoundError:
            break
        if done.returncode == 0:  # a failure of the child itself fails the test below
            out = json.loads(done.stdout)
        elif "unshare" in done.stderr or "Operation not permitted" in done.stderr:
            continue  # no namespace for us here
        else:
            raise AssertionError(done.stderr[-2000:])
        if "no_mount" not in out:
            break
    if "no_mount" in out:
        out = _full_disk(path, 1)  # no mount allowed here: RLIMIT_FSIZE instead
        assert out.get("error") == "core.error.journal_open" and _aside(tmp_path) == []
        return
    assert out["moved"] == [] and out["after"]["moved"] == ""
    if room:  # played until the card was full, then refused with a message
        assert out.get("error") == "core.error.journal_write"
        assert out["acknowledged"] > 20
    else:
        assert out.get("error") == "core.error.journal_open"
    assert out["after"]["entries"] == max(20, out["acknowledged"])


def test_a_version_2_journal_opened_read_only_is_not_migrated(tmp_path, holder):
    """Schema 3 (snapshots) is added only by a journal that can be written: one opened
    read-only stays a version 2 file, byte for byte, and its games still resume (by a
    full replay: it has no snapshots)."""
    import sqlite3

    from companion.games import rules_for
    from companion.session import Session

    path = tmp_path / FILE_NAME
    ids = _journal_with_games(path)
    db = sqlite3.connect(path)
    db.execute("DROP TABLE snapshots")
    db.execute("PRAGMA user_version=2")
    db.execute("PRAGMA journal_mode=DELETE")
    db.close()
    before = _sha(path)
    child = holder(path, "writes")
    journal = Journal(path, timeout=0.2)
    assert journal.read_only is not None
    resumed = Session.resume(rules_for("evil"), journal, ids[0])
    assert len(resumed.steps) > 0 and resumed._history._base == 0
    assert journal.read("PRAGMA user_version") == [(2,)]
    journal.close()
    release(child)
    assert _sha(path) == before
    again = Journal(path)  # writable now: migrated, and the game plays on
    assert again.read("PRAGMA user_version") == [(3,)]
    assert again.read("SELECT COUNT(*) FROM snapshots") == [(0,)]
    assert Session.resume(rules_for("evil"), again, ids[0]).state == resumed.state
    again.close()


def test_a_journal_one_version_newer_is_left_byte_for_byte(tmp_path):
    import sqlite3

    from companion.journal import SCHEMA_VERSION

    path = tmp_path / FILE_NAME
    _journal_with_games(path, games=1, actions=3)
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    db.close()
    before = _sha(path)
    with pytest.raises(JournalError) as caught:
        Journal(path)
    assert caught.value.message.key == "core.error.journal_newer"
    assert _sha(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [FILE_NAME]
