"""Pr. Evil's rules as a pure reducer: `apply(state, command) -> (state, events)`.

The dial has `dial_steps` positions (0 = XII). A treasure in play is stored as the
number of steps between the time marker and its clock marker, so "the time marker
reaches or passes it" is simply "steps left <= 0", whichever marker moved.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.dice import draw
from companion.games.evil import commands as c
from companion.games.evil import events as e
from companion.games.evil.dice import DICE, parse_face
from companion.games.evil.params import EvilParams
from companion.games.evil.state import EvilState, Player, Roll, Treasure, evolve
from companion.messages import Message, RuleError, msg

Events = list[Any]

#: the rules version new games are set up with (`rules_version` in the setup). 1: the
#: black die moved time before a treasure lost to the white dice was replaced (setups
#: without the key, written before versions existed, replay in that order); 2: the seed's
#: order, the roll waits for the replacement, then "enfin" the black die
RULES_VERSION = 2
_ROLL_COMMANDS = (c.Roll, c.EnterRoll, c.Reroll, c.SetDie)
_CHANGE_ROLL_COMMANDS = (c.Reroll, c.SetDie)


class EvilRules:
    kind = "evil"
    commands = c.COMMANDS
    state_type = EvilState

    # -- setup -------------------------------------------------------------------
    def initial_state(self, setup: Mapping[str, Any]) -> EvilState:
        params = EvilParams.from_config(setup["params"])
        players = _players(params, setup.get("players", []))
        # no difficulty given (older games, tests): every tile is in play
        difficulty = str(setup.get("difficulty") or "")
        if difficulty and difficulty not in dict(params.difficulties):
            raise RuleError("evil.error.unknown_difficulty", difficulty=difficulty)
        version = _rules_version(setup)
        state = EvilState(
            params=params,
            seed=int(setup["seed"]),
            draws=0,
            time=0,
            slots=(None,) * len(params.colours),
            recovered=(),
            lost=(),
            players=players,
            active=int(setup.get("first_player", 0)) % len(players),
            turn=1,
            difficulty=difficulty,
            left_out=params.left_out(difficulty),
            rules_version=version,
        )
        for colour, minutes in (setup.get("treasures") or {}).items():
            state, _ = _place(state, colour, minutes)
        return state

    def check_resumable(self, setup: Mapping[str, Any]) -> None:
        _rules_version(setup)  # a game of a newer rulebook order is never played on

    def summary(self, state: EvilState) -> dict[str, Any]:
        return {
            "finished": state.outcome is not None,
            "outcome": state.outcome,
            "recovered": len(state.recovered),
            "lost": len(state.lost),
            "turn": state.turn,
            "difficulty": state.difficulty,
            "players": [p.name for p in state.players],
            "characters": [p.character for p in state.players],
        }

    # -- commands ----------------------------------------------------------------
    def apply(self, state: EvilState, command: Any) -> tuple[EvilState, Events]:
        if state.outcome is not None and not (
            type(command) in _CHANGE_ROLL_COMMANDS and state.before_roll is not None
        ):
            # the roll that ended the game may still be re-rolled (a power) or corrected
            raise RuleError("evil.error.game_over")
        handler = _HANDLERS.get(type(command))
        if handler is None:
            raise RuleError("core.error.unknown_command", name=type(command).__name__)
        new_state, events = handler(state, command)
        if type(command) not in _ROLL_COMMANDS and new_state.before_roll is not None:
            # any other action closes the last roll: it can no longer be re-rolled or fixed
            new_state = evolve(new_state, before_roll=None)
        return new_state, events


RULES = EvilRules()


# -- helpers ---------------------------------------------------------------------------
def _rules_version(setup: Mapping[str, Any]) -> int:
    """The setup's rules version (1: none given, an older game); RuleError if unknown."""
    version = setup.get("rules_version", 1)
    if isinstance(version, bool) or version not in range(1, RULES_VERSION + 1):
        raise RuleError("evil.error.rules_version", version=str(version),
                        newest=RULES_VERSION)
    return int(version)


