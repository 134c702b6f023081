"""The journal's writer: actions made durable on a thread of their own, so the screen
keeps drawing while the card syncs.

One thread owns the connection that writes actions (`submit`): jobs run one at a time,
in the order given, each a whole transaction with its sync (`synchronous=FULL`). When a
job ends, its `Ticket` holds the outcome and `handback` is called (the app passes one
that runs on its UI thread): only then is the action shown.

SQLite's automatic checkpoint would run inside a commit now and then (three syncs
instead of one), so it is turned off on the writer's connection, and a second thread
checkpoints on a connection of its own (PASSIVE: it never blocks the writer, and the
writer never waits for it): when the table has been quiet for `quiet` seconds, when
`checkpoint()` is asked (a game left), once `bound` commits have gone by without one
(the WAL stays bounded even at a table that never pauses), and at `close`.

A passive checkpoint copies what the WAL held when it began; SQLite starts the WAL
again from its beginning only at a commit that finds it all copied, and that commit
syncs the WAL's header too: the checkpoint thread makes that restart itself when it
can (`_restart_wal`), so the next action pays one sync, not two. At a table that
commits without a pause while checkpoints run, that may never happen: should the WAL
reach `limit` frames, the checkpoint waits for the commit being made and holds the next
one back while it copies and truncates (TRUNCATE): the one case where an action waits
for a checkpoint, and it takes thousands of actions without a quiet moment.

A job may bring derived work (`Derived`: a game's snapshot) made from what it wrote:
kept, one per game, the newest replacing the one before, and run on this thread in a
transaction of its own, only once that job has committed: when the table has been
quiet for `quiet` seconds (a due one), when a game is left (`flush`), and at `close`
(every one kept). A due one still kept when an urgent one comes (a table that has not
paused for a while) runs at once after that job. Derived work never fails an action:
a failure is logged, and the journal already holds everything it was made from.

The queue of jobs is bounded (`capacity`): a job given to a full queue is refused at
once with `WriterFull` (a message for the table), never lost silently and never waited
for on the UI thread. The app keeps one action in flight, so only a card stalled for
many seconds under game-night writes could fill it.
"""

from __future__ import annotations

import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.journal import Journal, JournalError
from companion.messages import CompanionError

log = logging.getLogger(__name__)

#: seconds without a commit before the WAL is checkpointed
QUIET_SECONDS = 2.0
#: commits after which the WAL is checkpointed even at a table that never pauses
CHECKPOINT_BOUND = 500
#: WAL frames (pages) past which a checkpoint may hold a commit back (32 MiB of 4 KiB)
WAL_LIMIT = 8192
#: jobs waiting for the writer (or being written) past which `submit` refuses one
QUEUE_CAPACITY = 32


class WriterFull(CompanionError):
    """The writer's queue is full (the card has been syncing for long): the job was
    not taken, and the table is told so."""

    def __init__(self, waiting: int) -> None:
        super().__init__("core.error.writer_full", n=waiting)


class Ticket:
    """One job's outcome, set by the writer thread: `wait()` until it is done;
    `wait_syncing()` until its statements are written and only its commit's sync is
    left (or it is done)."""

    def __init__(self) -> None:
        self._done = threading.Event()
        self._syncing = threading.Event()
        self.error: BaseException | None = None

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        return self._done.wait(timeout)

    def wait_syncing(self, timeout: float | None = None) -> bool:
        """True once the job's COMMIT has begun (the writer thread then waits for the
        disk without the interpreter's lock) or the job is done."""
        return self._syncing.wait(timeout)

    def _begin_sync(self) -> None:
        self._syncing.set()

    def _finish(self, error: BaseException | None) -> None:
        self.error = error
        self._done.set()
        self._syncing.set()


Job = Callable[[Journal], Any]


@dataclass(frozen=True)
class Derived:
    """Work made from what a job wrote (a snapshot of the state after it): `key` names
    what it derives (a game), `due` whether it is taken at the next quiet moment or
    only when the game is left and at close; `urgent`: if a due one is still kept (the
    table has not paused since), this one is taken at once after its job."""

    key: Any
    job: Job
    due: bool
    urgent: bool = False


#: the queue's mark for `flush`
_FLUSH = object()


