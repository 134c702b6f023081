"""The dice tray is no game between players: it is never listed nor counted."""

from __future__ import annotations

from collections.abc import Sequence

from companion.game import GameNight
from companion.messages import Message
from companion.session import Step


class TrayNight(GameNight):
    listed = False
    ranked = False

    def describe(self, step: Step) -> Sequence[Message]:
        from companion.games.tray.rules import describe

        return tuple(describe(step.events))


NIGHT = TrayNight("tray")
