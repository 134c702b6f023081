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

A score pad game is played on its screen's real keypad (issue 30: "a power cut
mid-entry"): a value is typed one key a frame (`0`-`9`, `±`, `+`, then Enter), a
correction or a clear first taps its cell (a clear is Delete with nothing typed), so a
kill may land with a value half typed; undo and redo are the app's. For the pad the
`ready` and acknowledged lines end with the keypad's cell (`<row>,<seat>`, `-` for
none), what the game reopens on.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any

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
        shown.append(f"{seq} {digest(session)}{pad_cell()}\n")

    def play(_dt: float) -> None:
        session = app.session
        assert session is not None
        if app.busy or shown:  # the next action once the one before is on screen
            return
        if keys:  # a score pad entry being typed: one key a frame
            press(keys.pop(0))
            return
        action = next_action(session, seq)
        if session.rules.kind == "pad" and action not in ("undo", "redo"):
            keys.extend(pad_keys(action))
            press(keys.pop(0))
            return
        print("sending", seq, flush=True)
        done = app.undo() if action == "undo" else app.redo() if action == "redo" \
            else app.send(action)
        if not done:  # refused or not written: said on screen; the test reads it as such
            refuse()

    def refuse() -> None:
        print("refused", seq, flush=True)
        app.stop()

    # -- the score pad: its real keypad ------------------------------------------------
    keys: list[str] = []  # the keys (and cell taps) of the entry being typed
    expected: list[Any] = []  # the command those keys make

    def pad_screen() -> Any:
        return app.root.get_screen(app.screen_name("pad", "play"))

    def pad_cell() -> str:
        if app.session is None or app.session.rules.kind != "pad":
            return ""
        target = pad_screen().target()
        return " -" if target is None else f" {target.row},{target.seat}"

    def pad_keys(command: Any) -> list[str]:
        """The taps that make `command` on the screen: its cell's (unless the keypad is
        on it), then the value's keys and Enter, or Delete for a clear."""
        from companion.games.pad import commands as pc

        expected[:] = [command]
        target = pad_screen().target()
        out = [] if target is not None and (target.row, target.seat) == \
            (command.round, command.seat) else [f"cell {command.round} {command.seat}"]
        if isinstance(command, pc.ClearCell):
            return [*out, "del"]
        text = command.expression
        for i, ch in enumerate(text):
            out.append("pm" if ch == "-" and i == 0 else "plus" if ch == "+" else ch)
        return [*out, "enter"]

    def press(key: str) -> None:
        screen = pad_screen()
        if key.startswith("cell"):
            _cell, row, seat = key.split()
            screen.tap_cell(int(row), int(seat))  # what a touch on the sheet's cell calls
            return
        last = key in ("enter", "del")
        if key == "enter" and screen.typed != expected[0].expression:
            print("mistyped", seq, screen.typed, flush=True)  # read by the test as a refusal
            app.stop()
            return
        if last:
            print("sending", seq, flush=True)
        screen.keypad.debounce = 0.0  # each key is tapped once: "11" is two taps
        sent.clear()
        screen.keypad.keys[key].trigger_action(duration=0)  # the touch's own path
        if last and sent != [True]:
            refuse()

    sent: list[bool] = []
    send = app.send

    def sending(command: Any) -> bool:
        if expected and command != expected[0]:
            print("mistyped", seq, repr(command), flush=True)
            app.stop()
            return False
        done = send(command)
        sent.append(done)
        return done

    app.send = sending  # type: ignore[method-assign]  # the keypad's Enter comes here

    def started() -> None:
        nonlocal seq
        if app.session is None or app.session.game_id != game_id:
            app.resume(game_id)  # a game the kill left finished is not reopened by itself
        session = app.session
        assert session is not None
        seq = len(journal.entries(game_id))
        session.subscribe(told)
        print("ready", seq, digest(session) + pad_cell(), flush=True)
        Clock.schedule_interval(play, 0)

    app.after_first_frame(started)
    app.run()


if __name__ == "__main__":
    main()
