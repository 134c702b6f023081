"""Turn a roll's events into plain instructions for the table (as translatable messages).

The app does not know the board: it tells the table what the professor does, in words,
and the table moves the pawn, locks the doors and re-arms the traps.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from companion.games.evil import events as e
from companion.games.evil.params import EvilParams
from companion.messages import Message, msg


def colour_upper(name: str) -> Message:
    return msg(f"evil.colour_upper.{name}")


def doors(name: str) -> Message:
    """The doors of a colour ("BLUE doors", "portes BLEUES": the adjective agrees)."""
    return msg(f"evil.doors.{name}")


def colour(name: str) -> Message:
    return msg(f"evil.colour.{name}")


def roman(position: int, dial_steps: int = 12) -> str:
    """Dial position as the board prints it: 0 is XII."""
    numerals = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"]
    value = position % dial_steps or dial_steps
    return numerals[value - 1] if value <= len(numerals) else str(value)


def instructions(events: Iterable[Any], params: EvilParams) -> list[Message]:
    dial_steps = params.dial_steps
    out: list[Message] = []
    for event in events:
        match event:
            case e.ProfessorMoves(rooms=rooms, colour=c):
                # the door mats' colour, in capitals as the table looks for it on the board
                out.append(msg("evil.say.moves", n=rooms, doors=doors(c)))
            case e.SecretPassage(colour=c):
                out.append(msg("evil.say.passage", colour=colour_upper(c)))
            case e.NoEffect(colour=c):
                out.append(msg("evil.say.no_effect", colour=colour(c)))
            case e.TreasureMoved(colour=c, steps=steps) if steps < 0:
                out.append(msg("evil.say.hurry", colour=colour(c),
                               minutes=-steps * params.step_minutes))
            case e.TimeMoved(steps=steps, position=pos) if steps > 0:
                out.append(msg("evil.say.time", n=steps, position=roman(pos, dial_steps)))
            case e.TreasureLost(colour=c):
                out.append(msg("evil.say.lost", colour=colour(c)))
            case e.PowerSpaceReached(position=pos):
                out.append(msg("evil.say.power", position=roman(pos, dial_steps)))
            case e.TreasureRecovered(colour=c):
                out.append(msg("evil.say.recovered", colour=colour(c)))
            case e.TreasurePlaced(colour=c, minutes=minutes, position=pos):
                out.append(msg("evil.say.placed", colour=colour(c), minutes=minutes,
                               position=roman(pos, dial_steps)))
            case e.BlackDieWaits(clock=face):
                out.append(msg("evil.say.black_waits", clock=msg(f"evil.face.{face}")))
            case e.BlackDieApplied():
                out.append(msg("evil.say.black_applied"))
            case e.PlayerSet(player=name, character=character):
                out.append(msg("evil.say.player_set", player=name, character=character))
            case e.TurnPassed(player=name, character=character):
                out.append(msg("evil.say.turn", player=name, character=character))
            case e.GameWon(recovered=n):
                out.append(msg("evil.say.won", n=n))
            case e.GameLost(lost=n):
                out.append(msg("evil.say.lost_game", n=n))
    return out
