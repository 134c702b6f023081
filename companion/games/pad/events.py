"""What happened on a score pad, for the log and the screen."""

from __future__ import annotations

from dataclasses import dataclass

Label = tuple[tuple[str, str], ...]  # a category's or tie-breaker's label (template.Label)


@dataclass(frozen=True)
class CellSet:
    """A cell was entered (`old` None) or corrected; `where` is the round number (1
    for the first) or the category's id. Texts and values as the sheet shows them."""

    player: str
    round: int | None
    category: str | None
    old_text: str | None
    old_value: str | None
    text: str
    value: str
    note: str | None = None  # "range": outside the category's configured range
    label: Label = ()  # the category's label


@dataclass(frozen=True)
class CellCleared:
    player: str
    round: int | None
    category: str | None
    old_text: str
    old_value: str
    label: Label = ()


@dataclass(frozen=True)
class RoundOpened:
    round: int  # 1 for the first


@dataclass(frozen=True)
class RoundClosed:
    """The last round lost its only value: it is no longer open."""

    round: int


@dataclass(frozen=True)
class TieInputSet:
    player: str
    key: str
    old_value: str | None
    value: str
    label: Label = ()


@dataclass(frozen=True)
class TieSettled:
    winners: tuple[str, ...]


@dataclass(frozen=True)
class PlayerOut:
    player: str
    how: str  # "eliminated" | "left"


@dataclass(frozen=True)
class WonOutright:
    winners: tuple[str, ...]
    reason: str


@dataclass(frozen=True)
class CoopEnded:
    won: bool


@dataclass(frozen=True)
class PlacesSet:
    order: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class GameEnded:
    """The game ended; `winners` by name (several when they share the win)."""

    winners: tuple[str, ...]


@dataclass(frozen=True)
class TieBroken:
    """How the tie for the win went: `winners` ahead on the tie-breaker `label`, their
    `value` to the `beaten` values (best first); no `beaten`: still tied on it, the
    win shared."""

    winners: tuple[str, ...]
    label: Label
    value: str
    beaten: tuple[str, ...] = ()


@dataclass(frozen=True)
class TieWaits:
    """The game ended tied for the win: the tie-breaker `label` is asked of `players`
    (no label: the table chooses the winner). No winner is said before."""

    players: tuple[str, ...]
    label: Label = ()


@dataclass(frozen=True)
class PenaltyWritten:
    """`points` penalty points against `player` (`total`: all of theirs so far)."""

    player: str
    points: int
    total: int
