"""Messages for the table: a translation key and its parameters, translated by the UI.

The domain never builds user-facing text itself; it returns `Message` values so that
the same rule error or instruction can be shown in French or English.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Message:
    """A translatable text: its catalog key and the values to fill in."""

    key: str
    params: dict[str, Any] = field(default_factory=dict, compare=True, hash=False)

    def __repr__(self) -> str:
        return f"Message({self.key!r}, {self.params!r})"


def msg(key: str, /, **params: Any) -> Message:
    return Message(key, params)


class CompanionError(Exception):
    """An error meant for the people at the table: carries a translatable message."""

    def __init__(self, key: str, /, **params: Any) -> None:
        self.message = Message(key, params)
        super().__init__(f"{key} {params}" if params else key)


class RuleError(CompanionError):
    """A command the rules refuse (bad input, wrong moment). Nothing changes."""
