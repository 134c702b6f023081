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
    "evil_setup": "ui.screens.evil.setup:EvilSetupScreen",
    "evil_play": "ui.screens.evil.play:EvilPlayScreen",
    "evil_end": "ui.screens.evil.end:EvilEndScreen",
    "castor_setup": "ui.screens.castor.setup:CastorSetupScreen",
    "castor_play": "ui.screens.castor.play:CastorPlayScreen",
    "castor_sheet": "ui.screens.castor.sheet:CastorSheetScreen",
    "castor_tricks": "ui.screens.castor.tricks:CastorTricksScreen",
    "castor_end": "ui.screens.castor.end:CastorEndScreen",
    "bond_setup": "ui.screens.bond.setup:BondSetupScreen",
    "bond_play": "ui.screens.bond.play:BondPlayScreen",
    "bond_end": "ui.screens.bond.end:BondEndScreen",
    "pad_setup": "ui.screens.pad.setup:PadSetupScreen",
    "pad_play": "ui.screens.pad.play:PadPlayScreen",
    "pad_standings": "ui.screens.pad.standings:PadStandingsScreen",
    "pad_end": "ui.screens.pad.end:PadEndScreen",
    "tray_setup": "ui.screens.tray.setup:TraySetupScreen",
    "tray_play": "ui.screens.tray.play:TrayPlayScreen",
    "clock_setup": "ui.screens.clock.setup:ClockSetupScreen",
    "clock_play": "ui.screens.clock.play:ClockPlayScreen",
    "clock_end": "ui.screens.clock.end:ClockEndScreen",
    "night_roster": "ui.screens.night.roster:NightRosterScreen",
    "night_history": "ui.screens.night.history:NightHistoryScreen",
    "night_log": "ui.screens.night.history:NightLogScreen",
    "night_stats": "ui.screens.night.stats:NightStatsScreen",
    "night_export": "ui.screens.night.export:NightExportScreen",
    "night_settings": "ui.screens.night.settings:NightSettingsScreen",
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
