"""Castor's rules as a pure reducer: `apply(state, command) -> (state, events)`.

Two ways to record a round, which a table can mix from round to round:
- the score sheet (`EnterSheet`): per player the plan points, green and yellow cards;
  the same command with an earlier round number edits that round;
- the trick tracker (`DrawPower`, `ChooseLeader`, `SetTrumps`, `PlayCard`,
  `TakeTrick`): at the last trick the round's sheet is filled in from the tricks.

Once the game is won no new round can start; earlier rounds can still be edited (an
edit may change the winners, or reopen the game), and the last round can be deleted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.games.castor import commands as c
from companion.games.castor import events as e
from companion.games.castor.params import CARD_MIN, CastorParams, validate_config
from companion.games.castor.scoring import Standings, next_round_leaders, standings
from companion.games.castor.state import (
    Card,
    CastorState,
    Move,
    Player,
    Round,
    Sheet,
    Tracking,
    Trick,
)
from companion.games.castor.tricks import piles, round_cards, round_plans, tally, trick_winner
from companion.messages import Message, RuleError, msg

Events = list[Any]


class CastorRules:
    kind = "castor"
    commands = c.COMMANDS
    state_type = CastorState

    # -- setup -------------------------------------------------------------------
    def initial_state(self, setup: Mapping[str, Any]) -> CastorState:
        params = _params(setup.get("params"))
        players = _players(params, setup.get("players", []))
        first = setup.get("first_leader", 0)
        if not _is_int(first) or not 0 <= first < len(players):
            raise RuleError("castor.error.first_leader", n=len(players))
        return CastorState(params=params, players=players, first_leader=first)

    def check_resumable(self, setup: Mapping[str, Any]) -> None:
        pass  # one version of these rules so far

    def summary(self, state: CastorState) -> dict[str, Any]:
        st = game_standings(state)
        names = [p.name for p in state.players]
        tracking = state.tracking
        return {
            "finished": st.finished,
            "players": names,
            "agents": [p.agent for p in state.players],
            "rounds": [list(score.totals) for score in st.scores],
            "medals": list(st.medals),
            "winners": [names[i] for i in st.winners],
            "decided_round": st.decided_round,
            # the round being played (the home screen shows it as the "turn")
            "turn": len(state.rounds) + (0 if st.finished else 1),
            "tracking": None if tracking is None else {
                "round": tracking.number, "tricks_done": len(tracking.done)},
        }

    # -- commands ----------------------------------------------------------------
    def apply(self, state: CastorState, command: Any) -> tuple[CastorState, Events]:
        handler = _HANDLERS.get(type(command))
        if handler is None:
            raise RuleError("core.error.unknown_command", name=type(command).__name__)
        return handler(state, command)


RULES = CastorRules()


def game_standings(state: CastorState) -> Standings:
    return standings(state.params, len(state.players), [r.sheet for r in state.rounds])


# -- helpers ---------------------------------------------------------------------------
def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _params(section: Any) -> CastorParams:
    if not isinstance(section, Mapping):
        raise RuleError("castor.error.bad_params", setting="params")
    try:
        problems = validate_config(section)
        if problems:
            raise RuleError("castor.error.bad_params", setting=problems[0][0])
        return CastorParams.from_config(section)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise RuleError("castor.error.bad_params", setting=str(exc)) from exc


def _players(params: CastorParams, raw: Any) -> tuple[Player, ...]:
    low, high = params.players_min, params.players_max
    if not isinstance(raw, (list, tuple)) or not low <= len(raw) <= high:
        raise RuleError("castor.error.players_count", low=low, high=high)
    players = []
    for item in raw:
        if not isinstance(item, Mapping):
            raise RuleError("core.error.empty_name")
        name = str(item.get("name") or "").strip()
        agent = item.get("agent") or None
        if not name:
            raise RuleError("core.error.empty_name")
        if agent is not None and params.agent(str(agent)) is None:
            raise RuleError("castor.error.unknown_agent", agent=str(agent))
        players.append(Player(name, None if agent is None else str(agent)))
    if len({p.name.casefold() for p in players}) != len(players):
        raise RuleError("core.error.duplicate_name")
    agents = [p.agent for p in players if p.agent is not None]
    if len(set(agents)) != len(agents):
        raise RuleError("castor.error.duplicate_agent")
    return tuple(players)


def _name(state: CastorState, seat: int) -> str:
    return state.players[seat].name


def _seat(state: CastorState, name: Any) -> int:
    seat = state.seat(name) if isinstance(name, str) else None
    if seat is None:
        raise RuleError("castor.error.unknown_player", player=str(name))
    return seat


def _colour_msg(colour: str) -> Message:
    return msg(f"castor.colour.{colour}")


def _outcome(before: Standings, after: Standings, state: CastorState) -> Events:
    """GameWon when the game becomes decided (or its winners change), GameReopened
    when an edit takes the victory away."""
    if after.finished and (before.decided_round, before.winners) != (
            after.decided_round, after.winners):
        assert after.decided_round is not None
        return [e.GameWon(after.decided_round, tuple(_name(state, i) for i in after.winners))]
    if before.finished and not after.finished:
        return [e.GameReopened()]
    return []


def _scored(state: CastorState, number: int, st: Standings) -> e.RoundScored:
    score = st.scores[number - 1]
    return e.RoundScored(number, score.totals, tuple(_name(state, i) for i in score.winners))


# -- the score sheet -------------------------------------------------------------------
def _column(state: CastorState, values: Any, what: str) -> tuple[int, ...]:
    n = len(state.players)
    if not isinstance(values, (list, tuple)) or len(values) != n:
        raise RuleError("castor.error.sheet_length", what=msg(f"castor.sheet.{what}"), n=n)
    for seat, value in enumerate(values):
        if not _is_int(value):
            raise RuleError("castor.error.not_a_number", what=msg(f"castor.sheet.{what}"),
                            player=_name(state, seat), value=str(value))
        if value < 0:
            raise RuleError("castor.error.negative", what=msg(f"castor.sheet.{what}"),
                            player=_name(state, seat), value=value)
    return tuple(values)


def check_sheet(state: CastorState, plan: Any, green: Any, yellow: Any) -> Sheet:
    """A sheet the deck can produce: counts within what one round deals (the rulebook's
    counts), plan points within what the plan cards could print. Raises RuleError naming
    the first problem; plan points above the listed plan cards are only noted
    (`sheet_notes`)."""
    p = state.params
    sheet = Sheet(_column(state, plan, "plan"), _column(state, green, "green"),
                  _column(state, yellow, "yellow"))
    dealt = p.cards_per_round(len(state.players))
    for what, colour, counts in (("green", p.bonus_colour, sheet.green),
                                 ("yellow", p.malus_colour, sheet.yellow)):
        spec = p.colour(colour)
        assert spec is not None  # validated params
        limit = min(spec.count, dealt)
        if sum(counts) > limit:
            raise RuleError("castor.error.too_many_cards", what=msg(f"castor.sheet.{what}"),
                            colour=_colour_msg(colour), total=sum(counts), limit=limit)
    if p.bonus_colour != p.malus_colour and sum(sheet.green) + sum(sheet.yellow) > dealt:
        raise RuleError("castor.error.too_many_dealt", total=sum(sheet.green) + sum(sheet.yellow),
                        limit=dealt)
    limit = len(p.plan_cards) * p.plan_plausible_high
    if sum(sheet.plan) > limit:
        raise RuleError("castor.error.too_many_plan_points", total=sum(sheet.plan),
                        limit=limit, cards=len(p.plan_cards), high=p.plan_plausible_high)
    return sheet


def sheet_notes(state: CastorState, sheet: Sheet) -> Events:
    """A sheet with more plan points than the listed plan cards hold: accepted, noted."""
    total = sum(sheet.plan)
    if total > state.params.plan_total:
        return [e.CheckCards("plan_total", total, count=state.params.plan_total)]
    return []


def _enter_sheet(state: CastorState, cmd: c.EnterSheet) -> tuple[CastorState, Events]:
    number = cmd.round
    count = len(state.rounds)
    if not _is_int(number) or not 1 <= number <= count + 1:
        raise RuleError("castor.error.bad_round", round=str(number), last=count + 1)
    before = game_standings(state)
    is_new = number == count + 1
    if is_new and before.finished:
        raise RuleError("castor.error.game_over")
    sheet = check_sheet(state, cmd.plan, cmd.green, cmd.yellow)
    events: Events = sheet_notes(state, sheet)
    if is_new:
        if state.tracking is not None:
            events.append(e.TrackingCancelled(number, len(state.tracking.done)))
        state = replace(state, rounds=(*state.rounds, Round(sheet)), tracking=None)
    else:
        old = state.rounds[number - 1]
        rounds = list(state.rounds)
        rounds[number - 1] = replace(old, sheet=sheet, edited=bool(old.tricks))
        state = replace(state, rounds=tuple(rounds))
    after = game_standings(state)
    events += [e.SheetEntered(number, "sheet", not is_new), _scored(state, number, after)]
    return state, events + _outcome(before, after, state)


def _delete_round(state: CastorState, cmd: c.DeleteRound) -> tuple[CastorState, Events]:
    if not state.rounds or cmd.round != len(state.rounds):
        raise RuleError("castor.error.delete_last_only", last=len(state.rounds))
    if state.tracking is not None:
        raise RuleError("castor.error.delete_while_tracking")
    before = game_standings(state)
    state = replace(state, rounds=state.rounds[:-1])
    return state, [e.RoundDeleted(cmd.round), *_outcome(before, game_standings(state), state)]


# -- the trick tracker -----------------------------------------------------------------
def round_leader(state: CastorState) -> int:
    """Who leads the first trick of the next round: the last round's winner; with tied
    winners, the first of them in seating order (the table may choose another with
    ChooseLeader before the first card)."""
    leaders = next_round_leaders(game_standings(state).scores)
    return leaders[0] if leaders else state.first_leader


def _tracking(state: CastorState) -> tuple[Tracking, Events]:
    """The round being tracked, started if needed."""
    if game_standings(state).finished:
        raise RuleError("castor.error.game_over")
    if state.tracking is not None:
        return state.tracking, []
    number = len(state.rounds) + 1
    leader = round_leader(state)
    tracking = Tracking(number, (), Trick(leader=leader))
    return tracking, [e.RoundStarted(number, _name(state, leader))]


def _with_current(state: CastorState, tracking: Tracking, trick: Trick) -> CastorState:
    return replace(state, tracking=replace(tracking, current=trick))


def _draw_power(state: CastorState, cmd: c.DrawPower) -> tuple[CastorState, Events]:
    tracking, events = _tracking(state)
    trick = tracking.current
    if trick.cards:
        raise RuleError("castor.error.power_after_cards")
    spec = state.params.agent(cmd.agent) if isinstance(cmd.agent, str) else None
    seat = state.seat_of_agent(cmd.agent) if spec is not None else None
    if spec is None or seat is None:
        raise RuleError("castor.error.agent_not_playing", agent=str(cmd.agent))
    drawn = [a for t in (*tracking.done, trick) for a in t.powers]
    if cmd.agent in drawn:
        raise RuleError("castor.error.power_drawn_twice", agent=spec.name)
    pending = trick.pending_choices + (spec.effect == "choose_leader")
    trick = replace(trick, powers=(*trick.powers, cmd.agent), pending_choices=pending)
    events.append(e.PowerDrawn(cmd.agent, _name(state, seat), spec.effect, spec.text))
    return _with_current(state, tracking, trick), events


def _choose_leader(state: CastorState, cmd: c.ChooseLeader) -> tuple[CastorState, Events]:
    tracking, events = _tracking(state)
    trick = tracking.current
    seat = _seat(state, cmd.player)
    if trick.cards:
        raise RuleError("castor.error.leader_after_cards")
    by_agent = None
    if trick.pending_choices:
        choosers = [a for a in trick.powers
                    if (spec := state.params.agent(a)) and spec.effect == "choose_leader"]
        by_agent = choosers[len(choosers) - trick.pending_choices]
    trick = replace(trick, leader=seat, pending_choices=max(trick.pending_choices - 1, 0))
    events.append(e.LeaderChosen(_name(state, seat), by_agent))
    return _with_current(state, tracking, trick), events


def _set_trumps(state: CastorState, cmd: c.SetTrumps) -> tuple[CastorState, Events]:
    tracking, events = _tracking(state)
    trumps = cmd.trumps
    if trumps is not None:
        if not isinstance(trumps, tuple):
            raise RuleError("castor.error.unknown_colour", colour=str(trumps))
        for colour in trumps:
            if state.params.colour(colour) is None:
                raise RuleError("castor.error.unknown_colour", colour=str(colour))
        if len(set(trumps)) != len(trumps):
            raise RuleError("castor.error.trumps_twice")
    events.append(e.TrumpsSet(trumps))
    return _with_current(state, tracking, replace(tracking.current, trumps=trumps)), events


def _play_card(state: CastorState, cmd: c.PlayCard) -> tuple[CastorState, Events]:
    tracking, events = _tracking(state)
    trick = tracking.current
    seat = _seat(state, cmd.player)
    if trick.pending_choices:
        raise RuleError("castor.error.leader_pending")
    spec = state.params.colour(cmd.colour) if isinstance(cmd.colour, str) else None
    if spec is None:
        raise RuleError("castor.error.unknown_colour", colour=str(cmd.colour))
    value = cmd.value
    if not _is_int(value) or not CARD_MIN <= value <= spec.plausible_high:
        raise RuleError("castor.error.implausible_card", value=str(value),
                        colour=_colour_msg(spec.name), low=CARD_MIN, high=spec.plausible_high)
    if any(card.player == seat for card in trick.cards):
        raise RuleError("castor.error.played_twice", player=cmd.player)
    if not trick.cards and seat != trick.leader:
        raise RuleError("castor.error.not_leader", player=cmd.player,
                        leader=_name(state, trick.leader))
    # the configured values and copies are guesses: beyond them, accept and note
    if not spec.covers(value):
        events.append(e.CheckCards("value", value, spec.name, spec.low, spec.high))
    elif round_cards((*tracking.done, trick))[(spec.name, value)] >= spec.copies:
        events.append(e.CheckCards("copies", value, spec.name, spec.low, spec.high,
                                   spec.copies))
    trick = replace(trick, cards=(*trick.cards, Card(seat, spec.name, value)))
    events.append(e.CardPlayed(cmd.player, spec.name, value))
    return _with_current(state, tracking, trick), events


def _check_plan_value(state: CastorState, value: Any) -> int:
    """A plan card's value: any number a card can print (the listed ones are guesses)."""
    high = state.params.plan_plausible_high
    if not _is_int(value) or not CARD_MIN <= value <= high:
        raise RuleError("castor.error.implausible_plan", value=str(value), low=CARD_MIN,
                        high=high)
    return int(value)


