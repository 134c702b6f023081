"""What the game-night layer (history, statistics, export, backup) asks a game.

Each game package answers for itself in its own `night.py`, with an object named
`NIGHT` built on `GameNight`; `companion.games.night_for(kind)` finds it. History,
statistics and the export call these methods and never test a game's name. The
defaults fit a game between players whose summary names its winners and lists its
`scores` by seat; a kind this version does not know gets them too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from companion.messages import Message, msg

if TYPE_CHECKING:
    from pathlib import Path

    from companion.journal import Entry, GameRecord, Journal
    from companion.session import Step


class OwnFileRefused(Exception):
    """A game's own file (a backup's part) its loader fails on, rather than listing it
    as broken: the restore is refused. `where` names the folder or the file."""

    def __init__(self, where: str, cause: Exception) -> None:
        super().__init__(where)
        self.where, self.cause = where, cause


class Played(Protocol):
    """What the contract reads of a game already told (a `Facts` or a `GameLine`)."""

    kind: str
    win: str | None
    template: str | None


class GameNight:
    #: a game between players: listed in the history and counted (False: the dice tray)
    listed = True
    #: counted in the statistics and the export (False: the clock, which has no winners)
    ranked = True
    #: the clock may run beside it: its seats get the clock's times
    clock_beside = False
    #: its facts read its actions, not only its summary (Bond's best kill)
    reads_actions = False
    #: won or lost by the whole table
    cooperative_kind = False
    #: has a score line over its rounds (`score_lines`), for the statistics' chart
    has_score_line = False
    #: the folder of the table's own files for this game beside the config file
    #: (`*.yaml`; the backup holds them): None, it has none
    own_folder: str | None = None

    def __init__(self, kind: str) -> None:
        self.kind = kind

    # -- the log ----------------------------------------------------------------------
    def command_name(self, command: Any) -> Message:
        """What a command is called in a log line."""
        return msg(f"night.command.{self.kind}.{type(command).__name__}")

    def describe(self, step: Step) -> Sequence[Message]:
        """What a step did, for the log (after its command's name)."""
        return ()

    # -- the facts (the typed outcome) --------------------------------------------------
    def facts(self, base: dict[str, Any], setup: Mapping[str, Any],
              summary: Mapping[str, Any], entries: Sequence[Entry]) -> Any:
        """The game's `companion.night.facts.Facts` from its setup and summary
        (`entries`: its actions, when `reads_actions`). `base` holds the fields every
        game has (id, kind, dates, status, names by seat). None (this default): the
        plain facts, its summary's scores and winners by seat (`night.facts.compute`
        makes them: the contract does not import what it describes)."""
        return None

    def cooperative(self, game: Played) -> bool:
        return self.cooperative_kind

    def section(self, game: Played) -> str:
        """What statistics and the export group this game under (its kind, unless games
        of one kind must not mix their scores)."""
        return self.kind

    # -- statistics ---------------------------------------------------------------------
    def score_lines(self, journal: Journal, record: GameRecord, n: int
                    ) -> list[list[int]] | None:
        """Per seat, the score after each scoring step from 0; None: the game has no
        score line."""
        return None

    def cells(self, journal: Journal, record: GameRecord) -> list[Any]:
        """A game going on's sheet cells (only the score pad has a sheet)."""
        return []

    # -- the backup ---------------------------------------------------------------------
    def broken_own(self, folder: Path) -> set[str]:
        """The names of the files in `folder` (this game's own files, staged by a
        restore) that its loader lists as broken; raises `OwnFileRefused` for one it
        fails on."""
        return set()

    # -- the export -----------------------------------------------------------------------
    def highest_wins(self, game: Played) -> bool:
        return True

    def title(self, game: Any, language: str) -> str | None:
        """What an export calls this game, if not the kind's own name."""
        return None

    def no_points(self, game: Played) -> bool:
        """Won without points (BG Stats' `noPoints`)."""
        return self.cooperative(game)
