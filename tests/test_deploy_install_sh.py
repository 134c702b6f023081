"""systemd/install.sh on Raspberry Pi OS trixie (Python 3.13) and bookworm (3.11):
which Debian packages, which venv flags, GPIO optional, 32-bit refused.

The script runs for real, with apt, dpkg, pip and the venv's programs replaced by
small fakes on PATH that log their arguments: nothing is installed.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from ui.commands import deploy

SCRIPT = deploy.UNITS / "install.sh"
RASPIOS = {"trixie": "13", "bookworm": "12"}


def fake(bin_dir: Path, name: str, body: str) -> None:
    path = bin_dir / name
    path.write_text(f"#!/bin/sh\necho \"{name} $*\" >> \"$FAKE_LOG\"\n{body}\n")
    path.chmod(0o755)


@pytest.fixture
def system(tmp_path: Path):
    """A make-believe Pi: returns run(codename, arch, available=..., ...) -> result."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "log"
    fake(bin_dir, "apt-cache", 'case " $FAKE_AVAILABLE " in *" $2 "*) exit 0;; esac; exit 100')
    fake(bin_dir, "dpkg", 'case " $FAKE_INSTALLED " in *" $2 "*) exit 0;; esac; exit 1')
    fake(bin_dir, "apt-get", '[ "$1" = update ] && exit "${FAKE_APT_UPDATE:-0}"; exit 0')
    fake(bin_dir, "id", "echo 0")  # as root (sudo)

    def run(codename: str, arch: str = "arm64", *args: str, available: str = "",
            installed: str = "", venv: Path | None = None,
            **env: str) -> subprocess.CompletedProcess[str]:
        release = tmp_path / f"os-release-{codename}"
        release.write_text(f'PRETTY_NAME="Debian GNU/Linux {RASPIOS.get(codename, "?")} '
                           f'({codename})"\nVERSION_CODENAME={codename}\n')
        log.write_text("")
        environ = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}",
                   "COMPANION_OS_RELEASE": str(release), "COMPANION_ARCH": arch,
                   "COMPANION_VENV": str(venv or tmp_path / "venv"), "FAKE_LOG": str(log),
                   "FAKE_AVAILABLE": available, "FAKE_INSTALLED": installed, **env}
        result = subprocess.run(["sh", str(SCRIPT), *args], capture_output=True, text=True,
                                env=environ, timeout=60)
        result.log = log.read_text()  # type: ignore[attr-defined]
        return result

    return run


# What apt knows on Raspberry Pi OS (its archive has python3-lgpio on both releases).
RASPIOS_APT = "python3-lgpio liblgpio-dev swig gcc python3-dev"
# Plain Debian 12 and 13: no lgpio at all (neither python3-lgpio nor liblgpio-dev).
DEBIAN_APT = "swig gcc libc6-dev python3-dev"
# Every package the installer may ask Debian for, checked against Debian's own lists.
DEBIAN_NAMES = set(
    ("python3-venv git libmtdev1 libgl1 libegl1 libgles2 libgbm1 libdrm2 " + DEBIAN_APT).split())


def apt_install(out: str) -> list[str]:
    lines = [line for line in out.splitlines() if "apt-get install" in line]
    return [word for line in lines for word in line.split("-qq", 1)[1].split()]


@pytest.mark.parametrize("codename", ["trixie", "bookworm"])
def test_raspberry_pi_os_gets_gpio_from_debian_and_a_venv_that_sees_it(system, codename) -> None:
    result = system(codename, "arm64", "--dry-run", available=RASPIOS_APT)
    assert result.returncode == 0, result.stderr
    packages = apt_install(result.stdout)
    assert "python3-lgpio" in packages
    assert {"python3-venv", "libmtdev1", "libgles2", "libgbm1"} <= set(packages)
    assert not {"swig", "gcc"} & set(packages)  # nothing to build
    assert "python3 -m venv --system-site-packages" in result.stdout
    assert f"-c {deploy.REPO}/systemd/constraints.txt -e {deploy.REPO}\n" \
        in result.stdout
    # the optional GPIO part comes after, on its own
    assert "import lgpio" in result.stdout.split("-e " + str(deploy.REPO) + "\n", 1)[1]
    assert "would run:" in result.stdout and "companion install" in result.stdout


def test_a_debian_without_python3_lgpio_gets_what_building_lgpio_needs(system) -> None:
    result = system("trixie", "amd64", "--dry-run", available=DEBIAN_APT)
    assert result.returncode == 0, result.stderr
    packages = apt_install(result.stdout)
    assert {"swig", "gcc", "libc6-dev", "python3-dev"} <= set(packages)  # a compiler too
    assert set(packages) <= DEBIAN_NAMES  # only names plain Debian has
    # lgpio's source is built with its own copy of the lg library (no liblgpio-dev)
    assert "env PYPI=1 " in result.stdout and "[pi]" in result.stdout


def test_the_gpio_build_bundles_the_lg_library(system, tmp_path: Path) -> None:
    venv = make_venv(tmp_path, lgpio_importable=False, pi_extra_ok=True)
    (venv / "bin/pip").write_text(
        '#!/bin/sh\necho "pip PYPI=${PYPI:-unset} $*" >> "$FAKE_LOG"\nexit 0\n')
    installed = ("python3-venv git libmtdev1 libgl1 libegl1 libgles2 libgbm1 libdrm2 "
                 + DEBIAN_APT)
    result = system("trixie", "arm64", venv=venv, available=DEBIAN_APT, installed=installed)
    assert result.returncode == 0, result.stderr
    pi_install = [line for line in result.log.splitlines() if "[pi]" in line]
    assert pi_install and all(line.startswith("pip PYPI=1 ") for line in pi_install)


