"""Who wins a trick, and what a round's tricks add up to.

A trick is won by the highest card of the strongest trump colour played (usually
mauve); with no trump played, by the highest card of the first colour played. A
"complice" card may replace the trumps for one trick (e.g. blue before mauve, or no
trump at all). When a colour prints each value on several cards, two equal cards can
meet: the rulebook does not say who wins then; the app gives it to the first played.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from companion.games.castor.params import CastorParams
from companion.games.castor.state import Card, Sheet, Trick


def trumps_in_force(params: CastorParams, trick: Trick) -> tuple[str, ...]:
    return params.trumps if trick.trumps is None else trick.trumps


def leading_card(cards: Sequence[Card], trumps: Sequence[str]) -> Card | None:
    """The card winning the trick so far (None before the first card)."""
    if not cards:
        return None
    for colour in (*trumps, cards[0].colour):
        of_colour = [card for card in cards if card.colour == colour]
        if of_colour:
            # max() keeps the first of equal values: the first played wins a tie
            return max(of_colour, key=lambda card: card.value)
    raise AssertionError("the first card's colour is always present")


def trick_winner(params: CastorParams, trick: Trick) -> int | None:
    """The seat winning the trick so far (a complice's award overrides the cards)."""
    card = leading_card(trick.cards, trumps_in_force(params, trick))
    if card is None:
        return None
    return card.player if trick.awarded is None else trick.awarded


def round_cards(tricks: Sequence[Trick]) -> Counter[tuple[str, int]]:
    """How many times each (colour, value) was played in these tricks."""
    return Counter((card.colour, card.value) for trick in tricks for card in trick.cards)


def round_plans(tricks: Sequence[Trick]) -> Counter[int]:
    """How many plan cards of each value were taken in these tricks."""
    taken: Counter[int] = Counter()
    for trick in tricks:
        for value in (trick.plan, trick.extra_plan):
            if value is not None:
                taken[value] += 1
    return taken


@dataclass
class Pile:
    """What one player has won so far this round: action cards and plan points."""

    cards: list[tuple[str, int]] = field(default_factory=list)
    plan: int = 0


def piles(players: int, tricks: Sequence[Trick]) -> list[Pile]:
    """Each seat's won pile: the tricks taken, then the corrections moved between piles
    (a trick in progress contributes only its corrections)."""
    out = [Pile() for _ in range(players)]
    for trick in tricks:
        if trick.winner is not None:
            out[trick.winner].plan += (trick.plan or 0) + (trick.extra_plan or 0)
            out[trick.winner].cards += [(card.colour, card.value) for card in trick.cards]
        for move in trick.moves:
            if move.colour is None:
                out[move.giver].plan -= move.value
                out[move.receiver].plan += move.value
            else:
                out[move.giver].cards.remove((move.colour, move.value))
                out[move.receiver].cards.append((move.colour, move.value))
    return out


def tally(params: CastorParams, players: int, tricks: Sequence[Trick]) -> Sheet:
    """The score sheet the taken tricks add up to (works on a round in progress too)."""
    won = piles(players, tricks)
    return Sheet(tuple(p.plan for p in won),
                 tuple(sum(1 for c, _ in p.cards if c == params.bonus_colour) for p in won),
                 tuple(sum(1 for c, _ in p.cards if c == params.malus_colour) for p in won))
