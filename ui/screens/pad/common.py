"""What the score pad's screens share: the session's state, labels in the table's
language, players' colours."""

from __future__ import annotations

from typing import Any

from kivy.app import App

from ui import theme
from ui.widgets.charts import PALETTE, hex_rgba, player_rgba


def current_state() -> Any:
    session = App.get_running_app().session
    assert session is not None
    return session.state


def label(name: Any) -> str:
    """A template's label (a plain string, a language -> text mapping or its pairs, or
    a Message) in the app's language."""
    from companion.messages import Message

    app = App.get_running_app()
    if isinstance(name, Message):
        return app.say(name)
    if isinstance(name, str):
        return name
    from companion.games.pad.template import label_text

    if isinstance(name, dict):
        name = tuple(name.items())
    return label_text(name, app.translator.language)


ARROW = "\u2192"


def set_text(widget: Any, text: str) -> None:
    """`text` on a label; Roboto has no arrow ("11 coins → 3"): it is drawn in the
    DejaVu font Kivy ships, as markup, the rest of the text escaped."""
    from kivy.utils import escape_markup

    from ui.screens.castor.common import SYMBOL_FONT

    if ARROW in text:
        arrow = f"[font={SYMBOL_FONT}]{ARROW}[/font]"
        widget.markup = True
        widget.text = arrow.join(escape_markup(part) for part in text.split(ARROW))
    else:
        widget.markup = False
        widget.text = text


def seat_colour(player: Any, seat: int) -> theme.Rgba:
    """A seat's colour: the one chosen (roster or set-up), else the roster's by id,
    else the palette's by seat."""
    colour = getattr(player, "colour", None) if not isinstance(player, dict) \
        else player.get("colour")
    roster_id = getattr(player, "roster_id", None) if not isinstance(player, dict) \
        else player.get("roster_id")
    if colour:
        return hex_rgba(colour)
    if roster_id:
        return player_rgba(roster_id, "")
    return hex_rgba(PALETTE[seat % len(PALETTE)])


def number(value: Any) -> str:
    """A value as the sheet writes it, with a true minus sign ("" for a blank)."""
    if value is None:
        return ""
    from companion.games.pad.entry import shown

    return shown(value).replace("-", "\u2212")


# -- the screen on show, kept for a power cut ---------------------------------------------
def _folder() -> Any:
    from pathlib import Path

    path = getattr(App.get_running_app().journal, "path", None)
    return None if path is None else Path(path).parent


def remember(screen: str, dialog: str | None = None, seat: int | None = None) -> None:
    """Keep which of the game's screens is on show (and a menu open over it), durably,
    before it is shown: the journal holds the game, not the screen (issue 29: the exact
    screen comes back after a power cut)."""
    from companion import screen_memory

    session = App.get_running_app().session
    if session is None:
        return
    screen_memory.remember(_folder(), {"game": session.game_id, "screen": screen,
                                       "dialog": dialog, "seat": seat})


def recalled() -> dict[str, Any] | None:
    """What `remember` kept for the game open now, or None."""
    from companion import screen_memory

    session = App.get_running_app().session
    return None if session is None else screen_memory.recall(_folder(), session.game_id)