@pytest.mark.skipif(not Path("/var/lib/apt/lists").is_dir(), reason="not a Debian system")
def test_every_package_named_for_plain_debian_exists_in_its_lists() -> None:
    """Asked of this machine's apt (Debian 12 or 13, after `apt-get update`)."""
    def known(name: str) -> bool:
        return subprocess.run(["apt-cache", "show", "--no-all-versions", name],
                              capture_output=True).returncode == 0

    if not known("python3"):
        pytest.skip("apt's lists are empty here (no `apt-get update` yet)")
    # Debian 13 renamed some libraries (libmtdev1 -> libmtdev1t64), which apt still finds
    assert [n for n in sorted(DEBIAN_NAMES) if not (known(n) or known(f"{n}t64"))] == []


def test_list_packages_is_the_plan_for_this_release(system) -> None:
    result = system("trixie", "arm64", "--list-packages", available=RASPIOS_APT)
    assert result.returncode == 0
    assert "python3-lgpio" in result.stdout.split()
    assert "gcc" not in result.stdout.split()


@pytest.mark.parametrize("arch", ["armhf", "armv7l", "armel"])
def test_32_bit_raspberry_pi_os_is_refused_with_why(system, arch: str) -> None:
    result = system("bookworm", arch, "--dry-run", available=RASPIOS_APT)
    assert result.returncode == 2
    assert "32-bit" in result.stderr and "64-bit" in result.stderr
    assert "Kivy" in result.stderr  # the why
    assert "would run" not in result.stdout  # nothing attempted


def test_an_old_venv_is_made_to_see_the_system_packages(system, tmp_path: Path) -> None:
    venv = tmp_path / "old-venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin/python").write_text("#!/bin/sh\n")
    (venv / "bin/python").chmod(0o755)
    (venv / "pyvenv.cfg").write_text("include-system-site-packages = false\n")
    result = system("trixie", "arm64", "--dry-run", venv=venv, available=RASPIOS_APT)
    assert result.returncode == 0
    assert "include-system-site-packages = true" in result.stdout


def make_venv(tmp_path: Path, lgpio_importable: bool, pi_extra_ok: bool,
              core_ok: bool = True) -> Path:
    """A venv whose python, pip and companion are fakes logging to $FAKE_LOG."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("include-system-site-packages = true\n")
    fake(venv / "bin", "python",
         f'case "$*" in *"import lgpio"*) exit {0 if lgpio_importable else 1};; esac; exit 0')
    fake(venv / "bin", "pip",
         f'case "$*" in *"[pi]"*) exit {0 if pi_extra_ok else 1};; '
         f'*install*-e*) exit {0 if core_ok else 1};; esac; exit 0')
    fake(venv / "bin", "companion", 'echo "companion $*"')
    return venv


def test_a_failed_gpio_build_does_not_abort_the_install(system, tmp_path: Path) -> None:
    venv = make_venv(tmp_path, lgpio_importable=False, pi_extra_ok=False)
    result = system("trixie", "arm64", "--console", venv=venv, available=DEBIAN_APT,
                    installed="python3-venv git libmtdev1 libgl1 libegl1 libgles2 libgbm1 "
                              "libdrm2 swig gcc python3-dev")
    assert result.returncode == 0, result.stderr
    assert "GPIO: lgpio could not be installed" in result.stderr
    assert "python3-lgpio" in result.stderr  # what to do
    assert f"companion install --venv {venv} --console" in result.stdout  # went on


def test_debians_lgpio_is_used_without_pip(system, tmp_path: Path) -> None:
    venv = make_venv(tmp_path, lgpio_importable=True, pi_extra_ok=False)
    result = system("trixie", "arm64", venv=venv, available=RASPIOS_APT,
                    installed="python3-venv git libmtdev1 libgl1 libegl1 libgles2 libgbm1 "
                              "libdrm2 python3-lgpio")
    assert result.returncode == 0, result.stderr
    assert "GPIO: lgpio is there" in result.stdout
    assert "[pi]" not in result.log  # never asked pip for lgpio


def test_no_network_stops_with_what_to_do(system, tmp_path: Path) -> None:
    venv = make_venv(tmp_path, lgpio_importable=False, pi_extra_ok=False)
    result = system("trixie", "arm64", venv=venv, available=RASPIOS_APT,
                    FAKE_APT_UPDATE="100")
    assert result.returncode == 1
    assert "network" in result.stderr
    assert "companion" not in result.stdout.split("run:")[-1]


def test_pip_failing_for_the_app_stops_with_what_to_do(system, tmp_path: Path) -> None:
    venv = make_venv(tmp_path, lgpio_importable=False, pi_extra_ok=False, core_ok=False)
    result = system("bookworm", "arm64", venv=venv, available=RASPIOS_APT,
                    installed="python3-venv git libmtdev1 libgl1 libegl1 libgles2 libgbm1 "
                              "libdrm2 python3-lgpio")
    assert result.returncode == 1
    assert "pinned packages" in result.stderr and "again" in result.stderr


def test_lgpio_can_never_resolve_to_the_empty_wheel() -> None:
    """PyPI serves an empty `lgpio 0.0.0.2` wheel for Python 3.13: the pins forbid it."""
    pins = dict(line.split("==") for line in
                (deploy.UNITS / "constraints.txt").read_text().splitlines()
                if "==" in line and not line.startswith("#"))
    assert pins["lgpio"] == "0.2.2.0"
    pyproject = (deploy.REPO / "pyproject.toml").read_text()
    assert 'pi = ["lgpio>=0.2.2.0"]' in pyproject