def _plan_notes(state: CastorState, done: tuple[Trick, ...], values: list[int]) -> Events:
    """Plan values the listed plan cards do not hold (or not that many times)."""
    counts = state.params.plan_counts
    taken = round_plans(done)
    notes: Events = []
    for value in values:
        taken[value] += 1
        if value not in counts:
            notes.append(e.CheckCards("plan_value", value, low=min(counts), high=max(counts)))
        elif taken[value] > counts[value]:
            notes.append(e.CheckCards("plan_copies", value, count=counts[value]))
    return notes


def _take_trick(state: CastorState, cmd: c.TakeTrick) -> tuple[CastorState, Events]:
    if state.tracking is None or not state.tracking.current.cards:
        raise RuleError("castor.error.no_trick")
    tracking, events = _tracking(state)
    trick = tracking.current
    p = state.params
    played = {card.player for card in trick.cards}
    missing = [player.name for seat, player in enumerate(state.players) if seat not in played]
    if missing:
        raise RuleError("castor.error.trick_incomplete", players=", ".join(missing))
    winner = trick_winner(p, trick)
    assert winner is not None
    plan = _check_plan_value(state, cmd.plan)
    extra = None
    if cmd.extra_plan is not None:
        agent = state.players[winner].agent
        spec = p.agent(agent) if agent is not None else None
        if spec is None or spec.effect != "extra_plan" or agent not in trick.powers:
            raise RuleError("castor.error.extra_plan_not_allowed", player=_name(state, winner))
        extra = _check_plan_value(state, cmd.extra_plan)
    events += _plan_notes(state, tracking.done, [plan] + ([] if extra is None else [extra]))
    trick = replace(trick, winner=winner, plan=plan, extra_plan=extra)
    done = (*tracking.done, trick)
    number = tracking.number
    last = len(done) == p.tricks_per_round
    events.append(e.TrickWon(number, len(done), _name(state, winner), plan, extra,
                             tuple((card.colour, card.value) for card in trick.cards),
                             None if last else _name(state, winner)))
    if not last:
        return replace(state, tracking=Tracking(number, done, Trick(leader=winner))), events
    before = game_standings(state)
    sheet = tally(p, len(state.players), done)
    state = replace(state, rounds=(*state.rounds, Round(sheet, tricks=done)), tracking=None)
    after = game_standings(state)
    events += [e.SheetEntered(number, "tricks", False), _scored(state, number, after)]
    return state, events + _outcome(before, after, state)


