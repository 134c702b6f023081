"""Turn Mr. Bond's events into plain sentences for the table (as translatable messages).

The cards stay on the table: these say what to do with them (discard the lair, the
spy is now worth 12) and who won. Names come from the state's player list.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from companion.games.bond import events as e
from companion.games.bond import view
from companion.games.bond.state import BondState
from companion.messages import Message, msg


def command_name(command: Any) -> Message:
    """What a command is called, e.g. for "Undo: Kill"."""
    return msg(f"bond.command.{type(command).__name__}")


def check_cards(event: e.CheckCards) -> Message:
    """The "check your cards" note for a card outside the game's configured values."""
    return msg(f"bond.check.{event.card}", value=event.value, low=event.low, high=event.high)


def _names(state: BondState, indices: Iterable[int]) -> str:
    return ", ".join(state.players[i].name for i in indices)


def outcome(state: BondState) -> Message | None:
    """The victory screen's sentence: who won, why, with how many points."""
    if state.outcome is None:
        return None
    winners = state.outcome.winners
    return msg(f"bond.outcome.{state.outcome.reason}", winners=_names(state, winners),
               n=state.players[winners[0]].score)


def headline(state: BondState) -> Message | None:
    """What the table must do now, for the play screen's headline: whose turn and its
    step ("Anne: draw a card"), or who deals with the captured spy; None after the end."""
    now = view.turn(state)
    if now is None:
        return None
    return msg(f"bond.turn.{now.step}", player=now.name)


def turn_hint(state: BondState) -> Message | None:
    """The line under the headline: what else the player may do in this step."""
    now = view.turn(state)
    if now is None:
        return None
    if now.step == "capture":
        return msg("bond.turn.capture_hint", n=now.value)
    if now.step == "draw":
        return msg("bond.turn.draw_hint")
    return msg("bond.turn.spies_hint")


def instructions(events: Iterable[Any], state: BondState) -> list[Message]:
    """One sentence per event worth saying; `state` is the state after the events."""
    name = {i: p.name for i, p in enumerate(state.players)}
    out: list[Message] = []
    for event in events:
        match event:
            case e.CheckCards():
                out.append(check_cards(event))
            case e.LairCardAdded(player=i, value=value, size=size):
                out.append(msg("bond.say.lair_card", player=name[i], value=value, size=size))
            case e.LairCardRemoved(player=i, value=value, size=size):
                out.append(msg("bond.say.lair_card_removed", player=name[i], value=value,
                               size=size))
            case e.SpiesPlayed(target=i, power=power, lair_size=size):
                out.append(msg("bond.say.attack", n=len(event.spies), player=name[i],
                               power=power, size=size))
            case e.SpyCaptured(owner=i):
                out.append(msg("bond.say.captured", player=name[i]))
            case e.SpyEscaped(reason=reason):
                out.append(msg("bond.say.escaped", reason=msg(f"bond.reason.{reason}")))
            case e.LairDestroyed(owner=i):
                out.append(msg("bond.say.destroyed", player=name[i]))
            case e.RidiculePlayed(owner=i, letter=letter):
                out.append(msg("bond.say.ridicule", player=name[i], letter=letter))
            case e.RidiculeAnswered(letter=letter):
                out.append(msg("bond.say.answered", letter=letter))
            case e.RidiculeSucceeded(value=value):
                out.append(msg("bond.say.succeeded", value=value))
            case e.SpyKilled(owner=i, points=points, score=score):
                out.append(msg("bond.say.killed", player=name[i], points=points, score=score))
            case e.ScoreCorrected(player=i, delta=delta, score=score):
                out.append(msg("bond.say.corrected", player=name[i], delta=f"{delta:+d}",
                               score=score))
            case e.TurnBegan(player=i) if not out:
                # said when the table passed the turn; after a kill or an escape the
                # headline says it, the line keeps what the table must do with the cards
                out.append(msg("bond.say.turn", player=name[i]))
            case e.GameEnded(winners=winners):
                out.append(msg("bond.say.won", winners=_names(state, winners)))
    return out
