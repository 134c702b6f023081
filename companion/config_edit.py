"""Changing one value in the user's config file without losing what they wrote there.

PyYAML's dumper drops comments, and the file the installer writes is mostly comments.
So a setting saved from the screen edits the text in place: the value after its key is
replaced, or a missing key is added at the end of its section with the section's
indentation, and every other line stays as it was. What this cannot do safely (a
section written in flow style `{...}`, a section replaced by a single value) it
declines, and the caller rewrites the whole file instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import yaml

from companion.config import YAML_LOADER

INDENT = 2  # for sections this adds; existing ones keep theirs


def scalar(value: Any) -> str:
    """A value as YAML writes it in a document (quoted where a plain word would change
    meaning, as `'yes'` or `'3'`)."""
    listed = yaml.safe_dump([value], default_flow_style=True, allow_unicode=True, width=1 << 16)
    return listed.strip()[1:-1]


def set_value(text: str, path: tuple[str, ...], value: Any) -> str | None:
    """`text` with the key at `path` set to the scalar `value`; None when that cannot be
    done by editing the text (the caller then writes the file anew)."""
    if isinstance(value, (Mapping, list, tuple)) or not path:
        return None
    try:
        root = yaml.compose(text, Loader=YAML_LOADER)
    except yaml.YAMLError:
        return None
    if root is None:  # empty, or comments only: the keys go at the end
        return _append(text, len(text), 0, path, value)
    node = root
    for depth, part in enumerate(path):
        if not isinstance(node, yaml.MappingNode) or node.flow_style:
            return None
        found = [v for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == part]
        if len(found) != 1:
            if found or not node.value:
                return None
            indent = node.value[0][0].start_mark.column
            return _append(text, _line_end(text, node.value[-1][1].end_mark.index), indent,
                           path[depth:], value)
        node = found[0]
    if not isinstance(node, yaml.ScalarNode) or node.style in ("|", ">"):
        return None
    start, end = node.start_mark.index, node.end_mark.index
    return text[:start] + scalar(value) + text[end:]


def _line_end(text: str, index: int) -> int:
    """Just after the line holding `index` (its newline included)."""
    newline = text.find("\n", max(index - 1, 0))
    return len(text) if newline < 0 else newline + 1


def _append(text: str, at: int, indent: int, path: tuple[str, ...], value: Any) -> str:
    lines = [f"{' ' * (indent + INDENT * i)}{part}:" for i, part in enumerate(path)]
    lines[-1] += f" {scalar(value)}"
    before = text[:at]
    if before and not before.endswith("\n"):
        before += "\n"
    return before + "\n".join(lines) + "\n" + text[at:]


def set_values(text: str, changes: Mapping[str, Any]) -> str | None:
    """Every scalar of the nested `changes` set in `text`, or None (see `set_value`)."""
    for path, value in _leaves(changes, ()):
        edited = set_value(text, path, value)
        if edited is None:
            return None
        text = edited
    return text


def _leaves(node: Mapping[str, Any], prefix: tuple[str, ...]) -> list[tuple[tuple[str, ...],
                                                                          Any]]:
    found: list[tuple[tuple[str, ...], Any]] = []
    for key, value in node.items():
        if isinstance(value, Mapping) and value:
            found += _leaves(value, (*prefix, str(key)))
        else:
            found.append(((*prefix, str(key)), value))
    return found
