"""The translation layer: every user-facing string goes through `Translator`.

Catalogs are gettext's, one per language and domain: the source
`companion/locales/<language>/LC_MESSAGES/<domain>.po` and the `.mo` that
`make catalogs` compiles from it (committed, so a clone runs as is; `companion/catalogs.py`
checks and compiles them with Babel). The msgids are symbolic keys prefixed with their
domain (`evil.po`: `evil.roll`), so each game keeps its own catalog. English has its own
catalogs and stands behind every other language for a key it lacks; a key no catalog
has is shown as is (the catalog tests and the screen audit catch it).

A text that depends on a number is a plural entry, chosen by the parameter `n` through
gettext's `ngettext` and the catalog's `Plural-Forms` (Babel's translation of CLDR's
rule: English one/other, French one/many/other, where 0 and 1 are one):

    msgid "night.ui.medals_short"
    msgid_plural "night.ui.medals_short"
    msgstr[0] "({n} médaille)"
    msgstr[1] "({n} de médailles)"
    msgstr[2] "({n} médailles)"

Without a whole number `n` the last form (CLDR's `other`) is shown. Dates and times are
written by Babel in the language's own way (`Translator.when`).
"""

from __future__ import annotations

import datetime
import functools
import gettext
import re
import unicodedata
from pathlib import Path
from typing import Any

from companion.files import NotRegularFile, open_regular
from companion.messages import Message
from companion.names import NAME_MAX, display_name, tidy_text

LOCALES_DIR = Path(__file__).with_name("locales")
LANGUAGES = ("en", "fr")
FALLBACK = "en"


def mo_path(language: str, domain: str, locales_dir: Path = LOCALES_DIR) -> Path:
    return locales_dir / language / "LC_MESSAGES" / f"{domain}.mo"


def domains(language: str, locales_dir: Path = LOCALES_DIR) -> list[str]:
    return sorted(p.stem for p in (locales_dir / language / "LC_MESSAGES").glob("*.mo"))


@functools.lru_cache(maxsize=128)
def _translations(language: str, domain: str,
                  locales_dir: Path) -> gettext.NullTranslations:
    """A domain's compiled catalog, with English's behind it; read once per process."""
    try:  # only a regular file: a named pipe in its place must not hang the app
        with open_regular(mo_path(language, domain, locales_dir)) as handle:
            found: gettext.NullTranslations = gettext.GNUTranslations(handle)
    except (FileNotFoundError, NotRegularFile):  # the keys (or English) show instead
        found = gettext.NullTranslations()
    if language != FALLBACK:
        found.add_fallback(_translations(FALLBACK, domain, locales_dir))
    return found


@functools.lru_cache(maxsize=128)
def _other(translations: gettext.NullTranslations) -> int:
    """A number that chooses a catalog's last plural form, CLDR's `other` (Babel writes
    it last): what a text is given when its count is missing."""
    header = translations.info().get("plural-forms", "")
    found = re.search(r"nplurals\s*=\s*(\d+)", header)
    last = int(found.group(1)) - 1 if found else 1
    plural = getattr(translations, "plural", lambda n: int(n != 1))
    return next((n for n in range(2, 1000) if plural(n) == last), 2)


def _entries(translations: gettext.NullTranslations) -> dict[str, str]:
    """A compiled catalog's own keys -> text, a plural entry's text being its last form
    (`other`). gettext keeps them in `_catalog`: key -> text, (key, form) -> text."""
    out: dict[str, str] = {}
    last: dict[str, int] = {}
    for key, text in getattr(translations, "_catalog", {}).items():
        if isinstance(key, tuple):
            name, form = key
            if form >= last.get(name, -1):
                last[name], out[name] = form, text
        elif key:  # "" is the header
            out[key] = text
    return out


def load_domain(language: str, domain: str, locales_dir: Path = LOCALES_DIR) -> dict[str, str]:
    """One domain's keys in a language, English not included (the copy is the caller's)."""
    return _entries(_translations(language, domain, locales_dir))


