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

from ui.commands import deploy

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


def host_systemd() -> int:
    out = subprocess.run([ANALYZE or "systemd-analyze", "--version"], capture_output=True,
                         text=True).stdout
    return int(re.search(r"systemd (\d+)", out).group(1))  # type: ignore[union-attr]


def desktop(venv: Path, **kw) -> deploy.Target:
    return deploy.Target(mode="desktop", venv=venv, user="pi", home=Path("/home/pi"), **kw)


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
                     "Restart=on-failure", "StartLimitIntervalSec=0", "RestartSec=2",
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


# -- issue: units that start after the splash, on tty1, forever, with a writable cwd ------
def directives(text: str) -> list[tuple[str, str]]:
    return [tuple(line.split("=", 1)) for line in text.splitlines()  # type: ignore[misc]
            if "=" in line and not line.startswith("#")]


def values(text: str, key: str) -> list[str]:
    return [v for k, v in directives(text) if k == key]


def test_console_unit_waits_for_the_splash_takes_tty1_and_never_gives_up(venv: Path) -> None:
    text = deploy.render_unit(console(venv))
    after = " ".join(values(text, "After")).split()
    assert {"plymouth-quit-wait.service", "getty@tty1.service"} <= set(after)
    assert values(text, "Conflicts") == ["getty@tty1.service"]
    assert values(text, "Restart") == ["on-failure"]
    # restart forever where the delay can grow: no start limit (0 switches it off)
    new = deploy.render_unit(console(venv, systemd_version=257))
    assert values(new, "StartLimitIntervalSec") == ["0"] and not values(new, "StartLimitBurst")


@pytest.mark.parametrize("make", [console, desktop])
def test_back_off_between_restarts_only_where_systemd_has_it(venv: Path, make) -> None:
    old = deploy.render_unit(make(venv, systemd_version=252))
    new = deploy.render_unit(make(venv, systemd_version=257))
    assert not values(old, "RestartSteps") and not values(old, "RestartMaxDelaySec")
    assert values(new, "RestartSteps") == ["10"]
    assert values(new, "RestartMaxDelaySec") == ["300"]  # minutes, not 2 s forever
    assert values(new, "RestartSec") == ["2"]
    # before 254: five quick tries, then the start limit, then the retry timer
    assert values(old, "StartLimitIntervalSec") == ["300"]
    assert values(old, "StartLimitBurst") == ["5"]
    timer = deploy.render_retry_timer(make(venv, systemd_version=252))
    assert values(timer, "Unit") == [deploy.UNIT]
    assert values(timer, "OnUnitInactiveSec") == ["5min"]


@pytest.mark.parametrize("version", [252, 257])
def test_the_installer_writes_the_retry_timer_only_where_the_delay_cannot_grow(
        tmp_path: Path, venv: Path, version: int) -> None:
    target = console(venv, systemd_version=version)
    steps = deploy.plan_install(target, deploy.Probe(tmp_path))
    timer = Path("/etc/systemd/system") / deploy.RETRY_TIMER
    written = {s.path for s in steps if isinstance(s, deploy.WriteFile)}
    removed = {s.path for s in steps if isinstance(s, deploy.Remove)}
    assert (timer in written) == (version < deploy.BACKOFF_SINCE)
    assert (timer in removed) == (version >= deploy.BACKOFF_SINCE)  # an upgrade drops it


