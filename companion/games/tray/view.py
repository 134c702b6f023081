"""What the dice tray screen shows, computed from the state (pure)."""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.tray.params import TrayParams
from companion.games.tray.state import TrayState


@dataclass(frozen=True)
class DieView:
    """A die as the tray screen shows it: label, face showing, locked or not."""

    index: int
    kind: str
    label: str
    face: str | None  # None before its first roll
    locked: bool


@dataclass(frozen=True)
class RollView:
    """A past roll as the history shows it, with its total when every die is numbered."""

    number: int
    faces: tuple[str, ...]
    kinds: tuple[str, ...]
    rolled: tuple[bool, ...]
    total: int | None


@dataclass(frozen=True)
class Distribution:
    """How often each face of one kind of die came up this session."""

    kind: str
    label: str
    faces: tuple[str, ...]
    counts: tuple[int, ...]  # how many times each face came up this session

    @property
    def rolls(self) -> int:
        return sum(self.counts)


@dataclass(frozen=True)
class TrayView:
    """Everything the tray screen shows: dice, total, history and face counts."""

    offered: tuple[str, ...]  # dice that can be added
    dice: tuple[DieView, ...]
    total: int | None  # sum of the faces showing, when every die is numbered and rolled
    can_roll: bool
    history: tuple[RollView, ...]  # newest first
    distribution: tuple[Distribution, ...]


def _faces(params: TrayParams, kind: str) -> tuple[str, ...]:
    return params.faces(kind) or ()


def tray_view(state: TrayState) -> TrayView:
    p = state.params
    dice = tuple(DieView(i, d.kind, p.label(d.kind),
                         None if d.face is None else _faces(p, d.kind)[d.face], d.locked)
                 for i, d in enumerate(state.dice))
    numeric = bool(dice) and all(TrayParams.numeric(d.kind) and d.face for d in dice)
    total = sum(int(d.face or 0) for d in dice) if numeric else None
    history = []
    for record in reversed(state.recent):
        faces = tuple(_faces(p, k)[f] for k, f in zip(record.kinds, record.faces, strict=True))
        numbered = all(TrayParams.numeric(k) for k in record.kinds)
        history.append(RollView(record.number, faces, record.kinds, record.rolled,
                                sum(int(f) for f in faces) if numbered else None))
    distribution = tuple(Distribution(kind, p.label(kind), _faces(p, kind), counts)
                         for kind, counts in state.counts)
    can_roll = not state.closed and any(not d.locked for d in state.dice)
    return TrayView(p.kinds, dice, total, can_roll, tuple(history), distribution)
