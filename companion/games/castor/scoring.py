"""End-of-round scoring, medals and the game's winners, derived from the score sheets.

Everything here is recomputed from the sheets on demand: editing round 1 during
round 3 changes the totals, the medals and the winners with no other bookkeeping.

The game is decided by the first round after which someone holds `medals_to_win`
medals; everybody reaching it at that round shares the victory. Rounds recorded after
that one (possible only when an edit of an earlier round moved the victory earlier)
stay on the scoreboard, marked `after_end`, and their medals do not count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.games.castor.params import CastorParams
from companion.games.castor.state import Sheet


@dataclass(frozen=True)
class RoundScore:
    """One round's scoring per seat: plan points, bonus, malus, totals and medals."""

    plan: tuple[int, ...]
    green: tuple[int, ...]
    yellow: tuple[int, ...]
    bonus: tuple[int, ...]  # points added (0 or the bonus)
    malus: tuple[int, ...]  # points removed (0 or the malus), as a positive number
    totals: tuple[int, ...]  # plan + bonus - malus
    winners: tuple[int, ...]  # seats with the highest total: one medal each


def score_round(params: CastorParams, sheet: Sheet) -> RoundScore:
    players = len(sheet.plan)
    size = params.table_size(players)
    fewest = min(sheet.green)
    bonus = tuple(size.bonus if g == fewest else 0 for g in sheet.green)
    most = max(sheet.yellow)
    due = most > 0 or params.malus_when_none
    malus = tuple(size.malus if due and y == most else 0 for y in sheet.yellow)
    totals = tuple(p + b - m for p, b, m in zip(sheet.plan, bonus, malus, strict=True))
    best = max(totals)
    winners = tuple(i for i, t in enumerate(totals) if t == best)
    return RoundScore(sheet.plan, sheet.green, sheet.yellow, bonus, malus, totals, winners)


@dataclass(frozen=True)
class Standings:
    """Every round's score, the medals per seat, and who won the game, once decided."""

    scores: tuple[RoundScore, ...]
    medals: tuple[int, ...]  # per seat, counting rounds up to the deciding one
    decided_round: int | None  # 1-based round that decided the game
    winners: tuple[int, ...]  # seats sharing the victory (empty while undecided)

    @property
    def finished(self) -> bool:
        return self.decided_round is not None

    def counts(self, round_number: int) -> bool:
        """Whether a round's medals count (it is not after the deciding round)."""
        return self.decided_round is None or round_number <= self.decided_round


def standings(params: CastorParams, players: int, sheets: Sequence[Sheet]) -> Standings:
    medals = [0] * players
    scores = tuple(score_round(params, sheet) for sheet in sheets)
    for number, score in enumerate(scores, start=1):
        for seat in score.winners:
            medals[seat] += 1
        winners = tuple(i for i, m in enumerate(medals) if m >= params.medals_to_win)
        if winners:
            return Standings(scores, tuple(medals), number, winners)
    return Standings(scores, tuple(medals), None, ())


def next_round_leaders(scores: Sequence[RoundScore]) -> tuple[int, ...]:
    """Who may lead the next round: the last round's winner(s); empty before round 1."""
    return scores[-1].winners if scores else ()
