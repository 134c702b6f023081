"""Hostile configs are refused fast, with a line, and never take the app down.

Each file is made by the test. Each is refused by `companion check-config` within a
second with `file:line: key: message`, and by the app's start path, which then shows
the message on screen and stays up (no crash loop under systemd).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion import config
from tests.helpers.checked import load
from tests.test_deploy_watchdog import FakeNotifySocket
from ui.commands.cli import main as companion

ROOT = Path(__file__).resolve().parents[1]


def _laughs() -> bytes:
    text = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        text += f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]\n"
    return text.encode()


# name -> (the file's bytes, the message key, the line it names)
HOSTILE: dict[str, tuple[bytes, str, int]] = {
    "recursive_alias": (b"a: &a [*a, *a, 1]\n", "core.config.recursive_alias", 1),
    "billion_laughs": (_laughs(), "core.config.too_many_aliases", 5),
    "huge_width": (b"language: en\ndisplay:\n  width: 1000000000000000000000000000000\n",
                   "core.config.number_range", 3),
    "wide_window": (b"display:\n  width: 100000\n", "core.config.number_range", 2),
    "huge_file": (b"# a comment line\n" * (10 * 1024 * 1024 // 17), "core.config.too_big",
                  config.MAX_BYTES // 17 + 1),
    # 50 000 levels do not fit in the size bound; within it, the depth bound refuses
    "deep_50000": (b"display: " + b"[" * 50_000 + b"]" * 50_000 + b"\n",
                   "core.config.too_big", 1),
    "deep_flow": (b"display: " + b"[" * 50_000 + b"\n", "core.config.syntax", 1),
    "deep_mapping": (b"language: en\nx: " + b"{a: " * 10_000 + b"1" + b"}" * 10_000 + b"\n",
                     "core.config.too_deep", 2),
    "deep_block": (b"".join(b" " * i + b"a:\n" for i in range(200)),
                   "core.config.too_deep", 33),
    "invalid_utf8": (b"language: en\n# caf\xe9 au lait\n", "core.config.not_utf8", 2),
    "merge_key": (b"base: &b {width: 900}\ndisplay:\n  <<: *b\n", "core.config.merge_key", 3),
    "python_tag": (b"language: !!python/object/apply:os.system [ls]\n", "core.config.tag", 1),
    "nan": (b"display:\n  roll_animation: .nan\n", "core.config.number_range", 2),
    "infinite_dim": (b"display:\n  dim_after: .inf\n", "core.config.wrong_type", 2),
    "dim_a_year": (b"display:\n  dim_after: 31536000\n", "core.config.number_range", 2),
    "blank_backwards": (b"display:\n  blank_after: -5\n", "core.config.number_range", 2),
}


@pytest.fixture(autouse=True)
def _no_user_files(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)


def _write(tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_bytes(HOSTILE[name][0])
    return path


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_refused_by_the_loader_fast_with_a_line(tmp_path: Path, name: str) -> None:

    path = _write(tmp_path, name)
    _, key, line = HOSTILE[name]
    started = time.monotonic()
    with pytest.raises(config.ConfigError) as err:
        load(path, use_default_user_file=False)
    assert time.monotonic() - started < 1.0
    [problem] = err.value.problems
    assert (problem.file, problem.line, problem.message.key) == (str(path), line, key)


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_refused_by_check_config_fast_with_file_line_key(tmp_path: Path, name: str,
                                                         capsys) -> None:
    path = _write(tmp_path, name)
    started = time.monotonic()
    assert companion(["check-config", str(path)]) == 1
    assert time.monotonic() - started < 1.0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1
    assert out[0].startswith(f"{path}:{HOSTILE[name][2]}: ")
    assert "{" not in out[0]  # translated, every value filled in


@pytest.mark.parametrize(("text", "where"), [
    ("a: &a [*a]\n", "a.0"),
    ("display:\n  x: &x {y: [1, *x]}\n", "display.x.y.1"),
    ("base: &b {w: 1}\ndisplay:\n  <<: *b\n", "display.<<"),
    ("hardware:\n  buttons:\n    pins: !!set {1: null}\n", "hardware.buttons.pins"),
])
def test_a_refusal_names_the_key(tmp_path: Path, text: str, where: str) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(config.ConfigError) as err:
        config.read_yaml(path)
    assert err.value.problems[0].key == where


def test_a_few_aliases_are_still_fine(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text("hardware:\n  buzzer:\n    tunes:\n      roll: &r 'C5/8'\n"
                    "      victory: *r\n", encoding="utf-8")

    loaded = load(path, use_default_user_file=False)
    assert loaded.get("hardware.buzzer.tunes.victory") == "C5/8"


def test_aliases_that_multiply_past_the_bound_are_refused(tmp_path: Path) -> None:
    # few aliases, but each names a list of aliases: the expansion is bounded too
    lines = ["a: &a [" + ",".join(["1"] * 400) + "]"]
    lines += ["b: &b [" + ",".join(["*a"] * 15) + "]"]
    lines += ["c: [" + ",".join(["*b"] * 15) + "]"]
    path = tmp_path / "c.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    started = time.monotonic()
    with pytest.raises(config.ConfigError) as err:
        config.read_yaml(path)
    assert time.monotonic() - started < 1.0
    assert err.value.problems[0].message.key == "core.config.too_many_values"
    # the line of the value, the key of where it was expanded
    assert err.value.problems[0].line == 1 and err.value.problems[0].key.startswith("c.")


# -- the app's start path ----------------------------------------------------------------
def _start(path: Path, tmp_path: Path, notify: str) -> subprocess.Popen[str]:
    env = dict(os.environ, NOTIFY_SOCKET=notify, XDG_CONFIG_HOME=str(tmp_path / "xdg"),
               XDG_DATA_HOME=str(tmp_path / "data"), KIVY_HOME=str(tmp_path / "kivy"))
    env.pop("COMPANION_CONFIG", None)
    return subprocess.Popen([sys.executable, "-m", "ui.commands.cli", "--config", str(path)],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)


@pytest.mark.ui
@pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (xvfb-run)")
@pytest.mark.parametrize("name", ["recursive_alias", "billion_laughs", "huge_width",
                                  "huge_file", "deep_50000", "invalid_utf8", "merge_key"])
def test_the_app_shows_the_refusal_and_stays_up(tmp_path: Path, name: str) -> None:
    path = _write(tmp_path, name)
    address = str(tmp_path / "notify")
    fake = FakeNotifySocket(address)
    app = _start(path, tmp_path, address)
    try:
        messages: list[str] = []
        deadline = time.monotonic() + 60
        while not any(m.startswith("READY=1") for m in messages):
            assert app.poll() is None, app.stderr.read() if app.stderr else ""
            assert time.monotonic() < deadline
            messages += fake.drain()
        # the problem screen is up: its status names the refusal; it does not exit
        assert any(m.startswith("STATUS=") for m in messages)
        time.sleep(1.0)
        assert app.poll() is None
    finally:
        app.send_signal(signal.SIGTERM)
        try:
            _, err = app.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            app.kill()
            _, err = app.communicate()
        fake.close()
    line = HOSTILE[name][2]
    assert re.search(rf"^{re.escape(str(path))}:{line}: ", err, re.M), err[-2000:]


def test_the_shipped_defaults_are_within_the_bounds() -> None:
    # a start reads them without the event walk (`scan=False`): they must pass it
    files = [config.CONFIG_DIR / "app.yaml", config.CONFIG_DIR / "hardware.yaml",
             *sorted((config.CONFIG_DIR / "games").glob("*.yaml"))]
    assert len(files) >= 6
    for path in files:
        data, _ = config.read_yaml(path, scan=True)
        assert isinstance(data, dict)


@pytest.mark.parametrize(("text", "key", "low", "high"), [
    ("display:\n  width: 99999\n", "display.width", 100, 7680),
    ("display:\n  width: 1000000000000000000000000000000\n", "display.width", 100, 7680),
    ("display:\n  height: 50\n", "display.height", 100, 7680),
    ("display:\n  dim_after: 99999999\n", "display.dim_after", 0, 86400),
    ("display:\n  blank_after: 99999999\n", "display.blank_after", 0, 86400),
    ("games:\n  evil:\n    dial_steps: 1000000\n", "games.evil.dial_steps", 4, 60),
    ("games:\n  evil:\n    step_minutes: 1000\n", "games.evil.step_minutes", 1, 60),
    ("games:\n  tray:\n    max_dice: 100000\n", "games.tray.max_dice", 1, 100),
    ("games:\n  tray:\n    history: 100000000\n", "games.tray.history", 1, 10000),
    ("hardware:\n  ring:\n    retries: 10000000000\n", "hardware.ring.retries",
     -config.NUMBER_LIMIT, config.NUMBER_LIMIT),
])
def test_a_value_out_of_range_is_refused_with_its_range(tmp_path: Path, capsys, text: str,
                                                        key: str, low: int,
                                                        high: int) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(text, encoding="utf-8")
    assert companion(["check-config", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert any(line.startswith(f"{path}:") and f": {key}: " in line
               and f"{low} .. {high}" in line for line in out), out
