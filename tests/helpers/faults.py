"""The kernel's own answer to a failing card, given to chosen threads of the app: every
write, sync and truncation those threads make fails with EROFS (a card the kernel
remounted read-only) or ENOSPC (a full card), until the test lifts it.

It is strace's fault injection (`strace -p TID -e inject=...:error=EROFS`), the way
issue 44 reproduces the failing card: SQLite's own unix VFS meets the real errno at its
`pwrite64`/`fdatasync` (and answers "disk I/O error" or "database or disk is full"),
Python's files at their `write`/`fsync`. A real read-only remount or a full tmpfs
cannot stand in for a running app: a file system whose files are open for writing
refuses to be remounted read-only ("busy"), a read-only bind mount laid over the folder
does not stop the descriptors opened before it, and a full tmpfs fails only once the
WAL must grow, which depends on when the checkpoint thread restarted it. Only the
threads named are faulted (the journal's writer, a backup's worker): the UI thread, the
X server's socket and pytest's own output are left alone."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

#: what a program writing to a card calls (SQLite, Python's files, zipfile); opening a
#: file is left alone (a thread's lazy import would fail otherwise)
CALLS = "pwrite64,pwritev,pwritev2,write,writev,fsync,fdatasync,ftruncate,fallocate"
ATTACHED = "attached"


def _strace() -> str:
    found = shutil.which("strace")
    if found is None:
        pytest.skip("strace is not installed (make apt-test installs it)")
    return found


@contextmanager
def failing_writes(threads: list[int], error: str,
                   probe: Callable[[Callable[[], int | None]], int | None]) -> Iterator[None]:
    """Every write the threads `threads` (native ids) make fails with `error` ("EROFS",
    "ENOSPC") while inside. `probe(check)` runs `check` on one of those threads and
    returns what it returned: the fault counts as in place only once a write made there
    fails with `error` (strace has attached and is injecting), never after a guess of
    time. On leaving, strace detaches before this returns: writes succeed again."""
    command = [_strace(), "-o", os.devnull, "-e", f"trace={CALLS}",
               "-e", f"inject={CALLS}:error={error}"]
    for tid in threads:
        command += ["-p", str(tid)]
    child = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stderr is not None
        attached = 0
        while attached < len(threads):
            line = child.stderr.readline()
            if not line:
                pytest.skip(f"strace cannot attach here: {child.wait()}")
            attached += ATTACHED in line
        wanted = getattr(errno, error)
        for _ in range(200):  # strace injects from the tracee's next call on
            if probe(_probe_write) == wanted:
                break
        else:
            raise AssertionError(f"the threads' writes never failed with {error}")
        yield
    finally:
        child.terminate()
        child.wait(30)
    assert probe(_probe_write) is None, "a write still fails after strace detached"


def _probe_write() -> int | None:
    """Write one byte to a throw-away file: the errno it failed with, or None."""
    handle, name = tempfile.mkstemp(prefix="fault-probe-")
    try:
        os.pwrite(handle, b"x", 0)
    except OSError as exc:
        return exc.errno
    finally:
        os.close(handle)
        os.unlink(name)
    return None


def on_writer(writer: Any) -> Callable[[Callable[[], int | None]], int | None]:
    """A probe for `failing_writes` that runs its check on the journal's writer thread."""
    def probe(check: Callable[[], int | None]) -> int | None:
        out: list[int | None] = []
        ticket = writer.submit(lambda _journal: out.append(check()))
        assert ticket.wait(30) and ticket.error is None, ticket.error
        return out[0]

    return probe


def writer_threads(writer: Any) -> list[int]:
    """The journal writer's threads: the one that commits and the one that checkpoints
    (on a failing card both fail)."""
    return [writer._thread.native_id, writer._checkpointer.native_id]


def on_this_thread(error: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """`work` run with every write of the thread it runs on failing with `error` (for
    work on a thread made for it, as a backup's worker)."""
    def wrap(work: Callable[..., Any]) -> Callable[..., Any]:
        def faulted(*args: Any, **kwargs: Any) -> Any:
            me = threading.get_native_id()
            with failing_writes([me], error, lambda check: check()):
                return work(*args, **kwargs)

        return faulted

    return wrap
