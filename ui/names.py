"""A player's name as the play screens show it: tidied (`companion.names.display_name`),
and a seat nobody named ("Player 3") said in the language on screen ("Joueur 3" once the
app speaks French), as History, the logs and the charts say it (issue 29: a guest has
one name everywhere). Commands keep the name the game holds."""

from __future__ import annotations

from typing import Any

from kivy.app import App

from companion import names


def display_name(name: Any) -> str:
    app = App.get_running_app()
    translator = getattr(app, "translator", None)
    if translator is None:
        return names.display_name(name)
    return str(translator.name(name))
