"""Mr. Bond's rules as a pure reducer: `apply(state, command) -> (state, events)`.

The decisions the rulebook leaves open are listed in the package docstring
(`companion/games/bond/__init__.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.games.bond import commands as c
from companion.games.bond import events as e
from companion.games.bond.params import CARD_MIN, BondParams, validate_config
from companion.games.bond.state import BondState, Capture, Outcome, Player
from companion.messages import RuleError

Events = list[Any]
#: the only commands while a captured spy is being dealt with (rulebook: "immédiatement")
_CAPTURE_COMMANDS = (c.Kill, c.Ridicule, c.Answered, c.NotAnswered)


class BondRules:
    kind = "bond"
    commands = c.COMMANDS
    state_type = BondState

    # -- setup -------------------------------------------------------------------
    def initial_state(self, setup: Mapping[str, Any]) -> BondState:
        params = _params(setup.get("params"))
        return BondState(params=params, players=_players(params, setup.get("players")))

    def check_resumable(self, setup: Mapping[str, Any]) -> None:
        pass  # one version of these rules so far

    def summary(self, state: BondState) -> dict[str, Any]:
        outcome = state.outcome
        return {
            "finished": outcome is not None,
            "outcome": outcome.reason if outcome else None,
            "players": [p.name for p in state.players],
            "scores": list(state.scores),
            "lairs": [p.lair_size for p in state.players],
            "winners": [state.players[i].name for i in outcome.winners] if outcome else [],
            "target": state.params.target_score,
            "spies_played": state.spies_played,
        }

    # -- commands ----------------------------------------------------------------
    def apply(self, state: BondState, command: Any) -> tuple[BondState, Events]:
        if state.outcome is not None:
            raise RuleError("bond.error.game_over")
        handler = _HANDLERS.get(type(command))
        if handler is None:
            raise RuleError("core.error.unknown_command", name=type(command).__name__)
        if state.capture is not None and not isinstance(command, _CAPTURE_COMMANDS):
            raise RuleError("bond.error.capture_pending",
                            owner=state.players[state.capture.owner].name)
        return handler(state, command)


RULES = BondRules()


# -- setup helpers ----------------------------------------------------------------------
def _params(section: Any) -> BondParams:
    if not isinstance(section, Mapping):
        raise RuleError("bond.error.bad_params", reason="params")
    try:
        problems = validate_config(section)
        params = None if problems else BondParams.from_config(section)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise RuleError("bond.error.bad_params", reason=str(exc)) from exc
    if params is None:
        raise RuleError("bond.error.bad_params", reason=", ".join(key for key, _ in problems))
    return params


def _players(params: BondParams, raw: Any) -> tuple[Player, ...]:
    if not isinstance(raw, (list, tuple)) or not (
        params.players_min <= len(raw) <= params.players_max
    ):
        raise RuleError("bond.error.players_count", low=params.players_min,
                        high=params.players_max)
    players = []
    for item in raw:
        name = str(item.get("name", "") if isinstance(item, Mapping) else "").strip()
        if not name:
            raise RuleError("core.error.empty_name")
        players.append(Player(name))
    if len({p.name.casefold() for p in players}) != len(players):
        raise RuleError("core.error.duplicate_name")
    return tuple(players)


# -- checks -----------------------------------------------------------------------------
def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _plausible(value: Any, high: int) -> bool:
    """A number a card can print; the configured range is only a guess (see params)."""
    return _is_int(value) and CARD_MIN <= value <= high


def _notes(card: str, values: tuple[int, ...], low: int, high: int) -> Events:
    """A "check your cards" note for each value outside the game's configured range."""
    return [e.CheckCards(card, v, low, high) for v in values if not low <= v <= high]


def _player(state: BondState, index: Any) -> Player:
    if not _is_int(index) or not 0 <= index < len(state.players):
        raise RuleError("bond.error.unknown_player", player=str(index))
    return state.players[index]


def _need_capture(state: BondState) -> Capture:
    if state.capture is None:
        raise RuleError("bond.error.no_capture")
    return state.capture


def _need_decided(capture: Capture) -> None:
    if capture.pending is not None:
        raise RuleError("bond.error.ridicule_pending", letter=capture.pending)


# -- state helpers ----------------------------------------------------------------------
def _with_player(state: BondState, index: int, player: Player) -> BondState:
    players = list(state.players)
    players[index] = player
    return replace(state, players=tuple(players))


def _leaders(state: BondState) -> tuple[int, ...]:
    best = max(state.scores)
    return tuple(i for i, score in enumerate(state.scores) if score == best)


def _end(state: BondState, reason: str, winners: tuple[int, ...]) -> tuple[BondState, Events]:
    score = state.players[winners[0]].score
    return replace(state, outcome=Outcome(reason, winners)), [e.GameEnded(reason, winners, score)]