def _players(params: EvilParams, raw: Any) -> tuple[Player, ...]:
    if not isinstance(raw, (list, tuple)):
        raise RuleError("evil.error.players_count", low=params.players_min, high=params.players_max)
    if not params.players_min <= len(raw) <= params.players_max:
        raise RuleError("evil.error.players_count", low=params.players_min, high=params.players_max)
    players = []
    for item in raw:
        name = str(item.get("name", "")).strip()
        character = str(item.get("character", ""))
        if not name:
            raise RuleError("core.error.empty_name")
        if character not in params.characters:
            raise RuleError("evil.error.unknown_character", character=character)
        players.append(Player(name, character))
    if len({p.name.casefold() for p in players}) != len(players):
        raise RuleError("core.error.duplicate_name")
    if len({p.character for p in players}) != len(players):
        raise RuleError("evil.error.duplicate_character")
    return tuple(players)


def _colour(state: EvilState, colour: str) -> int:
    if colour not in state.params.colours:
        raise RuleError("evil.error.unknown_colour", colour=colour)
    return state.params.colours.index(colour)


def _with_slot(state: EvilState, colour: str, treasure: Treasure | None) -> EvilState:
    slots = list(state.slots)
    slots[_colour(state, colour)] = treasure
    return evolve(state, slots=tuple(slots))


def _need_treasure(state: EvilState, colour: str) -> Treasure:
    _colour(state, colour)
    treasure = state.slot(colour)
    if treasure is None:
        raise RuleError("evil.error.slot_empty", colour=_colour_msg(colour))
    return treasure


def _colour_msg(colour: str) -> Message:
    return msg(f"evil.colour.{colour}")


