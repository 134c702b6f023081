"""`companion install / update / uninstall` into a throw-away root: exactly the expected
files, nothing changed by a second run, the user's config and data kept."""

from __future__ import annotations

import configparser
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
import yaml

from companion.i18n import Translator
from ui.commands import deploy

CONSOLE_FILES = {
    "etc/modules-load.d/table-companion.conf",
    "etc/udev/rules.d/70-table-companion-backlight.rules",
    "etc/systemd/system/table-companion.service",
    "etc/systemd/system/multi-user.target.wants/table-companion.service",
    # the image's systemd is unknown: the retry timer that works on every version
    "etc/systemd/system/table-companion-retry.timer",
    "etc/systemd/system/timers.target.wants/table-companion-retry.timer",
    "etc/table-companion/config.yaml",
    "var/lib/table-companion/kivy/config.ini",
}
DESKTOP_FILES = {
    "etc/udev/rules.d/70-table-companion-backlight.rules",
    "home/pi/.config/systemd/user/table-companion.service",
    "home/pi/.config/systemd/user/table-companion-retry.timer",
    "home/pi/.config/systemd/user/graphical-session.target.wants/table-companion-retry.timer",
    "home/pi/.config/systemd/user/table-companion-session.target",
    "home/pi/.config/systemd/user/graphical-session.target.wants/table-companion.service",
    "home/pi/.config/autostart/table-companion-session.desktop",
    "home/pi/.config/table-companion/config.yaml",
    "home/pi/.local/share/table-companion/kivy/config.ini",
}


@pytest.fixture(autouse=True)
def _no_user_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # The installer reads the user's config (language, data_dir): keep the host's out.
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-empty"))
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)


def snapshot(root: Path) -> dict[str, tuple]:
    """Every file and link under root: content, mode, mtime; link targets."""
    out: dict[str, tuple] = {}
    for path in sorted(root.rglob("*")):
        rel = str(path.relative_to(root))
        if path.is_symlink():
            out[rel] = ("link", os.readlink(path))
        elif path.is_file():
            st = path.stat()
            out[rel] = ("file", path.read_bytes(), st.st_mode, st.st_mtime_ns)
    return out


def install(root: Path, *args: str, capsys: pytest.CaptureFixture[str]) -> str:
    code = deploy.install_main(["--root", str(root), "--venv", "/opt/table-companion/venv",
                                *args])
    assert code == 0
    return capsys.readouterr().out


def test_console_install_writes_exactly_the_expected_files(tmp_path: Path, capsys) -> None:
    root = tmp_path / "root"
    root.mkdir()
    out = install(root, "--console", capsys=capsys)
    assert set(snapshot(root)) == CONSOLE_FILES
    link = root / "etc/systemd/system/multi-user.target.wants/table-companion.service"
    assert os.readlink(link) == "/etc/systemd/system/table-companion.service"
    unit = (root / "etc/systemd/system/table-companion.service").read_text()
    assert unit == (deploy.UNITS / "table-companion.service").read_text().replace(
        "/opt/table-companion/src", str(deploy.REPO)).replace(
        "StartLimitIntervalSec=0\n", deploy.START_LIMIT)  # this image's systemd is unknown
    user_config = yaml.safe_load((root / "etc/table-companion/config.yaml").read_text())
    assert user_config == {"display": {"fullscreen": True, "show_cursor": False}}
    ini = configparser.RawConfigParser(interpolation=None)
    ini.optionxform = str  # type: ignore[assignment,method-assign]
    ini.read(root / "var/lib/table-companion/kivy/config.ini")
    assert dict(ini.items("input")) == {"mouse": "mouse,disable_on_activity",
                                        "%(name)s": "probesysfs,provider=mtdev"}
    # Under --root no command runs: each one is shown instead.
    assert (f"would run: /opt/table-companion/venv/bin/python -m compileall -q "
            f"{deploy.REPO}/companion {deploy.REPO}/hardware {deploy.REPO}/ui") in out
    assert "would run: useradd --system" in out
    assert "would run: systemctl daemon-reload" in out
    assert "would run: systemctl disable getty@tty1.service" in out
    # the ring's drivers at every boot (DeviceAllow=char-ttyACM and char-ttyUSB need
    # them loaded) and now
    assert (root / "etc/modules-load.d/table-companion.conf").read_text().splitlines()[-2:] \
        == ["cdc_acm", "usbserial"]
    assert "would run: modprobe -a cdc_acm usbserial" in out


