"""Two apps on one data folder (issue 33, item 7), the real app under Xvfb: the second
says "already running" (on its screen, over systemd's notify socket, and on stderr,
translated), never opens the journal, and starts by itself once the first is gone."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from companion.journal import Journal
from tests.test_night_support import open_journal

ROOT = Path(__file__).resolve().parents[1]


class _Notify:
    """systemd's notify socket, as the app's watchdog speaks to it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.sock.settimeout(0.2)
        self.said: list[str] = []

    def heard(self, what: str, within: float = 60) -> bool:
        until = time.monotonic() + within
        while time.monotonic() < until:
            if any(what in s for s in self.said):
                return True
            try:
                self.said.append(self.sock.recv(4096).decode())
            except TimeoutError:
                continue
        return False


def _run(data: Path, notify: _Notify, config: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, NOTIFY_SOCKET=str(notify.path), XDG_CONFIG_HOME=str(config),
               KIVY_NO_CONSOLELOG="1")
    return subprocess.Popen([sys.executable, "-m", "ui.commands.cli", "run", "--data-dir",
                             str(data)], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)


def test_a_second_app_on_the_same_folder_says_already_running_then_takes_over(
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    open_journal(data).close()
    first_said, second_said = _Notify(tmp_path / "n1"), _Notify(tmp_path / "n2")
    first = _run(data, first_said, tmp_path / "config")
    second = None
    try:
        assert first_said.heard("READY=1"), first_said.said
        second = _run(data, second_said, tmp_path / "config")
        assert second_said.heard("STATUS=Already running"), second_said.said
        assert second.poll() is None  # up, showing why
        first.send_signal(signal.SIGKILL)  # the first dies: the kernel lets go of its lock
        first.wait(timeout=10)
        second_said.said.clear()  # the problem screen said READY=1 before its status
        assert second_said.heard("READY=1", within=30), second_said.said  # the real app
        assert second.poll() is None
    finally:
        for app in (first, second):
            if app is not None and app.poll() is None:
                app.kill()
        err = second.communicate(timeout=10)[1] if second is not None else ""
        first.communicate(timeout=10)
    assert "Table Companion is already running on the saved games in" in err
    journal = Journal(data / "journal.sqlite3")
    assert journal.games() == []  # nothing written twice, nothing refused
    journal.close()


def test_the_second_app_s_screen_says_it_in_french(tmp_path: Path, monkeypatch: Any,
                                                   capsys: Any) -> None:
    """What the problem screen is given, in the table's language (the same on stderr)."""
    from companion import instance
    from ui import main as start

    data = tmp_path / "data"
    holder = subprocess.Popen([sys.executable, "-c", "import sys\nfrom companion import"
                               " instance\nprint(instance.lock(sys.argv[1]), flush=True)\n"
                               "sys.stdin.readline()", str(data)], text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "True"
    config = tmp_path / "config.yaml"
    config.write_text("language: fr\n")
    shown: list[tuple[str, list[str], Any]] = []
    monkeypatch.setattr(start, "show_problem",
                        lambda title, lines, retry=None: shown.append((title, lines, retry))
                        or 2)
    try:
        assert start.main(["--config", str(config), "--data-dir", str(data)]) == 2
        (title, lines, retry), = shown
        assert title == "Déjà lancée"
        assert "Table Companion est déjà lancée" in lines[0] and "fermez l'autre" in lines[0]
        assert "déjà lancée" in capsys.readouterr().err
        assert retry is not None and retry() is False  # still held: it waits
        assert not (data / "journal.sqlite3").exists()  # never opened
    finally:
        holder.kill()
        holder.wait(timeout=10)
    assert retry() is True  # gone: the app starts
    instance.release(data)
