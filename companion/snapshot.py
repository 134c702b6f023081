"""A game's state as plain JSON, for the journal's snapshots.

Resuming a long game replays only the actions after its latest snapshot. A snapshot is
trusted only if it was written in the same shape as the state this code builds: its
`version` names the codec and a fingerprint of every record class the state can hold
(their field names and types), so a game whose state gains, loses or retypes a field
ignores its old snapshots and replays the whole journal instead.

The encoding says which record each object is (`{"!": "Treasure", ...}`), keeps tuples
as lists and mappings as pairs, and decodes only into the record classes reachable
from the state's own type: a snapshot read from a restored backup builds nothing else.

A snapshot is derived data, never trusted more than the journal it was taken from:
- the journal stores it sealed (`seal`): a checksum of the game, `seq`, `done`, the
  version and the state together, so a flipped bit in any column of the row, or a
  row copied from another game or another point of the game, is told (`unseal`);
- `decode` is led by the records' own annotations: every field must hold a value of
  its declared type (an `int` where an `int` is declared, a tuple of `Treasure` where
  one is...), so what it builds is as deep as the state's type and no deeper, and a
  text nested 100 000 levels deep is refused by the JSON reader (`RecursionError`)
  or by the type, never by a crash.
Whatever does not fit raises `SnapshotError`: the resume passes the snapshot over.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import json
import types
import typing
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

#: the codec below; bump when it changes (2: sealed, decoded by the fields' types)
FORMAT = 2
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


#: how deep a state may nest (its records are bounded by their types, but for a record
#: holding its own kind and an `Any` field)
MAX_DEPTH = 64


@cache
def _field_names(cls: type) -> tuple[str, ...] | None:
    """A record's field names, or None for a type that is not a record."""
    if not dataclasses.is_dataclass(cls):
        return None
    return tuple(f.name for f in dataclasses.fields(cls))


def plain(value: Any) -> Any:
    """The format's plain form of `value`: records as `{"!": name, field: ...}`, tuples
    and lists as lists, mappings as `{"!map": [[key, value], ...]}`, the rest as it is
    (`json.dumps` writes it, or refuses it)."""
    kind = type(value)
    if kind is str or kind is int or kind is float or kind is bool or value is None:
        return value
    names = _field_names(kind)
    if names is not None:
        made = {_TYPE: kind.__qualname__}
        for name in names:
            made[name] = plain(getattr(value, name))
        return made
    if isinstance(value, (tuple, list)):
        return [plain(item) for item in value]
    if isinstance(value, Mapping):
        return {_MAP: [[plain(key), plain(item)] for key, item in value.items()]}
    return value


def encode(state: Any) -> str:
    """The state as compact JSON: `json.dumps` of its plain form (`plain`). Encoded by
    the journal's writer thread, never in an action: a state is immutable, so the
    writer reads it while the table plays on."""
    try:
        return json.dumps(plain(state), ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError) as exc:
        raise SnapshotError(f"cannot encode: {str(exc)[:80]}") from exc


def decode(root: type, text: str) -> Any:
    """The state a snapshot holds; SnapshotError if it does not fit `root`'s records,
    each field checked against its declared type."""
    build = _decoder(root)
    try:
        plain = json.loads(text)
    except (ValueError, TypeError, RecursionError) as exc:
        raise SnapshotError(f"not JSON: {str(exc)[:60]}") from exc
    try:
        return build(plain, 0)
    except RecursionError as exc:  # only an `Any` field nests without a type's bound
        raise SnapshotError("nested too deep") from exc
    except (TypeError, KeyError, AttributeError, ValueError) as exc:
        if isinstance(exc, SnapshotError):
            raise
        raise SnapshotError(f"{type(exc).__name__}: {str(exc)[:60]}") from exc


# -- decoding, led by the records' annotations -------------------------------------------------
Build = Callable[[Any, int], Any]


@cache
def _decoder(root: type) -> Build:
    """A function building a `root` from its plain JSON form, checking every value
    against the type its field declares; compiled once per state type."""
    records = _records(root)
    fields: dict[type, list[tuple[str, Build]]] = {}

    def record(cls: type) -> Build:
        name = cls.__qualname__
        if cls not in fields:
            fields[cls] = []  # set before the fields: a record may hold its own kind
            hints = typing.get_type_hints(cls)
            fields[cls].extend((f.name, compile_hint(hints[f.name]))
                               for f in dataclasses.fields(cls))
        keys = {_TYPE, *(f.name for f in dataclasses.fields(cls))}
        own = fields[cls]

        def build(value: Any, depth: int) -> Any:
            if depth > MAX_DEPTH:  # a record holding its own kind (an EvilState's
                raise SnapshotError("nested too deep")  # state before the roll)
            if not isinstance(value, dict) or value.get(_TYPE) != name:
                raise SnapshotError(f"not a {name}")
            if value.keys() != keys:
                raise SnapshotError(f"{name}: fields differ")
            # the records are plain values: set them as they were, without __init__
            made = object.__new__(cls)
            for field_name, field_build in own:
                object.__setattr__(made, field_name, field_build(value[field_name], depth + 1))
            return made

        return build

    def compile_hint(hint: Any) -> Build:
        if hint is Any:
            return lambda value, depth: _any(records, value, depth)
        if dataclasses.is_dataclass(hint) and isinstance(hint, type):
            return record(hint)
        if hint is type(None) or hint is None:
            return _exactly(None)
        if hint in _SCALARS:
            return _scalar(hint)
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if origin in (typing.Union, types.UnionType):
            return _union([compile_hint(a) for a in args])
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                return _tuple_of(compile_hint(args[0]))
            return _fixed_tuple([compile_hint(a) for a in args])
        if origin in (dict, Mapping, collections.abc.Mapping):
            key, item = (compile_hint(a) for a in args) if args else (_any_of, _any_of)
            return _mapping(key, item)
        if origin is typing.Literal:
            return _one_of(args)
        raise SnapshotError(f"cannot check a field of type {hint!r}")

    def _any_of(value: Any, depth: int) -> Any:
        return _any(records, value, depth)

    build = compile_hint(root)

    def top(value: Any, depth: int) -> Any:
        state = build(value, depth)
        if type(state) is not root:
            raise SnapshotError(f"not a {root.__qualname__}")
        return state

    return top


