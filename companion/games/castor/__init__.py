"""Le Castor en cavale: the score sheet, the trick tracker, rounds and medals.

The state (`state.CastorState`) carries its params and only what the table entered;
`scoring` derives totals, medals and winners from it. A setup is
`{"params": <games.castor config section>, "players": [{"name": ..., "agent": ...}],
"first_leader": <seat, default 0>}` (`agent`, an agent id from the params, is optional).

Commands (`commands`): `EnterSheet` (enter or edit a round's sheet), `DeleteRound`
(the last one), and for the trick tracker `DrawPower`, `ChooseLeader`, `SetTrumps`,
`PlayCard`, `TakeTrick`, `CancelTracking`, and for a "complice" card `NoteComplice`,
`AwardTrick`, `MoveCard`, `MovePlan`. Undo and redo are the session's.

Card values and distributions are the config's guesses (the seed gives counts): a card
beyond them is accepted with an `events.CheckCards` note; only a number no card prints
(outside 0..99) is refused.

For the screens (`view`, pure):
- `scoreboard(state) -> Scoreboard`: players x rounds (`Cell`: plan, green, yellow,
  bonus, malus, total, medal), medals per player, winners, the next round and its
  leader;
- `trick_view(state) -> TrickView | None`: the trick in progress (or the next round's
  first trick): leader, powers drawn, who must choose the leader, trumps in force,
  cards played, who plays next, who wins so far, whether the bottom plan card may be
  taken, and the round's tally so far (the rules hide it from the table: the screens
  never show it during the round);
- `playable_values(state, colour)`: the values of a colour still unplayed this round;
- `instructions.instructions(events)`: what to tell the table after an action
  (translation keys: who leads next, who won the trick, the round, the game).

Decisions the rulebook leaves open (documented where they live): tied round winners
lead the next round in seating order unless the table picks another (`ChooseLeader`);
equal cards (a colour printing a value twice) go to the first played; after the game
is won no round can start, but any round can be edited (which may move or take back
the victory; rounds after the deciding one stay on the scoreboard uncounted).
"""

from companion.games import lazy_names

KIND = "castor"

__all__ = [
    "KIND",
    "RULES",
    "CastorParams",
    "CastorRules",
    "playable_values",
    "scoreboard",
    "trick_view",
    "validate_config",
]

__getattr__ = lazy_names(__name__, {
    "CastorParams": "companion.games.castor.params",
    "validate_config": "companion.games.castor.params",
    "RULES": "companion.games.castor.rules",
    "CastorRules": "companion.games.castor.rules",
    "playable_values": "companion.games.castor.view",
    "scoreboard": "companion.games.castor.view",
    "trick_view": "companion.games.castor.view",
})
