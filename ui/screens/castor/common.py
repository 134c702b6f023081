"""What the Castor screens share: the symbol font, card colours with readable ink,
and the session's state."""

from __future__ import annotations

import os

import kivy
from kivy.app import App

from companion.games.castor.state import CastorState
from ui import theme

#: Roboto has no star: cells with the medal symbol use the DejaVu font Kivy ships
SYMBOL_FONT = os.path.join(kivy.kivy_data_dir, "fonts", "DejaVuSans.ttf")
MEDAL = "★"

#: colours too light for white text get dark ink
DARK_INK = (0.08, 0.08, 0.10, 1)
LIGHT_CARDS = ("yellow", "green")


def ink(colour: str) -> tuple[float, float, float, float]:
    return DARK_INK if colour in LIGHT_CARDS else theme.TEXT


def current_state() -> CastorState:
    session = App.get_running_app().session
    assert session is not None
    return session.state


def colour_name(colour: str) -> str:
    return App.get_running_app().tr(f"castor.colour.{colour}")


def _agreed(table: str, colour: str) -> str:
    """The colour agreed with the card(s) it names (« carte bleue », « cartes bleues »);
    a colour the catalog does not know (added in the settings) is named alone."""
    app = App.get_running_app()
    key = f"castor.{table}.{colour}"
    return app.tr(key) if app.translator.has(key) else colour_name(colour)


def colour_card(colour: str) -> str:
    return _agreed("colour_card", colour)


def colour_cards(colour: str) -> str:
    return _agreed("colour_cards", colour)


def card_text(colour: str, value: int) -> str:
    return App.get_running_app().tr("castor.ui.card", value=value, colour=colour_name(colour))