def test_desktop_install_writes_exactly_the_expected_files(tmp_path: Path, capsys) -> None:
    root = tmp_path / "root"
    root.mkdir()
    out = install(root, "--desktop", "--user", "pi", "--home", "/home/pi", capsys=capsys)
    assert set(snapshot(root)) == DESKTOP_FILES
    assert "useradd" not in out
    assert "would run: systemctl --user --machine=pi@ daemon-reload" in out
    desktop = root / "home/pi/.config/autostart/table-companion-session.desktop"
    assert "systemctl --user start table-companion-session.target" in desktop.read_text()


@pytest.mark.parametrize("mode", ["--console", "--desktop"])
def test_a_second_run_changes_nothing(tmp_path: Path, capsys, mode: str) -> None:
    root = tmp_path / "root"
    root.mkdir()
    args = (mode, "--user", "pi", "--home", "/home/pi") if mode == "--desktop" else (mode,)
    install(root, *args, capsys=capsys)
    before = snapshot(root)
    out = install(root, *args, capsys=capsys)
    assert snapshot(root) == before
    assert "created" not in out and "updated" not in out and "linked" not in out


def test_the_users_config_and_kivys_own_settings_are_kept(tmp_path: Path, capsys) -> None:
    root = tmp_path / "root"
    (root / "etc/table-companion").mkdir(parents=True)
    mine = "language: fr\n"
    (root / "etc/table-companion/config.yaml").write_text(mine)
    kivy = root / "var/lib/table-companion/kivy/config.ini"
    kivy.parent.mkdir(parents=True)
    kivy.write_text("[kivy]\nconfig_version = 27\n\n[input]\nmouse = mouse\n"
                    "%(name)s = probesysfs\n\n[graphics]\nrotation = 180\n")
    out = install(root, "--console", capsys=capsys)
    assert (root / "etc/table-companion/config.yaml").read_text() == mine
    assert "kept /etc/table-companion/config.yaml" in out
    ini = configparser.RawConfigParser(interpolation=None)
    ini.optionxform = str  # type: ignore[assignment,method-assign]
    ini.read(kivy)
    assert ini.get("graphics", "rotation") == "180"
    assert ini.get("kivy", "config_version") == "27"
    assert dict(ini.items("input")) == {"mouse": "mouse,disable_on_activity",
                                        "%(name)s": "probesysfs,provider=mtdev"}


def test_hidinput_can_be_chosen(tmp_path: Path, capsys) -> None:
    root = tmp_path / "root"
    root.mkdir()
    install(root, "--console", "--touch", "hidinput", capsys=capsys)
    text = (root / "var/lib/table-companion/kivy/config.ini").read_text()
    assert "%(name)s = probesysfs,provider=hidinput" in text


def test_the_desktop_reads_no_raw_touch_and_replaces_an_older_reader(
        tmp_path: Path, capsys) -> None:
    """The desktop's touches are the compositor's (turned with the desktop): the raw
    reader an older install wrote is taken out, and the key Kivy would fill with one
    on its first start stays there, empty."""
    root = tmp_path / "root"
    kivy = root / "home/pi/.local/share/table-companion/kivy/config.ini"
    kivy.parent.mkdir(parents=True)
    kivy.write_text("[input]\nmouse = mouse,disable_on_activity\n"
                    "%(name)s = probesysfs,provider=mtdev\n")
    install(root, "--desktop", "--user", "pi", "--home", "/home/pi", "--touch", "hidinput",
            capsys=capsys)
    ini = configparser.RawConfigParser(interpolation=None)
    ini.optionxform = str  # type: ignore[assignment,method-assign]
    ini.read(kivy)
    assert dict(ini.items("input")) == {"mouse": "mouse", "%(name)s": ""}


