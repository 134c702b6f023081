"""Plain read-only views of a Castor state for the screens: the scoreboard and the trick
in progress. Pure functions, no Kivy; the screens only lay these values out."""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.castor.rules import game_standings, round_leader
from companion.games.castor.state import CastorState, Sheet, Trick
from companion.games.castor.tricks import (
    leading_card,
    round_cards,
    tally,
    trick_winner,
    trumps_in_force,
)


# -- the scoreboard --------------------------------------------------------------------
@dataclass(frozen=True)
class Cell:
    """One player's line in one round."""

    plan: int
    green: int
    yellow: int
    bonus: int
    malus: int  # points removed, as a positive number
    total: int  # plan + bonus - malus
    medal: bool


@dataclass(frozen=True)
class RoundColumn:
    """One round on the scoreboard: each player's line, its winners, how it was recorded."""

    number: int  # 1-based
    cells: tuple[Cell, ...]  # per seat
    winners: tuple[str, ...]
    source: str  # "sheet", "tricks", or "edited" (tracked, then changed on the sheet)
    counts: bool  # False: played after the round that decided the game


@dataclass(frozen=True)
class PlayerRow:
    """One player on the scoreboard: their agent, medals, and whether they won."""

    name: str
    agent: str | None  # agent id
    agent_name: str | None
    medals: int
    winner: bool


@dataclass(frozen=True)
class Scoreboard:
    """The whole scoreboard: players, rounds, medals, winners and the next round."""

    players: tuple[PlayerRow, ...]
    rounds: tuple[RoundColumn, ...]
    medals_to_win: int
    finished: bool
    winners: tuple[str, ...]
    decided_round: int | None
    next_round: int | None  # number of the round to play next; None once the game is won
    next_leader: str | None  # who leads it (the last round's first winner)
    next_leaders: tuple[str, ...]  # every last-round winner (the table may pick among them)

    def cell(self, seat: int, round_number: int) -> Cell:
        return self.rounds[round_number - 1].cells[seat]


def scoreboard(state: CastorState) -> Scoreboard:
    st = game_standings(state)
    names = tuple(p.name for p in state.players)
    columns = []
    for number, (record, score) in enumerate(zip(state.rounds, st.scores, strict=True), 1):
        cells = tuple(
            Cell(score.plan[i], score.green[i], score.yellow[i], score.bonus[i],
                 score.malus[i], score.totals[i], i in score.winners)
            for i in range(len(names))
        )
        source = "edited" if record.edited else "tricks" if record.tricks else "sheet"
        columns.append(RoundColumn(number, cells, tuple(names[i] for i in score.winners),
                                   source, st.counts(number)))
    rows = []
    for seat, player in enumerate(state.players):
        spec = state.params.agent(player.agent) if player.agent else None
        rows.append(PlayerRow(player.name, player.agent, spec.name if spec else None,
                              st.medals[seat], seat in st.winners))
    leaders = st.scores[-1].winners if st.scores else ()
    return Scoreboard(
        players=tuple(rows),
        rounds=tuple(columns),
        medals_to_win=state.params.medals_to_win,
        finished=st.finished,
        winners=tuple(names[i] for i in st.winners),
        decided_round=st.decided_round,
        next_round=None if st.finished else len(state.rounds) + 1,
        next_leader=None if st.finished else names[round_leader(state)],
        next_leaders=tuple(names[i] for i in leaders),
    )


# -- the trick in progress -------------------------------------------------------------
@dataclass(frozen=True)
class PowerView:
    """A power card drawn this trick, as the screen shows it."""

    agent: str
    agent_name: str
    player: str
    effect: str
    text: str  # translation key


@dataclass(frozen=True)
class PlayedCard:
    """A card down in the trick, with its player's name."""

    player: str
    colour: str
    value: int


@dataclass(frozen=True)
class TrickView:
    """The trick in progress as the screen shows it: leader, trumps, cards, who wins."""

    round: int
    trick: int  # 1-based number of the trick in progress
    tricks_per_round: int
    started: bool  # False: nothing recorded for this round yet
    leader: str
    powers: tuple[PowerView, ...]  # drawn at the start of this trick, in order
    choosing: str | None  # the player who must now choose who leads
    trumps: tuple[str, ...]  # in force this trick, strongest first
    trumps_overridden: bool
    cards: tuple[PlayedCard, ...]
    next_player: str | None  # who plays next, clockwise from the leader
    to_play: tuple[str, ...]  # everyone still to play, clockwise from the leader
    winning: str | None  # who wins the trick so far
    winning_card: PlayedCard | None
    complete: bool  # every card is down: ready for TakeTrick
    extra_plan: bool  # the current winner may also take the bottom plan card
    so_far: Sheet  # the round's piles so far, per seat (never shown during the round)


def trick_view(state: CastorState) -> TrickView | None:
    """The trick in progress, or the first trick of the next round; None once the game
    is won and no round is being tracked."""
    p = state.params
    names = [pl.name for pl in state.players]
    n = len(names)
    tracking = state.tracking
    if tracking is None:
        if game_standings(state).finished:
            return None
        number, done, trick, started = len(state.rounds) + 1, (), Trick(round_leader(state)), False
    else:
        number, done, trick, started = tracking.number, tracking.done, tracking.current, True
    powers = []
    choosers = []
    for agent in trick.powers:
        spec = p.agent(agent)
        seat = state.seat_of_agent(agent)
        if spec is None or seat is None:
            continue
        powers.append(PowerView(agent, spec.name, names[seat], spec.effect, spec.text))
        if spec.effect == "choose_leader":
            choosers.append(names[seat])
    choosing = choosers[len(choosers) - trick.pending_choices] if trick.pending_choices else None
    played = {card.player for card in trick.cards}
    order = [(trick.leader + k) % n for k in range(n)]
    to_play = tuple(names[s] for s in order if s not in played)
    trumps = trumps_in_force(p, trick)
    lead = leading_card(trick.cards, trumps)
    winner = trick_winner(p, trick)
    extra = False
    if winner is not None:
        agent = state.players[winner].agent
        spec = p.agent(agent) if agent else None
        extra = spec is not None and spec.effect == "extra_plan" and agent in trick.powers
    return TrickView(
        round=number,
        trick=len(done) + 1,
        tricks_per_round=p.tricks_per_round,
        started=started,
        leader=names[trick.leader],
        powers=tuple(powers),
        choosing=choosing,
        trumps=trumps,
        trumps_overridden=trick.trumps is not None,
        cards=tuple(PlayedCard(names[c.player], c.colour, c.value) for c in trick.cards),
        next_player=None if choosing else (to_play[0] if to_play else None),
        to_play=to_play,
        winning=None if winner is None else names[winner],
        winning_card=None if lead is None else PlayedCard(names[lead.player], lead.colour,
                                                          lead.value),
        complete=not to_play,
        extra_plan=extra,
        so_far=tally(p, n, (*done, trick)),  # with the corrections made this trick
    )


def playable_values(state: CastorState, colour: str) -> tuple[int, ...]:
    """Values of a colour that can still be played this round (for the card keypad)."""
    spec = state.params.colour(colour)
    if spec is None:
        return ()
    tracking = state.tracking
    used = round_cards((*tracking.done, tracking.current)) if tracking else {}
    return tuple(v for v in range(spec.low, spec.high + 1)
                 if used.get((colour, v), 0) < spec.copies)
