"""Who is ahead: standard competition ranking (1, 1, 3), lowest or highest wins,
tie-breakers in order, then a shared place or the table's choice (pure).

`rank(totals, lower, breakers, better)` ranks units (players, or teams) by total,
then, only among those still tied, by each tie-breaker in turn. A tie-breaker whose
value is missing for a tied unit leaves that group tied and is reported `pending` (the
table is asked for it). The rank of a unit is 1 + the number of units strictly ahead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.games.pad.entry import Number


@dataclass(frozen=True)
class Ranked:
    ranks: tuple[int, ...]  # per unit given
    groups: tuple[tuple[int, ...], ...]  # units best first, tied units together
    pending: tuple[tuple[tuple[int, ...], int], ...]  # (tied units, breaker waiting)


def _split(group: list[int], key: Sequence[Number], descending: bool) -> list[list[int]]:
    ordered = sorted(group, key=lambda u: key[u], reverse=descending)
    out: list[list[int]] = []
    for unit in ordered:
        if out and key[out[-1][0]] == key[unit]:
            out[-1].append(unit)
        else:
            out.append([unit])
    return out


def rank(totals: Sequence[Number], lower: bool,
         breakers: Sequence[Sequence[Number | None]] = (),
         better: Sequence[str] = ()) -> Ranked:
    """Rank units by `totals` (`lower`: the lowest first), then by `breakers[b][unit]`
    (`better[b]`: "higher" or "lower" first) among units still tied."""
    groups: list[list[int]] = []
    pending: list[tuple[tuple[int, ...], int]] = []

    def refine(group: list[int], b: int) -> None:
        if len(group) == 1 or b >= len(breakers):
            groups.append(group)
            return
        values = breakers[b]
        if any(values[u] is None for u in group):
            pending.append((tuple(group), b))
            groups.append(group)
            return
        keyed = [values[u] for u in range(len(values))]
        for sub in _split(group, keyed, better[b] != "lower"):  # type: ignore[arg-type]
            refine(sub, b + 1)

    for group in _split(list(range(len(totals))), totals, not lower):
        refine(group, 0)
    ranks = [0] * len(totals)
    ahead = 0
    for group in groups:
        for unit in group:
            ranks[unit] = ahead + 1
        ahead += len(group)
    return Ranked(tuple(ranks), tuple(tuple(g) for g in groups), tuple(pending))


@dataclass(frozen=True)
class TieStory:
    """How the tie for first place on totals went: the tie-breaker that decided it, or
    the last one when the units are still tied after every tie-breaker."""

    breaker: int
    first: tuple[int, ...]  # the units it put first (several: still tied)
    beaten: tuple[int, ...]  # the units it put behind them (none: still tied)


def first_tie(totals: Sequence[Number], lower: bool,
              breakers: Sequence[Sequence[Number | None]] = (),
              better: Sequence[str] = ()) -> TieStory | None:
    """The tie-breakers' story of the units tied first on totals (`rank`'s arguments):
    None without such a tie, without tie-breakers, or while a value is still missing."""
    if not totals or not breakers:
        return None
    best = min(totals) if lower else max(totals)
    group = [u for u in range(len(totals)) if totals[u] == best]
    if len(group) < 2:
        return None
    for b, values in enumerate(breakers):
        if any(values[u] is None for u in group):
            return None  # the table is asked for it first
        pick = min if better[b] == "lower" else max
        top = pick(values[u] for u in group)  # type: ignore[type-var]
        first = [u for u in group if values[u] == top]
        if len(first) == 1:
            return TieStory(b, tuple(first), tuple(u for u in group if u not in first))
        group = first
    return TieStory(len(breakers) - 1, tuple(group), ())


def ranks_of_groups(groups: Sequence[Sequence[int]], size: int) -> tuple[int | None, ...]:
    """Competition ranks of units given as groups best first (places, a chosen winner)."""
    ranks: list[int | None] = [None] * size
    ahead = 0
    for group in groups:
        for unit in group:
            ranks[unit] = ahead + 1
        ahead += len(group)
    return tuple(ranks)