def test_dry_run_on_this_system_writes_nothing(capsys) -> None:
    unit = Path("/etc/systemd/system/table-companion.service")
    existed = unit.exists()
    code = deploy.install_main(["--dry-run", "--console", "--venv", "/opt/x/venv"])
    out = capsys.readouterr().out
    assert code == 0
    assert unit.exists() == existed
    assert "would create /etc/systemd/system/table-companion.service" in out or existed
    assert "would run: systemctl daemon-reload" in out
    assert "Installed" not in out


def test_groups_and_user_come_from_the_images_files(tmp_path: Path, capsys) -> None:
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    (root / "etc/passwd").write_text("table-companion:x:990:990::/var/lib/tc:/usr/sbin/nologin\n")
    (root / "etc/group").write_text("gpio:x:997:\nvideo:x:44:\ninput:x:105:\n")
    out = install(root, "--console", capsys=capsys)
    assert "useradd" not in out
    assert "would run: usermod --append --groups gpio,video,input table-companion" in out


def test_uninstall_keeps_config_and_data_unless_purged(tmp_path: Path, capsys) -> None:
    root = tmp_path / "root"
    root.mkdir()
    venv = root / "opt/table-companion/venv"
    venv.mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    install(root, "--console", capsys=capsys)
    journal = root / "var/lib/table-companion/journal.sqlite"
    journal.write_text("games")
    assert deploy.uninstall_main(["--root", str(root), "--venv",
                                  "/opt/table-companion/venv"]) == 0
    out = capsys.readouterr().out
    assert set(snapshot(root)) == {"etc/table-companion/config.yaml",
                                   "var/lib/table-companion/kivy/config.ini",
                                   "var/lib/table-companion/journal.sqlite"}
    assert "would run: systemctl disable --now table-companion-retry.timer\n" in out
    assert "would run: systemctl disable --now table-companion.service\n" in out
    assert not venv.exists()
    # nothing left to remove: says so, still succeeds
    assert deploy.uninstall_main(["--root", str(root), "--console", "--purge",
                                  "--venv", "/opt/table-companion/venv"]) == 0
    assert snapshot(root) == {}


def test_uninstall_never_deletes_what_is_not_a_venv(tmp_path: Path, capsys) -> None:
    root = tmp_path / "root"
    precious = root / "srv/photos"
    precious.mkdir(parents=True)
    (precious / "a.jpg").write_text("x")
    assert deploy.uninstall_main(["--root", str(root), "--console", "--venv", "/srv/photos"]) == 0
    assert (precious / "a.jpg").exists()
    assert "not a virtual environment" in capsys.readouterr().out


def test_update_pulls_installs_pinned_and_reinstalls(capsys) -> None:
    code = deploy.update_main(["--dry-run", "--console", "--venv", "/opt/table-companion/venv"])
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    repo = str(deploy.REPO)
    assert out == [
        f"would run: git -C {repo} pull --ff-only",
        f"would run: /opt/table-companion/venv/bin/pip install --quiet -c "
        f"{repo}/systemd/constraints.txt -e {repo}",
        # GPIO is optional: Debian's python3-lgpio, else lgpio's wheel or build
        "would run: /opt/table-companion/venv/bin/python -c 'import lgpio'",
        f"would run: env PYPI=1 /opt/table-companion/venv/bin/pip install --quiet -c "
        f"{repo}/systemd/constraints.txt -e '{repo}[pi]'",
        "would run: /opt/table-companion/venv/bin/companion install --console --user "
        "table-companion --venv /opt/table-companion/venv --touch mtdev",
    ]


def test_a_failing_step_stops_the_plan_unless_it_may_fail() -> None:
    lines: list[str] = []
    ran: list[tuple[str, ...]] = []

    def runner(argv):
        ran.append(tuple(argv))
        return 0 if argv[0] == "ok" else 3

    executor = deploy.Executor(Translator("en"), out=lines.append, runner=runner)
    steps = [deploy.Run(("bad", "1"), may_fail=True), deploy.Run(("ok",)),
             deploy.Run(("bad", "2")), deploy.Run(("ok", "never"))]
    assert executor.carry_out(steps) == 3
    assert ran == [("bad", "1"), ("ok",), ("bad", "2")]
    assert lines[-1] == "Stopped: a step failed (exit 3): bad 2"


