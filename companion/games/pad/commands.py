"""Every action on a score pad. Each one is journaled and undoable."""

from __future__ import annotations

from dataclasses import dataclass

from companion.records import registry


@dataclass(frozen=True)
class SetCell:
    """Enter or correct a cell. A rounds sheet gives `round` (0-based; `round ==
    len(rounds)` opens the next round once the last is complete), a categories sheet
    gives `category` (an id)."""

    seat: int
    round: int | None
    category: str | None
    expression: str


@dataclass(frozen=True)
class ClearCell:
    """Back to blank (a blank is never a zero). Clearing the only value of the last
    round closes that round again."""

    seat: int
    round: int | None
    category: str | None


@dataclass(frozen=True)
class SetTieInput:
    """A raw tie-breaker input (leftover food...), asked for when a tie exists."""

    seat: int
    key: str
    expression: str


@dataclass(frozen=True)
class SettleTie:
    """The table's choice among players tied after every tie-breaker (`ties: chosen`)."""

    winners: tuple[int, ...]


@dataclass(frozen=True)
class Eliminate:
    seat: int


@dataclass(frozen=True)
class Leave:
    seat: int


@dataclass(frozen=True)
class InstantWin:
    """These seats (or their teams) win outright, whatever the points."""

    seats: tuple[int, ...]
    reason: str = ""


@dataclass(frozen=True)
class CoopOutcome:
    """A co-operative game ends: the table won or lost together."""

    won: bool


@dataclass(frozen=True)
class SetPlaces:
    """`win: places`: seats best first, each group a place (ties share it)."""

    order: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class End:
    """The table ends the game."""


@dataclass(frozen=True)
class Penalty:
    """Penalty points against a seat, from the clock running beside the game (a turn
    over time, `at_zero: penalty`): taken from its total where the highest wins, added
    where the lowest wins. Journaled and undone like any entry."""

    seat: int
    points: int


COMMANDS = registry([SetCell, ClearCell, SetTieInput, SettleTie, Eliminate, Leave,
                     InstantWin, CoopOutcome, SetPlaces, End, Penalty])
