"""The `games.pad` config section: what belongs to the panel rather than to a sheet
(the sheets come from templates, `config/pad/*.yaml` and the table's own). `debounce`:
a keypad key tapped again within so many seconds is the same tap, counted once."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.messages import Message, msg

#: a second: beyond it a table's deliberate "11" would be lost
MAX_DEBOUNCE = 1.0
DEFAULT_DEBOUNCE = 0.1


def debounce(section: Mapping[str, Any] | None) -> float:
    """The section's debounce in seconds (the default when the section has none)."""
    value = (section or {}).get("debounce", DEFAULT_DEBOUNCE)
    return float(value) if _number(value) and 0 <= value <= MAX_DEBOUNCE \
        else DEFAULT_DEBOUNCE


def validate_config(section: Mapping[str, Any]) -> list[tuple[str, Message]]:
    """Problems in the meaning of `games.pad` (types were checked already)."""
    value = section.get("debounce", DEFAULT_DEBOUNCE)
    if not _number(value) or not 0 <= value <= MAX_DEBOUNCE:
        return [("debounce", msg("core.config.number_range", low=0, high=MAX_DEBOUNCE))]
    return []


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
