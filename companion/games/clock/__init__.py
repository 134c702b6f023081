"""The table's clock: sand timer, turn timer, chess clock for 2 to 8 players, phase
countdown and count-up, for any game (issue 31).

A game kind ("clock") like the others: every press is a journaled command carrying the
monotonic time it happened at (`at`, ms), so the journal replays to the same banks
anywhere, undo restores every bank exactly, and a power cut loses at most one
checkpoint interval, charged to nobody. Modules: `durations` (`90s`, `5m`, `1h30m`),
`params` (a preset as a frozen record), `presets` (the built-in `config/clock/*.yaml`
and the table's own), `state`, `commands`, `events`, `engine` (the arithmetic),
`rules` (`RULES`, `describe`), `view` (`clock_view`, `next_deadline`, `stats`).
The fairness rules are in docs/architecture.md ("The table's clock").
"""

from companion.games import lazy_names

KIND = "clock"

__all__ = ["KIND", "RULES", "ClockParams", "ClockRules", "clock_view", "describe",
           "load_presets", "next_deadline", "redo_press", "stats", "undo_press",
           "validate_config", "zero_at"]

__getattr__ = lazy_names(__name__, {
    "ClockParams": "companion.games.clock.params",
    "validate_config": "companion.games.clock.params",
    "RULES": "companion.games.clock.rules",
    "ClockRules": "companion.games.clock.rules",
    "describe": "companion.games.clock.rules",
    "undo_press": "companion.games.clock.rules",
    "redo_press": "companion.games.clock.rules",
    "clock_view": "companion.games.clock.view",
    "next_deadline": "companion.games.clock.view",
    "stats": "companion.games.clock.view",
    "zero_at": "companion.games.clock.view",
    "load_presets": "companion.games.clock.presets",
})