def _cancel_tracking(state: CastorState, _: c.CancelTracking) -> tuple[CastorState, Events]:
    if state.tracking is None:
        raise RuleError("castor.error.no_tracking")
    tracking = state.tracking
    return replace(state, tracking=None), [e.TrackingCancelled(tracking.number,
                                                               len(tracking.done))]


# -- complice cards: what they said, and the corrections they need ----------------------
COMPLICE_TEXT_MAX = 80  # characters of the table's own words


def _note_complice(state: CastorState, cmd: c.NoteComplice) -> tuple[CastorState, Events]:
    tracking, events = _tracking(state)
    if cmd.action not in c.COMPLICE_ACTIONS:
        raise RuleError("castor.error.complice_action", action=str(cmd.action))
    text = cmd.text.strip() if isinstance(cmd.text, str) else None
    if text is None or len(text) > COMPLICE_TEXT_MAX:
        raise RuleError("castor.error.complice_text", limit=COMPLICE_TEXT_MAX)
    if cmd.action == "other" and not text:
        raise RuleError("castor.error.complice_empty")
    trick = tracking.current
    trick = replace(trick, complice=(*trick.complice, (cmd.action, text)))
    events.append(e.CompliceNoted(cmd.action, text))
    return _with_current(state, tracking, trick), events


