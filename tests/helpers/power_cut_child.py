"""The real app (`companion run`) on a data folder, for the power-cut tests: it taps what
it is told, grabs the frame the table then sees and kills itself with SIGKILL (the plug
pulled), or, started again on the same folder, grabs the first settled frame and exits.

Usage: python power_cut_child.py DATA CONFIG OUT SCREEN [--kill] [TID ...]
- waits until the app shows SCREEN (the game resumed), taps each TID (a tap may open
  another screen) by a touch through
  the window (one a tick, once it can be touched; each is an action, unless written
  `~TID`: a tap that only opens a dialog or picks a colour), waits until every action
  is taken and written to the journal;
- then asks for a frame and grabs it just before its swap (what reaches the screen):
  OUT gets the RGBA bytes, OUT.json the window's size, the screen, the dialog and the
  text of every tagged label;
- with TIDs or `--kill`, SIGKILL; without, a plain exit.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def texts(root: Any) -> dict[str, str]:
    return {str(w.tid): str(w.text) for w in root.walk(restrict=True)
            if getattr(w, "tid", "") and isinstance(getattr(w, "text", None), str)}


def main() -> None:
    data, config, out, screen = sys.argv[1:5]
    taps = sys.argv[5:]
    kill = bool(taps)
    if taps and taps[0] == "--kill":
        taps = taps[1:]
    actions = sum(1 for tid in taps if not tid.startswith("~"))
    from kivy.config import Config

    Config.set("graphics", "min_state_time", "0")  # a tap's release acts at once
    from kivy.clock import Clock

    state: dict[str, Any] = {"taps": list(taps), "grab": False}

    def app() -> Any:
        from kivy.app import App

        return App.get_running_app()

    def grab(window: Any) -> None:  # bound to on_flip: before the swap
        if not state["grab"]:
            return
        from kivy.graphics.opengl import GL_RGBA, GL_UNSIGNED_BYTE, glReadPixels

        state["grab"] = False
        width, height = (int(v) for v in window.size)
        Path(out).write_bytes(glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE))
        running = app()
        seen = {"size": [width, height], "screen": running.root.current,
                "dialog": None if running.dialog is None else running.dialog.tid,
                "texts": texts(running.root.current_screen),
                "dialog_texts": {} if running.dialog is None else texts(running.dialog)}
        Path(out + ".json").write_text(json.dumps(seen), encoding="utf-8")
        if kill:
            os.kill(os.getpid(), signal.SIGKILL)  # the plug pulled
        os._exit(0)

    def step(_dt: float) -> None:
        from kivy.core.window import Window
        from kivy.tests.common import UnitTestTouch

        from ui.widgets.basics import find

        running = app()
        if running is None or running.root is None or (
                running.root.current != screen and not state.get("resumed")):
            return  # not resumed yet (once it is, a tap may open another screen)
        state["resumed"] = True
        if not state.get("drawn"):
            Window.bind(on_flip=lambda *_: state.update(drawn=True))
            state["drawn"] = False
            return
        if state["drawn"] is False:
            return  # a finger touches what is drawn: laid out, on the screen
        session = running.session
        state.setdefault("done", len(session.steps))  # the actions before the taps
        if state["taps"]:
            tid = state["taps"][0].removeprefix("~")
            surface = running.dialog if running.dialog is not None else running.root
            widget = find(surface, tid)
            if widget is None or widget.disabled or session.holding:
                # a dialog the last tap opens comes at the next frame
                state["tries"] = state.get("tries", 0) + 1
                assert state["tries"] < 600, f"{tid} never came to be touched"
                return
            state["taps"].pop(0)
            state["tries"] = 0
            touch = UnitTestTouch(*widget.to_window(*widget.center))
            touch.touch_down()
            touch.touch_up()
            return
        if len(session.steps) < state["done"] + actions or session.holding:
            return  # each action tapped: taken (a release may come a tick later),
            # then written at the next swap
        state["quiet"] = state.get("quiet", 0) + 1
        if state["quiet"] < 3:
            return  # what the last tap opens (a dialog) is on show
        if not state["grab"] and "bound" not in state:
            state["bound"] = True
            Window.bind(on_flip=grab)
            Window.canvas.ask_update()
            # the frame after this one: the fits a change asks for are done by then
            Clock.schedule_once(lambda _dt: state.update(grab=True), 0)
            Clock.schedule_once(lambda _dt: Window.canvas.ask_update(), 0)

    Clock.schedule_interval(step, 0)
    from ui.main import main as run

    run(["--data-dir", data, "--config", config])


if __name__ == "__main__":
    main()