def _place(state: EvilState, colour: str, minutes: Any) -> tuple[EvilState, Events]:
    _colour(state, colour)
    if state.slot(colour) is not None:
        raise RuleError("evil.error.slot_taken", colour=_colour_msg(colour))
    p = state.params
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not p.minutes_ok(minutes):
        raise RuleError("evil.error.minutes", minutes=str(minutes), low=p.min_minutes,
                        high=p.max_minutes, step=p.step_minutes)
    if minutes in state.left_out:
        raise RuleError("evil.error.minutes_left_out", minutes=minutes,
                        difficulty=msg(f"evil.difficulty.{state.difficulty}"))
    treasure = Treasure(colour, minutes, minutes // p.step_minutes)
    state = _with_slot(state, colour, treasure)
    return state, [e.TreasurePlaced(colour, minutes, state.marker_position(colour) or 0)]


def _lose(state: EvilState, colour: str) -> tuple[EvilState, Events]:
    treasure = _need_treasure(state, colour)
    state = evolve(_with_slot(state, colour, None), lost=(*state.lost, treasure))
    events: Events = [e.TreasureLost(colour, treasure.minutes)]
    if len(state.lost) >= state.params.lost_to_lose:
        state = evolve(state, outcome="lost")
        events.append(e.GameLost(len(state.lost)))
    return state, events


def _move_treasure(state: EvilState, colour: str, delta: int) -> tuple[EvilState, Events]:
    treasure = _need_treasure(state, colour)
    left = treasure.steps + delta
    if left >= state.params.dial_steps:
        raise RuleError("evil.error.treasure_lap", colour=_colour_msg(colour))
    events: Events = [e.TreasureMoved(colour, delta, left)]
    if left <= 0:
        state, lost = _lose(state, colour)
        return state, events + lost
    return _with_slot(state, colour, evolve(treasure, steps=left)), events


def _advance_time(state: EvilState, steps: int) -> tuple[EvilState, Events]:
    """The time marker moves clockwise: treasures it reaches or passes are lost, power
    spaces it reaches or passes each give one activation (none once the game is lost).
    Every marker ends where the rules put it and every treasure taken is recorded, even
    when the move decides the game."""
    if state.rules_version < 2:
        return _advance_time_v1(state, steps)
    p = state.params
    start = state.time
    state = evolve(state, time=(start + steps) % p.dial_steps)
    events: Events = [e.TimeMoved(steps, state.time)]
    slots: list[Treasure | None] = []
    taken: list[Treasure] = []
    for treasure in state.slots:
        if treasure is not None and treasure.steps <= steps:
            taken.append(treasure)
            events.append(e.TreasureLost(treasure.colour, treasure.minutes))
            slots.append(None)
        elif treasure is None:
            slots.append(None)
        else:
            slots.append(evolve(treasure, steps=treasure.steps - steps))
    state = evolve(state, slots=tuple(slots), lost=(*state.lost, *taken))
    if taken and len(state.lost) >= p.lost_to_lose and state.outcome is None:
        events.append(e.GameLost(len(state.lost)))
        return evolve(state, outcome="lost"), events
    reached = _power_spaces(p, start, steps)
    events += reached
    return evolve(state, pending_powers=state.pending_powers + len(reached)), events


def _advance_time_v1(state: EvilState, steps: int) -> tuple[EvilState, Events]:
    """Version 1: as `_advance_time`, but a loss that ends the game stops there (the
    markers after it keep their old steps): kept so that old journals replay the same."""
    p = state.params
    start = state.time
    state = evolve(state, time=(start + steps) % p.dial_steps)
    events: Events = [e.TimeMoved(steps, state.time)]
    slots = list(state.slots)  # the markers left behind, written back once
    for index, (colour, treasure) in enumerate(zip(p.colours, state.slots, strict=True)):
        if treasure is None:
            continue
        if treasure.steps <= steps:
            state, lost = _lose(evolve(state, slots=tuple(slots)), colour)
            events += lost
            slots = list(state.slots)
            if state.outcome is not None:
                return state, events
        else:
            slots[index] = evolve(treasure, steps=treasure.steps - steps)
    reached = _power_spaces(p, start, steps)
    events += reached
    return evolve(state, slots=tuple(slots),
                  pending_powers=state.pending_powers + len(reached)), events


def _power_spaces(p: EvilParams, start: int, steps: int) -> list[e.PowerSpaceReached]:
    """The power spaces the time marker passes or stops on, moving `steps` from `start`."""
    return [e.PowerSpaceReached(position)
            for position in ((start + i) % p.dial_steps for i in range(1, steps + 1))
            if position in p.power_spaces]


def _check_face(state: EvilState, die: str, face: str) -> None:
    if die not in DICE:
        raise RuleError("evil.error.unknown_die", die=die)
    if face not in state.params.die_faces(die):
        raise RuleError("evil.error.unknown_face", face=str(face), die=msg(f"evil.die.{die}"))


def _resolve(pre: EvilState, base: EvilState, roll: Roll) -> tuple[EvilState, Events]:
    """Resolve a roll from `base` (`pre` is kept to re-roll or correct it)."""
    if base.rules_version < 2:
        return _resolve_v1(pre, base, roll)
    state, events = _white_dice(base, roll)
    state = evolve(state, last_roll=roll, before_roll=pre)
    if state.outcome is not None:
        # the white dice took the deciding treasure: the game ends at once, the black
        # die has nothing left to do
        return state, events
    if state.empty_colours:
        # "Mettez en place un nouveau trésor pour le remplacer", then "Enfin, consultez
        # le dé noir": the roll waits for the table to enter the new tile's minutes
        events.append(e.BlackDieWaits(state.empty_colours, roll.clock))
        return evolve(state, pending_clock=roll.clock), events
    state, more = _black_die(state, roll.clock)
    return state, events + more


def _white_dice(state: EvilState, roll: Roll) -> tuple[EvilState, Events]:
    """The professor die with the colour die."""
    p = state.params
    events: Events = [e.DiceRolled(roll.professor, roll.colour, roll.clock, roll.source)]
    professor = parse_face("professor", roll.professor, p.colours)
    assert professor is not None  # faces come from validated params
    colour = roll.colour
    if professor.kind == "chevron":
        events.append(e.ProfessorMoves(professor.amount, colour))
    elif state.slot(colour) is None:
        events.append(e.NoEffect(colour))
    elif professor.kind == "passage":
        events.append(e.SecretPassage(colour))
    else:
        state, moved = _move_treasure(state, colour, -(professor.amount // p.step_minutes))
        events += moved
    return state, events


def _black_die(state: EvilState, face: str) -> tuple[EvilState, Events]:
    """"Enfin" the black die moves the time marker; then the dice pass on."""
    clock = parse_face("clock", face, state.params.colours)
    assert clock is not None
    state, events = _advance_time(evolve(state, pending_clock=None), clock.amount)
    if state.outcome is not None:
        return state, events
    state, passed = _pass_turn(state)
    return state, events + passed


def _pass_turn(state: EvilState) -> tuple[EvilState, Events]:
    """The player who rolled passes the dice to their left: the next seat clockwise."""
    active = (state.active + 1) % len(state.players)
    player = state.players[active]
    return (evolve(state, active=active, turn=state.turn + 1),
            [e.TurnPassed(player.name, player.character, state.turn + 1)])


def _resolve_v1(pre: EvilState, base: EvilState, roll: Roll) -> tuple[EvilState, Events]:
    """Version 1: the white dice, then at once the black die; a slot emptied by the
    white dice is filled afterwards, relative to the later time."""
    clock = parse_face("clock", roll.clock, base.params.colours)
    assert clock is not None  # faces come from validated params
    state, events = _white_dice(base, roll)
    if state.outcome is None:
        state, timed = _advance_time_v1(state, clock.amount)
        events += timed
    if state.outcome is None:
        state, passed = _pass_turn(state)
        events += passed
    return evolve(state, last_roll=roll, before_roll=pre), events


def _ready_to_roll(state: EvilState) -> None:
    if state.pending_clock is not None:
        raise RuleError("evil.error.replacement_awaited",
                        colour=_colour_msg(state.empty_colours[0]) if state.empty_colours
                        else "")
    if state.pending_powers:
        raise RuleError("evil.error.power_pending")
    if state.rules_version >= 2 and state.empty_colours:
        # by the rules a slot is never empty when the dice are rolled
        raise RuleError("evil.error.place_before_rolling",
                        colour=_colour_msg(state.empty_colours[0]))


# -- handlers ---------------------------------------------------------------------------
def _roll(state: EvilState, _: c.Roll) -> tuple[EvilState, Events]:
    _ready_to_roll(state)
    p = state.params
    faces = [draw(state.seed, state.draws + i, p.dice[i]) for i in range(len(DICE))]
    pre = evolve(state, before_roll=None)
    base = evolve(pre, draws=state.draws + len(DICE))
    return _resolve(pre, base, Roll(*faces, source="app"))


def _enter_roll(state: EvilState, cmd: c.EnterRoll) -> tuple[EvilState, Events]:
    _ready_to_roll(state)
    for die, face in zip(DICE, (cmd.professor, cmd.colour, cmd.clock), strict=True):
        _check_face(state, die, face)
    pre = evolve(state, before_roll=None)
    return _resolve(pre, pre, Roll(cmd.professor, cmd.colour, cmd.clock, source="table"))


def _change_die(state: EvilState, die: str, face: str | None) -> tuple[EvilState, Events]:
    if state.before_roll is None or state.last_roll is None:
        raise RuleError("evil.error.no_roll_to_change")
    if die not in DICE:
        raise RuleError("evil.error.unknown_die", die=die)
    draws = state.draws
    if face is None:
        face = draw(state.seed, draws, state.params.die_faces(die))
        draws += 1
    _check_face(state, die, face)
    roll = evolve(state.last_roll, **{die: face})
    pre = state.before_roll
    return _resolve(pre, evolve(pre, draws=draws), roll)


def _reroll(state: EvilState, cmd: c.Reroll) -> tuple[EvilState, Events]:
    return _change_die(state, cmd.die, None)


def _set_die(state: EvilState, cmd: c.SetDie) -> tuple[EvilState, Events]:
    return _change_die(state, cmd.die, cmd.face)


def _place_treasure(state: EvilState, cmd: c.PlaceTreasure) -> tuple[EvilState, Events]:
    state, events = _place(state, cmd.colour, cmd.minutes)
    if state.pending_clock is not None and not state.empty_colours:
        # the replacement is in play, relative to the time before the black die: the
        # roll goes on with it
        face = state.pending_clock
        state, more = _black_die(state, face)
        events += [e.BlackDieApplied(face), *more]
    return state, events


def _recover(state: EvilState, cmd: c.Recover) -> tuple[EvilState, Events]:
    treasure = _need_treasure(state, cmd.colour)
    state = evolve(_with_slot(state, cmd.colour, None), recovered=(*state.recovered, treasure))
    events: Events = [e.TreasureRecovered(cmd.colour, treasure.minutes)]
    if len(state.recovered) >= state.params.recovered_to_win:
        state = evolve(state, outcome="won")
        events.append(e.GameWon(len(state.recovered)))
    return state, events


def _mark_lost(state: EvilState, cmd: c.MarkLost) -> tuple[EvilState, Events]:
    return _lose(state, cmd.colour)


def _delta(delta: Any) -> int:
    if delta not in (1, -1) or isinstance(delta, bool):
        raise RuleError("evil.error.delta", delta=str(delta))
    return int(delta)


def _move_time(state: EvilState, cmd: c.MoveTime) -> tuple[EvilState, Events]:
    if _delta(cmd.delta) > 0:
        return _advance_time(state, 1)
    p = state.params
    slots = []
    for colour, treasure in zip(p.colours, state.slots, strict=True):
        if treasure is not None and treasure.steps + 1 >= p.dial_steps:
            raise RuleError("evil.error.time_back_blocked", colour=_colour_msg(colour))
        slots.append(None if treasure is None else evolve(treasure, steps=treasure.steps + 1))
    state = evolve(state, time=(state.time - 1) % p.dial_steps, slots=tuple(slots))
    return state, [e.TimeMoved(-1, state.time)]


def _move_treasure_cmd(state: EvilState, cmd: c.MoveTreasure) -> tuple[EvilState, Events]:
    return _move_treasure(state, cmd.colour, _delta(cmd.delta))


def _set_player(state: EvilState, cmd: c.SetPlayer) -> tuple[EvilState, Events]:
    names = [p.name for p in state.players]
    if cmd.player not in names:
        raise RuleError("evil.error.player_not_playing", player=str(cmd.player))
    player = state.players[names.index(cmd.player)]
    return (evolve(state, active=names.index(cmd.player)),
            [e.PlayerSet(player.name, player.character)])


def _activate(state: EvilState, cmd: c.ActivatePower) -> tuple[EvilState, Events]:
    if not state.pending_powers:
        raise RuleError("evil.error.no_power_pending")
    if cmd.character not in {p.character for p in state.players}:
        raise RuleError("evil.error.character_not_playing", character=cmd.character)
    if cmd.character in state.powers_up:
        raise RuleError("evil.error.power_already_up", character=cmd.character)
    state = evolve(state, pending_powers=state.pending_powers - 1,
                    powers_up=(*state.powers_up, cmd.character))
    return state, [e.PowerActivated(cmd.character)]


def _skip(state: EvilState, _: c.SkipPower) -> tuple[EvilState, Events]:
    if not state.pending_powers:
        raise RuleError("evil.error.no_power_pending")
    return evolve(state, pending_powers=state.pending_powers - 1), [e.PowerSkipped()]


def _flip_down(state: EvilState, cmd: c.FlipPowerDown) -> tuple[EvilState, Events]:
    if cmd.character not in state.powers_up:
        raise RuleError("evil.error.power_not_up", character=cmd.character)
    up = tuple(ch for ch in state.powers_up if ch != cmd.character)
    return evolve(state, powers_up=up), [e.PowerFlippedDown(cmd.character)]


_HANDLERS: dict[type, Any] = {
    c.Roll: _roll,
    c.EnterRoll: _enter_roll,
    c.Reroll: _reroll,
    c.SetDie: _set_die,
    c.PlaceTreasure: _place_treasure,
    c.Recover: _recover,
    c.MarkLost: _mark_lost,
    c.MoveTime: _move_time,
    c.MoveTreasure: _move_treasure_cmd,
    c.SetPlayer: _set_player,
    c.ActivatePower: _activate,
    c.SkipPower: _skip,
    c.FlipPowerDown: _flip_down,
}