def test_desktop_install_needs_a_user(capsys, monkeypatch: pytest.MonkeyPatch,
                                      tmp_path: Path) -> None:
    monkeypatch.delenv("SUDO_USER", raising=False)
    assert deploy.install_main(["--root", str(tmp_path), "--desktop", "--venv", "/v"]) == 1
    assert "--user" in capsys.readouterr().err
    assert snapshot(tmp_path) == {}


def test_pinned_versions_cover_the_runtime_dependencies() -> None:
    pins = {line.split("==")[0].lower() for line in
            (deploy.UNITS / "constraints.txt").read_text().splitlines()
            if "==" in line and not line.startswith("#")}
    assert {"kivy", "gpiozero", "lgpio", "pyserial", "pyyaml"} <= pins


def test_the_byte_compiled_packages_are_the_apps_code() -> None:
    # a package missing from the list would be compiled again at every start
    top = {p.parent.name for p in deploy.REPO.glob("*/__init__.py")}
    assert set(deploy.PACKAGES) == top - {"tests", "bench"}


@pytest.mark.parametrize("machine", ["armv7l", "armv6l"])
def test_a_32_bit_system_is_refused_with_why(capsys, monkeypatch: pytest.MonkeyPatch,
                                             machine: str) -> None:
    monkeypatch.setattr(deploy.platform, "machine", lambda: machine)
    assert deploy.install_main(["--dry-run", "--console", "--venv", "/v"]) == 1
    err = capsys.readouterr().err
    assert machine in err and "64-bit" in err and "Kivy" in err


def test_an_image_for_another_machine_is_not_judged_by_this_one(
        tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deploy.platform, "machine", lambda: "armv7l")
    install(tmp_path, "--console", capsys=capsys)  # --root: an image, written anyway


# -- the data folder on a RAM file system (raspi-config's Overlay File System) -----------
MOUNTINFO = """\
22 1 179:2 / / rw,noatime shared:1 - ext4 /dev/mmcblk0p2 rw
23 22 0:21 / /proc rw shared:2 - proc proc rw
30 22 0:26 / /run rw shared:5 - tmpfs tmpfs rw,size=94424k
41 22 8:1 / /media/pi/USB\\040STICK rw shared:9 - vfat /dev/sda1 rw
"""
# raspi-config's Overlay File System: / itself is an overlay over the read-only SD card
OVERLAY = """\
25 1 0:24 / / rw,relatime shared:1 - overlay overlayroot rw,lowerdir=/media/root-ro
26 25 179:2 / /media/root-ro ro,relatime shared:2 - ext4 /dev/mmcblk0p2 ro
"""


def test_a_data_folder_in_ram_is_found() -> None:
    assert deploy.volatile_fs(Path("/var/lib/table-companion"), MOUNTINFO) is None
    assert deploy.volatile_fs(Path("/run/table-companion"), MOUNTINFO) == "tmpfs"
    assert deploy.volatile_fs(Path("/media/pi/USB STICK/games"), MOUNTINFO) is None
    assert deploy.volatile_fs(Path("/var/lib/table-companion"), OVERLAY) == "overlay"
    assert deploy.volatile_fs(Path("/home/pi/.local/share/table-companion"), OVERLAY) \
        == "overlay"
    assert deploy.volatile_fs(Path("/media/root-ro/srv"), OVERLAY) is None


