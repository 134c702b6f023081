"""What the clock tells the table: the headline (whose time runs, or why none does)
and, after an action, what the table must act on (a zero, penalty points to write in
the score pad, a new round, a stage, an interrupted clock). Messages only: the
screens translate them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from companion.games.clock import events as e
from companion.games.clock.rules import clock_text, describe
from companion.games.clock.view import ClockView
from companion.messages import Message, msg


def headline(view: ClockView) -> Message:
    """One line for the top of the clock's screen."""
    shown = view.start if view.status == "ready" else view.active
    seat = view.seats[shown] if 0 <= shown < len(view.seats) else None
    name = seat.name if seat is not None else ""
    if view.status == "ready":
        return msg("clock.head.ready", player=name) if seat else msg("clock.head.ready_alone")
    if view.status == "paused":
        return msg("clock.head.interrupted") if view.interrupted else msg("clock.head.paused")
    if view.status == "admin":
        return msg("clock.head.admin")
    if view.status == "closed":
        return msg("clock.head.closed")
    if view.status == "stopped":
        return msg(f"clock.say.stopped_{view.stop_reason}", player=name)
    if seat is None:
        return msg("clock.head.running_alone")
    if seat.level == "over" and view.mode in ("bank", "turn"):
        return msg("clock.head.over", player=name, time=clock_text(-seat.remaining_ms))
    return msg("clock.head.turn", player=name)


#: events the table must act on (the others are said by the log only)
_NOTABLE = (e.ZeroReached, e.PenaltyGiven, e.NewRound, e.StageReached, e.Interruption,
            e.Stopped)


def instructions(events: Iterable[Any], state: Any, *, written: bool = False
                 ) -> list[Message]:
    """The lines of these events the table must act on; penalty points are to be
    written in the score pad game the clock runs beside, when there is one (unless
    `written`: the app wrote them there itself)."""
    out: list[Message] = []
    for event in events:
        if not isinstance(event, _NOTABLE):
            continue
        out.extend(describe([event], state))
        if isinstance(event, e.PenaltyGiven) and state.pad_game is not None and not written:
            out.append(msg("clock.say.write_penalty", player=state.seats[event.seat].name,
                           n=event.points))
    return out
