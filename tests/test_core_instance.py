"""One app per data folder (issue 33, item 7): the second is told "already running",
the lock goes with the process however it ends, a read-only folder is not locked."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from companion import instance
from companion.i18n import Translator
from ui.commands.cli import main as companion

HOLD = """
import sys
from companion import instance
print(instance.lock(sys.argv[1]), flush=True)
sys.stdin.readline()
"""


def _holder(folder: Path) -> subprocess.Popen[str]:
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(folder)], text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              cwd=Path(__file__).resolve().parents[1])
    assert holder.stdout is not None and holder.stdout.readline().strip() == "True"
    return holder


def test_a_second_process_is_told_already_running_until_the_first_dies(
        tmp_path: Path) -> None:
    holder = _holder(tmp_path)
    try:
        assert not instance.free(tmp_path)
        with pytest.raises(instance.AlreadyRunning) as caught:
            instance.lock(tmp_path)
        message = caught.value.message
        assert message.key == "core.error.already_running"
        assert "already running" in Translator("en").message(message)
        assert "déjà lancée" in Translator("fr").message(message)
        holder.send_signal(signal.SIGKILL)  # no clean exit: the kernel lets go
        holder.wait(timeout=10)
        assert instance.free(tmp_path)
        assert instance.lock(tmp_path) is True
        assert instance.lock(tmp_path) is True  # again in this process: held already
    finally:
        instance.release(tmp_path)
        if holder.poll() is None:
            holder.kill()


def test_a_salvage_is_refused_while_the_app_runs(tmp_path: Path, capsys) -> None:
    from tests.test_night_damaged import a_night, damage

    _, ids = a_night(tmp_path)
    path = tmp_path / "journal.sqlite3"
    damage(path, ids["bond"], "actions", "command", "not json")
    before = path.read_bytes()
    holder = _holder(tmp_path)
    try:
        assert companion(["journal", "check", "--salvage", "--journal", str(path)]) == 2
        assert "already running" in capsys.readouterr().err
        assert path.read_bytes() == before and not list(tmp_path.glob("*.before-salvage-*"))
    finally:
        holder.kill()
        holder.wait(timeout=10)
