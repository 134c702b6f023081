"""`companion.config.load` handed every section's validator, as the app and
`companion check-config` hand them (ui/validators.py)."""

from __future__ import annotations

from typing import Any

from companion import config
from ui.validators import section_validators


def load(*args: Any, **kwargs: Any) -> config.Config:
    return config.load(*args, validators=section_validators(), **kwargs)
