"""The translation layer: every user-facing string goes through `Translator`.

Catalogs are YAML files in `companion/locales/<language>/<domain>.yaml`; the keys of a
file are prefixed with its domain (`evil.yaml`: `roll` -> `evil.roll`), so each game
keeps its own catalog. English is the fallback for a missing key.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from companion.messages import Message

LOCALES_DIR = Path(__file__).with_name("locales")
LANGUAGES = ("en", "fr")
FALLBACK = "en"


def _flatten(prefix: str, data: Mapping[str, Any], out: dict[str, str]) -> None:
    for key, value in data.items():
        full = f"{prefix}.{key}"
        if isinstance(value, Mapping):
            _flatten(full, value, out)
        else:
            out[full] = str(value)


# libyaml's parser where PyYAML was built with it: ~15x faster on the catalogs, which
# matters for the start time on a Pi
YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@functools.lru_cache(maxsize=8)
def _load_catalog(language: str, locales_dir: Path) -> dict[str, str]:
    catalog: dict[str, str] = {}
    for path in sorted((locales_dir / language).glob("*.yaml")):
        with path.open(encoding="utf-8") as handle:
            data = yaml.load(handle, Loader=YAML_LOADER) or {}  # a safe loader
        _flatten(path.stem, data, catalog)
    return catalog


def load_catalog(language: str, locales_dir: Path = LOCALES_DIR) -> dict[str, str]:
    """A language's catalog (read once per process; the copy is the caller's)."""
    return dict(_load_catalog(language, locales_dir))


class Translator:
    def __init__(self, language: str = FALLBACK, locales_dir: Path = LOCALES_DIR) -> None:
        if language not in LANGUAGES:
            language = FALLBACK
        self.language = language
        self._catalog = load_catalog(language, locales_dir)
        self._fallback = (
            self._catalog if language == FALLBACK else load_catalog(FALLBACK, locales_dir)
        )

    def has(self, key: str) -> bool:
        return key in self._catalog or key in self._fallback

    def __call__(self, key: str, /, **params: Any) -> str:
        template = self._catalog.get(key) or self._fallback.get(key)
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