def test_the_install_warns_loudly_when_the_games_would_live_in_ram(
        capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deploy, "volatile_fs", lambda path: "overlay")
    monkeypatch.setattr(deploy.os, "geteuid", lambda: 0)
    assert deploy.install_main(["--dry-run", "--console", "--venv",
                                "/opt/table-companion/venv"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("WARNING: the games would be kept in /var/lib/table-companion, "
                          "on a overlay file system")
    assert "disable_overlayfs" in err and "data_dir" in err  # what to do


# -- `companion update` of a checkout owned by a user -------------------------------------
def test_update_runs_git_as_the_checkouts_owner() -> None:
    target = deploy.Target(mode="desktop", venv=Path("/opt/table-companion/venv"),
                           user="pi", home=Path("/home/pi"), repo=Path("/home/pi/src"))
    first = deploy.plan_update(target, "pi")[0]
    assert first == deploy.Run(("runuser", "-u", "pi", "--", "git", "-C", "/home/pi/src",
                                "pull", "--ff-only"))
    assert deploy.plan_update(target, None)[0].argv[0] == "git"  # our own checkout


def _git(*args: str, cwd: Path, user: str | None = None) -> subprocess.CompletedProcess[str]:
    argv = ["git", *args] if user is None else ["runuser", "-u", user, "--", "git", *args]
    env = {**os.environ, "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, env=env)


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("runuser"),
                    reason="needs root and runuser, as `sudo companion update` has")
def test_sudo_update_pulls_a_checkout_owned_by_a_user(tmp_path: Path) -> None:
    """Git refuses, as root, a repository another user owns ("dubious ownership"):
    the update's pull runs as the owner and leaves the checkout the owner's."""
    owner = "nobody"
    base = Path(tempfile.mkdtemp(prefix="tc-update-", dir="/tmp"))  # others may enter
    try:
        os.chmod(base, 0o755)
        origin, checkout = base / "origin", base / "checkout"
        origin.mkdir()
        assert _git("init", "-q", "-b", "main", cwd=origin).returncode == 0
        (origin / "README").write_text("one\n")
        _git("add", "README", cwd=origin)
        assert _git("commit", "-qm", "one", cwd=origin).returncode == 0
        assert _git("clone", "-q", str(origin), str(checkout), cwd=base).returncode == 0
        account = pwd.getpwnam(owner)
        for path in [checkout, *checkout.rglob("*"), origin, *origin.rglob("*")]:
            os.chown(path, account.pw_uid, account.pw_gid, follow_symlinks=False)
        (origin / "README").write_text("two\n")
        assert _git("commit", "-qam", "two", cwd=origin, user=owner).returncode == 0

        # what `sudo companion update` did before: git as root refuses the checkout
        refused = _git("-C", str(checkout), "pull", "--ff-only", cwd=base)
        assert refused.returncode != 0 and "dubious ownership" in refused.stderr

        target = deploy.Target(mode="console", venv=base / "venv", user="table-companion",
                               home=deploy.STATE_DIR, repo=checkout)
        assert deploy.owner_if_not_me(checkout) == owner
        pull = deploy.plan_update(target, deploy.owner_if_not_me(checkout))[0]
        lines: list[str] = []
        # as sudo runs it: HOME is root's, which the owner may not read
        env = {**os.environ, "HOME": "/root"}
        env.pop("GIT_CONFIG_GLOBAL", None)
        executor = deploy.Executor(Translator("en"), out=lines.append, runner=lambda argv:
                                   subprocess.call(list(argv), env=env))
        assert executor.carry_out([pull]) == 0, lines
        assert (checkout / "README").read_text() == "two\n"
        assert {p.stat().st_uid for p in [checkout, *checkout.rglob("*")]} \
            == {account.pw_uid}
    finally:
        shutil.rmtree(base)


def test_without_a_running_systemd_the_reload_may_fail(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A chroot (make test-arm64) or an image being prepared has no systemd to reload:
    the units are read at the next boot. On a running system a failed reload stops."""
    target = deploy.Target(mode="console", venv=Path("/opt/table-companion/venv"),
                           user="table-companion", home=deploy.STATE_DIR)

    def reload(steps: list[deploy.Step]) -> deploy.Run:
        [step] = [s for s in steps if isinstance(s, deploy.Run) and "daemon-reload" in s.argv]
        return step

    monkeypatch.setattr(deploy, "SYSTEMD_RUNTIME", tmp_path / "absent")
    assert reload(deploy.plan_install(target, deploy.Probe(tmp_path))).may_fail
    (tmp_path / "run-systemd").mkdir()
    monkeypatch.setattr(deploy, "SYSTEMD_RUNTIME", tmp_path / "run-systemd")
    assert not reload(deploy.plan_install(target, deploy.Probe(tmp_path))).may_fail
