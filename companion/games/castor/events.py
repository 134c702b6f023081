"""What happened, for the screen, the LEDs, the buzzer and the log."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RoundStarted:
    """The table began following a round trick by trick; this player leads first."""

    round: int
    leader: str


@dataclass(frozen=True)
class PowerDrawn:
    """An agent's power card came off the plan pile; its player applies the power."""

    agent: str
    player: str
    effect: str
    text: str  # translation key of the power's text, to show the table


@dataclass(frozen=True)
class LeaderChosen:
    """This player leads the trick, chosen by an agent's power or as a correction."""

    player: str
    by_agent: str | None  # the agent whose power chose; None: a correction


@dataclass(frozen=True)
class TrumpsSet:
    """The trumps for this trick changed, or went back to the usual ones."""

    trumps: tuple[str, ...] | None  # None: back to the usual trumps


@dataclass(frozen=True)
class CheckCards:
    """A card was accepted although the game's settings did not expect it: the table
    should check its cards (and may correct the settings for the next games).

    `reason`: "value" (outside the colour's low..high), "copies" (more cards of this
    value than the settings count), "plan_value" (a plan value not among the plan
    cards), "plan_copies" (more plan cards of this value than listed), "plan_total"
    (a sheet's plan points above all the listed plan cards together)."""

    reason: str
    value: int
    colour: str | None = None
    low: int | None = None
    high: int | None = None
    count: int | None = None


@dataclass(frozen=True)
class CompliceNoted:
    """A complice card came up: what the table noted."""

    action: str
    text: str


@dataclass(frozen=True)
class TrickAwarded:
    """A complice's rule gives the trick to this player (None: the usual winner again)."""

    player: str | None


@dataclass(frozen=True)
class PileMoved:
    """A won card (colour, value) or plan points (colour None) changed piles."""

    giver: str
    receiver: str
    colour: str | None
    value: int


@dataclass(frozen=True)
class CardPlayed:
    """A player put a card down in the trick being followed."""

    player: str
    colour: str
    value: int


@dataclass(frozen=True)
class TrickWon:
    """A trick was taken: who won it, the plan cards and the cards they took."""

    round: int
    trick: int  # 1-based
    winner: str
    plan: int
    extra_plan: int | None
    cards: tuple[tuple[str, int], ...]  # (colour, value) credited to the winner
    next_leader: str | None  # None after the round's last trick


@dataclass(frozen=True)
class TrackingCancelled:
    """The round is no longer followed trick by trick; its tricks were dropped."""

    round: int
    tricks: int


@dataclass(frozen=True)
class SheetEntered:
    """A round's score sheet was filled in, by hand or from its tricks."""

    round: int
    source: str  # "sheet" or "tricks"
    replaced: bool  # an earlier sheet of this round was replaced


@dataclass(frozen=True)
class RoundScored:
    """A round's totals per player, and who takes a medal for it."""

    round: int
    totals: tuple[int, ...]  # per player, seating order
    winners: tuple[str, ...]  # each takes a medal


@dataclass(frozen=True)
class RoundDeleted:
    """The last round entered was removed."""

    round: int


@dataclass(frozen=True)
class GameWon:
    """Someone reached the medals needed to win; several at once share the victory."""

    round: int  # the round that decided it
    winners: tuple[str, ...]  # several: they share the victory


@dataclass(frozen=True)
class GameReopened:
    """An edit undid the victory: nobody has enough medals any more."""
