"""The gettext catalogs' sources, checked and compiled with Babel (`make catalogs`).

Each language has one `.po` per domain, `companion/locales/<lang>/LC_MESSAGES/<domain>.po`;
`python -m companion.catalogs` checks every one and compiles it to the `.mo` beside it,
which is what the app reads (`companion/i18n.py`). The `.mo` are committed, so a fresh
clone runs without this step; a test fails when one differs from its `.po`.

A plural entry has the key as both msgid and msgid_plural, and one msgstr per plural form
of the language, in the order of the catalog's `Plural-Forms` header. The header is
Babel's translation of the language's CLDR plural rule (English one/other, French
one/many/other), not the older gettext table Babel's `Catalog` would otherwise use
(French one/other there). Only the app and the tests import this module (Babel's
message tools are not needed to show a text).
"""

from __future__ import annotations

import gettext
import io
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from babel.plural import to_gettext

from companion.i18n import LOCALES_DIR

PROJECT = "Table Companion"

# numbers enough to meet every plural category of the app's languages (French `many`
# starts at a million)
SAMPLES = (*range(0, 1001), *(10**k for k in range(3, 10)), 2_000_000, 1_000_001)


def plural_forms(language: str) -> str:
    """The `Plural-Forms` header of a language, from its CLDR rule. Babel writes the
    rule with CLDR's operands; for the whole numbers gettext counts with, the exponent
    `e` is 0 (gettext knows only `n`)."""
    rule = to_gettext(Locale.parse(language).plural_form)
    return re.sub(r"\be\b", "0", rule)


def new_catalog(language: str, domain: str, header: str = "") -> Catalog:
    """An empty catalog of a domain, with the CLDR plural header."""
    catalog = Catalog(locale=language, domain=domain, project=PROJECT, version="0.1",
                      fuzzy=False, header_comment=header or f"# {PROJECT}: {domain}",
                      msgid_bugs_address="", last_translator=PROJECT, language_team=PROJECT)
    catalog.revision_date = catalog.creation_date
    catalog.mime_headers = [(name, plural_forms(language) if name == "Plural-Forms" else value)
                            for name, value in catalog.mime_headers]
    return catalog


def plural_indexes(catalog: Catalog) -> dict[str, int]:
    """CLDR category -> msgstr index, found by asking both Babel's rule and the
    catalog's own `Plural-Forms` expression the same numbers."""
    rule = Locale.parse(str(catalog.locale)).plural_form
    index = gettext.c2py(catalog.plural_expr)
    found: dict[str, set[int]] = {}
    for n in SAMPLES:
        found.setdefault(rule(n), set()).add(index(n))
    indexes = {category: min(seen) for category, seen in found.items()}
    if any(len(seen) > 1 for seen in found.values()) or \
            sorted(indexes.values()) != list(range(catalog.num_plurals)):
        raise ValueError(f"{catalog.locale}: Plural-Forms {catalog.plural_forms!r} does not "
                         f"follow CLDR's rule {rule.rules!r}")
    return indexes


def po_paths(locales_dir: Path = LOCALES_DIR) -> Iterator[Path]:
    yield from sorted(locales_dir.glob("*/LC_MESSAGES/*.po"))


def read(path: Path) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=path.parents[1].name, domain=path.stem)


def write(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        # no wrapping: one text, one line, easy to find and to edit
        write_po(handle, catalog, width=0, omit_header=False)


def plurals(catalog: Catalog) -> dict[str, dict[str, str]]:
    """The catalog's plural entries: key -> {category: text}."""
    categories = {i: c for c, i in plural_indexes(catalog).items()}
    return {str(m.id[0]): {categories[i]: str(text) for i, text in enumerate(m.string)}
            for m in catalog if m.id and m.pluralizable}


def problems(catalog: Catalog) -> list[str]:
    """What would show a raw key or a blank: a text left empty, a plural form
    missing, a plural entry whose two msgids differ, a fuzzy entry (not compiled)."""
    found = []
    for m in catalog:
        if not m.id:
            continue
        if m.fuzzy:
            found.append(f"{m.id[0] if m.pluralizable else m.id}: fuzzy")
        if not m.pluralizable:
            if not m.string:
                found.append(f"{m.id}: empty")
            continue
        key, key_plural = m.id
        if key != key_plural:
            found.append(f"{key}: msgid_plural {key_plural!r} is not the key")
        forms = tuple(m.string) + ("",) * (catalog.num_plurals - len(m.string))
        for i, text in enumerate(forms):
            if not text:
                found.append(f"{key}: msgstr[{i}] missing")
    return found


def compiled(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    return buffer.getvalue()


def main(locales_dir: Path = LOCALES_DIR) -> int:
    """Check and compile every catalog; refuses to compile one with problems."""
    failed = False
    for path in po_paths(locales_dir):
        catalog = read(path)
        found = problems(catalog)
        plural_indexes(catalog)
        if found:
            failed = True
            print(f"{path}:\n  " + "\n  ".join(found), file=sys.stderr)
            continue
        mo = path.with_suffix(".mo")
        data = compiled(catalog)
        if not mo.exists() or mo.read_bytes() != data:
            mo.write_bytes(data)
            print(f"compiled {mo}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
