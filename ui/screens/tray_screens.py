"""The dice tray's screens, as the app registers them."""

from __future__ import annotations

from kivy.uix.screenmanager import Screen

from ui.screens.tray_play import TrayPlayScreen
from ui.screens.tray_setup import TraySetupScreen


def screens() -> list[Screen]:
    return [TraySetupScreen(name="tray_setup"), TrayPlayScreen(name="tray_play")]
