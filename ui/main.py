"""Start the app: read the config, open the journal, pick the pins, show the screens.

A bad config or an unreadable data folder does not crash-loop: the problem is printed
(to the journal, via stderr) and shown on screen until someone reads it. Any other
failure before the first frame is handled the same way (`start_failed`): the app
starts once more; only a failure that repeats reaches the problem screen. Every
start parses the config's files: nothing a start derived is kept for the next.
"""

from __future__ import annotations

import argparse
import gc
import json
import logging
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

# The app's own modules are imported in main(), once the collector is paused for the
# start (see settle_memory).
if TYPE_CHECKING:
    from companion.config import Config


def configure_kivy(cfg: Config | None) -> None:
    """Kivy settings that must be in place before the window exists."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")  # logs go to stderr (journald), not the SD card
    from kivy.config import Config as KivyConfig

    display = cfg.get("display", {}) if cfg else {}
    KivyConfig.set("graphics", "width", str(display.get("width", 800)))
    KivyConfig.set("graphics", "height", str(display.get("height", 480)))
    KivyConfig.set("graphics", "fullscreen", "auto" if display.get("fullscreen") else "0")
    KivyConfig.set("graphics", "show_cursor", "1" if display.get("show_cursor", True) else "0")
    KivyConfig.set("graphics", "multisamples", str(display.get("multisamples", 0)))
    KivyConfig.set("graphics", "rotation", str(display.get("rotation", 0)))
    KivyConfig.set("kivy", "exit_on_escape", "0")  # Escape closes dialogs, never the kiosk
    # the interruptible clock: the writer thread's hand-back (a Clock trigger) wakes the
    # loop at once, so an action made durable is drawn in the next few ms rather than at
    # the next 60 Hz tick (on a slow card: commit end -> result median 14 -> 6 ms, p90
    # 22 -> 11 ms); the frame pacing is the same (KIVY_CLOCK chooses another)
    if "KIVY_CLOCK" not in os.environ:
        KivyConfig.set("kivy", "kivy_clock", "interrupt")
    current = dict(KivyConfig.items("input")) if KivyConfig.has_section("input") else {}
    settings = input_settings(current)
    for key in current.keys() - settings.keys():
        KivyConfig.remove_option("input", key)
    for key, value in settings.items():
        KivyConfig.set("input", key, value)


def input_settings(current: dict[str, str]) -> dict[str, str]:
    """Kivy's [input] section: the one from config.ini (the installer's touch settings,
    or Kivy's own) with its mouse provider made right.

    An entry left empty is off: the desktop setup writes `%(name)s =` so that Kivy's
    first start does not add its raw touch reader there (see ui/commands/deploy.py).
    No red dots for right clicks (multitouch_on_demand). And whenever a touch provider is
    configured (probesysfs, mtdev, hidinput...), the mouse provider ignores the mouse
    events made while a finger is down (disable_on_activity): a second line of defence
    for a screen that also reports itself as a mouse; SDL's own mouse copy of each
    touch is switched off by the console unit (SDL_TOUCH_MOUSE_EVENTS=0)."""
    settings = {k: v for k, v in current.items() if v.strip()}
    mouse_keys = [k for k, v in settings.items() if v.split(",")[0].strip() == "mouse"]
    touch = any(k not in mouse_keys for k in settings)
    args = ["multitouch_on_demand", *(["disable_on_activity"] if touch else [])]
    for key in mouse_keys or ["mouse"]:
        given = [a.strip() for a in settings.get(key, "mouse").split(",")[1:] if a.strip()]
        settings[key] = ",".join(["mouse", *given, *(a for a in args if a not in given)])
    return settings


def journal_path(cfg: Config, override: str | None = None) -> Path:
    from companion.journal import default_path

    folder = override or cfg.get("data_dir") or ""
    return Path(folder) / "journal.sqlite3" if folder else default_path()


def load_config(user_file: Path | None, data_dir: str | None = None) -> Config:
    """The config the app starts with: defaults, the user's file, the settings saved
    from the screen (beside the journal, in `data_dir`); ConfigError lists every
    problem."""
    from companion import config as config_module
    from ui.validators import section_validators

    # the app's own settings file, refused, is set aside: the start goes on with the
    # user's config, and the table is told (`CompanionApp`, `config.SetAside`)
    return config_module.load(user_file, data_dir=data_dir, set_aside_settings=True,
                              validators=section_validators())


def load_hardware(cfg: Config) -> Any:
    """The LEDs, buzzer, buttons and ring (gpiozero's mock pins without GPIO)."""
    from kivy.clock import Clock

    import hardware

    # gpiozero calls back on its own threads: hand every press to the Kivy main loop
    # (without GPIO the hardware layer says once in the log that it uses mock pins)
    return hardware.setup(cfg, lambda fn: Clock.schedule_once(lambda _dt: fn()))


RETRY_SECONDS = 5.0
SOLVED = 75  # show_problem's answer when `retry` found the problem gone


def show_problem(title: str, lines: Sequence[str],
                 retry: Callable[[], bool] | None = None) -> int:
    """A minimal screen that shows what is wrong (config or data folder). With `retry`,
    it is asked every few seconds whether the problem is gone (a lock released, space
    freed): then the screen closes and SOLVED is returned."""
    from kivy.app import App
    from kivy.uix.label import Label

    text = "\n".join([title, "", *lines])
    gc.enable()  # no first frame of the app will come to settle memory

    from kivy.clock import Clock

    from ui.watchdog import Watchdog

    watchdog = Watchdog.from_environment()

    class ProblemApp(App):
        def build(self) -> Label:
            label = Label(text=text, font_size="18sp", halign="left", valign="top")
            label.bind(size=lambda *_: setattr(label, "text_size", label.size))
            return label

        solved = False

        def on_start(self) -> None:
            # stay up showing the problem: exiting would only crash-loop under systemd
            watchdog.ready()
            watchdog.status(title)
            watchdog.start(Clock.schedule_interval)
            if retry is not None:
                Clock.schedule_interval(self.try_again, RETRY_SECONDS)

        def try_again(self, _dt: float) -> None:
            if retry is not None and retry():
                self.solved = True
                self.stop()

    app = ProblemApp()
    app.run()
    return SOLVED if app.solved else 2


def journal_opens(path: Path) -> bool:
    """Whether the journal can be opened now (for the problem screen's retries)."""
    from companion.journal import Journal, JournalError

    try:
        Journal(path, timeout=0.2).close()
    except JournalError:
        return False
    return True


def finish_restore(path: Path) -> None:
    """A restore that a kill or a power cut left half done is finished or undone, whole
    (`backup.finish_pending`); one that cannot be now is left for the next start.
    Nearly every start has none: the restore's code is loaded only for one."""
    from companion.files import restore_marker

    if not os.path.lexists(restore_marker(path)):
        return
    from companion.night import backup

    try:
        done = backup.finish_pending(path)
    except OSError as exc:
        logging.getLogger("ui.main").error("a restore left half done: %s", exc)
        return
    if done is not None:
        logging.getLogger("ui.main").warning(
            "a restore left half done was %s (the previous history: %s)",
            "finished" if done["state"] == "forward" else "undone",
            done["info"].get("kept"))


def start_again() -> None:
    """The same command in a fresh process (same pid: systemd keeps watching it)."""
    os.execv(sys.executable, [sys.executable, *sys.orig_argv[1:]])


#: set in a start that failed before its first frame, for the process that replaces it
RETRIED = "COMPANION_START_RETRIED"  # the start is tried again once
PROBLEM = "COMPANION_START_PROBLEM"  # what failed again: the problem screen shows it


def start_failed(exc: BaseException, *, window: bool, language: str | None = None) -> int:
    """A start that failed before its first frame: the app starts once more in a fresh
    process (same pid, for systemd). Failing again, the problem is shown on screen
    (from a fresh process too when this one's window is made: Kivy runs one app per
    process)."""
    logging.getLogger("ui.main").error("the start failed", exc_info=exc)
    if not os.environ.get(RETRIED):
        os.environ[RETRIED] = "1"
        start_again()
    from companion.config import user_config_path
    from companion.i18n import Translator
    from ui.commands.checkconfig import configured_language

    tr = Translator(language or configured_language(user_config_path()))
    title = tr("core.start.failed")
    lines = [f"{type(exc).__name__}: {exc}"[:500], "", tr("core.start.failed_hint")]
    print(title, *lines, sep="\n", file=sys.stderr)
    if window:
        os.environ[PROBLEM] = json.dumps([title, lines])
        start_again()
    configure_kivy(None)
    return show_problem(title, lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="companion run")
    parser.add_argument("--config", help="a config file to use instead of the user's file")
    parser.add_argument("--data-dir", help="where the journal lives (overrides data_dir)")
    args = parser.parse_args(list(argv or []))
    # start-up allocates much and frees little: no cyclic collection before the first
    # frame (settle_memory turns it back on)
    gc.disable()
    from companion import instance
    from companion.config import ConfigError
    from companion.i18n import Translator
    from companion.journal import Journal, JournalError
    from ui.memory import settle_memory
    # one stream of log lines (journald on the Pi): Kivy logs through Python's logging
    # instead of adding a console handler of its own beside ours
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")

    shown = os.environ.pop(PROBLEM, None)
    if shown is not None:  # a start failed twice: its problem, in a window of its own
        title, lines = json.loads(shown)
        configure_kivy(None)
        return show_problem(title, lines)
    try:
        cfg = load_config(Path(args.config) if args.config else None, args.data_dir)
    except ConfigError as exc:
        from companion.config import user_config_path
        from ui.commands.checkconfig import configured_language

        # the language line of the refused file, read without building it
        tr = Translator(configured_language(Path(args.config) if args.config
                                            else user_config_path()))
        lines = [p.format(tr.message) for p in exc.problems]
        print(tr("core.config.refused"), *lines, sep="\n", file=sys.stderr)
        configure_kivy(None)
        return show_problem(tr("core.config.refused"), lines)
    except Exception as exc:  # anything else: never a crash loop
        return start_failed(exc, window=False)

    window = False
    try:
        configure_kivy(cfg)
        path = journal_path(cfg, args.data_dir)
        # one app per data folder: a second one is told, before it opens the journal
        instance.lock(path.parent)
        finish_restore(path)  # one a kill left half done: before the journal is read
        window = True  # from here on the window may exist
        tr = Translator(cfg.get("language", "en"))
        from ui.app import CompanionApp

        journal = Journal(path)
    except instance.AlreadyRunning as exc:
        # never two apps on one journal (the second failed every save): this one
        # starts once the other has stopped
        tr = Translator(cfg.get("language", "en"))
        print(tr.message(exc.message), file=sys.stderr)
        answer = show_problem(tr("core.ui.already_running"), [tr.message(exc.message)],
                              retry=lambda: instance.free(path.parent))
        if answer == SOLVED:
            start_again()
        return answer
    except JournalError as exc:
        # the file stays where it is; a lock or a full disk may go away: try again then
        print(tr.message(exc.message), file=sys.stderr)
        waits = exc.message.key in ("core.error.journal_open", "core.error.journal_dir")
        answer = show_problem(tr("core.ui.saved_elsewhere"), [tr.message(exc.message)],
                              retry=(lambda: journal_opens(path)) if waits else None)
        if answer == SOLVED:
            start_again()
        return answer
    except Exception as exc:
        return start_failed(exc, window=window, language=cfg.get("language"))

    started = False

    def first_frame() -> None:
        nonlocal started
        started = True
        os.environ.pop(RETRIED, None)  # a later start may be retried again
        settle_memory()

    try:
        app = CompanionApp(cfg, journal, start_hardware=lambda: load_hardware(cfg))
        app.after_first_frame(first_frame)
        app.run()
    except Exception as exc:
        journal.close()
        if started:
            raise  # during play: systemd restarts the app (the journal has every action)
        return start_failed(exc, window=True, language=cfg.get("language"))
    journal.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
