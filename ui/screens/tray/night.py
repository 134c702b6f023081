"""The dice tray on the home screen: how many rolls an unfinished tray has."""

from __future__ import annotations

from typing import Any

from kivy.app import App

from ui.screens.night.games import NightScreens


class TrayScreens(NightScreens):
    def progress(self, summary: dict[str, Any],
                 setup: dict[str, Any] | None = None) -> str | None:
        return str(App.get_running_app().tr("night.ui.tray_rolls", n=summary.get("rolls", 0)))


NIGHT = TrayScreens()
