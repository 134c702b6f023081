"""Every screen of the app by name, built the first time it is asked for.

Start-up then imports and builds only what the first frame shows (the home screen, or
the game resumed after a power cut); the other games' screens and the game-night
screens cost nothing until someone opens them.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from kivy.uix.screenmanager import Screen, ScreenManager

#: screen name -> "module:Class"; a game's screens are named `<kind>_<part>`
SCREENS: Mapping[str, str] = {
    "home": "ui.screens.home:HomeScreen",
    "evil_setup": "ui.screens.evil_setup:EvilSetupScreen",
    "evil_play": "ui.screens.evil_play:EvilPlayScreen",
    "evil_end": "ui.screens.evil_end:EvilEndScreen",
    "castor_setup": "ui.screens.castor_setup:CastorSetupScreen",
    "castor_play": "ui.screens.castor_play:CastorPlayScreen",
    "castor_sheet": "ui.screens.castor_sheet:CastorSheetScreen",
    "castor_tricks": "ui.screens.castor_tricks:CastorTricksScreen",
    "castor_end": "ui.screens.castor_end:CastorEndScreen",
    "bond_setup": "ui.screens.bond_setup:BondSetupScreen",
    "bond_play": "ui.screens.bond_play:BondPlayScreen",
    "bond_end": "ui.screens.bond_end:BondEndScreen",
    "tray_setup": "ui.screens.tray_setup:TraySetupScreen",
    "tray_play": "ui.screens.tray_play:TrayPlayScreen",
    "night_roster": "ui.screens.night_roster:NightRosterScreen",
    "night_history": "ui.screens.night_history:NightHistoryScreen",
    "night_log": "ui.screens.night_history:NightLogScreen",
    "night_stats": "ui.screens.night_stats:NightStatsScreen",
    "night_export": "ui.screens.night_export:NightExportScreen",
    "night_settings": "ui.screens.night_settings:NightSettingsScreen",
}


def build(name: str, screens: Mapping[str, str] = SCREENS) -> Screen:
    module, _, cls = screens[name].partition(":")
    screen: Screen = getattr(importlib.import_module(module), cls)(name=name)
    return screen


class LazyScreenManager(ScreenManager):
    """A ScreenManager that knows every screen of `SCREENS` and builds one on first use
    (`get_screen`, and so also `current = name`)."""

    def __init__(self, screens: Mapping[str, str] = SCREENS, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.known = screens

    def has_screen(self, name: str) -> bool:
        return name in self.known or super().has_screen(name)

    def get_screen(self, name: str) -> Screen:
        if name in self.known and not super().has_screen(name):
            self.add_widget(build(name, self.known))
        return super().get_screen(name)

    def built(self, name: str) -> Screen | None:
        """The screen if it was built already (None: nothing to refresh there)."""
        return super().get_screen(name) if super().has_screen(name) else None
