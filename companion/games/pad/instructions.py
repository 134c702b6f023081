"""The headline: what the table must do now, in one line (pure)."""

from __future__ import annotations

from companion.games.pad.outcome import outcome
from companion.games.pad.rules import blank_list
from companion.games.pad.scoring import blanks, missing_in_category, missing_in_round
from companion.games.pad.state import PadState
from companion.games.pad.template import label
from companion.messages import Message, msg


def _names(state: PadState, seats: tuple[int, ...]) -> str:
    return ", ".join(state.players[s].name for s in seats)


def headline(state: PadState) -> Message:
    t = state.template
    result = outcome(state)
    if state.finished:
        if t.win == "coop":
            return msg("pad.head.coop_won" if state.coop_won else "pad.head.coop_lost")
        if result.pending:
            seats, tb = result.pending[0]
            return msg("pad.head.tie_input", players=_names(state, seats), what=label(tb.name))
        if result.undecided:
            return msg("pad.head.tie_choose", players=_names(state, result.undecided))
        if state.instant:
            return msg("pad.head.instant", players=_names(state, result.winners))
        return msg("pad.head.won" if len(result.winners) == 1 else "pad.head.shared",
                   players=_names(state, result.winners))
    if t.shape == "rounds":
        if state.rounds:
            last = len(state.rounds) - 1
            missing = missing_in_round(state, last)
            if missing:
                return msg("pad.head.round_missing", round=last + 1,
                           players=_names(state, missing))
            owed = blanks(state)  # the open round is complete: an earlier one is not
            if owed:
                return msg("pad.head.blanks", cells=blank_list(state, owed))
        if result.reached:
            return msg("pad.head.reached", players=_names(state, result.reached),
                       score=t.reach)
        if result.end_offered:
            return msg("pad.head.rounds_played", n=len(state.rounds))
    else:
        for i, cat in enumerate(t.categories):
            missing = missing_in_category(state, i)
            if missing:
                return msg("pad.head.category_missing", category=label(cat.name),
                           players=_names(state, missing))
        if t.win in ("highest", "lowest"):
            return msg("pad.head.all_filled")
    if t.win == "coop":
        return msg("pad.head.coop")
    if t.win == "places":
        return msg("pad.head.places")
    return msg("pad.head.round_next", round=len(state.rounds) + 1)
