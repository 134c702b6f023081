"""The real app (`companion`, `ui.main.main`) started on the app's own damaged files
(issue 33): nothing it wrote itself can lock the table out.

- a `config-parsed.json` left on the card, forged with its checksum right: never read
  (the config's files are parsed at every start, issue 44);
- a start that fails before its first frame starts again once (same process id);
- `settings.yaml` refused: set aside, the start goes on, and the table is told which
  settings no longer apply, in French and in English.
"""

from __future__ import annotations

import json
import os
import zlib
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.app_child import run_child
from tests.uidriver import ARTIFACTS

pytestmark = pytest.mark.ui

CHILD = r"""
import logging, os, sys
from pathlib import Path
from tests.helpers.app_child import RESULT as result, run_app

TMP = Path(sys.argv[-1])
with open(TMP / "starts.txt", "a") as starts:  # each process that runs this start
    starts.write(f"{os.getpid()}\n")
said = []


class Said(logging.Handler):
    def emit(self, record):
        said.append(record.getMessage())


logging.getLogger("companion.config").addHandler(Said())


def check(app):
    from kivy.clock import Clock
    from tests.uidriver import Driver

    ui = Driver(app)
    result["screen"] = ui.screen
    result["language"] = app.settings.get("language")
    result["width"] = app.settings.get("display.width")
    result["said"] = said
    result["dialog"] = ui.dialog
    if ui.dialog == "settings_dropped":
        result["text"] = ui.text("settings_dropped.text")
        result["shot"] = str(ui.screenshot(f"settings-dropped-{result['language']}"))
        ui.tap("settings_dropped.ok")
        result["after_ok"] = ui.dialog
    ui.tap("home.game.evil")
    result["then"] = ui.screen
    Clock.schedule_once(lambda _dt: app.stop(), 0.5)


sys.exit(run_app(check, sys.argv[1:-1]))
"""


def start(tmp_path: Path, user: str | None = "language: fr\n") -> dict[str, Any]:
    """`companion --data-dir data [--config config.yaml]`, in a child under Xvfb."""
    args = ["--data-dir", str(tmp_path / "data")]
    if user is not None:
        (tmp_path / "config.yaml").write_text(user, encoding="utf-8")
        args += ["--config", str(tmp_path / "config.yaml")]
    (tmp_path / "starts.txt").unlink(missing_ok=True)
    found = run_child(CHILD, [*args, str(tmp_path)], tmp_path, tmp_path / "kivy")
    found["starts"] = (tmp_path / "starts.txt").read_text().split()
    return found


def copies(tmp_path: Path) -> Path:
    return tmp_path / "data" / "config-parsed.json"


FAILING = r"""
import json, os, sys
from pathlib import Path
from kivy.clock import Clock
from bench.apps import FlipProbe
from ui import main as entry

TMP, MODE = Path(sys.argv[-1]), sys.argv[-2]
with open(TMP / "starts.txt", "a") as starts:  # each process that runs this start
    starts.write(f"{os.getpid()}\n")
result = {}

def at_frame(n, _t):
    from kivy.app import App

    if n != 1:
        return
    app = App.get_running_app()
    result["shown"] = getattr(app.root, "current", None) or str(app.root.text)
    Clock.schedule_once(lambda _dt: app.stop(), 0)


probe = FlipProbe(at_frame)  # held: the clock keeps only a weak reference
configure = entry.configure_kivy


def configure_then_hook(cfg):
    configure(cfg)
    Clock.schedule_once(probe.install, 0)
    if cfg is None:
        return  # the problem screen
    from ui.app import CompanionApp

    build = CompanionApp.build

    def failing_build(self):
        # a start that breaks before its first frame (once, or every time)
        if MODE == "always" or not os.environ.get("COMPANION_START_RETRIED"):
            raise RuntimeError("the start broke")
        return build(self)

    CompanionApp.build = failing_build


entry.configure_kivy = configure_then_hook
code = entry.main(sys.argv[1:-2])
print("RESULT " + json.dumps(result), flush=True)
sys.exit(code)
"""


