"""The turn card: what the table must do now and what the board must look like, for the
state on screen (after a roll, an adjustment, an undo or a redo alike). Pure code.

The card is built from the current state and the events of the steps since the last roll
(or recovery) in the done stack; every position it names is read from the current state,
so an adjustment or an undo never leaves a stale "to I" on screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.evil import commands as c
from companion.games.evil import events as e
from companion.games.evil.instructions import colour, colour_upper, doors, roman
from companion.games.evil.state import EvilState
from companion.messages import Message, RuleError, msg
from companion.rules import Rules

#: commands that belong to a roll's resolution: the card keeps showing that roll
_ROLL_FOLLOW_UPS = (c.PlaceTreasure, c.ActivatePower, c.SkipPower, c.Reroll, c.SetDie)
#: commands that are the table correcting the app
_ADJUSTMENTS = (c.MoveTime, c.MoveTreasure, c.MarkLost, c.FlipPowerDown, c.SetPlayer)


@dataclass(frozen=True)
class Line:
    """One effect: the die face (or a symbol) it comes from, its colour, what to do."""

    icon: str  # a die face name (chevron2, passage, time5, clock1) or lost, recovered,
    #            place, power, board, turn
    colour: str | None
    text: Message
    parts: tuple[Message, ...] = ()  # shown after `text`, joined with " · "
    #: the rule's reminder under what to do (smaller; the first to give way for room)
    detail: Message | None = None


@dataclass(frozen=True)
class Card:
    """The instruction for now (shown large) and one line per effect."""

    headline: Message
    lines: tuple[Line, ...]
    phase: int  # 1: the player's own phases (cards, then actions); 3: the roll being settled


def turn_card(state: EvilState, steps: Sequence[Any], verb: str = "do") -> Card:
    """`steps` are the session's done steps (each with `.command` and `.events`); `verb`
    is how the state came (do, undo, redo)."""
    since = _since_anchor(steps)
    adjusted = any(isinstance(step.command, _ADJUSTMENTS) for step in since)
    # a hand correction is summed up by the board line rather than told move by move
    events = [ev for step in since for ev in step.events
              if not (adjusted and isinstance(step.command, (c.MoveTime, c.MoveTreasure))
                      and isinstance(ev, (e.TimeMoved, e.TreasureMoved)))]
    rolled = any(isinstance(ev, e.DiceRolled) for ev in events)
    lines: list[Line] = []
    if verb in ("undo", "redo") or adjusted:
        lines.append(board(state))
    for line in _effects(state, events):
        if not lines or line != lines[-1]:  # the same thing twice is said once
            lines.append(line)
    headline = _headline(state, rolled, since)
    if headline.key in ("evil.card.pass_dice", "evil.card.turn_of"):
        # the (next) player's turn: its three phases, last (the first line to go)
        player = state.current_player
        lines.append(Line("turn", None, msg("evil.card.your_turn", player=player.name,
                                            character=player.character),
                          detail=msg("evil.card.your_turn_detail")))
    # the roll is the phase until it is settled (its replacement placed, its power
    # chosen); then the next player's turn begins
    settling = state.pending_clock is not None or bool(state.pending_powers) or (
        rolled and bool(state.empty_colours))
    return Card(headline, tuple(lines), 3 if settling else 1)


class _Rolled:
    """The step a roll would add (what `turn_card` reads of a step). A plain class: a
    dataclass costs its module's import (at every start) a quarter of a millisecond."""

    __slots__ = ("command", "events")

    def __init__(self, command: Any, events: tuple[Any, ...]) -> None:
        self.command, self.events = command, events


def next_roll_card(rules: Rules, state: EvilState) -> Card | None:
    """The card the next ROLL will show, or None when the rules would refuse a roll now.

    A roll's dice follow from the state (its seed and draws), so the card is known before
    the table rolls: the play screen prepares it while the table plays. The roll's step
    is the card's anchor, so no earlier step is read."""
    try:
        after, events = rules.apply(state, c.Roll())
    except RuleError:
        return None
    return turn_card(after, [_Rolled(c.Roll(), tuple(events))], "do")


def board(state: EvilState) -> Line:
    """Where every marker stands now, for the table to check the physical clock."""
    parts = [msg("evil.card.board_time", position=roman(state.time, state.params.dial_steps))]
    for name in state.params.colours:
        position = state.marker_position(name)
        parts.append(msg("evil.card.board_empty", colour=colour(name)) if position is None
                     else msg("evil.card.board_marker", colour=colour(name),
                              position=roman(position, state.params.dial_steps)))
    return Line("board", None, msg("evil.card.board"), tuple(parts))


# -- parts -------------------------------------------------------------------------------
def _since_anchor(steps: Sequence[Any]) -> list[Any]:
    """The steps from the last roll or recovery on (all of them before the first)."""
    for index in range(len(steps) - 1, -1, -1):
        if any(isinstance(ev, (e.DiceRolled, e.TreasureRecovered)) for ev in steps[index].events):
            return list(steps[index:])
    return list(steps)


def _roller(state: EvilState) -> Any:
    return state.players[(state.active - 1) % len(state.players)]


