"""Pr. Evil's screens, as the app registers them."""

from __future__ import annotations

from kivy.uix.screenmanager import Screen

from ui.screens.evil_end import EvilEndScreen
from ui.screens.evil_play import EvilPlayScreen
from ui.screens.evil_setup import EvilSetupScreen


def screens() -> list[Screen]:
    return [EvilSetupScreen(name="evil_setup"), EvilPlayScreen(name="evil_play"),
            EvilEndScreen(name="evil_end")]
