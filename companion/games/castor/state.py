"""Castor's table state: immutable, small, compared by value.

Only what the table entered is stored (score sheets, tricks); scores, medals and the
winners are derived from it by `scoring`, so editing an earlier round can never leave
a stale total behind.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.castor.params import CastorParams


@dataclass(frozen=True)
class Player:
    """A player at the table and their agent (None when powers are not used)."""

    name: str
    agent: str | None  # an agent id from the params, or None (powers not used)


@dataclass(frozen=True)
class Card:
    """A card put down in a trick, and who played it."""

    player: int  # seat index
    colour: str
    value: int


@dataclass(frozen=True)
class Move:
    """A table correction between two players' won piles (a complice card's action):
    one won card (`colour`, `value`) or, with `colour` None, `value` plan points."""

    giver: int  # seat index
    receiver: int  # seat index
    colour: str | None
    value: int


@dataclass(frozen=True)
class Trick:
    """One trick: who leads, powers drawn, trumps, the cards, and who took it."""

    leader: int  # seat index of the player who leads
    powers: tuple[str, ...] = ()  # agent ids whose power card was drawn, in order
    pending_choices: int = 0  # choose_leader powers drawn whose player has not chosen yet
    trumps: tuple[str, ...] | None = None  # one-trick override; None: the params' trumps
    cards: tuple[Card, ...] = ()
    # a "complice" card: what it said (action, free text), and its corrections
    complice: tuple[tuple[str, str], ...] = ()
    moves: tuple[Move, ...] = ()  # between won piles, made during this trick
    awarded: int | None = None  # seat the table gives the trick to (a complice's rule)
    # set when the trick is taken:
    winner: int | None = None
    plan: int | None = None  # value of the top plan card
    extra_plan: int | None = None  # value of the bottom plan card (extra_plan power)


@dataclass(frozen=True)
class Sheet:
    """One round's score sheet, per player in seating order."""

    plan: tuple[int, ...]  # points of the plan cards won
    green: tuple[int, ...]  # cards of the bonus colour won
    yellow: tuple[int, ...]  # cards of the malus colour won


@dataclass(frozen=True)
class Round:
    """A round recorded: its score sheet, and its tricks if it was followed trick by trick."""

    sheet: Sheet
    tricks: tuple[Trick, ...] = ()  # empty when the round was entered on the score sheet
    edited: bool = False  # the sheet was entered (or changed) by hand after tracking


@dataclass(frozen=True)
class Tracking:
    """The round being followed trick by trick; it becomes a Round at its last trick."""

    number: int  # 1-based round number
    done: tuple[Trick, ...]
    current: Trick


@dataclass(frozen=True)
class CastorState:
    """A game of Castor at one moment: players, rounds recorded, the round tracked."""

    params: CastorParams
    players: tuple[Player, ...]
    first_leader: int  # seat index of the first round's leader
    rounds: tuple[Round, ...] = ()
    tracking: Tracking | None = None

    def seat(self, name: str) -> int | None:
        for i, player in enumerate(self.players):
            if player.name == name:
                return i
        return None

    def seat_of_agent(self, agent: str) -> int | None:
        for i, player in enumerate(self.players):
            if player.agent == agent:
                return i
        return None
