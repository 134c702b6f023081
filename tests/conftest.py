"""Shared fixtures. Kivy is kept quiet and away from the user's files in every test."""

from __future__ import annotations

import os
import tempfile

# Before anything imports kivy: no argv parsing, no log files, a throw-away KIVY_HOME.
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
# The app's clock (ui.main.configure_kivy): set before any test imports kivy.clock,
# which would otherwise build the default clock first whatever the window asks later.
os.environ.setdefault("KIVY_CLOCK", "interrupt")
# The window is made once per test process, by whichever test first needs it: with the
# app's window settings (no multisampling, config/app.yaml), whatever test that is. A
# multisampled window antialiases shapes otherwise than the app's window does.
os.environ.setdefault("KCFG_GRAPHICS_MULTISAMPLES", "0")
# Never the user's own files: a test that saves a setting or opens the default journal
# writes into a throw-away home, and no config of the machine's leaks into a test.
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="companion-config-")
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="companion-data-")
os.environ.pop("COMPANION_CONFIG", None)
os.environ.pop("COMPANION_SETTINGS", None)

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from companion import config

# `make test` and CI: the same examples every run (derandomised, no example database),
# so a run's answer never depends on luck; no per-example deadline, since CI shares two
# cores and time per example is not what the property tests check.
# `make fuzz` (HYPOTHESIS_PROFILE=fuzz): fresh randomness and many more examples; what it
# finds is fixed, then kept as an @example.
settings.register_profile("ci", derandomize=True, database=None, deadline=None,
                          print_blob=True)
settings.register_profile("fuzz", max_examples=1000, deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session")
def defaults() -> config.Config:
    """The shipped defaults, checked whole by every section's validator."""
    from tests.helpers.checked import load

    return load(use_default_user_file=False, check_defaults=True)


# -- the real app, for UI tests (run under xvfb-run) ------------------------------------
@pytest.fixture
def instant_release() -> Iterator[None]:
    """Buttons release on touch-up: Kivy otherwise holds a quick tap's on_release for
    `min_state_time` (35 ms) on the clock, and the next look at the screen could come
    before it (`pytest.mark.usefixtures("instant_release")`)."""
    from kivy.config import Config

    before = Config.get("graphics", "min_state_time")
    Config.set("graphics", "min_state_time", "0")
    yield
    Config.set("graphics", "min_state_time", before)


@pytest.fixture(scope="session")
def window() -> Iterator[None]:
    from ui.main import configure_kivy

    configure_kivy(None)
    from kivy.core.window import Window

    Window.size = (800, 480)
    yield


@pytest.fixture
def launch(window: None, defaults: config.Config, tmp_path: Path) -> Iterator[Any]:
    """Start the app on a journal file and return a `tests.uidriver.Driver`;
    calling `launch()` again is the app restarted on the same journal."""
    from kivy.core.window import Window

    from companion.journal import Journal
    from tests.uidriver import Driver
    from ui.app import CompanionApp

    started: list[Any] = []

    def stop_all() -> None:
        from kivy.base import EventLoop

        for _ in range(3):  # let the old app's pending callbacks run while it is current
            EventLoop.idle()
        for app in started:
            if app.hardware is not None:
                app.hardware.close()
            app.close_dialog()
            app.stop_touch_pace()  # its window handlers gone with it
            app.close_writer()  # its actions written, its connections closed
            if app.root is not None and app.root.parent is not None:
                Window.remove_widget(app.root)
            app.journal.close()
        started.clear()

    def start(language: str = "en", seed: int = 7, journal_file: Path | None = None,
              hardware: bool = False, hardware_section: dict[str, Any] | None = None,
              **overrides: Any) -> Driver:
        """`hardware_section`: merged into the config's `hardware` (the mock pins')."""
        stop_all()
        if tuple(Window.size) != (800, 480):
            Window.size = (800, 480)
        data = config.merge(defaults.data, {"language": language, **overrides})
        # a guard after each roll as short as a test's taps allow (the driver waits it)
        data["display"] = dict(data["display"], roll_animation=0.3, roll_guard=0.05)
        # taps as quick as a test's: none is a panel's double contact (unless asked)
        if "debounce" not in overrides.get("games", {}).get("pad", {}):
            data["games"]["pad"] = dict(data["games"]["pad"], debounce=0)
        start_hardware = None
        if hardware:  # gpiozero's mock pins, the LED ring on a loopback port
            from gpiozero.pins.mock import MockFactory, MockPWMPin
            from kivy.clock import Clock

            import hardware as hardware_layer

            data["hardware"] = config.merge(data["hardware"], hardware_section or {})
            data["hardware"]["ring"]["port"] = "loop://"

            def start_hardware() -> Any:  # as `companion` does: after the first frame
                return hardware_layer.setup(
                    config.Config(data), lambda fn: Clock.schedule_once(lambda _dt: fn()),
                    pin_factory=MockFactory(pin_class=MockPWMPin))

        app = CompanionApp(config.Config(data, validators=defaults.validators),
                           Journal(journal_file or tmp_path / "journal.sqlite3"),
                           start_hardware=start_hardware, new_seed=lambda: seed)
        app._run_prepare()
        started.append(app)
        driver = Driver(app)
        driver.pump(5)
        return driver

    yield start
    stop_all()


# -- CI skips nothing ----------------------------------------------------------------------
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """With CI=true a skipped test is a failure: green must mean everything ran."""
    if os.environ.get("CI") != "true":
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter is not None else []
    if skipped:
        reporter.write_line(f"CI=true: {len(skipped)} test(s) skipped; that fails CI here.",
                            red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