def _headline(state: EvilState, rolled: bool, since: list[Any]) -> Message:
    empty = state.empty_colours
    if state.outcome == "won":
        return msg("evil.card.won")
    if state.outcome == "lost":
        return msg("evil.card.lost")
    if state.pending_clock is not None and empty:
        return msg("evil.card.place_waiting", colour=colour_upper(empty[0]))
    if state.pending_powers:
        return msg("evil.card.choose_power")
    if empty:
        return msg("evil.card.place", colour=colour_upper(empty[0]))
    player = state.current_player
    roll_is_last = rolled and all(isinstance(step.command, _ROLL_FOLLOW_UPS)
                                  for step in since[1:])
    if roll_is_last and state.last_roll is not None:
        # to whom, by name: the header names the player whose turn it now is
        return msg("evil.card.pass_dice", roller=_roller(state).name, player=player.name)
    return msg("evil.card.turn_of", player=player.name)


def _effects(state: EvilState, events: list[Any]) -> list[Line]:
    p = state.params
    clock = state.last_roll.clock if state.last_roll is not None else "clock1"
    professor = state.last_roll.professor if state.last_roll is not None else ""
    lines: list[Line] = []
    settled = any(isinstance(ev, e.BlackDieApplied) for ev in events)
    for event in events:
        match event:
            case e.ProfessorMoves(rooms=rooms, colour=name):
                lines.append(Line(professor or f"chevron{rooms}", name,
                                  msg("evil.card.moves", n=rooms, doors=doors(name)),
                                  detail=msg("evil.card.moves_detail")))
            case e.SecretPassage(colour=name):
                lines.append(Line("passage", name,
                                  msg("evil.card.passage", colour=colour_upper(name)),
                                  detail=msg("evil.card.passage_detail")))
            case e.NoEffect(colour=name):
                lines.append(Line(professor, name, msg("evil.say.no_effect", colour=colour(name))))
            case e.TreasureMoved(colour=name, steps=moved) if moved < 0 and event is _first_hurry(
                    events):
                lines.append(Line(professor or "time5", name, msg(
                    "evil.card.hurry", colour=colour(name), minutes=-moved * p.step_minutes)))
            case e.TreasureMoved(colour=name, steps=moved):
                position = state.marker_position(name)
                lines.append(Line("board", name, msg(
                    "evil.card.marker_by_hand", colour=colour(name), steps=moved,
                    position=roman(position, p.dial_steps) if position is not None else "—")))
            case e.TreasureLost(colour=name):
                lines.append(Line("lost", name, msg("evil.card.lost_treasure",
                                                    colour=colour(name)),
                                  detail=msg("evil.card.lost_treasure_detail")))
            case e.BlackDieWaits(clock=face) if not settled:
                lines.append(Line(face, None, msg("evil.card.black_waits"), detail=msg(
                    "evil.card.black_waits_detail", position=roman(state.time, p.dial_steps))))
            case e.TreasurePlaced(colour=name, minutes=minutes, position=position):
                now = state.marker_position(name)  # where it stands now, if still in play
                lines.append(Line("place", name, msg(
                    "evil.card.placed", colour=colour(name), minutes=minutes,
                    position=roman(position if now is None else now, p.dial_steps))))
            case e.TimeMoved(steps=moved) if moved > 0:
                lines.append(Line(clock, None, msg(
                    "evil.card.time", n=moved, position=roman(state.time, p.dial_steps))))
            case e.TimeMoved():
                lines.append(Line("board", None, msg(
                    "evil.card.time_back", position=roman(state.time, p.dial_steps))))
            case e.PowerSpaceReached(position=position) if not any(
                    isinstance(ev, (e.PowerActivated, e.PowerSkipped)) for ev in events):
                # said until the table has chosen; then the choice's line says it all
                lines.append(Line("power", None, msg("evil.card.power_space",
                                                     position=roman(position, p.dial_steps)),
                                  detail=msg("evil.card.power_space_detail")))
            case e.PowerActivated(character=character):
                lines.append(Line("power", None, msg("evil.card.power_up", character=character),
                                  detail=msg("evil.card.power_up_detail")))
            case e.PowerSkipped():
                lines.append(Line("power", None, msg("evil.card.power_skipped")))
            case e.PowerFlippedDown(character=character):
                lines.append(Line("power", None, msg("evil.card.power_down",
                                                     character=character),
                                  detail=msg("evil.card.power_down_detail")))
            case e.TreasureRecovered(colour=name):
                lines.append(Line("recovered", name, msg("evil.card.recovered",
                                                         colour=colour(name)),
                                  detail=msg("evil.card.recovered_detail")))
    return lines


def _first_hurry(events: list[Any]) -> Any:
    """The professor die's own marker move: the first backward move after the dice."""
    seen_dice = False
    for event in events:
        if isinstance(event, e.DiceRolled):
            seen_dice = True
        elif seen_dice and isinstance(event, e.TreasureMoved) and event.steps < 0:
            return event
        elif isinstance(event, (e.TimeMoved, e.BlackDieWaits)):
            seen_dice = False
    return None
