"""Read-only views of a Mr. Bond state for the screens: pure functions, no Kivy.

They answer what the player cards, the attack flow, the capture flow and the victory
screen show, and which buttons are live: `next_moves(state)` allows exactly what
`RULES.apply` accepts (the tests check it), so a screen never offers a refused action.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.bond.params import BondParams
from companion.games.bond.state import BondState


@dataclass(frozen=True)
class PlayerView:
    """One player as the screen shows them: lair, score, points to the target."""

    index: int
    name: str
    lair: tuple[int, ...]
    lair_size: int  # 0 without a lair
    has_lair: bool
    score: int
    to_target: int  # points still needed to reach the target (0 once reached)
    holds_capture: bool  # a captured spy waits in this player's lair
    winner: bool


@dataclass(frozen=True)
class CaptureView:
    """The captured spy as the capture flow shows it: power, value, letters left."""

    owner: int
    owner_name: str
    spies: tuple[int, ...]
    power: int  # summed power: also the base value of the kill
    successes: tuple[str, ...]  # letters of the ridicules not answered, in order
    pending: str | None  # the letter waiting for "answered" / "not answered"
    value: int  # points for killing it now
    next_value: int  # points after one more successful ridicule
    letters: tuple[str, ...]  # letters that may still be played on it
    can_answer: bool  # a ridicule waits and its twin card is still in play


@dataclass(frozen=True)
class Moves:
    """What can be done next; empty tuples and False mean the screen disables it."""

    add_lair: bool
    attack_targets: tuple[int, ...]  # players whose lair can be attacked
    kill: bool
    ridicule: tuple[str, ...]  # letters the owner may play now
    answered: bool
    not_answered: bool
    end_game: bool
    correct: bool  # score corrections and lair-card fixes
    next_turn: bool = False  # "Next player": the turn passes


@dataclass(frozen=True)
class TurnView:
    """Whose move it is and which step of the turn: what the headline tells the table.

    `step`: "draw" (the turn begins: draw, then a lair card and spies if they wish),
    "spies" (a lair card played: spies, if they wish), "more_spies" (spies dealt with,
    the settings let them send more) or "capture" (the lair's owner deals with the
    captured spy, at once: `player` is the owner, not the attacker)."""

    player: int
    name: str
    step: str
    value: int = 0  # the captured spy's value now (step "capture")


def deal_size(params: BondParams, players: int) -> int:
    """Cards the dealer gives each player (5, or 6 with 2 or 3 players by default)."""
    return params.deal_size(players)


def spies_left(state: BondState) -> int:
    """Spy cards not yet played: the game ends when the last one is discarded."""
    return state.params.spy_cards - state.spies_played


def lair_cards_left(state: BondState) -> int:
    return state.params.lair_cards - state.lair_cards_played


def leaders(state: BondState) -> tuple[int, ...]:
    """The players with the highest score (several when tied)."""
    best = max(state.scores)
    return tuple(i for i, score in enumerate(state.scores) if score == best)


def attack_result(state: BondState, target: int, spies: tuple[int, ...]) -> str:
    """What an attack would do, for the attack flow's preview: "captured" or "escaped"."""
    return "captured" if sum(spies) <= state.players[target].lair_size else "escaped"


def players(state: BondState) -> tuple[PlayerView, ...]:
    target = state.params.target_score
    winners = state.outcome.winners if state.outcome else ()
    owner = state.capture.owner if state.capture else None
    return tuple(
        PlayerView(
            index=i, name=p.name, lair=p.lair, lair_size=p.lair_size, has_lair=p.has_lair,
            score=p.score, to_target=max(0, target - p.score), holds_capture=i == owner,
            winner=i in winners,
        )
        for i, p in enumerate(state.players)
    )


def capture(state: BondState) -> CaptureView | None:
    held = state.capture
    if held is None:
        return None
    letters = tuple(
        letter for letter in state.params.letters
        if letter not in held.letters and state.doublers_left(letter) > 0
    )
    return CaptureView(
        owner=held.owner, owner_name=state.players[held.owner].name, spies=held.spies,
        power=held.power, successes=held.successes, pending=held.pending, value=held.value,
        next_value=held.value * 2, letters=letters,
        can_answer=held.pending is not None and state.doublers_left(held.pending) > 0,
    )


def turn(state: BondState) -> TurnView | None:
    """What the table must do now; None once the game is over."""
    if state.outcome is not None:
        return None
    held = state.capture
    if held is not None:
        return TurnView(held.owner, state.players[held.owner].name, "capture", held.value)
    step = "more_spies" if state.turn_spies else "spies" if state.turn_lair else "draw"
    return TurnView(state.turn, state.players[state.turn].name, step)


def next_moves(state: BondState) -> Moves:
    if state.outcome is not None:
        return Moves(False, (), False, (), False, False, False, False)
    held = capture(state)
    if held is not None:
        deciding = held.pending is not None
        return Moves(
            add_lair=False, attack_targets=(), kill=not deciding,
            ridicule=() if deciding else held.letters, answered=held.can_answer,
            not_answered=deciding, end_game=False, correct=False,
        )
    targets = tuple(i for i, p in enumerate(state.players) if p.has_lair)
    return Moves(
        add_lair=lair_cards_left(state) > 0,
        attack_targets=targets if spies_left(state) > 0 else (),
        kill=False, ridicule=(), answered=False, not_answered=False, end_game=True,
        correct=True, next_turn=True,
    )
