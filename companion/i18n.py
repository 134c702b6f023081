"""The translation layer: every user-facing string goes through `Translator`.

Catalogs are YAML files in `companion/locales/<language>/<domain>.yaml`; the keys of a
file are prefixed with its domain (`evil.yaml`: `roll` -> `evil.roll`), so each game
keeps its own catalog. English is the fallback for a missing key.

A text that depends on a number is a mapping of CLDR plural categories (Babel's rules
for the language: English `one`/`other`, French `one`/`many`/`other`, where 0 and 1
are `one`), chosen by the parameter `n`, or by the one that `count:` names:

    medals_short:
      one: "({n} medal)"
      other: "({n} medals)"

Dates and times are written by Babel in the language's own way (`Translator.when`).
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from companion.messages import Message

LOCALES_DIR = Path(__file__).with_name("locales")
LANGUAGES = ("en", "fr")
FALLBACK = "en"


#: CLDR's plural categories; `count` names the parameter that chooses among them
PLURAL_CATEGORIES = frozenset({"zero", "one", "two", "few", "many", "other"})
PLURAL_COUNT = "count"


def is_plural(value: Any) -> bool:
    """A catalog entry that is a text per plural category (it must have `other`)."""
    return (isinstance(value, Mapping) and "other" in value
            and set(value) <= PLURAL_CATEGORIES | {PLURAL_COUNT})


def _flatten(prefix: str, data: Mapping[str, Any], out: dict[str, str],
             plurals: dict[str, dict[str, str]] | None = None) -> None:
    """Dotted keys -> text. A plural entry's key holds its `other` form (so every
    check on keys and placeholders sees it) and its forms go to `plurals`."""
    for key, value in data.items():
        full = f"{prefix}.{key}"
        if is_plural(value):
            out[full] = str(value["other"])
            if plurals is not None:
                plurals[full] = {str(k): str(v) for k, v in value.items()}
        elif isinstance(value, Mapping):
            _flatten(full, value, out, plurals)
        else:
            out[full] = str(value)


# libyaml's parser where PyYAML was built with it: ~15x faster on the catalogs, which
# matters for the start time on a Pi
YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@functools.lru_cache(maxsize=128)
def _load_full(language: str, domain: str,
               locales_dir: Path) -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    path = locales_dir / language / f"{domain}.yaml"
    catalog: dict[str, str] = {}
    plurals: dict[str, dict[str, str]] = {}
    try:
        with path.open(encoding="utf-8") as handle:
            data = yaml.load(handle, Loader=YAML_LOADER) or {}  # a safe loader
    except FileNotFoundError:
        return catalog, plurals
    _flatten(domain, data, catalog, plurals)
    return catalog, plurals


def _load_domain(language: str, domain: str, locales_dir: Path) -> dict[str, str]:
    return _load_full(language, domain, locales_dir)[0]


def load_plurals(language: str, domain: str,
                 locales_dir: Path = LOCALES_DIR) -> dict[str, dict[str, str]]:
    """A domain's plural entries: key -> {category: text} (and `count`, if set)."""
    return {k: dict(v) for k, v in _load_full(language, domain, locales_dir)[1].items()}


@functools.lru_cache(maxsize=8)
def _locale(language: str) -> Any:
    from babel import Locale  # Babel's data is read when a number or date needs it

    return Locale.parse(language)


def plural_category(language: str, n: int | float) -> str:
    """CLDR's category of `n` in the language ("one", "many", "other"...)."""
    return str(_locale(language).plural_form(abs(n)))


def load_domain(language: str, domain: str, locales_dir: Path = LOCALES_DIR) -> dict[str, str]:
    """One domain's keys in a language (read once per process; the copy is the caller's)."""
    return dict(_load_domain(language, domain, locales_dir))


def load_catalog(language: str, locales_dir: Path = LOCALES_DIR) -> dict[str, str]:
    """A language's whole catalog, every domain (the copy is the caller's)."""
    catalog: dict[str, str] = {}
    for path in sorted((locales_dir / language).glob("*.yaml")):
        catalog.update(_load_domain(language, path.stem, locales_dir))
    return catalog


class Translator:
    """Reads a domain's catalog the first time one of its keys is asked for: a start
    reads the app's and the game's, not every game's."""

    def __init__(self, language: str = FALLBACK, locales_dir: Path = LOCALES_DIR) -> None:
        if language not in LANGUAGES:
            language = FALLBACK
        self.language = language
        self.locales_dir = locales_dir

    def _template(self, key: str) -> str | None:
        domain = key.partition(".")[0]
        found = _load_domain(self.language, domain, self.locales_dir).get(key)
        if found or self.language == FALLBACK:
            return found
        return _load_domain(FALLBACK, domain, self.locales_dir).get(key)

    def has(self, key: str) -> bool:
        return self._template(key) is not None

    def _plural(self, key: str, params: Mapping[str, Any]) -> str | None:
        """The form of a plural entry that the count in `params` asks for."""
        domain = key.partition(".")[0]
        for language in dict.fromkeys((self.language, FALLBACK)):
            forms = _load_full(language, domain, self.locales_dir)[1].get(key)
            if forms is None:
                if _load_domain(language, domain, self.locales_dir).get(key):
                    return None  # a plain text in this language
                continue
            n = params.get(forms.get(PLURAL_COUNT, "n"))
            if not isinstance(n, (int, float)) or isinstance(n, bool):
                return forms["other"]
            return forms.get(plural_category(language, n), forms["other"])
        return None

    def when(self, timestamp: float) -> str:
        """A date and time (the device's local time) as the language writes them:
        "Nov 26, 2026 8:05 PM", "26 nov. 2026 20:05"."""
        from babel.dates import format_date, format_time

        moment = datetime.datetime.fromtimestamp(timestamp)
        locale = _locale(self.language)
        return f"{format_date(moment, 'medium', locale=locale)} " \
               f"{format_time(moment, 'short', locale=locale)}"

    def __call__(self, key: str, /, **params: Any) -> str:
        template = self._plural(key, params) or self._template(key)
        if template is None:
            return key  # visible, and caught by the catalog tests
        resolved = {k: self.resolve(v) for k, v in params.items()}
        try:
            return template.format(**resolved)
        except (KeyError, IndexError, ValueError):
            return template

    def resolve(self, value: Any) -> Any:
        """Translate a parameter that is itself a message."""
        if isinstance(value, Message):
            return self.message(value)
        return value

    def message(self, message: Message) -> str:
        return self(message.key, **message.params)
