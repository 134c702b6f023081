"""The dice tray: common dice (d4 to d100) and the table's own dice, several at once.

It is a game kind ("tray") like the others, so every roll is journaled, undoable and
replayed exactly. Setup: `{"params": <games.tray config section>, "seed": <int>,
"dice": ["d6", "d6"]}` (`dice` optional). Commands (`commands`): `AddDie(kind)`,
`RemoveDie(index)`, `ClearDice()`, `Roll()` (every unlocked die), `Lock(index)`,
`Unlock(index)`, `Close()` (puts the tray away: the session is finished, so it is not
offered for resuming). For the screen: `view.tray_view(state) -> TrayView` (dice
showing, total, whether a roll is possible, the history newest first, the
distribution of faces per kind of die over the session); `rules.describe(events)`
gives one translatable line per event. The tray is not a game between players: it
never appears in the history or the statistics of `companion.night`.
"""

from companion.games import lazy_names

KIND = "tray"

__all__ = ["KIND", "RULES", "TrayParams", "TrayRules", "tray_view", "validate_config"]

__getattr__ = lazy_names(__name__, {
    "TrayParams": "companion.games.tray.params",
    "validate_config": "companion.games.tray.params",
    "RULES": "companion.games.tray.rules",
    "TrayRules": "companion.games.tray.rules",
    "tray_view": "companion.games.tray.view",
})
