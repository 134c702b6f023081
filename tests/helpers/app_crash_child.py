"""The real-app crash test's child: the Kivy app on a journal, playing its own table.

Usage: python app_crash_child.py JOURNAL GAME_ID (under an X display). The app starts
as `companion` does (config, journal, CompanionApp) and reopens the unfinished game
itself; after the first frame the child prints `ready <entries> <digest>` of the app's
session, then acts through the app (`send`, `undo`, `redo`: the path of a touch), the
next action as soon as the one before is shown, printing `sending <entries>` as it
hands one over and `<entries committed> <digest>` for each action once acknowledged:
once the frame that shows it is swapped to the screen. When the screen is told of an
action, the child reads the file through a connection of its own: an action shown
before it is in the file is printed as `early <entries> <in the file>`.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))  # not ~/.kivy


def main() -> None:
    path, game_id = sys.argv[1], int(sys.argv[2])
    from companion import config
    from ui.main import configure_kivy

    cfg = config.load(use_default_user_file=False)
    configure_kivy(cfg)
    from kivy.clock import Clock

    from companion.journal import Journal
    from tests.helpers.tables import digest, next_action
    from ui.app import CompanionApp

    journal = Journal(path)
    app = CompanionApp(cfg, journal, new_seed=lambda: 1)
    app.roll_guard = 0  # the child rolls as soon as the last roll is shown
    import sqlite3

    looker = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    seq = 0
    shown: list[str] = []  # acknowledged by the next swap
    from kivy.core.window import Window

    swap = Window.flip

    def flip() -> None:
        swap()
        if shown:
            sys.stdout.write("".join(shown))
            sys.stdout.flush()
            shown.clear()

    Window.flip = flip

    def told(_update: object) -> None:  # after the app's observer: on screen this frame
        nonlocal seq
        seq += 1
        session = app.session
        assert session is not None
        durable = looker.execute("SELECT count(*) FROM actions WHERE game_id = ?",
                                 (game_id,)).fetchone()[0]
        if durable < seq:
            print("early", seq, durable, flush=True)
        shown.append(f"{seq} {digest(session)}\n")

    def play(_dt: float) -> None:
        session = app.session
        assert session is not None
        if app.busy or shown:  # the next action once the one before is on screen
            return
        action = next_action(session, seq)
        print("sending", seq, flush=True)
        done = app.undo() if action == "undo" else app.redo() if action == "redo" \
            else app.send(action)
        if not done:  # refused or not written: said on screen; the test reads it as such
            print("refused", seq, flush=True)
            app.stop()
            return

    def started() -> None:
        nonlocal seq
        if app.session is None or app.session.game_id != game_id:
            app.resume(game_id)  # a game the kill left finished is not reopened by itself
        session = app.session
        assert session is not None
        seq = len(journal.entries(game_id))
        session.subscribe(told)
        print("ready", seq, digest(session), flush=True)
        Clock.schedule_interval(play, 0)

    app.after_first_frame(started)
    app.run()


if __name__ == "__main__":
    main()
