"""The game-night screens (players, history, a game's log, statistics, export and
backup, settings), added to the app's screen manager by the home screen, and the
screen dimmer started once where the display has a backlight."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.uix.screenmanager import Screen, ScreenManager

from ui.screens import night_prefs
from ui.screens.night_export import NightExportScreen
from ui.screens.night_history import NightHistoryScreen, NightLogScreen
from ui.screens.night_roster import NightRosterScreen
from ui.screens.night_settings import NightSettingsScreen
from ui.screens.night_stats import NightStatsScreen


def screens() -> list[Screen]:
    return [NightRosterScreen(name="night_roster"), NightHistoryScreen(name="night_history"),
            NightLogScreen(name="night_log"), NightStatsScreen(name="night_stats"),
            NightExportScreen(name="night_export"), NightSettingsScreen(name="night_settings")]


def install(manager: ScreenManager) -> None:
    """Add the screens once (the home screen calls this when it is first shown)."""
    if manager.has_screen("night_history"):
        return
    for screen in screens():
        manager.add_widget(screen)
    start_dimmer(App.get_running_app())


def start_dimmer(app: Any) -> None:
    if app is None or getattr(app, "night_dimmer", None) is not None:
        return
    if not night_prefs.dimming_available(app.settings):
        return
    dimmer = night_prefs.Dimmer(int(app.settings.get(night_prefs.DIM_KEY, 0)))
    app.night_dimmer = dimmer
    Window.bind(on_touch_down=dimmer.touched)
    Clock.schedule_interval(dimmer.tick, 5)
