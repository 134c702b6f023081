"""Long game-night work (history, statistics, exports, backup, restore) off the UI
thread, with a progress bar and a Cancel button.

A `companion.night.jobs` job is a generator: a worker thread drives it with its own
SQLite connection (`Journal.another_connection`, opened on that thread) and hands each
`Progress` and the result back to the Kivy thread with `Clock.schedule_once`, so no
frame waits on the work. Cancel takes effect at once on screen; the worker stops at
the job's next step, and a result that arrives after a cancel is passed to `discard`
(a half-written export is removed).
"""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, Rectangle
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.journal import Journal
from companion.messages import CompanionError, Message, msg
from companion.night.jobs import Job, Progress
from ui import theme
from ui.widgets.basics import Tap, Text, paint_background

log = logging.getLogger(__name__)
T = TypeVar("T")

#: how often the worker offers the interpreter to the UI thread (CPython's default is
#: 5 ms: a frame could wait that long each time it needs the interpreter back)
SWITCH_INTERVAL = 0.001


class Bar(Widget):
    """A flat progress bar: how far, from 0 to 1."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.value = 0.0
        with self.canvas:
            Color(*theme.BUTTON)
            self._back = Rectangle()
            Color(*theme.ACCENT)
            self._fill = Rectangle()
        self.bind(pos=self._redraw, size=self._redraw)

    def set(self, value: float) -> None:
        self.value = max(0.0, min(1.0, value))
        self._redraw()

    def _redraw(self, *_: Any) -> None:
        self._back.pos = self._fill.pos = self.pos
        self._back.size = self.size
        self._fill.size = (self.width * self.value, self.height)


class ProgressPanel(BoxLayout):
    """What is being done, a bar, and Cancel: shown where the result will appear."""

    def __init__(self, tid: str) -> None:
        app = App.get_running_app()
        super().__init__(orientation="vertical", spacing=dp(6), padding=dp(8),
                         size_hint_y=None, height=dp(40) + dp(16) + theme.touch() + dp(20))
        self.tid = tid
        paint_background(self, theme.PANEL)  # over the screen's lower part, readable
        self.text = self.add_widget_(Text("", size=theme.SIZE_SMALL, tid=f"{tid}.text",
                                          size_hint_y=None, height=dp(40)))
        self.bar = self.add_widget_(Bar(size_hint_y=None, height=dp(16)))
        self.cancel = self.add_widget_(Tap(app.tr("core.ui.cancel"), tid=f"{tid}.cancel",
                                           size_hint=(None, None), width=dp(160),
                                           height=theme.touch()))
        self.on_cancel: Callable[[], None] = lambda: None  # the running job's
        self.cancel.bind(on_release=lambda _b: self.on_cancel())

    def add_widget_(self, widget: Any) -> Any:
        self.add_widget(widget)
        return widget

    def show(self, progress: Progress) -> None:
        app = App.get_running_app()
        self.text.text = app.say(progress.what)
        self.bar.set(progress.done / progress.total if progress.total else 0)
        self.cancel.disabled = not progress.cancellable


class Running:
    """One job on its worker thread. Everything but `_work` runs on the Kivy thread."""

    def __init__(self, make: Callable[[Journal | None], Job[Any]], *,
                 on_progress: Callable[[Progress], None],
                 on_done: Callable[[Any], None],
                 on_error: Callable[[Message], None],
                 on_cancelled: Callable[[], None] = lambda: None,
                 discard: Callable[[Any], None] = lambda _r: None,
                 journal: Journal | None = None, cancellable: bool = True) -> None:
        self.make = make
        self.on_progress, self.on_done, self.on_error = on_progress, on_done, on_error
        self.on_cancelled, self.discard = on_cancelled, discard
        self.journal = journal  # the app's: the worker opens its own connection to it
        self.cancellable = cancellable  # False: once started, it must run to its end
        self.cancelled = False
        self.finished = False
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._work, name="companion-job", daemon=True)

    def start(self) -> Running:
        _RUNNING.add(self)
        if len(_RUNNING) == 1:
            _SAVED[0] = sys.getswitchinterval()
            sys.setswitchinterval(SWITCH_INTERVAL)
        self.thread.start()
        return self

    def cancel(self) -> None:
        """Stop now as far as the screen is concerned; the worker stops at its next step."""
        if self.finished or self.cancelled or not self.cancellable:
            return
        self.cancelled = True
        self._stop.set()
        self.on_cancelled()

    # -- the worker thread -----------------------------------------------------------------
    def _work(self) -> None:
        own: Journal | None = None
        try:
            if self.journal is not None:
                own = self.journal.another_connection()
            job = self.make(own)
            while True:
                try:
                    progress = next(job)
                except StopIteration as stop:
                    self._post(self._done, stop.value)
                    return
                if self._stop.is_set() and progress.cancellable:
                    job.close()
                    self._post(self._done, None, True)
                    return
                self._post(self._progress, progress)
        except CompanionError as exc:
            self._post(self._error, exc.message)
        except OSError as exc:  # a full stick, a folder gone: said like the domain says it
            self._post(self._error, msg("night.backup.write_failed", path=str(exc.filename or ""),
                                        reason=exc.strerror or str(exc)))
        except Exception as exc:  # never lose the screen to a bug in a job: say it
            log.exception("background job failed")
            self._post(self._error, msg("night.progress.failed", reason=str(exc)))
        finally:
            if own is not None:
                own.close()

    def _post(self, callback: Callable[..., None], *args: Any) -> None:
        Clock.schedule_once(lambda _dt: callback(*args))

    # -- back on the Kivy thread -------------------------------------------------------------
    def _progress(self, progress: Progress) -> None:
        if not self.cancelled and not self.finished:
            self.on_progress(progress if self.cancellable else
                             Progress(progress.what, progress.done, progress.total, False))

    def _done(self, result: Any, stopped: bool = False) -> None:
        self._end()
        if self.cancelled:
            if not stopped:
                self.discard(result)
            return
        self.on_done(result)

    def _error(self, message: Message) -> None:
        self._end()
        if not self.cancelled:
            self.on_error(message)

    def _end(self) -> None:
        self.finished = True
        _RUNNING.discard(self)
        if not _RUNNING:
            sys.setswitchinterval(_SAVED[0])


_RUNNING: set[Running] = set()
_SAVED = [sys.getswitchinterval()]
_STEPPING = [0]  # lists still being added a few rows per frame


def busy() -> bool:
    """A job is still working, or its result still reaching the screen (tests wait)."""
    return bool(_RUNNING) or _STEPPING[0] > 0


def in_steps(items: Sequence[T], add: Callable[[T], None], alive: Callable[[], bool],
             per_frame: int = 4) -> None:
    """Add `items` to the screen `per_frame` at a time, one frame after the other: each
    row makes widgets and the textures of their texts, and a page of them at once
    would be one long frame. Stops when `alive()` turns false (the list was replaced)."""
    for item in items[:per_frame]:
        add(item)
    rest = list(items[per_frame:])
    if not rest:
        return
    _STEPPING[0] += 1

    def step(_dt: float) -> None:
        if not alive():
            _STEPPING[0] -= 1
            return
        for item in rest[:per_frame]:
            add(item)
        del rest[:per_frame]
        if rest:
            Clock.schedule_once(step)
        else:
            _STEPPING[0] -= 1

    Clock.schedule_once(step)


def run_in(parent: Any, tid: str, make: Callable[[Journal | None], Job[Any]],
           on_done: Callable[[Any], None], *, uses_journal: bool = True,
           discard: Callable[[Any], None] = lambda _r: None,
           on_error: Callable[[Message], None] | None = None,
           on_cancelled: Callable[[], None] = lambda: None,
           cancellable: bool = True, index: int = 0) -> Running:
    """Run a job with its progress panel in `parent` (removed when it ends); errors
    are shown as the app's error dialog unless `on_error` is given."""
    app = App.get_running_app()

    def remove() -> None:
        if panel.parent is not None:
            panel.parent.remove_widget(panel)

    def done(result: Any) -> None:
        remove()
        on_done(result)

    def failed(message: Message) -> None:
        remove()
        (on_error or app.show_error)(message)

    def cancelled() -> None:
        remove()
        on_cancelled()

    running = Running(make, on_progress=lambda p: panel.show(p), on_done=done,
                      on_error=failed, on_cancelled=cancelled, discard=discard,
                      journal=app.journal if uses_journal else None,
                      cancellable=cancellable)
    # one panel per screen, built the first time: starting a job makes no widget
    panel = getattr(parent, "_progress_panel", None)
    if panel is None or panel.tid != tid:
        panel = ProgressPanel(tid)
        parent._progress_panel = panel
    panel.on_cancel = running.cancel
    panel.show(Progress(msg("night.progress.starting"), 0, 1, cancellable))
    if panel.parent is None:
        parent.add_widget(panel, index=index)
    return running.start()
