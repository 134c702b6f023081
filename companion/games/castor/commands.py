"""Every action the table can take in Castor. Each one is logged and undoable.

Players are named by their name (unique in a game), so the journal reads plainly.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.records import registry


# -- the score sheet -------------------------------------------------------------------
@dataclass(frozen=True)
class EnterSheet:
    """Enter a round's score sheet, or replace it (editing an earlier round).

    `round` is 1-based; the next round number starts a new round. Each tuple holds
    one number per player, in seating order.
    """

    round: int
    plan: tuple[int, ...]
    green: tuple[int, ...]
    yellow: tuple[int, ...]


@dataclass(frozen=True)
class DeleteRound:
    """Remove the last round entered (a round entered by mistake)."""

    round: int


# -- the trick tracker -----------------------------------------------------------------
@dataclass(frozen=True)
class DrawPower:
    """An agent's power card was on top of the plan pile at the start of the trick."""

    agent: str


@dataclass(frozen=True)
class ChooseLeader:
    """Who leads this trick: a choose_leader power's choice, or a correction before the
    first card is played."""

    player: str


@dataclass(frozen=True)
class SetTrumps:
    """One-trick override from a "complice" card: the colours that beat the first colour,
    strongest first (empty: no trump this trick). None restores the usual trumps."""

    trumps: tuple[str, ...] | None


#: what a "complice" card may say, as the table notes it ("other": free text)
COMPLICE_ACTIONS = ("trumps", "leader", "winner", "card", "points", "other")


@dataclass(frozen=True)
class NoteComplice:
    """A "complice" card came up this trick: what it says (one of COMPLICE_ACTIONS, and
    the table's own words). The app records it; the corrections are their own commands."""

    action: str
    text: str = ""


@dataclass(frozen=True)
class AwardTrick:
    """A complice's rule gives this trick to this player, whoever played the strongest
    card (None: back to the usual winner)."""

    player: str | None


@dataclass(frozen=True)
class MoveCard:
    """A won card goes from one player's pile to another's (a complice's action)."""

    giver: str
    receiver: str
    colour: str
    value: int


@dataclass(frozen=True)
class MovePlan:
    """Plan points go from one player's pile to another's (a complice's action)."""

    giver: str
    receiver: str
    points: int


@dataclass(frozen=True)
class PlayCard:
    """This player puts down this card in the trick being followed."""

    player: str
    colour: str
    value: int


@dataclass(frozen=True)
class TakeTrick:
    """Every card is down: the winner takes the cards and the top plan card (`plan` is
    its value) and, with an extra_plan power drawn this trick, the bottom plan card."""

    plan: int
    extra_plan: int | None = None


@dataclass(frozen=True)
class CancelTracking:
    """Stop following the current round trick by trick (its tricks are dropped)."""


COMMANDS = registry(
    [EnterSheet, DeleteRound, DrawPower, ChooseLeader, SetTrumps, PlayCard, TakeTrick,
     CancelTracking, NoteComplice, AwardTrick, MoveCard, MovePlan]
)
