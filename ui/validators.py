"""The configuration's section checks, gathered where every layer is known (the app and
its commands): each game's from `companion.games`, the hardware's from `hardware`. The
configuration imports none of them; it is handed these."""

from __future__ import annotations

from companion.config import Validators


def section_validators() -> Validators:
    import hardware
    from companion.games import VALIDATORS

    return {**VALIDATORS, **hardware.VALIDATORS}
