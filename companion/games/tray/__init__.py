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

import importlib
from typing import Any

KIND = "tray"

__all__ = ["KIND", "RULES", "TrayParams", "TrayRules", "tray_view", "validate_config"]

_LAZY = {
    "TrayParams": "companion.games.tray.params",
    "validate_config": "companion.games.tray.params",
    "RULES": "companion.games.tray.rules",
    "TrayRules": "companion.games.tray.rules",
    "tray_view": "companion.games.tray.view",
}


def __getattr__(name: str) -> Any:
    # the rules load on first use, so the config check and the home screen never pay
    # for a game nobody is playing
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
