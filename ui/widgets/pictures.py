"""When shapes may be drawn into pictures: once the app's first frame is on screen.

A die's face, the dial's face and a treasure marker are drawn once into a picture (a
framebuffer pass), which later frames draw as one textured square. Each pass is a flush
of the renderer of its own: ~2 ms under a software renderer, the first one in a process
more, and a resumed Pr. Evil game's first frame needed seven (three dice, the dial's
face, three markers). Until that frame is up, a widget draws the same shapes directly,
which look the same pixel for pixel (tests/test_ui_pictures.py), and it is told when
it may make its pictures: in the frames after, when nobody waits.
"""

from __future__ import annotations

import weakref
from typing import Protocol


class Waiting(Protocol):
    def pictures_allowed(self) -> None:
        """Draw again, with pictures."""


_held = False
_waiting: weakref.WeakSet[Waiting] = weakref.WeakSet()


def hold() -> None:
    """From now until `release`, shapes are drawn directly (the app's start)."""
    global _held
    _held = True


def release() -> None:
    """Pictures are allowed again: every widget that drew without them is told."""
    global _held
    _held = False
    waiting = list(_waiting)
    _waiting.clear()
    for widget in waiting:
        widget.pictures_allowed()


def allowed(widget: Waiting) -> bool:
    """Whether `widget` may draw pictures now; if not, it is told when it may."""
    if _held:
        _waiting.add(widget)
    return not _held
