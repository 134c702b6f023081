"""Pr. Evil et la Citadelle du Temps: the three dice and the central clock."""

import importlib
from typing import Any

KIND = "evil"

__all__ = ["KIND", "RULES", "EvilParams", "EvilRules", "validate_config"]

_LAZY = {
    "EvilParams": "companion.games.evil.params",
    "validate_config": "companion.games.evil.params",
    "RULES": "companion.games.evil.rules",
    "EvilRules": "companion.games.evil.rules",
}


def __getattr__(name: str) -> Any:
    # the rules load on first use, so the config check and the home screen never pay
    # for a game nobody is playing
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
