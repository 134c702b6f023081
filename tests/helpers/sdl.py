"""The SDL library inside this process (the one Kivy's window loaded), through ctypes.

For the input tests: what SDL was told (its hints, read back from SDL itself), events
put into SDL's own queue exactly as its drivers queue them, and pointer events sent
through the X server (XTest), which SDL's X11 driver receives as from a desktop.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import re
from functools import cache

# SDL_events.h / SDL_mouse.h / SDL_touch.h (SDL 2.30)
MOUSEMOTION = 0x400
MOUSEBUTTONDOWN = 0x401
MOUSEBUTTONUP = 0x402
BUTTON_LEFT = 1
PRESSED, RELEASED = 1, 0
TOUCH_MOUSEID = 0xFFFFFFFF  # `which` of the mouse events SDL makes of a touch


class _MouseButton(ctypes.Structure):
    _fields_ = [("type", ctypes.c_uint32), ("timestamp", ctypes.c_uint32),
                ("windowID", ctypes.c_uint32), ("which", ctypes.c_uint32),
                ("button", ctypes.c_uint8), ("state", ctypes.c_uint8),
                ("clicks", ctypes.c_uint8), ("padding1", ctypes.c_uint8),
                ("x", ctypes.c_int32), ("y", ctypes.c_int32)]


class _MouseMotion(ctypes.Structure):
    _fields_ = [("type", ctypes.c_uint32), ("timestamp", ctypes.c_uint32),
                ("windowID", ctypes.c_uint32), ("which", ctypes.c_uint32),
                ("state", ctypes.c_uint32), ("x", ctypes.c_int32), ("y", ctypes.c_int32),
                ("xrel", ctypes.c_int32), ("yrel", ctypes.c_int32)]


class _Event(ctypes.Union):
    _fields_ = [("type", ctypes.c_uint32), ("button", _MouseButton),
                ("motion", _MouseMotion), ("padding", ctypes.c_uint8 * 56)]


@cache
def library() -> ctypes.CDLL:
    """The libSDL2 mapped into this process (Kivy's wheel bundles its own copy)."""
    with open("/proc/self/maps", encoding="utf-8") as maps:
        for line in maps:
            path = line.split()[-1]
            if re.search(r"/libSDL2-2[^/]*\.so", path):
                lib = ctypes.CDLL(path)
                lib.SDL_GetHintBoolean.restype = ctypes.c_int
                lib.SDL_GetHintBoolean.argtypes = [ctypes.c_char_p, ctypes.c_int]
                lib.SDL_PushEvent.argtypes = [ctypes.POINTER(_Event)]
                return lib
    raise RuntimeError("no libSDL2 in this process: is Kivy's SDL2 window open?")


def hint(name: str, default: bool) -> bool:
    """SDL's own answer (its environment variable, else what was set, else default)."""
    return bool(library().SDL_GetHintBoolean(name.encode(), int(default)))


def touch_makes_mouse_events() -> bool:
    """Whether SDL sends a mouse event for each touch it reads (SDL_touch.c,
    SDL_SendTouch: `if (mouse->touch_mouse_events)`; SDL_mouse.c drops the touch
    mouse's events otherwise)."""
    return hint("SDL_TOUCH_MOUSE_EVENTS", True)


def push_touch_mouse(x: int, y: int, down: bool) -> None:
    """What SDL_SendTouch queues for a finger when it makes mouse events of touches:
    a motion to the finger and the left button, from the touch mouse."""
    push_mouse(x, y, down, which=TOUCH_MOUSEID)


def push_mouse(x: int, y: int, down: bool, which: int = 0) -> None:
    """A left press (after a motion to it) or release at window pixel (x, y), from the
    top left, by the mouse `which` (0: a real mouse)."""
    if down:
        motion = _Event()
        motion.motion = _MouseMotion(MOUSEMOTION, 0, 0, which, 0, x, y, 0, 0)
        _push(motion)
    button = _Event()
    button.button = _MouseButton(MOUSEBUTTONDOWN if down else MOUSEBUTTONUP, 0, 0, which,
                                 BUTTON_LEFT, PRESSED if down else RELEASED, 1, 0, x, y)
    _push(button)


def _push(event: _Event) -> None:
    if library().SDL_PushEvent(ctypes.byref(event)) != 1:
        raise RuntimeError("SDL refused the event")


class XPointer:
    """The X server's pointer, moved and pressed through XTest: the events reach the
    app's window through the server and SDL's X11 driver, as a desktop's do."""

    def __init__(self) -> None:
        x11 = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
        xtst = ctypes.CDLL(ctypes.util.find_library("Xtst") or "libXtst.so.6")
        x11.XOpenDisplay.restype = ctypes.c_void_p
        x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
        for name in ("XFlush", "XCloseDisplay"):
            getattr(x11, name).argtypes = [ctypes.c_void_p]
        x11.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
        xtst.XTestFakeMotionEvent.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
                                              ctypes.c_int, ctypes.c_ulong]
        xtst.XTestFakeButtonEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int,
                                              ctypes.c_ulong]
        self._x11, self._xtst = x11, xtst
        self._display = x11.XOpenDisplay(None)
        if not self._display:
            raise RuntimeError("no X display")

    def tap(self, x: int, y: int) -> None:
        """A left press and release at (x, y) on the screen (pixels, from the top left)."""
        self._xtst.XTestFakeMotionEvent(self._display, -1, x, y, 0)
        self._xtst.XTestFakeButtonEvent(self._display, 1, 1, 0)
        self._xtst.XTestFakeButtonEvent(self._display, 1, 0, 0)
        self._x11.XSync(self._display, 0)  # the server has sent them when this returns

    def close(self) -> None:
        self._x11.XCloseDisplay(self._display)
