"""The games the companion knows, by kind. Each game package offers:

- `RULES`: an object following `companion.rules.Rules`;
- `validate_config(section)`: problems in its `games.<kind>` config section.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from companion.config import register_validator
from companion.rules import Rules

KINDS = ("evil", "castor", "bond", "tray")


def _module(kind: str) -> ModuleType | None:
    name = f"companion.games.{kind}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name:
            return None  # not built yet
        raise


def available() -> list[str]:
    return [kind for kind in KINDS if _module(kind) is not None]


def rules_for(kind: str) -> Rules:
    module = _module(kind)
    if module is None:
        raise KeyError(kind)
    return module.RULES


for _kind in KINDS:
    _mod = _module(_kind)
    if _mod is not None and hasattr(_mod, "validate_config"):
        register_validator(f"games.{_kind}", _mod.validate_config)
