"""What History, Statistics and the home screen ask a game's UI folder.

Each game's folder may hold a `night.py` with an object named `NIGHT` built on
`NightScreens`: how its lines read in History, its own lines in Statistics, how far
an unfinished game went on the home screen. A game without one gets the defaults
(players with their scores, then the winners). `register` adds a game's screens
from elsewhere (a game outside `ui/screens`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from companion.games import KINDS

if TYPE_CHECKING:
    from companion.night.history import GameLine
    from companion.night.stats import KindStats


class NightScreens:
    def title(self, line: GameLine) -> str | None:
        """A game's title in History, if not its kind's short name."""
        return None

    def short_title(self, line: GameLine) -> str | None:
        """Its name above its score chart, if not its kind's short name."""
        return None

    def outcome_parts(self, line: GameLine) -> list[str] | None:
        """The parts of its second line in History; None: the players with their
        scores, then the winners."""
        return None

    def stat_lines(self, screen: Any, ks: KindStats) -> list[str]:
        """Its own lines in the Statistics' games tab (after the best score; a
        co-operative game's lines end its card)."""
        return []

    def progress(self, summary: dict[str, Any],
                 setup: dict[str, Any] | None = None) -> str | None:
        """How far an unfinished game went, on the home screen; None: its scores, or
        its turn."""
        return None


_FOUND: dict[str, NightScreens] = {}


def register(kind: str, screens: NightScreens) -> None:
    _FOUND[kind] = screens


def screens_for(kind: str) -> NightScreens:
    if kind not in _FOUND:
        if kind not in KINDS:
            return NightScreens()
        try:
            module = importlib.import_module(f"ui.screens.{kind}.night")
        except ModuleNotFoundError as exc:
            if exc.name != f"ui.screens.{kind}.night":
                raise
            _FOUND[kind] = NightScreens()
        else:
            _FOUND[kind] = module.NIGHT
    return _FOUND[kind]
