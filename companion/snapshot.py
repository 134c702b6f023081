"""A game's state as plain JSON, for the journal's snapshots.

Resuming a long game replays only the actions after its latest snapshot. A snapshot is
trusted only if it was written in the same shape as the state this code builds: its
`version` names the codec and a fingerprint of every record class the state can hold
(their field names and types), so a game whose state gains, loses or retypes a field
ignores its old snapshots and replays the whole journal instead.

The encoding says which record each object is (`{"!": "Treasure", ...}`), keeps tuples
as lists and mappings as pairs, and decodes only into the record classes reachable
from the state's own type: a snapshot read from a restored backup builds nothing else.
"""

from __future__ import annotations

import dataclasses
import json
import typing
from collections.abc import Mapping
from functools import cache
from typing import Any

FORMAT = 1  # the codec below; bump when it changes
_TYPE = "!"
_MAP = "!map"


class SnapshotError(ValueError):
    """A snapshot that cannot be decoded into this code's state."""


@cache
def _records(root: type) -> dict[str, type]:
    """Every dataclass reachable from `root` through its fields' type hints, by name."""
    found: dict[str, type] = {}

    def visit(hint: Any) -> None:
        if dataclasses.is_dataclass(hint) and isinstance(hint, type):
            name = hint.__qualname__
            if found.get(name) is hint:
                return
            if name in found:
                raise SnapshotError(f"two record classes named {name}")
            found[name] = hint
            for field_type in typing.get_type_hints(hint).values():
                visit(field_type)
            return
        for arg in typing.get_args(hint):
            visit(arg)

    visit(root)
    return found


@cache
def version(root: type) -> str:
    """The codec's format and the shape of every record the state can hold."""
    import hashlib  # here: a start that finds no snapshot loads no OpenSSL for it

    shape = []
    for name, cls in sorted(_records(root).items()):
        hints = typing.get_type_hints(cls)
        fields = ",".join(f"{f.name}:{hints[f.name]!r}" for f in dataclasses.fields(cls))
        shape.append(f"{name}({fields})")
    digest = hashlib.sha256(";".join(shape).encode()).hexdigest()[:16]
    return f"{FORMAT}:{root.__qualname__}:{digest}"


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {_TYPE: type(value).__qualname__}
        for f in dataclasses.fields(value):
            out[f.name] = _plain(getattr(value, f.name))
        return out
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {_MAP: [[_plain(k), _plain(v)] for k, v in value.items()]}
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise SnapshotError(f"cannot encode {type(value).__name__}")


def encode(state: Any) -> str:
    return json.dumps(_plain(state), ensure_ascii=False, separators=(",", ":"))


def decode(root: type, text: str) -> Any:
    """The state a snapshot holds; SnapshotError if it does not fit `root`'s records."""
    records = _records(root)

    def build(value: Any) -> Any:
        if isinstance(value, list):
            return tuple(build(v) for v in value)
        if isinstance(value, dict):
            if _MAP in value:
                return {build(k): build(v) for k, v in value[_MAP]}
            cls = records.get(value.get(_TYPE))  # type: ignore[arg-type]
            if cls is None:
                raise SnapshotError(f"unknown record {value.get(_TYPE)!r}")
            names = [f.name for f in dataclasses.fields(cls)]
            if set(value) != {_TYPE, *names}:
                raise SnapshotError(f"{cls.__qualname__}: fields differ")
            # the records are plain values: set them as they were, without __init__
            record = object.__new__(cls)
            for name in names:
                object.__setattr__(record, name, build(value[name]))
            return record
        return value

    try:
        state = build(json.loads(text))
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise SnapshotError(str(exc)) from exc
    if type(state) is not root:
        raise SnapshotError(f"not a {root.__qualname__}")
    return state
