"""The taps a child process of the real app makes on its own screen, one a loop pass,
each once its widget is shown (a dialog's first): for the kill and stop children."""

from __future__ import annotations

from typing import Any


def tap_next(app: Any, taps: list[str]) -> bool:
    """Taps the first of `taps` once it is on screen and enabled (it is then taken off
    the list). True while taps are left to make: the caller waits for them."""
    from kivy.tests.common import UnitTestTouch

    from ui.widgets.basics import find

    if not taps:
        return False
    surface = app.dialog if app.dialog is not None else app.root
    widget = find(surface, taps[0])
    if widget is None or widget.disabled or widget.get_root_window() is None:
        return True  # not on screen yet
    taps.pop(0)
    touch = UnitTestTouch(*widget.to_window(*widget.center))
    touch.touch_down()
    touch.touch_up()
    return True
