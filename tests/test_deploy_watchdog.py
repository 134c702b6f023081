"""The notify protocol against a real AF_UNIX datagram socket standing in for systemd."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ui.watchdog import Watchdog


class FakeNotifySocket:
    def __init__(self, address: str | bytes) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(address)
        self.sock.settimeout(0.05)

    def drain(self) -> list[str]:
        received = []
        while True:
            try:
                received.append(self.sock.recv(4096).decode())
            except TimeoutError:
                return received

    def close(self) -> None:
        self.sock.close()


class FakeMainLoop:
    """Kivy's clock in miniature: `schedule_interval` callbacks run from one thread
    that can be frozen, like a UI stuck in a long computation."""

    def __init__(self) -> None:
        self.events: list[list] = []
        self.frozen = threading.Event()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def schedule_interval(self, callback: Callable[[float], object], seconds: float) -> object:
        entry = [callback, seconds, time.monotonic() + seconds]
        self.events.append(entry)
        return entry

    def _run(self) -> None:
        while not self.stop.is_set():
            if self.frozen.is_set():
                time.sleep(0.01)  # the loop is stuck: no callback runs
                continue
            now = time.monotonic()
            for entry in list(self.events):
                callback, seconds, due = entry
                if now >= due:
                    entry[2] = now + seconds
                    callback(seconds)
            time.sleep(0.005)


@pytest.fixture
def notify(tmp_path: Path) -> Iterator[tuple[str, FakeNotifySocket]]:
    path = str(tmp_path / "notify")
    fake = FakeNotifySocket(path)
    yield path, fake
    fake.close()


def test_ready_then_pings_while_the_loop_runs_and_none_once_frozen(notify) -> None:
    path, fake = notify
    dog = Watchdog.from_environment({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "300000"})
    assert dog.ping_every == pytest.approx(0.1)
    loop = FakeMainLoop()
    assert dog.ready()
    assert dog.start(loop.schedule_interval)
    loop.thread.start()
    try:
        time.sleep(0.6)
        running = fake.drain()
        assert running[0] == f"READY=1\nMAINPID={os.getpid()}"
        pings = [m for m in running if m == "WATCHDOG=1"]
        assert len(pings) >= 4  # one at start, then every 0.1 s

        loop.frozen.set()
        time.sleep(0.05)
        fake.drain()  # a ping that was in flight when the loop froze
        time.sleep(0.5)  # longer than the whole watchdog period
        assert fake.drain() == []

        loop.frozen.clear()  # the loop comes back: so do the pings
        time.sleep(0.3)
        assert "WATCHDOG=1" in fake.drain()
    finally:
        loop.stop.set()
        loop.thread.join()


def test_stopping_cancels_the_pings_and_says_so(notify) -> None:
    path, fake = notify
    dog = Watchdog.from_environment({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "3000000"})
    cancelled = []

    class Event:
        def cancel(self) -> None:
            cancelled.append(True)

    assert dog.start(lambda callback, seconds: Event())
    assert dog.stopping()
    assert cancelled == [True]
    assert fake.drain() == ["WATCHDOG=1", "STOPPING=1"]


def test_status_is_one_line(notify) -> None:
    path, fake = notify
    dog = Watchdog.from_environment({"NOTIFY_SOCKET": path})
    assert dog.status("config refused:\n  line 3")
    assert fake.drain() == ["STATUS=config refused: line 3"]


def test_abstract_namespace_socket() -> None:
    name = f"table-companion-test-{os.getpid()}"
    fake = FakeNotifySocket(b"\0" + name.encode())
    try:
        dog = Watchdog.from_environment({"NOTIFY_SOCKET": "@" + name, "WATCHDOG_USEC": "1000000"})
        assert dog.ready()
        dog.ping()
        assert fake.drain() == [f"READY=1\nMAINPID={os.getpid()}", "WATCHDOG=1"]
    finally:
        fake.close()


def test_outside_systemd_everything_is_a_no_op() -> None:
    dog = Watchdog.from_environment({})
    scheduled = []
    assert not dog.enabled
    assert not dog.ready()
    assert not dog.start(lambda callback, seconds: scheduled.append(seconds))
    assert not dog.status("x")
    assert not dog.stopping()
    assert scheduled == []


def test_no_watchdog_without_usec_or_for_another_pid(notify) -> None:
    path, _ = notify
    scheduled: list[float] = []
    for env in ({"NOTIFY_SOCKET": path},
                {"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "abc"},
                {"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "1000000",
                 "WATCHDOG_PID": str(os.getpid() + 1)}):
        dog = Watchdog.from_environment(env)
        assert dog.enabled and dog.ping_every is None
        assert not dog.start(lambda callback, seconds: scheduled.append(seconds))
    assert scheduled == []
    dog = Watchdog.from_environment({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "1000000",
                                     "WATCHDOG_PID": str(os.getpid())})
    assert dog.start(lambda callback, seconds: scheduled.append(seconds))
    assert scheduled == [pytest.approx(1 / 3)]


def test_a_missing_socket_is_logged_not_raised(tmp_path: Path) -> None:
    dog = Watchdog.from_environment({"NOTIFY_SOCKET": str(tmp_path / "gone"),
                                     "WATCHDOG_USEC": "1000000"})
    assert dog.ready() is False
    dog.ping()  # must not raise: a missed ping is systemd's business
