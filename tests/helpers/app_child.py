"""The real app (`ui.main.main`) in a child process, with a check run once it started.

Kivy reads its config.ini and graphics settings once per process, when the window is
made: tests of those start the app in a child with its own KIVY_HOME or config file.
The child's script calls `run_app(check, argv)`; the parent calls `run_child`, which
returns what the check put in `RESULT`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
#: what the child's check found, printed as JSON on the line `RESULT ...` at exit
RESULT: dict[str, Any] = {}


def run_app(check: Callable[[Any], None], argv: list[str], delay: float = 0.5) -> int:
    """Start the app as `companion` does, then call `check(app)` `delay` s after it
    started; `check` stops the app when done."""
    from kivy.clock import Clock

    from ui import main as entry

    configure = entry.configure_kivy

    def configure_then_hook(cfg: Any) -> None:
        # ui.app makes the window on import: only once Kivy is configured, as main() does
        configure(cfg)
        from ui.app import CompanionApp

        started = CompanionApp.on_start

        def on_start(self: Any) -> None:
            started(self)
            Clock.schedule_once(lambda _dt: check(self), delay)

        CompanionApp.on_start = on_start  # type: ignore[method-assign]

    entry.configure_kivy = configure_then_hook  # type: ignore[assignment]
    code = entry.main(argv)
    print("RESULT " + json.dumps(RESULT))
    return code


def run_child(script: str, args: list[str], tmp_path: Path, kivy_home: Path,
              environment: dict[str, str] | None = None) -> dict[str, Any]:
    """Run `script` (Python source calling `run_app`) in a child with mock pins and
    empty user config, and `environment` (e.g. a unit's) on top; its RESULT."""
    env = {**os.environ, "KIVY_HOME": str(kivy_home), "GPIOZERO_PIN_FACTORY": "mock",
           "KIVY_NO_ARGS": "1", "KIVY_NO_CONSOLELOG": "1",
           "XDG_CONFIG_HOME": str(tmp_path / "xdg-empty")}
    env.pop("NOTIFY_SOCKET", None)
    env.pop("SDL_TOUCH_MOUSE_EVENTS", None)  # only what the test gives
    env.update(environment or {})
    child = subprocess.run([sys.executable, "-c", script, *args], capture_output=True,
                           text=True, env=env, timeout=120, cwd=REPO)
    lines = [line for line in child.stdout.splitlines() if line.startswith("RESULT ")]
    assert child.returncode == 0 and lines, child.stdout[-2000:] + child.stderr[-4000:]
    return json.loads(lines[-1].removeprefix("RESULT "))
