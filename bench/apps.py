"""What runs inside a benchmark child process: the bare Kivy app we compare against,
our app started the way `companion` starts it, and a probe on the window's buffer swap.

Each child is a fresh process, so nothing one measurement loads or caches helps another.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

WIDTH, HEIGHT = 800, 480  # the Pi's 7" screen, also our app's default window


def quiet_kivy() -> None:
    """The same Kivy environment for both apps (the parent sets KIVY_HOME)."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")


def configure_bare(same_window: bool = False) -> None:
    """Kivy's defaults at our window size; `same_window`: also our window settings
    (no multisampling, config/app.yaml's display.multisamples)."""
    from kivy.config import Config

    Config.set("graphics", "width", str(WIDTH))
    Config.set("graphics", "height", str(HEIGHT))
    if same_window:
        Config.set("graphics", "multisamples", "0")


def bare_app(on_build: Callable[[Any], None] | None = None) -> Any:
    """An App whose build() returns a single Label (kivy is imported only here)."""
    from kivy.app import App
    from kivy.uix.label import Label

    class BareApp(App):
        def build(self) -> Label:
            label = Label(text="Hello")
            if on_build is not None:
                on_build(label)
            return label

    return BareApp()


def bare_roll_app(on_roll: Callable[[bool], None]) -> tuple[Any, Any]:
    """The bare app prepared, its single Label above the one button it needs to be
    tapped: a tap sets the next turn's text and calls `on_roll(shown)`, `shown` whether
    the label holds it. Returns the app and the button."""
    from kivy.core.window import Window
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.button import Button

    parts: dict[str, Any] = {}
    app = bare_app(lambda label: parts.update(label=label))
    app._run_prepare()
    label = parts["label"]
    Window.remove_widget(label)
    box = BoxLayout(orientation="vertical")
    box.add_widget(label)
    button = Button(text="ROLL")
    turn = {"n": 1}

    def roll(_b: Any) -> None:
        turn["n"] += 1
        label.text = f"Turn {turn['n']}"
        on_roll(label.text == f"Turn {turn['n']}")

    button.bind(on_release=roll)
    box.add_widget(button)
    Window.add_widget(box)
    return app, button


def open_new_game(ui: Any, kind: str, setup: dict[str, Any], timeout: float = 10.0) -> Any:
    """Start a game of `kind` in the driven app and wait for it to open (on a slow card
    its row is durable only later): its session."""
    opened: list[Any] = []
    ui.app.start_game(kind, setup, done=opened.append)
    ui.wait_until(lambda: bool(opened), timeout=timeout)
    return opened[0]


class FlipProbe:
    """Counts buffer swaps and calls `on_frame(n, t)` right after each one completed.

    Kivy draws in `on_draw` and then dispatches `on_flip`, whose default handler swaps
    the buffers; wrapping the window's `flip` times the frame once it is really shown
    (with llvmpipe the rendering itself happens at the swap)."""

    def __init__(self, on_frame: Callable[[int, float], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.frames = 0
        self.on_frame = on_frame
        self.clock = clock
        self.installed = False

    def install(self, *_: Any) -> None:
        from kivy.core.window import Window

        swap = Window.flip

        def flip() -> None:
            swap()
            self.frames += 1
            if self.on_frame is not None:
                self.on_frame(self.frames, self.clock())

        Window.flip = flip
        self.installed = True


class Reporter:
    """One JSON object per line in a file the parent reads while the child runs."""

    def __init__(self, path: Path) -> None:
        self._file = path.open("a", encoding="utf-8")

    def write(self, **record: Any) -> None:
        self._file.write(json.dumps(record) + "\n")
        self._file.flush()


def rss_kib(pid: int | str = "self") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc status")


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process (all its threads) from /proc/<pid>/stat."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2:].split()  # after "pid (comm) "
    utime, stime = int(fields[11]), int(fields[12])
    return (utime + stime) / os.sysconf("SC_CLK_TCK")