def _after_score(state: BondState, player: int) -> tuple[BondState, Events]:
    """Rulebook: the first player to reach the target wins at once."""
    if state.players[player].score >= state.params.target_score:
        return _end(state, "target", (player,))
    return _after_discard(state)


def _after_discard(state: BondState) -> tuple[BondState, Events]:
    """Rulebook: the game ends when the last spy is discarded (discards are not reused)."""
    if state.capture is None and state.spies_played >= state.params.spy_cards:
        return _end(state, "last_spy", _leaders(state))
    return state, []


def _escape(state: BondState, owner: int, power: int, reason: str) -> tuple[BondState, Events]:
    """Rulebook: an escaping spy is discarded and always destroys the lair it leaves."""
    lair = state.players[owner].lair
    state = _with_player(replace(state, capture=None), owner,
                         replace(state.players[owner], lair=()))
    events: Events = [e.SpyEscaped(owner, power, reason), e.LairDestroyed(owner, lair)]
    state, ended = _after_discard(state)
    return state, events + ended


# -- the turn ---------------------------------------------------------------------------
# Rulebook: "Premièrement, le joueur tire une carte de la pioche. [...] Deuxièmement, le
# joueur peut joueur une carte Lair [...] Troisièmement, le joueur peut jouer un espion
# sur n'importe quel repaire". The app follows the table, it never refuses an action
# for being out of turn: a lair card or spies recorded for another player make it that
# player's turn.
def _turn_of(state: BondState, player: int) -> BondState:
    """It is `player`'s turn (the table says they played): a new turn if it was not."""
    if player == state.turn:
        return state
    return replace(state, turn=player, turn_lair=False, turn_spies=False)


def _next_turn(state: BondState) -> tuple[BondState, Events]:
    """Rulebook: "le jeu se poursuit dans le sens horaire": the next seat's turn."""
    player = (state.turn + 1) % len(state.players)
    return replace(state, turn=player, turn_lair=False, turn_spies=False), \
        [e.TurnBegan(player)]


def _spies_done(state: BondState) -> tuple[BondState, Events]:
    """The spies sent this turn were dealt with (killed or escaped): the turn's last
    step, so the next player's turn, unless the game is over or the settings let a
    player send spies again (`turn_ends_after_spies`)."""
    if state.outcome is not None:
        return state, []
    if state.params.turn_ends_after_spies:
        return _next_turn(state)
    return replace(state, turn_spies=True), []


# -- handlers ---------------------------------------------------------------------------
def _add_lair_card(state: BondState, cmd: c.AddLairCard) -> tuple[BondState, Events]:
    player = _player(state, cmd.player)
    p = state.params
    if not _plausible(cmd.value, p.plausible_high("lair")):
        raise RuleError("bond.error.lair_value", value=str(cmd.value), low=CARD_MIN,
                        high=p.plausible_high("lair"))
    if state.lair_cards_played >= p.lair_cards:
        raise RuleError("bond.error.no_lair_cards_left", count=p.lair_cards)
    player = replace(player, lair=(*player.lair, cmd.value))
    state = replace(_with_player(_turn_of(state, cmd.player), cmd.player, player),
                    lair_cards_played=state.lair_cards_played + 1, turn_lair=True)
    notes = _notes("lair", (cmd.value,), p.lair_min, p.lair_max)
    return state, [*notes, e.LairCardAdded(cmd.player, cmd.value, player.lair_size)]


def _remove_lair_card(state: BondState, cmd: c.RemoveLairCard) -> tuple[BondState, Events]:
    player = _player(state, cmd.player)
    if not _is_int(cmd.value) or cmd.value not in player.lair:
        raise RuleError("bond.error.not_in_lair", player=player.name, value=str(cmd.value))
    lair = list(player.lair)
    del lair[len(lair) - 1 - lair[::-1].index(cmd.value)]  # the latest card of that value
    player = replace(player, lair=tuple(lair))
    state = replace(_with_player(state, cmd.player, player),
                    lair_cards_played=state.lair_cards_played - 1)
    return state, [e.LairCardRemoved(cmd.player, cmd.value, player.lair_size)]


