"""Export (CSV, Board Game Stats) and backup: files go to the data folder, or to a USB
stick when one is mounted under /media. A backup found there can be restored.

A restore is checked in full first: a refused file shows the domain's message and
changes nothing. An accepted one closes the journal, puts the backup in its place, all
or nothing (`backup.restore_all`: the current journal is kept aside, and the message
says where), and opens it again; a restore failing halfway leaves everything as it
was, the message says so, and the same journal is opened again.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from companion.journal import Journal
from companion.messages import CompanionError, Message, msg
from companion.night import backup, export, jobs
from companion.night.jobs import Job
from ui import theme
from ui.background import Running, run_in
from ui.dialogs import Dialog, message, open_dialog
from ui.screens.night.common import scroll_list, top_bar, when
from ui.screens.page import PageScreen
from ui.widgets.basics import Tap, Text, find

log = logging.getLogger(__name__)
MEDIA = Path("/media")
PREFIX = "table-companion"


def data_dir() -> Path:
    app = App.get_running_app()
    path = app.journal.path
    return path.parent if path is not None else Path.cwd()


def usb_sticks(media: Path = MEDIA) -> list[Path]:
    """Mounted removable drives: /media/<user>/<label> or /media/<label>."""
    found: list[Path] = []
    try:
        for first in sorted(media.iterdir()):
            if os.path.ismount(first):
                found.append(first)
                continue
            if first.is_dir():
                found += [p for p in sorted(first.iterdir()) if os.path.ismount(p)]
    except OSError:
        return []
    return [p for p in found if os.access(p, os.W_OK)]


def _refused(path: Path, exc: Exception) -> Message:
    return msg("night.backup.refused", path=str(path), reason=type(exc).__name__)


def _refusing(path: Path, job: Job[Any]) -> Job[Any]:
    """A check or restore whose failure the domain did not foresee (a file made to
    break us) is said as a refused backup, never as a crash; the domain's own
    refusals (`BackupError`) reach the dialog as they are."""
    try:
        return (yield from job)
    except CompanionError:
        raise
    except Exception as exc:
        log.exception("checking or restoring %s failed", path)
        refused = _refused(path, exc)
        raise backup.BackupError(refused.key, **refused.params) from exc


def stamp() -> str:
    return time.strftime("%Y%m%d-%H%M%S")


class NightExportScreen(PageScreen):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.target: Path | None = None  # None: the data folder
        self.status = ""
        self.job: Running | None = None  # one export, backup or restore at a time

    def on_pre_enter(self, *_: Any) -> None:
        self.status = ""
        if self.target is not None and self.target not in usb_sticks():
            self.target = None
        self.refresh()

    @property
    def folder(self) -> Path:
        return self.target or data_dir()

    def show_state(self) -> None:
        """The status and whether the buttons take a touch: a job's start and end
        change only these (rebuilding the screen would be a long frame)."""
        for button in self.actions:
            button.disabled = self.job is not None
        self.status_label.text = self.status

    def refresh(self) -> None:
        app = App.get_running_app()
        self.actions: list[Tap] = []
        self.box.clear_widgets()
        self.box.add_widget(top_bar(app.tr("night.ui.export_title"), "export"))
        columns = BoxLayout(spacing=dp(10))
        left = BoxLayout(orientation="vertical", spacing=dp(8), size_hint_x=0.5)
        sticks = usb_sticks()
        where = app.tr("night.ui.to_data") if self.target is None else \
            app.tr("night.ui.to_usb", name=self.target.name)
        target = Tap(where, tid="export.target", size=theme.SIZE_SMALL, size_hint_y=None,
                     height=theme.touch(), disabled=not sticks)
        target.bind(on_release=lambda _b: self.cycle_target(sticks))
        left.add_widget(target)
        for what in ("csv", "bgstats", "backup"):
            button = Tap(app.tr(f"night.ui.do_{what}"), tid=f"export.{what}", size=19,
                         size_hint_y=None, height=theme.touch(60),
                         disabled=self.job is not None,
                         background=theme.SUCCESS if what == "backup" else theme.BUTTON)
            self.actions.append(button)
            button.bind(on_release=lambda _b, w=what: self.make(w))
            left.add_widget(button)
        self.status_label = Text(self.status, size=theme.SIZE_SMALL, tid="export.status",
                                 valign="top")
        left.add_widget(self.status_label)
        columns.add_widget(left)

        right = BoxLayout(orientation="vertical", spacing=dp(4), size_hint_x=0.5)
        right.add_widget(Text(app.tr("night.ui.restore_title"), size=theme.SIZE_SMALL, bold=True,
                              size_hint_y=None, height=dp(30)))
        scroller, rows = scroll_list(4)
        files = self.backups()
        if not files:
            rows.add_widget(Text(app.tr("night.ui.no_backups", folder=str(self.folder)),
                                 size=theme.SIZE_SMALL, color=theme.MUTED, tid="restore.empty",
                                 size_hint_y=None, height=dp(80)))
        for i, path in enumerate(files):
            text = f"{path.name}\n{when(path.stat().st_mtime)}"
            button = Tap(text, tid=f"restore.{i}", size=theme.SIZE_SMALL, size_hint_y=None,
                         height=theme.touch(56), disabled=self.job is not None)
            self.actions.append(button)
            button.bind(on_release=lambda _b, p=path: self.confirm_restore(p))
            rows.add_widget(button)
        right.add_widget(scroller)
        columns.add_widget(right)
        self.box.add_widget(columns)

    def cycle_target(self, sticks: list[Path]) -> None:
        choices: list[Path | None] = [None, *sticks]
        index = choices.index(self.target) if self.target in choices else 0
        self.target = choices[(index + 1) % len(choices)]
        self.refresh()

    def backups(self) -> list[Path]:
        """Backup files offered for restoring, newest first (any .zip: the check
        refuses those that are not ours)."""
        try:
            files = [p for p in self.folder.iterdir() if p.suffix == ".zip" and p.is_file()]
        except OSError:
            return []
        return sorted(files, key=lambda p: -p.stat().st_mtime)[:20]

    # -- export and backup ---------------------------------------------------------------
    def _run(self, tid: str, make: Any, on_done: Any, *, uses_journal: bool = True,
             discard: Any = lambda _r: None) -> None:
        """One job at a time, on a worker thread; the buttons wait meanwhile."""

        def done(result: Any) -> None:
            self.job = None
            on_done(result)

        def failed(message: Any) -> None:
            self.job = None
            self.show_state()
            App.get_running_app().show_error(message)

        def cancelled() -> None:
            self.job = None
            self.status = App.get_running_app().tr("night.progress.cancelled")
            self.show_state()

        self.job = run_in(self, tid, make, done, uses_journal=uses_journal, discard=discard,
                          on_error=failed, on_cancelled=cancelled)
        self.show_state()

    def make(self, what: str) -> None:
        app = App.get_running_app()
        if self.job is not None:
            return
        folder = self.folder
        if what == "backup":
            path = folder / f"{PREFIX}-backup-{stamp()}.zip"
        else:
            path = folder / (f"{PREFIX}-{stamp()}.csv" if what == "csv"
                             else f"{PREFIX}-{stamp()}{export.BGSTATS_SUFFIX}")
        translator = app.translator

        def job(journal: Journal) -> Any:
            if what == "backup":
                return jobs.make_backup(journal, path)
            return jobs.export_file(journal, what, path, translator)

        def done(result: Any) -> None:
            if what == "backup":
                self.status = app.tr("night.ui.saved_to", path=str(path))
                self.status += "\n" + app.tr("night.ui.backup_counts", games=result.games,
                                             players=result.players)
                self.refresh()  # the new backup joins the list
            else:  # the CSV, and the score pad's long table when there was one
                self.status = "\n".join(app.tr("night.ui.saved_to", path=str(p))
                                        for p in result)
                self.show_state()

        def discard(result: Any) -> None:  # cancelled too late: leave no file made
            for made in [path] if what == "backup" else result:
                with contextlib.suppress(OSError):
                    made.unlink()

        self._run("export.progress", job, done, discard=discard)

    # -- restore -----------------------------------------------------------------------------
    def confirm_restore(self, path: Path) -> None:
        """The backup is checked in full (on a worker thread) before anything is asked."""
        if self.job is not None:
            return
        self._run("export.progress", lambda _j: _refusing(path, jobs.check_backup(path)),
                  lambda manifest: self.ask_restore(path, manifest), uses_journal=False)

    def ask_restore(self, path: Path, manifest: backup.Manifest) -> None:
        app = App.get_running_app()
        self.show_state()
        dialog = Dialog(app.tr("night.ui.restore_confirm_title"), "restore",
                        size_hint=(0.8, 0.7))
        dialog.add(Text(app.tr("night.ui.restore_confirm", name=path.name,
                               when=when(manifest.created), games=manifest.games,
                               players=manifest.players), size=18, tid="restore.text"))

        def restore() -> None:
            dialog.dismiss()
            self.restore(path)

        dialog.buttons([(app.tr("core.ui.cancel"), "restore.cancel", dialog.dismiss),
                        (app.tr("night.ui.restore"), "restore.ok", restore)])
        dialog.default = dialog.dismiss
        open_dialog(dialog)

    def restore(self, path: Path) -> None:
        app = App.get_running_app()
        journal_path = app.journal.path
        if journal_path is None:
            return
        if app.session is not None:  # a game playing on the old journal stops here
            app.leave_game()
            app.root.current = self.name
        app.close_writer()  # its connections to the file closed before it is replaced
        app.journal.close()
        # no journal until the backup is in its place: the screen cannot be left
        back = find(self.box, "export.back")
        if back is not None:
            back.disabled = True

        def done(restored: backup.Restored) -> None:
            app.journal = Journal.already_checked(journal_path)  # checked by the job
            self.status = app.tr("night.ui.restored", kept=str(restored.kept)) \
                if restored.kept is not None else app.tr("night.ui.restored_nothing_kept")
            if restored.files:  # the table's own templates and clock presets
                self.status += "\n" + app.tr("night.ui.restored_files",
                                             n=len(restored.files))
            if restored.broken:
                self.status += "\n" + app.tr("night.ui.restored_broken",
                                             names=", ".join(restored.broken))
            self.show_state()
            if back is not None:
                back.disabled = False
            message(app.tr("night.ui.restore_done_title"), self.status, tid="restored")

        def failed(error: Any) -> None:
            self.job = None
            app.journal = Journal(journal_path)
            self.show_state()
            if back is not None:
                back.disabled = False
            app.show_error(error)

        # the journal stays closed while the backup takes its place: nothing to cancel
        self.job = run_in(self, "export.progress",
                          lambda _j: _refusing(path, jobs.restore_backup(path, journal_path)),
                          lambda kept: (setattr(self, "job", None), done(kept)),
                          uses_journal=False, on_error=failed, cancellable=False)
        self.show_state()
