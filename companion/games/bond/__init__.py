"""Before I Kill You, Mr. Bond: lairs, spies, ridicules and kills, scored to the target.

The cards stay on the table; the app keeps each lair's size, the captured spy and its
ridicules, and the scores. Setup: `{"params": <games.bond config section>,
"players": [{"name": ...}, ...]}` (2 to 6 players by default). Players are named by
their index in that list in every command and event.

Commands (`commands.py`), each logged and undoable:
`AddLairCard(player, value)`, `Attack(target, spies, by=None)`, then for the captured
spy `Kill()` or `Ridicule(letter)` followed by `Answered()` / `NotAnswered()`;
`EndGame()` (by agreement), `CorrectScore(player, delta)`, `RemoveLairCard(player, value)`,
`NextTurn()` (the player whose turn it is is done).

Decisions where the rulebook is silent or loose (see also config/games/bond.yaml):
- Card values are not in the rulebook: lair and spy values are configurable ranges,
  guesses. A card outside its range is accepted with an `events.CheckCards` note (the
  screen offers to widen the user's settings for the next games); only a number no card
  prints is refused (outside 1..99, or above a higher configured maximum).
- A single spy may be played on any lair, the player's own included (rulebook). The
  rulebook speaks of several spies "from one's hand on another player's lair": when the
  attacker is given (`by`), several spies on their own lair are refused unless
  `multi_spy_own_lair` is true. Without `by`, the app does not know and accepts.
- Several spies played together are one spy: their value (killed, or doubled) is the
  summed power.
- A captured spy must be dealt with at once: until it is killed or has escaped, every
  other command (attack, lair card, correction, ending) is refused.
- A ridicule takes two steps, `Ridicule(letter)` then `Answered()` or `NotAnswered()`,
  so the table can wait for the twin card. Kill and a new ridicule wait for that answer.
- Discards are never reused (rulebook), so the app counts the cards played: at most
  `deck.lair` lair cards and `deck.spy` spies; every doubler letter exists twice, so a
  letter whose two cards are already played cannot be played, and a ridicule whose twin
  is already played cannot be answered. A lair card removed as a correction was never
  played.
- The game ends when the first player reaches the target (the player who scored wins
  alone: only one score changes at a time), when the last spy is discarded (killed or
  escaped; highest score wins), or by agreement (`EndGame`, highest score). Ties are
  shared: every tied player is a winner. A score correction reaching the target also
  ends the game, since it states the true score.
- A score correction may not make a score negative, and a delta of 0 is refused.
- After the end, every command is refused; undo (in the session) reopens the game.
- The turn (rulebook: draw, then maybe a lair card, then maybe spies; clockwise from the
  dealer's left): the first seat starts; `NextTurn` passes the turn; spies dealt with
  (killed or escaped) end it, unless `turn_ends_after_spies` is false (the rulebook
  does not say whether spies may be sent twice in a turn). The app follows the table
  and refuses nothing for being out of turn: a lair card or spies recorded for another
  player make it that player's turn (an attack without `by` is the current player's).

Helpers for the screens (`view.py`, pure): `players(state)` (name, lair cards, lair
size, score, points to the target, capture holder, winner), `capture(state)` (the spy
in capture: power, successful letters, pending letter, kill value now and after one
more ridicule, letters still playable, whether an answer is possible),
`next_moves(state)` (exactly what `apply` accepts next), `turn(state)` (whose move and
its step, for the headline), `attack_result`, `deal_size`,
`spies_left`, `lair_cards_left`, `leaders`. In `instructions.py`: `instructions(events,
state)` (one sentence per event), `headline(state)` and `turn_hint(state)` (what the
table must do now, and the line under it), `outcome(state)` (the victory sentence) and
`command_name(command)` (for "Undo: ..."), all translatable messages.
"""

from companion.games import lazy_names

KIND = "bond"

__all__ = ["KIND", "RULES", "BondParams", "BondRules", "validate_config"]

__getattr__ = lazy_names(__name__, {
    "BondParams": "companion.games.bond.params",
    "validate_config": "companion.games.bond.params",
    "RULES": "companion.games.bond.rules",
    "BondRules": "companion.games.bond.rules",
})
