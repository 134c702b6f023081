"""The real app (`ui.main.main`) with a running clock (a checkpoint every 1 s) whose
writes fail for 12.5 s: strace on the whole process, as issue 44 reproduces it
(`strace -f -p PID -e inject=pwrite64,fdatasync,fsync,ftruncate:error=EROFS`), then
lifted. Prints RESULT: the tries made meanwhile, what the turn area said, the dialog,
the log lines, and that the app was still up and saving afterwards. Run by hand:

    KIVY_NO_ARGS=1 GPIOZERO_PIN_FACTORY=mock xvfb-run -a \\
        .venv/bin/python tests/helpers/failing_card_child.py EROFS DATA_DIR
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time
from typing import Any

sys.path.insert(0, os.getcwd())

from tests.helpers.app_child import RESULT, run_app
from tests.helpers.clock import setup

CALLS = "pwrite64,fdatasync,fsync,ftruncate"
lines: list[str] = []


class Kept(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        lines.append(record.getMessage())


def check(app: Any, error: str) -> None:
    from kivy.clock import Clock

    from companion.games.clock import commands as c
    from ui.screens.clock import moment

    app.start_game("clock", setup({"mode": "bank", "time": "5m", "checkpoint": "1s"}, 2),
                   done=lambda _s: app.send(c.Start(at=moment.now())))
    tried: list[int] = []
    submit = app.writer.submit

    def counted(job: Any, derived: Any = None) -> Any:
        tried.append(1)
        return submit(job, derived)

    app.writer.submit = counted
    held: dict[str, Any] = {}

    def fail(_dt: float) -> None:
        held["strace"] = subprocess.Popen(
            ["strace", "-f", "-o", os.devnull, "-p", str(os.getpid()), "-e", f"trace={CALLS}",
             "-e", f"inject={CALLS}:error={error}"], stderr=subprocess.DEVNULL)
        held["tried"], held["at"] = len(tried), time.monotonic()

    def lift(_dt: float) -> None:
        held["strace"].terminate()
        held["strace"].wait()
        screen = app.root.get_screen("clock_play")
        said = [line for line in lines if "not saved" in line]
        RESULT.update(tried_while_failing=len(tried) - held["tried"],
                      seconds=round(time.monotonic() - held["at"], 1),
                      info=screen.info_label.text, dialog=app.dialog and app.dialog.tid,
                      log=said[:2], log_lines=len(said))

    def after(_dt: float) -> None:
        screen = app.root.get_screen("clock_play")
        RESULT.update(after_info=screen.info_label.text, alive=True,
                      after_steps=[type(s.command).__name__ for s in app.session.steps][-3:])
        app.stop()

    Clock.schedule_once(fail, 1.5)
    Clock.schedule_once(lift, 14.0)
    Clock.schedule_once(after, 17.0)


if __name__ == "__main__":
    logging.getLogger().addHandler(Kept())
    sys.exit(run_app(lambda app: check(app, sys.argv[1]), ["--data-dir", sys.argv[2]],
                     delay=3.0))