_SCALARS = (bool, int, float, str)


def _scalar(kind: type) -> Build:
    def build(value: Any, depth: int) -> Any:
        # bool is an int to Python, never to a field declared int; an int is a float
        if isinstance(value, bool) != (kind is bool) or not isinstance(
                value, (int, float) if kind is float else kind):
            raise SnapshotError(f"not {kind.__name__}: {str(value)[:20]}")
        return value

    return build


def _exactly(expected: Any) -> Build:
    def build(value: Any, depth: int) -> Any:
        if value is not expected:
            raise SnapshotError(f"not {expected!r}")
        return value

    return build


def _one_of(allowed: tuple[Any, ...]) -> Build:
    def build(value: Any, depth: int) -> Any:
        if not any(value == a and type(value) is type(a) for a in allowed):
            raise SnapshotError(f"not one of {allowed!r}")
        return value

    return build


def _union(options: list[Build]) -> Build:
    def build(value: Any, depth: int) -> Any:
        for option in options:
            try:
                return option(value, depth)
            except SnapshotError:
                continue
        raise SnapshotError(f"no type fits {str(value)[:20]}")

    return build


def _tuple_of(item: Build) -> Build:
    def build(value: Any, depth: int) -> Any:
        if not isinstance(value, list):
            raise SnapshotError("not a list")
        return tuple(item(v, depth + 1) for v in value)

    return build


def _fixed_tuple(items: list[Build]) -> Build:
    def build(value: Any, depth: int) -> Any:
        if not isinstance(value, list) or len(value) != len(items):
            raise SnapshotError(f"not a list of {len(items)}")
        return tuple(b(v, depth + 1) for b, v in zip(items, value, strict=True))

    return build


def _mapping(key: Build, item: Build) -> Build:
    def build(value: Any, depth: int) -> Any:
        pairs = value.get(_MAP) if isinstance(value, dict) and len(value) == 1 else None
        if not isinstance(pairs, list) or not all(
                isinstance(p, list) and len(p) == 2 for p in pairs):
            raise SnapshotError("not a mapping")
        try:
            return {key(k, depth + 1): item(v, depth + 1) for k, v in pairs}
        except TypeError as exc:  # a key that cannot be hashed
            raise SnapshotError(str(exc)) from exc

    return build


def _any(records: dict[str, type], value: Any, depth: int) -> Any:
    """A field declared `Any`: lists, mappings, plain values and the state's records
    (their own fields checked), no deeper than MAX_DEPTH."""
    if depth > MAX_DEPTH:
        raise SnapshotError("nested too deep")
    if isinstance(value, list):
        return tuple(_any(records, v, depth + 1) for v in value)
    if isinstance(value, dict):
        if _MAP in value:
            return _mapping(lambda k, d: _any(records, k, d),
                            lambda v, d: _any(records, v, d))(value, depth)
        cls = records.get(value.get(_TYPE))  # type: ignore[arg-type]
        if cls is None:
            raise SnapshotError(f"unknown record {str(value.get(_TYPE))[:40]!r}")
        return _decoder(cls)(value, depth)
    return value


# -- the seal: the row's columns checked together ----------------------------------------------
_SEAL = 16  # hex digits of the checksum, then a colon, then the state's JSON


def _digest(game_id: int, seq: int, done: int, version_: str, text: str) -> str:
    import hashlib  # here: a start that finds no snapshot loads no hashing for it

    head = f"{game_id}|{seq}|{done}|{version_}|".encode()
    return hashlib.blake2b(head + text.encode(), digest_size=_SEAL // 2).hexdigest()


def seal(game_id: int, seq: int, done: int, version_: str, text: str) -> str:
    """The `state` column as the journal stores it: a checksum of the whole row first."""
    return f"{_digest(game_id, seq, done, version_, text)}:{text}"


def unseal(game_id: int, seq: int, done: int, version_: str, stored: str) -> str:
    """The state's JSON out of a stored `state` column; SnapshotError when the checksum
    does not match the row (any column changed since it was written)."""
    if len(stored) <= _SEAL or stored[_SEAL] != ":":
        raise SnapshotError("not sealed")
    text = stored[_SEAL + 1:]
    try:
        expected = _digest(game_id, seq, done, version_, text)
    except UnicodeEncodeError as exc:  # a lone surrogate: not what was written
        raise SnapshotError("not text") from exc
    if stored[:_SEAL] != expected:
        raise SnapshotError("checksum differs: the row changed since it was written")
    return text
