"""The units pass `systemd-analyze verify`, and the console unit is hardened.

Needs the Debian package `systemd` (systemd-analyze). The units are checked as the
installer writes them, with the app's start command made to exist in a temp dir.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from ui import deploy

ANALYZE = shutil.which("systemd-analyze")
MAX_EXPOSURE = 2.0


def analyze(*args: str, user: bool = False, tmp: Path) -> subprocess.CompletedProcess[str]:
    assert ANALYZE, "systemd-analyze is missing: apt-get install systemd"
    runtime = tmp / "runtime"
    runtime.mkdir(mode=0o700, exist_ok=True)
    env = {**os.environ, "XDG_RUNTIME_DIR": str(runtime), "HOME": str(tmp / "home"),
           "SYSTEMD_LOG_COLOR": "0", "SYSTEMD_COLORS": "0"}
    argv = [ANALYZE, *(["--user"] if user else []), *args]
    return subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)


@pytest.fixture
def venv(tmp_path: Path) -> Path:
    """A venv whose bin/companion exists and is executable, as verify demands."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    start = venv / "bin" / "companion"
    start.write_text("#!/bin/sh\n")
    start.chmod(0o755)
    return venv


def write_unit(tmp_path: Path, target: deploy.Target, name: str) -> Path:
    path = tmp_path / "units" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(deploy.render_unit(target))
    return path


def console(venv: Path, **kw) -> deploy.Target:
    return deploy.Target(mode="console", venv=venv, user="table-companion",
                         home=deploy.STATE_DIR, **kw)


def test_console_unit_verifies(tmp_path: Path, venv: Path) -> None:
    unit = write_unit(tmp_path, console(venv), deploy.UNIT)
    result = analyze("verify", "--man=no", str(unit), tmp=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == ""


def test_console_unit_with_code_in_a_home_directory_verifies(tmp_path: Path, venv: Path) -> None:
    target = console(venv, repo=Path("/home/pi/table-companion"))
    text = deploy.render_unit(target)
    assert "ProtectHome=tmpfs\nBindReadOnlyPaths=/home/pi/table-companion\n" in text
    unit = write_unit(tmp_path, target, deploy.UNIT)
    result = analyze("verify", "--man=no", str(unit), tmp=tmp_path)
    assert result.returncode == 0, result.stderr


def test_desktop_units_verify(tmp_path: Path, venv: Path) -> None:
    target = deploy.Target(mode="desktop", venv=venv, user="pi", home=Path("/home/pi"))
    unit = write_unit(tmp_path, target, deploy.UNIT)
    session = tmp_path / "units" / deploy.SESSION_TARGET
    shutil.copy(deploy.UNITS / deploy.SESSION_TARGET, session)
    result = analyze("verify", "--man=no", str(unit), str(session), user=True, tmp=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == ""


def exposure(tmp_path: Path, unit: Path, user: bool = False) -> float:
    result = analyze("security", "--offline=true", "--no-pager", str(unit),
                     user=user, tmp=tmp_path)
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    assert found, result.stdout + result.stderr
    return float(found.group(1))


def test_console_unit_exposure_is_at_most_2(tmp_path: Path, venv: Path) -> None:
    unit = write_unit(tmp_path, console(venv), deploy.UNIT)
    assert exposure(tmp_path, unit) <= MAX_EXPOSURE


def test_console_unit_with_custom_data_dir_stays_at_most_2(tmp_path: Path, venv: Path) -> None:
    target = console(venv, data_dir="/srv/games", repo=Path("/home/pi/src"))
    text = deploy.render_unit(target)
    assert "ReadWritePaths=-/srv/games\n" in text
    unit = write_unit(tmp_path, target, deploy.UNIT)
    assert exposure(tmp_path, unit) <= MAX_EXPOSURE


def test_the_committed_units_use_the_installers_defaults() -> None:
    """The installer rewrites these paths; if a unit changes them, it must follow."""
    for name in ("table-companion.service", "table-companion-user.service"):
        text = (deploy.UNITS / name).read_text()
        assert f"ExecStart={deploy.DEFAULT_VENV}/bin/companion\n" in text
        for line in ("Type=notify", "NotifyAccess=main", "WatchdogSec=30",
                     "Restart=on-failure", "StartLimitBurst=5", "StartLimitIntervalSec=300",
                     "NoNewPrivileges=yes", "ProtectSystem=strict", "PrivateTmp=yes",
                     "Environment=KIVY_NO_FILELOG=1", "StandardOutput=journal"):
            assert f"\n{line}\n" in text, (name, line)
    system = (deploy.UNITS / "table-companion.service").read_text()
    for line in ("Environment=KIVY_WINDOW=sdl2", "Environment=SDL_VIDEODRIVER=kmsdrm",
                 f"User={deploy.SERVICE_USER}", "ProtectHome=yes",
                 "RestrictAddressFamilies=AF_UNIX AF_NETLINK"):
        assert f"\n{line}\n" in system, line
    user = (deploy.UNITS / "table-companion-user.service").read_text()
    assert "\nAfter=graphical-session.target\n" in user
    assert deploy.wanted_by(user) == "graphical-session.target"
    assert deploy.wanted_by(system) == "multi-user.target"
