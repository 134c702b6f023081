"""Holding the app's writer thread where a test wants it: commits that end only when
the test says (a card still syncing), or that fail (a full disk)."""

from __future__ import annotations

import sqlite3
import threading
from typing import Any

from companion.writer import Writer


def committed_actions(path: Any) -> int:
    """Actions another program reading the file sees (only what is committed)."""
    db = sqlite3.connect(path)
    try:
        return int(db.execute("SELECT count(*) FROM actions").fetchone()[0])
    finally:
        db.close()


class Gate:
    """Every job given to `writer` waits until the test lets it through (`release`)."""

    def __init__(self, writer: Writer) -> None:
        self.writer = writer
        self._through = threading.Semaphore(0)
        self.released = 0
        self.tickets: list[Any] = []
        self._submit = writer.submit

        def submit(job: Any) -> Any:
            def held(journal: Any) -> Any:
                self._through.acquire(timeout=60)
                return job(journal)

            ticket = self._submit(held)
            self.tickets.append(ticket)
            return ticket

        writer.submit = submit  # type: ignore[method-assign]

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


def on_writer_connection(writer: Writer, change: Any) -> Any:
    """`change(journal)` run on the writer's thread, on its own journal (its result)."""
    out: list[Any] = []
    ticket = writer.submit(lambda journal: out.append(change(journal)))
    ticket.wait(30)
    assert ticket.error is None, ticket.error
    return out[0]
