"""What a game's rules module offers the session.

Every game (Pr. Evil, Castor, Mr. Bond) is a pure reducer over immutable state:
`apply(state, command) -> (new_state, events)`. The session and the journal know
nothing else about the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol


class Rules(Protocol):
    kind: str
    #: command classes by name, for decoding the journal
    commands: Mapping[str, type]
    #: the class of every state (the snapshots' version is read from it): a resume from
    #: a snapshot never builds the initial state
    state_type: type

    def initial_state(self, setup: Mapping[str, Any]) -> Any:
        """The state at the start of a game; raises RuleError for a bad setup."""

    def check_resumable(self, setup: Mapping[str, Any]) -> None:
        """Raises RuleError if this code cannot play on a stored game of this setup (one
        written by a newer version of the rules); the rest of the setup was checked when
        the game started. What a resume from a snapshot checks instead of building the
        initial state."""

    def apply(self, state: Any, command: Any) -> tuple[Any, Sequence[Any]]:
        """The new state and the events; raises RuleError and changes nothing on bad input."""

    def summary(self, state: Any) -> dict[str, Any]:
        """Plain data for history and statistics: players, scores or outcome, finished."""

    # Optional (the session looks it up): rules whose states hold the time (the clock)
    # may define `landing(state, target, at) -> state`, the state an undo or redo made
    # at `at` lands on instead of `target` (the step's before or after); see
    # `companion.session`.
