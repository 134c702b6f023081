"""Turn Castor's events into short messages for the table (translation keys)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from companion.games.castor import events as e
from companion.messages import Message, msg


def colour(name: str) -> Message:
    return msg(f"castor.colour.{name}")


def _names(names: Iterable[str]) -> str:
    return ", ".join(names)


def colour_chain(colours: tuple[str, ...]) -> Message:
    """Colours strongest first, as one message: "blue, then mauve"."""
    chain = colour(colours[-1])
    for name in reversed(colours[:-1]):
        chain = msg("castor.say.chain", first=colour(name), rest=chain)
    return chain


def _trumps(trumps: tuple[str, ...] | None) -> Message:
    if trumps is None:
        return msg("castor.say.trumps_usual")
    if not trumps:
        return msg("castor.say.no_trump")
    return msg("castor.say.trumps", colours=colour_chain(trumps))


def check_cards(event: e.CheckCards) -> Message:
    """The "check your cards" note for a card the settings did not expect."""
    match event.reason:
        case "value" | "copies":  # `copies` counts the cards: its plural is chosen by n
            assert event.colour is not None
            return msg(f"castor.check.{event.reason}", value=event.value,
                       colour=colour(event.colour), low=event.low, high=event.high,
                       n=event.count)
        case "plan_value":
            return msg("castor.check.plan_value", value=event.value, low=event.low,
                       high=event.high)
        case "plan_copies":
            return msg("castor.check.plan_copies", value=event.value, n=event.count)
        case _:  # plan_total
            return msg(f"castor.check.{event.reason}", value=event.value, count=event.count)


def moved(event: e.PileMoved) -> Message:
    if event.colour is None:
        return msg("castor.say.points_moved", giver=event.giver, receiver=event.receiver,
                   n=event.value)
    return msg("castor.say.card_moved", giver=event.giver, receiver=event.receiver,
               value=event.value, colour=colour(event.colour))


def instructions(events: Iterable[Any]) -> list[Message]:
    out: list[Message] = []
    for event in events:
        match event:
            case e.RoundStarted(round=number, leader=leader):
                out.append(msg("castor.say.round_started", round=number, player=leader))
            case e.PowerDrawn(player=player, text=text):
                out.append(msg("castor.say.power", player=player, power=msg(text)))
            case e.LeaderChosen(player=player):
                out.append(msg("castor.say.leader", player=player))
            case e.TrumpsSet(trumps=trumps):
                out.append(_trumps(trumps))
            case e.CheckCards():
                out.append(check_cards(event))
            case e.CompliceNoted(action="other", text=text):
                out.append(msg("castor.say.complice_text", text=text))
            case e.CompliceNoted(action=action, text=text):
                out.append(msg("castor.say.complice", action=msg(f"castor.complice.{action}")))
                if text:
                    out.append(msg("castor.say.complice_text", text=text))
            case e.TrickAwarded(player=None):
                out.append(msg("castor.say.award_cleared"))
            case e.TrickAwarded(player=player):
                out.append(msg("castor.say.awarded", player=player))
            case e.PileMoved():
                out.append(moved(event))
            case e.TrickWon(winner=winner, plan=plan, extra_plan=extra, next_leader=nxt):
                points = plan + (extra or 0)
                out.append(msg("castor.say.trick_won", player=winner, n=points))
                if nxt is not None:
                    out.append(msg("castor.say.next_leader", player=nxt))
            case e.RoundScored(round=number, winners=winners):
                out.append(msg("castor.say.round_won", round=number, players=_names(winners)))
            case e.GameWon(winners=winners) if len(winners) == 1:
                out.append(msg("castor.say.game_won", player=winners[0]))
            case e.GameWon(winners=winners):
                out.append(msg("castor.say.game_shared", players=_names(winners)))
            case e.GameReopened():
                out.append(msg("castor.say.reopened"))
            case e.TrackingCancelled(round=number):
                out.append(msg("castor.say.tracking_cancelled", round=number))
            case e.RoundDeleted(round=number):
                out.append(msg("castor.say.round_deleted", round=number))
    return out
