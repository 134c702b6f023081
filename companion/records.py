"""Commands and events as plain, JSON-serialisable frozen dataclasses.

A game declares its command and event classes; `encode` turns one into a dict with a
`type` field and `decode` turns it back, so the journal stores plain JSON.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from companion.messages import RuleError

T = TypeVar("T")


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def encode(record: Any) -> dict[str, Any]:
    return {"type": type(record).__name__, **_plain(record)}


def registry(classes: Iterable[type[T]]) -> dict[str, type[T]]:
    return {cls.__name__: cls for cls in classes}


def decode(types: Mapping[str, type[T]], data: Mapping[str, Any]) -> T:
    fields = dict(data)
    name = fields.pop("type", None)
    cls = types.get(str(name))
    if cls is None:
        raise RuleError("core.error.unknown_command", name=str(name))
    known = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = set(fields) - set(known)
    if unknown:
        raise RuleError("core.error.bad_command", name=str(name), fields=", ".join(sorted(unknown)))
    # JSON has no tuples: restore them where the dataclass holds tuples.
    for key, value in fields.items():
        if isinstance(value, list):
            fields[key] = _tupled(value)
    try:
        return cls(**fields)
    except TypeError as exc:
        raise RuleError("core.error.bad_command", name=str(name), fields=str(exc)) from exc


def _tupled(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tupled(v) for v in value)
    return value
