"""Holding the app's writer thread where a test wants it: commits that end only when
the test says (a card still syncing), or that fail (a full disk)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from companion.writer import Writer

REPO = Path(__file__).resolve().parents[2]


def committed_actions(path: Any) -> int:
    """Actions another program reading the file sees (only what is committed)."""
    db = sqlite3.connect(path)
    try:
        return int(db.execute("SELECT count(*) FROM actions").fetchone()[0])
    finally:
        db.close()


def committed_games(path: Any) -> list[tuple[int, str]]:
    """The games (id, kind) another program reading the file sees (committed only)."""
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT id, kind FROM games ORDER BY id").fetchall()
    finally:
        db.close()


def pytest_under_the_rig(profile: str, tmp_path: Path, test_file: str, keyword: str
                         ) -> tuple[str, Path]:
    """Run the tests of `test_file` chosen by `keyword` in a child pytest whose journal
    syncs the slow-card rig delays by `profile` (seeded); they must pass. The child's
    output and the rig's log of the syncs it delayed."""
    from bench.slow_card import SlowCard

    log = tmp_path / "syncs.log"
    env = SlowCard(profile, seed=32, folder=tmp_path, log=log).environment()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "--basetemp", str(tmp_path / "child"), test_file, "-k", keyword],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    return done.stdout, log


class Gate:
    """Every job given to `writer` waits until the test lets it through (`release`)."""

    def __init__(self, writer: Writer) -> None:
        self.writer = writer
        self._through = threading.Semaphore(0)
        self.released = 0
        self.tickets: list[Any] = []
        self._submit = writer.submit

        def submit(job: Any, derived: Any = None) -> Any:
            ticket = self._submit(self._held(job), derived)
            self.tickets.append(ticket)
            return ticket

        writer.submit = submit  # type: ignore[method-assign]

    def _held(self, job: Any) -> Any:
        """`job`, waiting for the test before it starts."""
        def held(journal: Any) -> Any:
            self._through.acquire(timeout=60)
            return job(journal)

        return held

    def release(self, count: int = 1) -> None:
        self.released += count
        for _ in range(count):
            self._through.release()

    def all_through(self) -> bool:
        """Every job let through so far has ended."""
        return all(ticket.done for ticket in self.tickets[:self.released])

    def open(self) -> None:
        """Let every job through from now on."""
        self.writer.submit = self._submit  # type: ignore[method-assign]
        self.release(1000)


class SyncGate(Gate):
    """Every job given to `writer` writes its statements, then waits at its commit
    (the sync: `Journal.before_commit`) until the test lets it through, as on a card
    that takes its time to sync; `fail`: it then fails there, as on a full disk."""

    def __init__(self, writer: Writer, fail: BaseException | None = None) -> None:
        self.fail = fail
        self.at_sync = threading.Event()  # a job is waiting at its sync
        super().__init__(writer)

    def _held(self, job: Any) -> Any:
        def held(journal: Any) -> Any:
            begin = journal.before_commit

            def at_sync() -> None:
                if begin is not None:
                    begin()
                self.at_sync.set()
                self._through.acquire(timeout=60)
                if self.fail is not None:
                    raise self.fail

            journal.before_commit = at_sync
            return job(journal)

        return held

    def open(self) -> None:
        self.fail = None
        super().open()


def on_writer_connection(writer: Writer, change: Any) -> Any:
    """`change(journal)` run on the writer's thread, on its own journal (its result)."""
    out: list[Any] = []
    ticket = writer.submit(lambda journal: out.append(change(journal)))
    ticket.wait(30)
    assert ticket.error is None, ticket.error
    return out[0]
