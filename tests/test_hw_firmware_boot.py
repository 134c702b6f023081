"""The ring's firmware can be updated: a button held at power-up, or a Ctrl-C during the
grace time, leaves the REPL to `mpremote`; otherwise Ctrl-C is switched off and the
ring program runs. main.py runs here with MicroPython's modules replaced by fakes."""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any

import pytest

from hardware.firmware import ringpixels, ringproto, seatbuttons

MAIN = Path(ringproto.__file__).with_name("main.py")


class Started(Exception):
    """Raised by the fake poll: the ring program's loop was entered."""


def boot(monkeypatch: pytest.MonkeyPatch, button_held: bool, ctrl_c: bool,
         seat_held: int | None = None, loops: int = 0) -> dict[str, Any]:
    """`seat_held`: that seat's button (GP2 + seat) held down; `loops`: turns of the
    ring program's loop before the fake poll stops it (each 5 ms of the fake clock)."""
    seen: dict[str, Any] = {"kbd_intr": [], "slept": [], "printed": [], "out": []}
    clock = {"ms": 0}

    class Pin:
        IN, PULL_UP = 0, 1

        def __init__(self, number: int, *_: Any) -> None:
            self.number = number

        def value(self) -> int:
            if seat_held is not None and self.number == 2 + seat_held:
                return 0
            return 0 if button_held and self.number == 15 else 1

    class Ring(list):
        def __init__(self, _pin: Any, n: int) -> None:
            super().__init__([(0, 0, 0)] * n)

        def fill(self, colour: Any) -> None:
            self[:] = [colour] * len(self)

        def write(self) -> None:
            seen["written"] = list(self)

    class Poll:
        def register(self, *_: Any) -> None: ...

        def poll(self, _timeout: int) -> list:
            if len(seen["slept"]) > loops:
                raise Started
            return []

    def sleep_ms(ms: int) -> None:
        seen["slept"].append(ms)
        clock["ms"] += ms
        if ctrl_c:
            raise KeyboardInterrupt

    fakes = {
        "machine": types.SimpleNamespace(Pin=Pin),
        "micropython": types.SimpleNamespace(kbd_intr=seen["kbd_intr"].append),
        "neopixel": types.SimpleNamespace(NeoPixel=Ring),
        "select": types.SimpleNamespace(poll=Poll, POLLIN=1),
        "time": types.SimpleNamespace(sleep_ms=sleep_ms, ticks_ms=lambda: clock["ms"],
                                      ticks_diff=lambda a, b: a - b),
        "ringproto": ringproto, "ringpixels": ringpixels, "seatbuttons": seatbuttons,
    }
    for name, module in fakes.items():
        monkeypatch.setitem(sys.modules, name, module)
    code = compile(MAIN.read_text(), str(MAIN), "exec")
    scope: dict[str, Any] = {"__name__": "__main__", "print": seen["printed"].append}
    monkeypatch.setattr(sys, "stdout", types.SimpleNamespace(write=seen["out"].append))
    try:
        exec(code, scope)
        seen["started"] = False
    except Started:
        seen["started"] = True
    return seen


def test_normal_power_up_runs_the_ring_with_ctrl_c_off(monkeypatch) -> None:
    seen = boot(monkeypatch, button_held=False, ctrl_c=False)
    assert seen["started"]
    assert seen["kbd_intr"] == [-1]
    assert seen["slept"] == [2000]  # the grace time came first


def test_the_button_held_at_power_up_leaves_the_repl(monkeypatch) -> None:
    seen = boot(monkeypatch, button_held=True, ctrl_c=False)
    assert not seen["started"]
    assert seen["kbd_intr"] == []  # Ctrl-C still works: mpremote can take over
    assert seen["slept"] == []  # no need to wait
    assert "update mode" in seen["printed"][0]


def test_ctrl_c_during_the_grace_time_leaves_the_repl(monkeypatch) -> None:
    seen = boot(monkeypatch, button_held=False, ctrl_c=True)
    assert not seen["started"] and seen["kbd_intr"] == []


def test_a_seat_button_held_is_reported_once_over_the_serial_link(monkeypatch) -> None:
    """The ring program samples the seat buttons every turn of its loop: a button held
    down is one PRESS line (the debounce of seatbuttons.py), never one per sample."""
    seen = boot(monkeypatch, button_held=False, ctrl_c=False, seat_held=3, loops=40)
    assert seen["started"]
    presses = [line for line in seen["out"] if line.startswith("PRESS")]
    assert presses == [ringproto.press_line(3)]
    assert seen["out"][0].startswith("READY")
