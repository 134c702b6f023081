"""The score pad: any game of the night, from a template (issue 30).

A template (`template.Template`, YAML: built-ins in `config/pad/`, the table's own in
`pad/` beside the user's config file, read by `templates`) says the sheet's shape
(rounds or categories), how the game is won (highest, lowest, coop, places), derived
points, tie-breakers and teams. The game keeps a copy of its template.

Setup (the journal's games row): `{"template": <plain data>, "players": [{"name": ...,
"roster_id": int|None, "colour": "#rrggbb"|None}], "start_player": <seat>,
"start_drawn": bool, "teams": [[seat...]...] | None, "confirmed_count": bool}`
(`player_id` is read as `roster_id`).

Commands (`commands`): `SetCell`, `ClearCell`, `SetTieInput`, `SettleTie`,
`Eliminate`, `Leave`, `InstantWin`, `CoopOutcome`, `SetPlaces`, `End`. Views (`view`,
pure): `sheet_view`, `standings_view`, `preview`, `next_cell`; `instructions.headline`;
`rules.describe(events)` for the log; `entry.evaluate` for the keypad.
"""

from companion.games import lazy_names

KIND = "pad"

__all__ = ["KIND", "RULES", "PadRules", "headline", "preview", "sheet_view",
           "standings_view", "validate_config"]

__getattr__ = lazy_names(__name__, {
    "validate_config": "companion.games.pad.params",
    "RULES": "companion.games.pad.rules",
    "PadRules": "companion.games.pad.rules",
    "sheet_view": "companion.games.pad.view",
    "standings_view": "companion.games.pad.view",
    "preview": "companion.games.pad.view",
    "headline": "companion.games.pad.instructions",
})
