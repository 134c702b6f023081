"""Le Castor en cavale's screens, as the app registers them."""

from __future__ import annotations

from kivy.uix.screenmanager import Screen

from ui.screens.castor_end import CastorEndScreen
from ui.screens.castor_play import CastorPlayScreen
from ui.screens.castor_setup import CastorSetupScreen
from ui.screens.castor_sheet import CastorSheetScreen
from ui.screens.castor_tricks import CastorTricksScreen


def screens() -> list[Screen]:
    return [CastorSetupScreen(name="castor_setup"), CastorPlayScreen(name="castor_play"),
            CastorSheetScreen(name="castor_sheet"), CastorTricksScreen(name="castor_tricks"),
            CastorEndScreen(name="castor_end")]
