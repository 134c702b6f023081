"""A finished game's story in a few lines, for its end screen: how many rounds, who
won each counted round's medal, and the best round of the game."""

from __future__ import annotations

from companion.games.castor.state import CastorState
from companion.games.castor.view import scoreboard
from companion.messages import Message, msg


def story(state: CastorState) -> list[Message]:
    board = scoreboard(state)
    counted = [column for column in board.rounds if column.counts]
    if not counted:
        return []
    lines = [msg("castor.story.rounds", n=len(counted))]
    lines += [msg("castor.story.round_medal", round=column.number,
                  players=", ".join(column.winners)) for column in counted[-3:]]
    best_total, best_round, best_seat = max(
        (cell.total, -column.number, -seat)
        for column in counted for seat, cell in enumerate(column.cells))
    lines.append(msg("castor.story.best_round", player=board.players[-best_seat].name,
                     n=best_total, round=-best_round))
    return lines