@pytest.mark.parametrize("user", [False, True])
def test_the_retry_timer_verifies(tmp_path: Path, venv: Path, user: bool) -> None:
    target = (desktop if user else console)(venv, systemd_version=252)
    unit = write_unit(tmp_path, target, deploy.UNIT)
    timer = unit.parent / deploy.RETRY_TIMER
    timer.write_text(deploy.render_retry_timer(target))
    result = analyze("verify", "--man=no", str(timer), str(unit), user=user, tmp=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "table-companion-retry.timer" not in result.stderr, result.stderr


def test_the_unit_for_this_hosts_systemd_verifies(tmp_path: Path, venv: Path) -> None:
    """With RestartSteps= on systemd 254+ (Debian 13), without it before (Debian 12)."""
    version = host_systemd()
    target = console(venv, systemd_version=version)
    unit = write_unit(tmp_path, target, deploy.UNIT)
    has_back_off = bool(values(unit.read_text(), "RestartSteps"))
    assert has_back_off == (version >= deploy.BACKOFF_SINCE)
    result = analyze("verify", "--man=no", str(unit), tmp=tmp_path)
    assert result.returncode == 0 and result.stderr.strip() == "", result.stderr


def test_the_installer_reads_the_systemd_version_of_the_image(tmp_path: Path) -> None:
    lib = tmp_path / "usr/lib/aarch64-linux-gnu/systemd/libsystemd-shared-257.so"
    lib.parent.mkdir(parents=True)
    lib.write_bytes(b"")
    assert deploy.systemd_version(tmp_path) == 257
    assert deploy.systemd_version(tmp_path / "nothing") is None


def test_lgpio_gets_a_writable_working_directory(venv: Path) -> None:
    """`import lgpio` makes its notification pipe in the working directory."""
    system = deploy.render_unit(console(venv))
    assert values(system, "WorkingDirectory") == ["/var/lib/table-companion"]
    assert values(system, "StateDirectory") == ["table-companion"]  # made writable
    user = deploy.render_unit(desktop(venv))
    [cwd] = values(user, "WorkingDirectory")
    assert cwd.lstrip("-") in [p.lstrip("-") for p in values(user, "ReadWritePaths")]
    assert values(user, "ProtectHome") == ["read-only"]  # so $HOME itself is not


def test_the_ring_is_allowed_even_when_plugged_in_after_start(venv: Path) -> None:
    """DeviceAllow=char-ttyACM resolves through /proc/devices when the unit starts: the
    installer loads cdc_acm at every boot, before multi-user.target."""
    allowed = values(deploy.render_unit(console(venv)), "DeviceAllow")
    assert {"char-ttyACM rw", "char-ttyUSB rw"} <= set(allowed)
    # char-ttyUSB is registered by usbserial, char-ttyACM by cdc_acm: both loaded at boot
    assert deploy.MODULES.splitlines()[-2:] == ["cdc_acm", "usbserial"]
    assert Path("/etc/modules-load.d/table-companion.conf") == deploy.MODULES_LOAD


def test_a_usb_stick_mounted_before_the_desktop_unit_starts_is_writable(venv: Path) -> None:
    """ProtectSystem=strict remounts every mount present at start read-only, the stick
    udisks2 put in /media/USER before the session included, unless listed writable."""
    text = deploy.render_unit(desktop(venv))
    assert values(text, "ProtectSystem") == ["strict"]
    writable = " ".join(values(text, "ReadWritePaths")).split()
    assert {"-/media", "-/run/media", "-/mnt"} <= set(writable)


def test_the_session_desktop_file_is_valid() -> None:
    # desktop-file-utils is one of the Makefile's TEST_APT: never skipped
    validate = shutil.which("desktop-file-validate")
    assert validate is not None, "desktop-file-validate missing: make apt-test installs it"
    result = subprocess.run([validate, str(deploy.UNITS / deploy.SESSION_DESKTOP)],
                            capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.strip() == "", result.stdout


# -- dimming and blanking under the hardened units ------------------------------------
BACKLIGHT = "/sys/devices/platform/soc/fe205000.i2c/i2c-22/i2c-10/10-0045/backlight/10-0045"


@pytest.mark.parametrize("make", [console, desktop])
def test_the_backlight_is_writable_and_the_kernel_tunables_stay_protected(
        tmp_path: Path, venv: Path, make) -> None:
    """ProtectKernelTunables=yes makes all of /sys read-only: the backlight's own folder
    (where /sys/class/backlight/NAME points) is listed writable, nothing else."""
    target = make(venv, backlights=(BACKLIGHT,))
    text = deploy.render_unit(target)
    assert values(text, "ProtectKernelTunables") == ["yes"]
    assert f"-{BACKLIGHT}" in " ".join(values(text, "ReadWritePaths")).split()
    unit = write_unit(tmp_path, target, deploy.UNIT)
    limit = 0.6 if make is console else MAX_EXPOSURE
    assert exposure(tmp_path, unit, user=make is desktop) <= limit
    result = analyze("verify", "--man=no", str(unit), user=make is desktop, tmp=tmp_path)
    assert result.returncode == 0, result.stderr


def test_the_backlight_folders_are_where_the_class_links_point(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    device = tmp_path / "devices/platform/rpi_backlight/backlight/rpi_backlight"
    device.mkdir(parents=True)
    links = tmp_path / "class/backlight"
    links.mkdir(parents=True)
    (links / "rpi_backlight").symlink_to(device)
    monkeypatch.setattr(deploy, "SYS_BACKLIGHT", links)
    assert deploy.backlight_devices(Path("/")) == (str(device),)
    assert deploy.backlight_devices(tmp_path / "image") == ()  # an image's /sys is empty


def test_the_udev_rule_gives_the_video_group_brightness_and_power() -> None:
    rule = [line for line in deploy.backlight_rule().splitlines()
            if line and not line.startswith("#")]
    assert rule == ['ACTION=="add", SUBSYSTEM=="backlight", '
                    'RUN+="/bin/chgrp video /sys%p/brightness /sys%p/bl_power", '
                    'RUN+="/bin/chmod g+w /sys%p/brightness /sys%p/bl_power"']
    assert "video" in deploy.GROUPS  # the service user and the desktop user are in it


def test_exports_to_removable_media_are_writable_and_exposure_stays_at_most_2(
        tmp_path: Path, venv: Path) -> None:
    """ProtectSystem=strict makes / read-only: the places where USB sticks are mounted
    stay writable (export and backup), and the score is still at most 2.0."""
    text = deploy.render_unit(console(venv))
    assert values(text, "ProtectSystem") == ["strict"]
    writable = " ".join(values(text, "ReadWritePaths")).split()
    assert {"-/media", "-/run/media", "-/mnt"} <= set(writable)
    from ui.screens.night import export as night_export

    assert str(night_export.MEDIA).startswith(("/media", "/run/media", "/mnt"))
    unit = write_unit(tmp_path, console(venv), deploy.UNIT)
    assert exposure(tmp_path, unit) <= MAX_EXPOSURE


def test_desktop_unit_exposure_is_at_most_2(tmp_path: Path, venv: Path) -> None:
    unit = write_unit(tmp_path, desktop(venv), deploy.UNIT)
    assert exposure(tmp_path, unit, user=True) <= MAX_EXPOSURE


def test_the_readme_reports_both_scores(tmp_path: Path, venv: Path) -> None:
    readme = (deploy.REPO / "README.md").read_text(encoding="utf-8")
    system = exposure(tmp_path, write_unit(tmp_path, console(venv), deploy.UNIT))
    user = exposure(tmp_path, write_unit(tmp_path, desktop(venv), deploy.UNIT), user=True)
    assert f"console unit** rates **{system:.1f}**" in readme
    assert f"desktop unit** rates **{user:.1f}**" in readme
