"""What happened, for the screen, the LEDs, the buzzer and the log."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RoundStarted:
    round: int
    leader: str


@dataclass(frozen=True)
class PowerDrawn:
    agent: str
    player: str
    effect: str
    text: str  # translation key of the power's text, to show the table


@dataclass(frozen=True)
class LeaderChosen:
    player: str
    by_agent: str | None  # the agent whose power chose; None: a correction


@dataclass(frozen=True)
class TrumpsSet:
    trumps: tuple[str, ...] | None  # None: back to the usual trumps


@dataclass(frozen=True)
class CardPlayed:
    player: str
    colour: str
    value: int


@dataclass(frozen=True)
class TrickWon:
    round: int
    trick: int  # 1-based
    winner: str
    plan: int
    extra_plan: int | None
    cards: tuple[tuple[str, int], ...]  # (colour, value) credited to the winner
    next_leader: str | None  # None after the round's last trick


@dataclass(frozen=True)
class TrackingCancelled:
    round: int
    tricks: int


@dataclass(frozen=True)
class SheetEntered:
    round: int
    source: str  # "sheet" or "tricks"
    replaced: bool  # an earlier sheet of this round was replaced


@dataclass(frozen=True)
class RoundScored:
    round: int
    totals: tuple[int, ...]  # per player, seating order
    winners: tuple[str, ...]  # each takes a medal


@dataclass(frozen=True)
class RoundDeleted:
    round: int


@dataclass(frozen=True)
class GameWon:
    round: int  # the round that decided it
    winners: tuple[str, ...]  # several: they share the victory


@dataclass(frozen=True)
class GameReopened:
    """An edit undid the victory: nobody has enough medals any more."""