def _attack(state: BondState, cmd: c.Attack) -> tuple[BondState, Events]:
    target = _player(state, cmd.target)
    if cmd.by is not None:
        _player(state, cmd.by)
    p = state.params
    spies = tuple(cmd.spies) if isinstance(cmd.spies, (list, tuple)) else ()
    if not spies:
        raise RuleError("bond.error.no_spies")
    for value in spies:
        if not _plausible(value, p.plausible_high("spy")):
            raise RuleError("bond.error.spy_value", value=str(value), low=CARD_MIN,
                            high=p.plausible_high("spy"))
    if not target.has_lair:
        raise RuleError("bond.error.no_lair", player=target.name)
    if len(spies) > 1 and cmd.by == cmd.target and not p.multi_spy_own_lair:
        raise RuleError("bond.error.multi_spy_own_lair")
    left = p.spy_cards - state.spies_played
    if len(spies) > left:
        raise RuleError("bond.error.no_spies_left", left=left, count=p.spy_cards)
    power = sum(spies)
    state = replace(_turn_of(state, state.turn if cmd.by is None else cmd.by),
                    spies_played=state.spies_played + len(spies))
    events: Events = [*_notes("spy", spies, p.spy_min, p.spy_max),
                      e.SpiesPlayed(cmd.target, spies, power, target.lair_size, cmd.by)]
    if power <= target.lair_size:
        capture = Capture(owner=cmd.target, spies=spies, attacker=cmd.by)
        return replace(state, capture=capture), [*events, e.SpyCaptured(cmd.target, power)]
    state, escaped = _escape(state, cmd.target, power, "too_strong")
    state, turn = _spies_done(state)
    return state, events + escaped + turn


def _kill(state: BondState, _: c.Kill) -> tuple[BondState, Events]:
    capture = _need_capture(state)
    _need_decided(capture)
    owner = state.players[capture.owner]
    points = capture.value
    owner = replace(owner, score=owner.score + points)
    state = replace(_with_player(state, capture.owner, owner), capture=None)
    events: Events = [e.SpyKilled(capture.owner, capture.power, len(capture.successes), points,
                                  owner.score)]
    state, ended = _after_score(state, capture.owner)
    state, turn = _spies_done(state)
    return state, events + ended + turn


def _ridicule(state: BondState, cmd: c.Ridicule) -> tuple[BondState, Events]:
    capture = _need_capture(state)
    _need_decided(capture)
    letter = cmd.letter
    if not isinstance(letter, str) or letter not in state.params.letters:
        raise RuleError("bond.error.unknown_letter", letter=str(letter),
                        letters=", ".join(state.params.letters))
    if letter in capture.letters:
        raise RuleError("bond.error.letter_reused", letter=letter)
    if state.doublers_left(letter) <= 0:
        raise RuleError("bond.error.letter_gone", letter=letter)
    state = replace(state, capture=replace(capture, pending=letter),
                    doublers_played=(*state.doublers_played, letter))
    return state, [e.RidiculePlayed(capture.owner, letter)]


def _need_pending(state: BondState) -> tuple[Capture, str]:
    capture = _need_capture(state)
    if capture.pending is None:
        raise RuleError("bond.error.no_ridicule")
    return capture, capture.pending


def _answered(state: BondState, _: c.Answered) -> tuple[BondState, Events]:
    capture, letter = _need_pending(state)
    if state.doublers_left(letter) <= 0:
        raise RuleError("bond.error.twin_gone", letter=letter)
    state = replace(state, doublers_played=(*state.doublers_played, letter))
    events: Events = [e.RidiculeAnswered(capture.owner, letter)]
    state, escaped = _escape(state, capture.owner, capture.power, "answered")
    state, turn = _spies_done(state)
    return state, events + escaped + turn


def _not_answered(state: BondState, _: c.NotAnswered) -> tuple[BondState, Events]:
    capture, letter = _need_pending(state)
    capture = replace(capture, successes=(*capture.successes, letter), pending=None)
    state = replace(state, capture=capture)
    return state, [e.RidiculeSucceeded(capture.owner, letter, capture.value)]


def _end_turn(state: BondState, _: c.NextTurn) -> tuple[BondState, Events]:
    return _next_turn(state)


def _end_game(state: BondState, _: c.EndGame) -> tuple[BondState, Events]:
    return _end(state, "agreed", _leaders(state))


def _correct_score(state: BondState, cmd: c.CorrectScore) -> tuple[BondState, Events]:
    player = _player(state, cmd.player)
    if not _is_int(cmd.delta) or cmd.delta == 0:
        raise RuleError("bond.error.correction", delta=str(cmd.delta))
    score = player.score + cmd.delta
    if score < 0:
        raise RuleError("bond.error.negative_score", player=player.name, score=score)
    state = _with_player(state, cmd.player, replace(player, score=score))
    events: Events = [e.ScoreCorrected(cmd.player, cmd.delta, score)]
    if score >= state.params.target_score:
        state, ended = _end(state, "target", (cmd.player,))
        events += ended
    return state, events


_HANDLERS: dict[type, Any] = {
    c.AddLairCard: _add_lair_card,
    c.RemoveLairCard: _remove_lair_card,
    c.Attack: _attack,
    c.Kill: _kill,
    c.Ridicule: _ridicule,
    c.Answered: _answered,
    c.NotAnswered: _not_answered,
    c.EndGame: _end_game,
    c.CorrectScore: _correct_score,
    c.NextTurn: _end_turn,
}