def _award_trick(state: CastorState, cmd: c.AwardTrick) -> tuple[CastorState, Events]:
    tracking, events = _tracking(state)
    seat = None if cmd.player is None else _seat(state, cmd.player)
    events.append(e.TrickAwarded(None if seat is None else _name(state, seat)))
    return _with_current(state, tracking, replace(tracking.current, awarded=seat)), events


def _pile_move(state: CastorState, giver: Any, receiver: Any) -> tuple[Tracking, int, int]:
    if state.tracking is None:
        raise RuleError("castor.error.no_tracking")
    g, r = _seat(state, giver), _seat(state, receiver)
    if g == r:
        raise RuleError("castor.error.move_to_self", player=str(giver))
    return state.tracking, g, r


def _add_move(state: CastorState, tracking: Tracking, move: Move) -> CastorState:
    trick = tracking.current
    return _with_current(state, tracking, replace(trick, moves=(*trick.moves, move)))


def _move_card(state: CastorState, cmd: c.MoveCard) -> tuple[CastorState, Events]:
    tracking, g, r = _pile_move(state, cmd.giver, cmd.receiver)
    pile = piles(len(state.players), (*tracking.done, tracking.current))[g]
    if (cmd.colour, cmd.value) not in pile.cards:
        colour = _colour_msg(cmd.colour) if state.params.colour(str(cmd.colour)) else \
            str(cmd.colour)
        raise RuleError("castor.error.not_in_pile", player=_name(state, g),
                        value=str(cmd.value), colour=colour)
    state = _add_move(state, tracking, Move(g, r, cmd.colour, cmd.value))
    return state, [e.PileMoved(_name(state, g), _name(state, r), cmd.colour, cmd.value)]


def _move_plan(state: CastorState, cmd: c.MovePlan) -> tuple[CastorState, Events]:
    tracking, g, r = _pile_move(state, cmd.giver, cmd.receiver)
    points = cmd.points
    if not _is_int(points) or points < 1:
        raise RuleError("castor.error.move_points", points=str(points))
    held = piles(len(state.players), (*tracking.done, tracking.current))[g].plan
    if points > held:
        # the number is the giver's to check in their own pile: it is not shown here
        raise RuleError("castor.error.not_enough_plan", player=_name(state, g), n=points)
    state = _add_move(state, tracking, Move(g, r, None, points))
    return state, [e.PileMoved(_name(state, g), _name(state, r), None, points)]


_HANDLERS: dict[type, Any] = {
    c.EnterSheet: _enter_sheet,
    c.DeleteRound: _delete_round,
    c.DrawPower: _draw_power,
    c.ChooseLeader: _choose_leader,
    c.SetTrumps: _set_trumps,
    c.PlayCard: _play_card,
    c.TakeTrick: _take_trick,
    c.CancelTracking: _cancel_tracking,
    c.NoteComplice: _note_complice,
    c.AwardTrick: _award_trick,
    c.MoveCard: _move_card,
    c.MovePlan: _move_plan,
}