def load_catalog(language: str, locales_dir: Path = LOCALES_DIR) -> dict[str, str]:
    """A language's whole catalog, every domain (the copy is the caller's)."""
    catalog: dict[str, str] = {}
    for domain in domains(language, locales_dir):
        catalog.update(load_domain(language, domain, locales_dir))
    return catalog


@functools.lru_cache(maxsize=8)
def _locale(language: str) -> Any:
    from babel import Locale  # Babel's data is read when a date needs it

    return Locale.parse(language)


def _count(value: Any) -> int | None:
    """The whole number a plural is chosen by (its size: -1 point like 1 point)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float) and not value.is_integer():
        return None
    return abs(int(value))


#: parameters that hold a player's name, or names joined: an older game's may be of any
#: length and hold control or bidi characters (`companion.names`); shown tidied
@functools.lru_cache(maxsize=1)
def _placeholder_pattern() -> re.Pattern[str]:
    """The names the setup screens give a seat nobody named ("Player 2", "Joueur 3"),
    in every language the app speaks: such a seat is a guest, not a roster player."""
    forms = []
    for language in LANGUAGES:
        template = load_domain(language, "core").get("core.ui.player_n", "")
        if "{n}" in template:
            head, _, tail = template.partition("{n}")
            forms.append(re.escape(head.strip()) + r"\s*\d+\s*" + re.escape(tail.strip()))
    return re.compile("^(?:" + "|".join(forms or ["(?!)"]) + ")$", re.IGNORECASE)


def is_placeholder(name: str) -> bool:
    """True for a seat name the app made up ("Player 1"), not one a person typed."""
    return bool(_placeholder_pattern().match(" ".join(str(name).split())))


def placeholder_number(name: str) -> int | None:
    """The seat number a placeholder name carries ("Player 3" -> 3), None for a name."""
    if not is_placeholder(name):
        return None
    digits = re.search(r"\d+", str(name))
    return int(digits.group()) if digits else None


#: the French words that elide before a vowel or a mute h: "d'Hélène", "qu'Anne"
_ELIDED = re.compile(r"(?<![\w'])(de|que|le|ne|jusque) \{(\w+)\}", re.IGNORECASE)
#: a name's first letter that takes the elision (a y before a vowel is a consonant:
#: "de Yannick"; a name's h is taken as mute: "d'Hugo")
_VOWELS = frozenset("aeiouh")


def _elides(value: Any) -> bool:
    text = str(value) if isinstance(value, str) else ""
    if not text or not text[0].isalpha():  # "de 8", "le 11": said as they are
        return False
    base = unicodedata.normalize("NFD", text[0])[0].lower()
    return base in _VOWELS or (base == "y" and len(text) > 1 and text[1].lower() not in
                               "aeiouéèê")


def elide(template: str, values: dict[str, Any]) -> str:
    """A French template with "de {player}" made "d'{player}" where the value shown
    begins with a vowel or a mute h ("d'Hélène"): the one place every name after "de",
    "que" or "le" is elided."""
    def replace(match: re.Match[str]) -> str:
        word, key = match.group(1), match.group(2)
        if not _elides(values.get(key)):
            return match.group(0)
        return f"{word[:-1]}'{{{key}}}"
    return _ELIDED.sub(replace, template)


#: typography: a space before : ; ? ! » (French's, after « too) and between a number
#: and its unit is a no-break space, so that no line starts with ": finir" or "s"
_BEFORE_MARK = re.compile(r" ([:;?!»])")
_AFTER_QUOTE = re.compile(r"« ")
_UNIT = re.compile(r"(\d) (s|min|h|ms|%)(?=$|[\s,.;:)·/])")


def no_break(text: str) -> str:
    """A text as it is drawn: its typographic spaces made no-break (U+00A0), so that a
    line is wrapped between words, never before a colon or a unit. The screens draw
    every label through it (`ui.widgets.kept_texture`); the text kept is unchanged."""
    if " " not in text:
        return text
    text = _BEFORE_MARK.sub("\u00a0\\1", text)
    text = _AFTER_QUOTE.sub("«\u00a0", text)
    return _UNIT.sub("\\1\u00a0\\2", text)


NAMES_KEPT = 256  # names `Translator.name` keeps said
NAME_PARAMS = frozenset({"player", "winner", "leader"})
JOINED_PARAMS = frozenset({"players", "names", "who"})
_JOINED_MAX = 8 * (NAME_MAX + 2)  # characters of names joined ("Ann, Bob, ...")


def shown(key: str, value: Any, guest: Any = None) -> Any:
    """A name parameter as a message shows it (`companion.names.display_name`), names
    joined tidied and bounded; with `guest` (n -> the language's "Player n"), a seat
    nobody named said in that language, whatever the set-up's was."""
    if not isinstance(value, str):
        return value
    if key in NAME_PARAMS:
        number = placeholder_number(value) if guest is not None else None
        return display_name(value) if number is None else guest(number)
    if key in JOINED_PARAMS and not (len(value) <= _JOINED_MAX and value.isprintable()):
        return tidy_text(value, _JOINED_MAX)
    if key in JOINED_PARAMS and guest is not None:  # one name alone too ("waiting for
        # Player 2")
        return ", ".join(shown("player", part, guest) for part in value.split(", "))
    return value


class Translator:
    """Reads a domain's catalog the first time one of its keys is asked for: a start
    reads the app's and the game's, not every game's."""

    def __init__(self, language: str = FALLBACK, locales_dir: Path = LOCALES_DIR) -> None:
        if language not in LANGUAGES:
            language = FALLBACK
        self.language = language
        self.locales_dir = locales_dir
        #: each name as `name` says it: a sheet asks for eight players' at each action
        self._names: dict[str, str] = {}

    def _text(self, key: str, n: int | None) -> str | None:
        """The key's text in the language, else in English: the plural form `n` asks
        for (the last form without `n`), or the plain text; None if no catalog has it."""
        translations = _translations(self.language, key.partition(".")[0], self.locales_dir)
        text = translations.ngettext(key, key, _other(translations) if n is None else n)
        if text == key:  # no plural entry: a plain text
            text = translations.gettext(key)
        return None if text == key else text

    def has(self, key: str) -> bool:
        return self._text(key, None) is not None

    def when(self, timestamp: float) -> str:
        """A date and time (the device's local time) as the language writes them:
        "Nov 26, 2026 8:05 PM", "26 nov. 2026 20:05"."""
        from babel.dates import format_date, format_time

        moment = datetime.datetime.fromtimestamp(timestamp)
        locale = _locale(self.language)
        return f"{format_date(moment, 'medium', locale=locale)} " \
               f"{format_time(moment, 'short', locale=locale)}"

    def prepare_dates(self) -> None:
        """Load Babel and the language's date formats now (tens of ms the first time):
        a worker thread calls this, so that the first date a screen shows costs a frame
        nothing."""
        self.when(0)

    def __call__(self, key: str, /, **params: Any) -> str:
        template = self._text(key, _count(params.get("n")))
        if template is None:
            return key  # visible, and caught by the catalog tests
        resolved = {k: shown(k, self.resolve(v), self.guest) for k, v in params.items()}
        if self.language == "fr":
            template = elide(template, resolved)
        try:
            return template.format(**resolved)
        except (KeyError, IndexError, ValueError):
            return template

    def guest(self, n: int) -> str:
        """A seat nobody named, in this language ("Joueur 3")."""
        return self("core.ui.player_n", n=n)

    def name(self, name: str) -> str:
        """A player's name as a screen shows it (`companion.names.display_name`), a
        guest's in this language: "Player 3" of a game set up in English is "Joueur 3"
        once the screen speaks French (issue 29: a guest has one name everywhere)."""
        if not isinstance(name, str):  # (a damaged set-up's): said, not kept
            return self._say_name(name)
        found = self._names.get(name)
        if found is None:
            found = self._say_name(name)
            if len(self._names) >= NAMES_KEPT:  # a night's names are a few dozen
                self._names.clear()
            self._names[name] = found
        return found

    def _say_name(self, name: Any) -> str:
        number = placeholder_number(name)
        return display_name(name) if number is None else self.guest(number)

    def resolve(self, value: Any) -> Any:
        """Translate a parameter that is itself a message."""
        if isinstance(value, Message):
            return self.message(value)
        return value

    def message(self, message: Message) -> str:
        return self(message.key, **message.params)
