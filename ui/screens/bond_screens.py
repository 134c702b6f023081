"""Before I Kill You, Mr. Bond's screens, as the app registers them."""

from __future__ import annotations

from kivy.uix.screenmanager import Screen

from ui.screens.bond_end import BondEndScreen
from ui.screens.bond_play import BondPlayScreen
from ui.screens.bond_setup import BondSetupScreen


def screens() -> list[Screen]:
    return [BondSetupScreen(name="bond_setup"), BondPlayScreen(name="bond_play"),
            BondEndScreen(name="bond_end")]
