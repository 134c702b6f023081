"""`companion check-config [FILE]`: OK and exit 0, or one line per problem and exit 1."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from ui.commands import checkconfig
from ui.commands.cli import main as companion


@pytest.fixture(autouse=True)
def _no_user_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    # nor the settings an earlier test of the run saved in the shared data folder
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.delenv("COMPANION_SETTINGS", raising=False)


def test_a_good_file_is_ok(tmp_path: Path, capsys) -> None:
    good = tmp_path / "good.yaml"
    good.write_text("display:\n  fullscreen: true\n  show_cursor: false\n")
    assert companion(["check-config", str(good)]) == 0
    assert capsys.readouterr().out == f"OK: {good}\n"


def test_every_problem_on_its_own_line(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("language: en\ndisplay:\n  fullscreen: maybe\n  width: 800\nvolume: 3\n")
    assert companion(["check-config", str(bad)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{bad}:3: display.fullscreen: expected boolean, found text",
                   f"{bad}:5: volume: unknown key"]


def test_problems_in_the_language_of_the_file(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("language: fr\ndisplay:\n  width: 20\n")
    assert checkconfig.main([str(bad)]) == 1
    captured = capsys.readouterr()
    assert captured.out.startswith(f"{bad}:3: display.width: ")
    assert captured.out != f"{bad}:3: display.width: must be at least 100\n"
    assert "problème" in captured.err


def test_broken_yaml_and_a_missing_file(tmp_path: Path, capsys) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("display:\n  width: [800\n")
    assert checkconfig.main([str(broken)]) == 1
    assert capsys.readouterr().out.startswith(f"{broken}:")
    missing = tmp_path / "missing.yaml"
    assert checkconfig.main([str(missing)]) == 1
    assert capsys.readouterr().out == f"{missing}: -: the file does not exist\n"


def test_without_a_file_the_users_file_is_checked(tmp_path: Path, capsys, monkeypatch) -> None:
    assert checkconfig.main([]) == 0
    assert capsys.readouterr().out.startswith("OK: the defaults only")
    mine = tmp_path / "xdg" / "table-companion" / "config.yaml"
    mine.parent.mkdir(parents=True)
    mine.write_text("language: de\n")
    assert checkconfig.main([]) == 1
    assert capsys.readouterr().out.startswith(f"{mine}:1: language: ")


def test_the_hardware_validators_are_loaded_when_they_can_be(monkeypatch) -> None:
    validators, reason = checkconfig.import_hardware()
    assert reason is None and set(validators) == {"hardware"}
    monkeypatch.setitem(sys.modules, "hardware", None)  # as if it failed to import
    validators, reason = checkconfig.import_hardware()
    assert reason is not None and "hardware" in reason and not validators


def test_check_config_never_imports_kivy(tmp_path: Path) -> None:
    import subprocess

    good = tmp_path / "good.yaml"
    good.write_text("language: en\n")
    code = ("import sys; from ui.commands.cli import main;"
            "rc = main(['check-config', sys.argv[1]]);"
            "assert 'kivy' not in sys.modules, 'kivy imported'; sys.exit(rc)")
    result = subprocess.run([sys.executable, "-c", code, str(good)], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