def start_failing(tmp_path: Path, mode: str, *extra: str
                  ) -> tuple[int, dict[str, Any], list[str]]:
    import subprocess
    import sys

    from tests.helpers.app_child import REPO

    (tmp_path / "starts.txt").unlink(missing_ok=True)
    env = {**os.environ, "KIVY_HOME": str(tmp_path / "kivy"), "GPIOZERO_PIN_FACTORY": "mock",
           "KIVY_NO_ARGS": "1", "KIVY_NO_CONSOLELOG": "1",
           "XDG_CONFIG_HOME": str(tmp_path / "xdg-empty")}
    env.pop("NOTIFY_SOCKET", None)
    env.pop("COMPANION_START_RETRIED", None)
    child = subprocess.run([sys.executable, "-c", FAILING, "--data-dir", str(tmp_path / "data"),
                            *extra, mode, str(tmp_path)], capture_output=True, text=True, env=env,
                           timeout=180, cwd=REPO)
    lines = [line for line in child.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, child.stdout[-2000:] + child.stderr[-4000:]
    return (child.returncode, json.loads(lines[-1].removeprefix("RESULT ")),
            (tmp_path / "starts.txt").read_text().split())


def test_a_start_that_fails_once_starts_again(tmp_path: Path) -> None:
    """A failure before the first frame starts the app once more, same process id
    (systemd's): a failure that does not come back never shows a problem screen."""
    code, again, starts = start_failing(tmp_path, "once")
    assert code == 0 and again == {"shown": "home"}  # the second process's
    assert len(starts) == 2 and len(set(starts)) == 1  # tried again, in the same process


def test_a_start_that_fails_again_from_the_files_shows_the_problem(tmp_path: Path) -> None:
    code, shown, starts = start_failing(tmp_path, "always")
    assert code == 2 and len(starts) == 3 and len(set(starts)) == 1
    text = shown["shown"]
    assert text.startswith("The app could not start, twice in a row:")
    assert "RuntimeError: the start broke" in text


def test_a_named_pipe_for_the_user_s_config_shows_the_problem_at_once(
        tmp_path: Path) -> None:
    pipe = tmp_path / "config.yaml"
    os.mkfifo(pipe)
    code, shown, starts = start_failing(tmp_path, "once", "--config", str(pipe))
    assert code == 2 and len(starts) == 1
    assert shown["shown"].startswith("The configuration has problems")
    assert f"{pipe}: -: not a regular file" in shown["shown"]


GAME = r"""
import sys
from tests.helpers.app_child import RESULT as result, run_app


def check(app):
    # once the app's own work after its first frame is done (the game is played)
    from kivy.clock import Clock
    from kivy.core.window import Window

    app.after_first_frame(lambda: Clock.schedule_once(lambda _dt: play(app)))
    Window.canvas.ask_update()  # a frame to come, if the first one is already shown


def play(app):
    from kivy.clock import Clock
    from tests.test_ui_evil import new_game
    from tests.uidriver import Driver

    ui = Driver(app)
    new_game(ui)
    ui.tap("play.roll")
    roll = app.session.state.last_roll
    result["screen"] = ui.screen
    result["roll"] = [roll.professor, roll.colour, roll.clock]
    result["dice"] = app.settings.get("games.evil.dice")
    Clock.schedule_once(lambda _dt: app.stop(), 0.5)


sys.exit(run_app(check, sys.argv[1:]))
"""


def run_script(script: str, args: list[str], tmp_path: Path
               ) -> tuple[int, dict[str, Any] | None, str]:
    """A child running `script` with mock pins and no user config of its own:
    its exit code, its RESULT (None when it printed none) and what it printed."""
    import subprocess
    import sys

    from tests.helpers.app_child import REPO

    # the console log on: Kivy would otherwise take stderr, and the traceback with it
    env = {**os.environ, "KIVY_HOME": str(tmp_path / "kivy"), "GPIOZERO_PIN_FACTORY": "mock",
           "KIVY_NO_ARGS": "1", "XDG_CONFIG_HOME": str(tmp_path / "xdg-empty")}
    env.pop("NOTIFY_SOCKET", None)
    env.pop("COMPANION_START_RETRIED", None)
    env.pop("KIVY_NO_CONSOLELOG", None)
    child = subprocess.run([sys.executable, "-c", script, *args], capture_output=True,
                           text=True, env=env, timeout=180, cwd=REPO)
    lines = [line for line in child.stdout.splitlines() if line.startswith("RESULT ")]
    found = json.loads(lines[-1].removeprefix("RESULT ")) if lines else None
    return child.returncode, found, child.stdout[-3000:] + child.stderr


def forged_copies(path: Path) -> None:
    """`config-parsed.json` as the parsed-config cache kept it, its checksum and the
    reader's stamp right, Pr. Evil's dice made a number (issue 44, item 5)."""
    import yaml

    from companion import config

    text = (config.CONFIG_DIR / "games" / "evil.yaml").read_text(encoding="utf-8")
    evil = yaml.safe_load(text)
    evil["dice"] = 5
    body = json.dumps({json.dumps([["games", "evil"], False, text]): [evil, []]}).encode()
    stamp = f"{zlib.crc32((Path(config.__file__)).read_bytes()):08x}"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(f"companion-parsed-copies 2 {stamp} {zlib.crc32(body):08x}\n".encode()
                     + body)


def test_a_forged_parsed_copy_of_a_game_s_dice_is_not_read(tmp_path: Path) -> None:
    """What a start parsed is not kept for the next: a `config-parsed.json` left on the
    card (forged, its checksum right) is never read, and Pr. Evil plays the dice of
    its files, at every start."""
    (tmp_path / "config.yaml").write_text("language: en\n", encoding="utf-8")
    args = ["--config", str(tmp_path / "config.yaml"), "--data-dir", str(tmp_path / "data")]
    forged_copies(copies(tmp_path))
    for _ in range(2):
        code, played, stderr = run_script(GAME, args, tmp_path)
        assert code == 0 and played is not None, stderr[-3000:]
        assert played["screen"] == "evil_play" and played["dice"]["clock"][-1] == "clock2"
        assert played["roll"][2] in played["dice"]["clock"]
        (tmp_path / "data" / "journal.sqlite3").unlink()  # the next start: a new game


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_refused_settings_file_is_set_aside_and_the_table_told(
        tmp_path: Path, language: str) -> None:
    data = tmp_path / "data"
    data.mkdir()
    settings = data / "settings.yaml"
    settings.write_text("display:\n  dim_after: -5\nhardware:\n  buzzer:\n    volume: 0.3\n",
                        encoding="utf-8")
    told = start(tmp_path, user=f"language: {language}\n")
    assert told["screen"] == "home" and told["language"] == language
    assert told["dialog"] == "settings_dropped"
    text = told["text"]
    assert "display.dim_after, hardware.buzzer.volume" in text
    assert "settings.yaml:2: display.dim_after:" in text
    (kept,) = [p for p in data.iterdir() if p.name.startswith("settings.yaml.refused-")
               and not p.name.endswith(".reason")]
    assert kept.name in text and not settings.exists()
    expected = {"en": "2 settings chosen on screen could not be used",
                "fr": "2 réglages choisis à l'écran n'ont pas pu être utilisés"}[language]
    assert expected in text
    assert told["after_ok"] is None and told["then"] == "evil_setup"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    assert Path(told["shot"]).is_file()
    again = start(tmp_path, user=f"language: {language}\n")
    assert again["dialog"] is None and again["screen"] == "home"


def test_a_message_told_under_an_open_dialog_waits_for_it(launch: Any) -> None:
    """`CompanionApp.tell`: the set-aside settings message never replaces a dialog the
    start opened (a resumed game's question): it comes once that one is closed."""
    from ui.dialogs import message

    ui = launch()
    message("First", "the start's own dialog", tid="first")
    ui.app.tell("Later", "told while the first was open", tid="later")
    ui.pump(3)
    assert ui.dialog == "first"
    ui.tap("first.ok")
    assert ui.dialog == "later"
    assert ui.text("later.text") == "told while the first was open"
    ui.tap("later.ok")
    assert ui.dialog is None and ui.screen == "home"