class Writer:
    """The thread that writes `journal`'s actions (through a connection of its own)."""

    def __init__(self, journal: Journal, handback: Callable[[], None] = lambda: None, *,
                 quiet: float = QUIET_SECONDS, bound: int = CHECKPOINT_BOUND,
                 limit: int = WAL_LIMIT, capacity: int = QUEUE_CAPACITY) -> None:
        self.journal = journal
        self.path = journal.path
        self.handback = handback
        self.quiet = quiet
        self.bound = bound
        self.limit = limit
        journal.manual_checkpoints()  # its own writes (roster, settings) never checkpoint
        self.capacity = capacity
        self._jobs: queue.Queue[Any] = queue.Queue()  # bounded by `submit`
        self._pending = 0  # jobs given and not yet ended (UI thread and writer thread)
        self._count = threading.Lock()
        self._opened = threading.Event()
        self._open_error: BaseException | None = None
        self._ask = threading.Condition()
        self._last_commit = 0.0
        self._since_checkpoint = 0
        self._checkpoint_asked = False
        self._closing = False
        #: derived work kept (writer thread only): by key, and whether it is due
        self._derived: dict[Any, Derived] = {}
        self._last_job = time.monotonic()  # (writer thread only)
        #: checkpoints run so far, and the frames each moved (for tests and benchmarks)
        self.checkpoints: list[tuple[int, int]] = []
        #: WAL restarts made on the checkpoint thread (see `_restart_wal`)
        self.restarts = 0
        self._thread = threading.Thread(target=self._write_loop, name="journal-writer",
                                        daemon=True)
        self._checkpointer = threading.Thread(target=self._checkpoint_loop,
                                              name="journal-checkpoint", daemon=True)
        self._thread.start()
        self._checkpointer.start()

    # -- the UI thread's side ---------------------------------------------------------
    def submit(self, job: Job, derived: Derived | None = None) -> Ticket:
        """Run `job(journal)` on the writer thread after every job given before it, and
        keep `derived` once it has committed (see the module). A full queue (`capacity`
        jobs not yet ended) refuses it: `WriterFull`."""
        if self._closing:
            raise RuntimeError("the journal's writer is closed")
        with self._count:
            if self._pending >= self.capacity:
                raise WriterFull(self._pending)
            self._pending += 1
        ticket = Ticket()
        self._jobs.put_nowait((job, ticket, derived))
        return ticket

    def flush(self) -> None:
        """Run the derived work kept, due or not, after the jobs given (a game left)."""
        if not self._closing:
            self._jobs.put_nowait(_FLUSH)

    @property
    def pending(self) -> int:
        """Jobs given and not yet ended."""
        with self._count:
            return self._pending

    def checkpoint(self) -> None:
        """Checkpoint soon (on the checkpoint thread: nothing waits for it)."""
        with self._ask:
            self._checkpoint_asked = True
            self._ask.notify()

    def close(self, timeout: float = 30.0) -> None:
        """Finish the jobs given, checkpoint, and close both connections."""
        if self._closing:
            return
        self._closing = True
        self._jobs.put(None)
        self._thread.join(timeout)
        with self._ask:
            self._ask.notify()
        self._checkpointer.join(timeout)

    # -- the writer thread ------------------------------------------------------------
    def _write_loop(self) -> None:
        try:
            journal = self.journal.another_connection()
            journal.manual_checkpoints()
        except BaseException as exc:  # every job is refused with this reason
            journal, self._open_error = None, exc  # type: ignore[assignment]
        finally:
            self._opened.set()
        while True:
            try:
                item = self._jobs.get(timeout=self._derived_wait())
            except queue.Empty:  # the table is quiet: the due work now
                self._run_derived(journal, due_only=True)
                continue
            if item is None or item is _FLUSH:
                self._run_derived(journal, due_only=False)
                if item is None:
                    break
                continue
            job, ticket, derived = item
            error = self._open_error if journal is None else \
                self._run(journal, job, ticket)
            self._committed()
            self._last_job = time.monotonic()
            if error is None and derived is not None:
                self._keep(journal, derived)
            with self._count:
                self._pending -= 1
            ticket._finish(error)
            try:
                self.handback()
            except Exception:  # the app's hand-back must never stop the writer
                log.exception("handing a commit back failed")
        if journal is not None:
            journal.close()

    def _keep(self, journal: Journal | None, derived: Derived) -> None:
        kept = self._derived.get(derived.key)
        at_once = (derived.due or derived.urgent) and kept is not None and kept.due
        if kept is not None and kept.due and not derived.due:
            derived = Derived(derived.key, derived.job, True)  # the newest, still due
        self._derived[derived.key] = derived
        if at_once:  # the table never paused since the last one was due
            self._run_derived(journal, due_only=True)

    def _derived_wait(self) -> float | None:
        """Seconds until the table is quiet, if due work waits for it."""
        if not any(d.due for d in self._derived.values()):
            return None
        return max(0.0, self.quiet - (time.monotonic() - self._last_job))

    def _run_derived(self, journal: Journal | None, due_only: bool) -> None:
        for key, derived in list(self._derived.items()):
            if due_only and not derived.due:
                continue
            del self._derived[key]
            if journal is None:
                continue
            try:
                derived.job(journal)
            except Exception as exc:  # derived: the journal holds what it is made of
                log.warning("derived work for %s not written: %s", key, exc)
            self._committed()

    @staticmethod
    def _run(journal: Journal, job: Job, ticket: Ticket) -> BaseException | None:
        journal.before_commit = ticket._begin_sync
        try:
            job(journal)
        except sqlite3.Error as exc:
            return JournalError("core.error.journal_write", path=str(journal.path),
                                reason=str(exc))
        except BaseException as exc:  # the action's owner raises it on the UI thread
            return exc
        finally:
            journal.before_commit = None
        return None

    def _committed(self) -> None:
        with self._ask:
            self._last_commit = time.monotonic()
            self._since_checkpoint += 1
            # the checkpoint thread is woken only when it has something new to do: it
            # waits for the quiet time by itself (a thread woken at every commit made
            # the UI thread wait for the interpreter's lock on a busy machine)
            wake = self._since_checkpoint == 1
            if self._since_checkpoint >= self.bound:
                self._checkpoint_asked = wake = True
            if wake:
                self._ask.notify()

    # -- the checkpoint thread ---------------------------------------------------------
    def _checkpoint_loop(self) -> None:
        self._opened.wait()
        if self._open_error is not None or self.path is None:
            return
        db = sqlite3.connect(str(self.path), isolation_level=None, timeout=10)
        try:
            db.execute("PRAGMA wal_autocheckpoint=0")
            while True:
                with self._ask:
                    while not self._due():
                        if self._closing and not self._thread.is_alive():
                            break
                        self._ask.wait(self._wait_time())
                    closing = self._closing and not self._thread.is_alive()
                    self._checkpoint_asked = False
                    self._since_checkpoint = 0
                frames = self._checkpoint(db, "TRUNCATE" if closing else "PASSIVE")
                if closing:
                    break
                if frames and self.checkpoints[-1] == (frames, frames) and self._jobs.empty():
                    self._restart_wal(db)
                if frames >= self.limit:
                    log.warning("the WAL of %s reached %s frames: truncated", self.path,
                                frames)
                    self._checkpoint(db, "TRUNCATE")
        finally:
            db.close()

    @property
    def checkpoint_waiting(self) -> bool:
        """A checkpoint was asked for (`bound` commits) and its thread has not taken it
        up yet."""
        with self._ask:
            return self._checkpoint_asked

    def _due(self) -> bool:
        if self._since_checkpoint == 0:
            return False
        if self._checkpoint_asked:
            return True
        return time.monotonic() - self._last_commit >= self.quiet

    def _wait_time(self) -> float | None:
        if self._since_checkpoint == 0:
            return None if not self._closing else 0.05
        return max(0.01, self.quiet - (time.monotonic() - self._last_commit))

    def _restart_wal(self, db: sqlite3.Connection) -> None:
        """Start the WAL again from its beginning now, on this thread: the first commit
        after a checkpoint that copied everything restarts it, and writes and syncs the
        WAL's header before its own frames (two syncs instead of one: on a card, every
        action after a quiet moment paid a second sync). A write that changes nothing
        (page 1's application id, written back as it is) does it here instead; if the
        writer holds the lock, the action restarts it as before."""
        try:
            db.execute("PRAGMA busy_timeout=0")  # never waits for the writer
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error:
            return
        finally:
            db.execute("PRAGMA busy_timeout=10000")
        try:
            same = int(db.execute("PRAGMA application_id").fetchone()[0])
            db.execute(f"PRAGMA application_id={same}")
            db.execute("COMMIT")
            self.restarts += 1
        except sqlite3.Error as exc:
            log.warning("restarting the WAL of %s failed: %s", self.path, exc)
            if db.in_transaction:
                db.execute("ROLLBACK")

    def _checkpoint(self, db: sqlite3.Connection, mode: str) -> int:
        """Run one checkpoint; the frames the WAL held (0 if it failed)."""
        try:
            _busy, frames, moved = db.execute(f"PRAGMA wal_checkpoint({mode})").fetchone()
        except sqlite3.Error as exc:  # a later one tries again; the WAL keeps everything
            log.warning("checkpoint of %s failed: %s", self.path, exc)
            return 0
        self.checkpoints.append((frames, moved))
        return int(frames)
