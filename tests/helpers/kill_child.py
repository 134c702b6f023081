"""A child app that pulls its own plug: run it and check it died of SIGKILL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def run_killed(child: str, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run `tests/helpers/<child>` with `args`, on mock pins with no user config of its
    own; it must end killed by SIGKILL (the plug pulled, by itself). Its output."""
    env = dict(os.environ, KIVY_HOME=str(tmp_path / "kivy"), KIVY_NO_ARGS="1",
               KIVY_NO_FILELOG="1", KIVY_NO_CONSOLELOG="1", GPIOZERO_PIN_FACTORY="mock",
               XDG_CONFIG_HOME=str(tmp_path / "xdg-empty"))
    env.pop("NOTIFY_SOCKET", None)
    done = subprocess.run([sys.executable, str(REPO / "tests" / "helpers" / child), *args],
                          capture_output=True, text=True, env=env, timeout=180, cwd=REPO)
    assert done.returncode == -signal.SIGKILL, done.stdout[-2000:] + done.stderr[-4000:]
    return done
