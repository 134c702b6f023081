"""The `games.pad` config section. The score pad takes its settings from its templates
(`config/pad/*.yaml` and the table's own), not from this section: it has no keys yet,
so the config's schema (an absent section) refuses any key set under it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.messages import Message


def validate_config(section: Mapping[str, Any]) -> list[tuple[str, Message]]:
    return []
