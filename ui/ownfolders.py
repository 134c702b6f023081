"""The score pad templates and clock presets the set-ups offer, read on a worker
thread (`ui.background.Running`), never on the UI thread.

The table's own folders can be large (`companion.ownfolder`'s bound: 100 files and
1 MiB each, seconds of parsing on a Pi). A set-up asks `refresh()` as it opens and
shows what is known at once: nothing the first time (its "Loading" line), then the
built-ins (read first, a few files), then everything. The files are parsed again only
when one changed (the domain's caches, keyed by each file's stat): a refresh of
unchanged folders is a stat per file, on the worker. `then` callbacks run on the UI
thread once the read asked for has arrived, and only if something changed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.app import App

from companion.messages import Message
from companion.night.jobs import Job

log = logging.getLogger(__name__)
NOWHERE = Path("/nonexistent/table-companion")  # no own folder: the built-ins alone


def _read(user_file: Path | None, own: bool, before: Any) -> Job[tuple[Any, bool]]:
    """The catalogue and presets (the built-ins alone unless `own`), and whether they
    differ from `before` (compared here, not on the UI thread)."""
    from companion.games.clock.presets import load_presets
    from companion.games.pad import templates

    if own:
        found = (templates.load(user_file=user_file), load_presets(user_file))
    else:
        found = (templates.load(own_dir=NOWHERE), load_presets(own=NOWHERE))
    return found, found != before
    yield  # a job: a generator (it has no steps to report)


class Folders:
    """What the set-ups offer. Everything here runs on the UI thread."""

    def __init__(self, user_file: Path | None) -> None:
        self.user_file = user_file
        self.templates: Any = None  # a `templates.Catalogue`, once read
        self.presets: Any = None  # a `presets.Presets`, once read
        self.complete = False  # the table's own folders read (not only the built-ins)
        self._running: Any = None
        self._again = False
        self._waiting: list[Callable[[], None]] = []
        self._changed = False

    @property
    def loading(self) -> bool:
        """A read is under way and the table's own entries are not known yet."""
        return not self.complete

    def refresh(self, then: Callable[[], None] | None = None) -> None:
        """Read again (a stat per unchanged file); `then()` when it has arrived and
        something changed."""
        if then is not None and then not in self._waiting:
            self._waiting.append(then)
        if self._running is not None:
            self._again = True  # a file may have changed after that read began
            return
        self._start(own=self.templates is not None)

    def _start(self, own: bool) -> None:
        from ui.background import Running

        before = (self.templates, self.presets)
        user_file = self.user_file
        self._running = Running(lambda _journal: _read(user_file, own, before),
                                on_progress=lambda _p: None,
                                on_done=lambda result: self._arrived(result, own),
                                on_error=self._failed, cancellable=False).start()

    def _arrived(self, result: tuple[Any, bool], own: bool) -> None:
        (templates, presets), changed = result
        self._running = None
        if changed:
            self.templates, self.presets = templates, presets
            self._changed = True
        if not own:  # the built-ins shown, now the table's own
            self._again = False
            self._start(own=True)
            self._tell()
            return
        if not self.complete:
            self.complete = True
            self._changed = True  # the "Loading" lines go, whatever was read
        if self._again:
            self._again = False
            self._start(own=True)
            return
        self._tell()

    def _failed(self, message: Message) -> None:
        # a bug in the reading (a file's problems are results, not errors): what is
        # known stays offered, and the set-ups stop waiting
        from companion.games.clock.presets import Presets
        from companion.games.pad.templates import Catalogue

        log.error("reading the table's own folders failed: %s", message)
        self._running = None
        if self.templates is None:
            self.templates, self.presets = Catalogue((), ()), Presets()
        self.complete = True
        self._changed = True
        self._tell()

    def _tell(self) -> None:
        if not self._changed:
            return
        self._changed = False
        waiting = list(self._waiting)
        if self.complete:
            self._waiting.clear()
        for then in waiting:
            try:
                then()
            except Exception:  # one screen's refresh never stops the others'
                log.exception("refreshing after the own folders were read")


def folders() -> Folders:
    """The running app's (made the first time a set-up asks)."""
    app = App.get_running_app()
    found = getattr(app, "own_folders", None)
    user_file = app.settings.user_file
    if found is None or found.user_file != user_file:
        found = Folders(user_file)
        app.own_folders = found
    return found
