"""The games the companion knows, by kind. Each game package offers:

- `RULES`: an object following `companion.rules.Rules`;
- `params.validate_config(section)`: problems in its `games.<kind>` config section
  (`VALIDATORS` has them all, for the caller to hand to `companion.config.load`);
- `night.NIGHT`: a `companion.game.GameNight`, what history, statistics and the
  export ask it.

Nothing here imports a game's rules until that game is played: start-up (and a config
check) then pays only for the game on screen.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

from companion.config import Validator, Validators
from companion.game import GameNight
from companion.messages import Message
from companion.rules import Rules

KINDS = ("evil", "castor", "bond", "tray", "pad", "clock")


_RULES: dict[str, Rules] = {}  # the games registered from outside this folder
_NIGHTS: dict[str, GameNight] = {}


def register(rules: Rules, night: GameNight) -> None:
    """A game whose package lives elsewhere (a plug-in, a test's toy game): its rules
    and what the game-night layer asks it, under `rules.kind`."""
    if night.kind != rules.kind:
        raise ValueError(f"rules for {rules.kind!r}, night for {night.kind!r}")
    _RULES[rules.kind] = rules
    _NIGHTS[rules.kind] = night


def unregister(kind: str) -> None:
    _RULES.pop(kind, None)
    _NIGHTS.pop(kind, None)


def rules_for(kind: str) -> Rules:
    if kind in _RULES:
        return _RULES[kind]
    if kind not in KINDS:
        raise KeyError(kind)
    return importlib.import_module(f"companion.games.{kind}.rules").RULES  # type: ignore[no-any-return]




def night_for(kind: str) -> GameNight:
    """What the game-night layer asks a game of this kind; a kind this version does not
    know gets the defaults (players, scores and winners from its summary)."""
    if kind not in _NIGHTS:
        if kind in KINDS:
            module = importlib.import_module(f"companion.games.{kind}.night")
            _NIGHTS[kind] = module.NIGHT
        else:
            return GameNight(kind)
    return _NIGHTS[kind]


def lazy_names(package: str, names: Mapping[str, str]) -> Callable[[str], Any]:
    """A game package's `__getattr__`: each name is imported from its module when first
    used, so the config check and the home screen never load a game's rules."""

    def getattr_(name: str) -> Any:
        if name in names:
            return getattr(importlib.import_module(names[name]), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return getattr_


def _validator(kind: str) -> Validator:
    def validate(section: Mapping[str, Any]) -> list[tuple[str, Message]]:
        params = importlib.import_module(f"companion.games.{kind}.params")
        return params.validate_config(section)  # type: ignore[no-any-return]

    return validate


#: each game's section check, to hand to `companion.config.load`
VALIDATORS: Validators = {f"games.{kind}": _validator(kind) for kind in KINDS}
