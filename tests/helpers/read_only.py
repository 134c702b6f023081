"""A folder made truly read-only for a test: a read-only bind mount where the test runs
as root (chmod does not stop root) and may mount, else the folder's write permission
taken away (which stops anyone else)."""

from __future__ import annotations

import os
import stat
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def _mount(*args: str) -> bool:
    return _mount_command("mount", *args)


def _mount_command(*args: str) -> bool:
    return subprocess.run(list(args), capture_output=True).returncode == 0


@contextmanager
def read_only(folder: Path) -> Iterator[str]:
    """`folder` read-only while inside; yields how ("bind mount" or "permissions")."""
    if os.geteuid() != 0:
        mode = folder.stat().st_mode
        folder.chmod(mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
        for child in folder.iterdir():
            child.chmod(child.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
        try:
            yield "permissions"
        finally:
            folder.chmod(mode)
        return
    if not _mount("--bind", str(folder), str(folder)):
        pytest.skip("root without the right to mount: no read-only folder can be made")
    try:
        if not _mount("-o", "remount,ro,bind", str(folder)):
            pytest.skip("root without the right to remount read-only")
        probe = folder / ".probe"
        try:
            probe.write_text("x")
        except OSError:
            pass
        else:
            probe.unlink()
            raise AssertionError("the read-only bind mount can be written")
        yield "bind mount"
    finally:
        # lazily if a failed test left a file open there: never a mount left behind
        if not _mount_command("umount", str(folder)):
            subprocess.run(["umount", "-l", str(folder)], check=True)
