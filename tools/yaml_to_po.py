"""Carry the YAML catalogs of an older branch into the gettext catalogs (a merge aid).

The catalogs were YAML files, `companion/locales/<lang>/<domain>.yaml`, before they
became `.po`. A branch that still edits the YAML files gets its texts across with:

    git archive OTHER-BRANCH companion/locales | tar -x -C /tmp/other
    .venv/bin/python tools/yaml_to_po.py /tmp/other/companion/locales
    .venv/bin/python -m companion.catalogs      # `make catalogs`

A key the `.po` lacks is added after the key that precedes it in the YAML file; a text
that differs replaces the `.po`'s. A plural entry (a map of CLDR categories) becomes a
gettext plural; one counted by another parameter than `n` (`count: points`) is
written with `{n}`, and its call sites must then pass `n=`: the tool lists them. Keys
only in the `.po` are listed, never removed.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml
from babel.messages.catalog import Message

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion import catalogs
from companion.i18n import LOCALES_DIR

CATEGORIES = {"zero", "one", "two", "few", "many", "other"}


def flatten(prefix: str, data: Mapping[str, Any],
            out: dict[str, str | dict[str, str]]) -> None:
    for key, value in data.items():
        full = f"{prefix}.{key}"
        if isinstance(value, Mapping) and "other" in value and \
                set(value) <= CATEGORIES | {"count"}:
            out[full] = {str(k): str(v) for k, v in value.items()}
        elif isinstance(value, Mapping):
            flatten(full, value, out)
        else:
            out[full] = str(value)


def text_of(entry: str | dict[str, str], indexes: dict[str, int]) -> tuple[Any, str | None]:
    """The msgstr(s) of a YAML entry, and the count parameter it renamed to `n`."""
    if isinstance(entry, str):
        return entry, None
    forms = dict(entry)
    count = forms.pop("count", "n")
    strings = [""] * len(indexes)
    for category, i in indexes.items():
        text = forms.get(category, "")
        strings[i] = text.replace("{" + count + "}", "{n}") if count != "n" else text
    return tuple(strings), count if count != "n" else None


def merge(yaml_path: Path, po_path: Path) -> list[str]:
    domain, language = yaml_path.stem, yaml_path.parent.name
    entries: dict[str, str | dict[str, str]] = {}
    flatten(domain, yaml.safe_load(yaml_path.read_text(encoding="utf-8")) or {}, entries)
    old = catalogs.read(po_path) if po_path.exists() else catalogs.new_catalog(language, domain)
    indexes = catalogs.plural_indexes(old)
    order = [m for m in old if m.id]
    by_key = {(m.id[0] if m.pluralizable else m.id): m for m in order}
    notes, previous = [], None
    for key, entry in entries.items():
        string, renamed = text_of(entry, indexes)
        msgid = (key, key) if isinstance(string, tuple) else key
        known = by_key.get(key)
        if known is None:
            message = Message(msgid, string)
            at = order.index(by_key[previous]) + 1 if previous in by_key else len(order)
            order.insert(at, message)
            by_key[key] = message
            change = "added"
        elif known.id != msgid or known.string != string:
            known.id, known.string = msgid, string
            change = "text changed"
        else:
            change = ""
        if change and renamed:
            change += f" (counted by `{renamed}`, now `n`: its call sites must pass n=)"
        if change:
            notes.append(f"{key}: {change}")
        previous = key
    notes += [f"{key}: only in the .po (kept)" for key in by_key if key not in entries]
    out = catalogs.new_catalog(language, domain, old.header_comment)
    out.mime_headers = old.mime_headers
    for message in order:
        out[message.id] = message
    catalogs.write(out, po_path)
    return notes


def main(yaml_dir: Path) -> int:
    for yaml_path in sorted(yaml_dir.glob("*/*.yaml")):
        po_path = LOCALES_DIR / yaml_path.parent.name / "LC_MESSAGES" / f"{yaml_path.stem}.po"
        for note in merge(yaml_path, po_path):
            if not note.endswith("(kept)"):
                print(f"{yaml_path.parent.name}/{yaml_path.stem}: {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
