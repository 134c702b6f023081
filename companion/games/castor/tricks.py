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
    """The seat winning the trick so far."""
    card = leading_card(trick.cards, trumps_in_force(params, trick))
    return None if card is None else card.player


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


def tally(params: CastorParams, players: int, tricks: Sequence[Trick]) -> Sheet:
    """The score sheet the taken tricks add up to (works on a round in progress too)."""
    plan = [0] * players
    green = [0] * players
    yellow = [0] * players
    for trick in tricks:
        if trick.winner is None:
            continue
        plan[trick.winner] += (trick.plan or 0) + (trick.extra_plan or 0)
        for card in trick.cards:
            if card.colour == params.bonus_colour:
                green[trick.winner] += 1
            if card.colour == params.malus_colour:
                yellow[trick.winner] += 1
    return Sheet(tuple(plan), tuple(green), tuple(yellow))
