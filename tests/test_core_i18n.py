"""Every translation key the code uses exists in English and French, with the same
placeholders, and the two catalogs of each domain hold the same keys."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

from companion import catalogs, config
from companion.games.evil import EvilParams
from companion.games.evil.dice import DICE
from companion.i18n import LANGUAGES, LOCALES_DIR, Translator, load_catalog
from companion.messages import Message

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("companion", "ui", "hardware")
DOMAINS = sorted({p.stem for p in catalogs.po_paths()} | {"core", "evil"})
KEY = re.compile(rf"^(?:{'|'.join(DOMAINS)})(?:\.[a-z0-9_]+)+$")
NOT_KEYS = re.compile(r"\.(?:ya?ml|kv|py|png|ttf|json|txt|sqlite3|service|log|po|mo)$")
KV_STRING = re.compile(r"""(["'])((?:(?!\1).)+)\1""")


def source_files() -> list[Path]:
    files: list[Path] = []
    for folder in SOURCES:
        if (ROOT / folder).is_dir():  # the UI and hardware layers may not exist yet
            files += sorted((ROOT / folder).rglob("*.py")) + sorted((ROOT / folder).rglob("*.kv"))
    return files


def keys_in(path: Path) -> set[str]:
    """String literals shaped like translation keys (whole literals only: f-strings and
    file names are not keys)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".kv":
        literals = [m.group(2) for m in KV_STRING.finditer(text)]
    else:
        literals = [node.value for node in ast.walk(ast.parse(text))
                    if isinstance(node, ast.Constant) and isinstance(node.value, str)]
    return {s for s in literals
            if KEY.match(s) and not NOT_KEYS.search(s) and not is_module(s)
            and not s.endswith("_")}  # `"core.ui.led_" + name` builds a key: a prefix


def is_module(name: str) -> bool:
    """`hardware.doctor` names a module, not a message."""
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def placeholders(template: str) -> set[str]:
    return {field.split(".")[0].split("[")[0]
            for _, field, _, _ in string.Formatter().parse(template) if field is not None}


CATALOGS = {lang: load_catalog(lang) for lang in LANGUAGES}
USED = {path: keys_in(path) for path in source_files()}


def test_the_scan_finds_the_keys_it_should():
    every = set().union(*USED.values())
    assert {"core.error.nothing_to_undo", "evil.error.minutes", "evil.say.moves",
            "core.config.unknown_key", "evil.config.bad_face"} <= every
    assert not any(key.endswith(".yaml") for key in every)
    assert "hardware.doctor" not in every and "companion.games.evil" not in every


@pytest.mark.parametrize("path", sorted(USED), ids=lambda p: str(p.relative_to(ROOT)))
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_key_used_in_the_code_is_translated(path, language):
    missing = sorted(key for key in USED[path] if key not in CATALOGS[language])
    assert not missing, f"{path.relative_to(ROOT)}: missing in {language}: {missing}"


@pytest.mark.parametrize("domain", DOMAINS)
def test_english_and_french_have_the_same_keys(domain):
    keys = {lang: {k for k in CATALOGS[lang] if k.startswith(domain + ".")}
            for lang in LANGUAGES}
    assert keys["en"], f"no English catalog for {domain}"
    assert sorted(keys["en"] - keys["fr"]) == [], "missing in French"
    assert sorted(keys["fr"] - keys["en"]) == [], "missing in English"


@pytest.mark.parametrize("domain", DOMAINS)
def test_english_and_french_have_the_same_placeholders(domain):
    differ = {key: (placeholders(text), placeholders(CATALOGS["fr"][key]))
              for key, text in CATALOGS["en"].items()
              if key.startswith(domain + ".") and key in CATALOGS["fr"]
              and placeholders(text) != placeholders(CATALOGS["fr"][key])}
    assert differ == {}


@pytest.mark.parametrize("path", list(catalogs.po_paths()),
                         ids=lambda p: f"{p.parents[1].name}/{p.name}")
def test_every_catalog_is_complete_and_its_mo_is_compiled_from_it(path):
    """Nothing left empty or fuzzy, every plural form there, and the committed `.mo`
    (what the app reads) says what its `.po` says: `make catalogs` after an edit."""
    import gettext
    import io

    catalog = catalogs.read(path)
    assert catalogs.problems(catalog) == []
    fresh = gettext.GNUTranslations(io.BytesIO(catalogs.compiled(catalog)))
    with path.with_suffix(".mo").open("rb") as handle:
        committed = gettext.GNUTranslations(handle)
    # the texts, and the header's plural rule (the rest of the header names Babel's version)
    assert {k: v for k, v in committed._catalog.items() if k} == \
        {k: v for k, v in fresh._catalog.items() if k}, "run `make catalogs`"
    assert committed.info()["plural-forms"] == catalog.plural_forms


def test_keys_built_at_run_time_exist_for_the_default_game():
    params = EvilParams.from_config(config.load(use_default_user_file=False).get("games.evil"))
    needed = {f"evil.{group}.{colour}" for colour in params.colours
              for group in ("colour", "colour_upper", "letter")}
    needed |= {f"evil.face.{face}" for faces in params.dice[::2] for face in faces}
    needed |= {f"evil.die.{die}" for die in DICE}
    for language in LANGUAGES:
        assert sorted(needed - set(CATALOGS[language])) == [], language


@pytest.mark.parametrize("language", LANGUAGES)
def test_messages_translate_with_nested_messages(language):
    translate = Translator(language)
    text = translate.message(Message("evil.error.slot_empty",
                                     {"colour": Message("evil.colour.red", {})}))
    assert "{" not in text and CATALOGS[language]["evil.colour.red"] in text
    assert translate("no.such.key") == "no.such.key"


def test_an_unknown_language_falls_back_to_english():
    assert Translator("xx").language == "en"
    assert Translator("fr")("core.ui.undo") == CATALOGS["fr"]["core.ui.undo"]


def _write_catalog(root: Path, language: str, domain: str,
                   entries: dict[str, str | tuple[str, ...]]) -> Path:
    catalog = catalogs.new_catalog(language, domain)
    for key, text in entries.items():
        catalog.add((key, key) if isinstance(text, tuple) else key, text)
    path = root / language / "LC_MESSAGES" / f"{domain}.po"
    catalogs.write(catalog, path)
    return path


def test_a_translator_reads_only_the_domains_it_is_asked_for(tmp_path: Path) -> None:
    _write_catalog(tmp_path, "en", "core", {"core.hello": "Hello {name}", "core.bye": "Bye"})
    _write_catalog(tmp_path, "fr", "core", {"core.hello": "Salut {name}"})
    assert catalogs.main(tmp_path) == 0
    (tmp_path / "fr" / "LC_MESSAGES" / "game.mo").write_bytes(b"not a catalog")  # never read
    french = Translator("fr", tmp_path)
    assert french("core.hello", name="Ana") == "Salut Ana"
    assert french("core.bye") == "Bye"  # English fills a key French lacks
    assert french.has("core.bye") and not french.has("core.nothing")
    assert french("nodomain") == "nodomain"
    with pytest.raises(OSError):
        french("game.title")  # read the first time one of its keys is asked for


def test_a_missing_plural_form_is_refused(tmp_path: Path) -> None:
    """French needs three forms (one, many, other): a catalog giving two is not compiled,
    and the catalog test above fails on it."""
    path = _write_catalog(tmp_path, "fr", "core", {
        "core.cards": ("{n} carte", "{n} de cartes", "{n} cartes"),
        "core.dice": ("{n} dé", "", "{n} dés"),
        "core.left": ""})
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('msgstr[2] "{n} cartes"\n', ""), encoding="utf-8")
    assert catalogs.problems(catalogs.read(path)) == [
        "core.cards: msgstr[2] missing", "core.dice: msgstr[1] missing", "core.left: empty"]
    assert catalogs.main(tmp_path) == 1
    assert not path.with_suffix(".mo").exists()


@pytest.mark.parametrize(("language", "forms"), [
    ("en", {"one": 0, "other": 1}), ("fr", {"one": 0, "many": 1, "other": 2})])
def test_the_plural_header_is_babel_s_cldr_rule(language, forms):
    catalog = catalogs.read(LOCALES_DIR / language / "LC_MESSAGES" / "core.po")
    assert catalog.num_plurals == len(forms)
    assert catalogs.plural_indexes(catalog) == forms


# -- plurals (CLDR rules through Babel) and dates -----------------------------------------
def _plural_entries(language: str) -> dict[str, dict[str, str]]:
    """Every plural entry of a language: key -> {CLDR category: text}."""
    found: dict[str, dict[str, str]] = {}
    for path in sorted((LOCALES_DIR / language / "LC_MESSAGES").glob("*.po")):
        found.update(catalogs.plurals(catalogs.read(path)))
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_plural_entry_has_every_form_its_language_needs(language):
    from babel import Locale

    needed = set(Locale.parse(language).plural_form.tags) | {"other"}
    for key, forms in _plural_entries(language).items():
        assert set(forms) == needed, f"{language} {key}: missing {sorted(needed - set(forms))}"
        for category, text in forms.items():
            assert text, f"{language} {key}.{category} is empty"
            # the count is always `n`: it is what chooses the form
            assert "n" in placeholders(text), f"{language} {key}.{category}"


# "{n} word" in a plain text is a plural waiting to be wrong ("1 games"); units and
# numbered things do not change with the number
COUNTED = re.compile(r"\{(?:n|games|players|points|rolls|medals|score|count|rooms|steps|"
                     r"turns)\} "
                     r"(?!min\b|%|/|de \{)[^\W\d_]{3,}")
NOT_PLURAL = {
    "night.error.tray_full",  # "at most {n} dice": n is never 1
    "night.tray.say.locked", "night.tray.say.unlocked",  # "Die {n}": the die's number
    "night.ui.tempo_value",  # "{n} per minute": a unit
    "night.ui.games_unfinished",  # "{n} unfinished", "{n} en cours": invariable
    "night.log.damaged",  # "action {n}": the action's number
    # two counts in one text, both written by the backup screen
    "night.ui.backup_counts", "night.ui.restore_confirm",
    # {players} is the winners' names, not a count
    "castor.say.game_shared", "castor.ui.status_won", "castor.ui.status_shared",
    # a table of at least two players; a whole deck's count
    "castor.error.first_leader", "castor.error.sheet_length", "castor.config.agents_count",
    "castor.config.deck_too_small", "bond.error.no_spies_left",
    "bond.error.no_lair_cards_left",
}
ENGLISH_PARTICIPLES = {"night.ui.n_recovered", "night.ui.n_lost", "night.ui.n_won",
                       "night.ui.n_lost_games", "night.ui.games_abandoned"}


@pytest.mark.parametrize("domain", ["core", "night", "castor", "bond", "evil"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_counted_text_is_left_without_plural_forms(language, domain):
    plurals = _plural_entries(language)
    allowed = NOT_PLURAL | (ENGLISH_PARTICIPLES if language == "en" else set())
    suspects = sorted(k for k, v in CATALOGS[language].items()
                      if k.startswith(domain + ".") and k not in plurals
                      and k not in allowed and COUNTED.search(v))
    assert suspects == []


@pytest.mark.parametrize("domain", ["core", "night", "castor", "bond", "evil"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_text_hedges_its_plural(language, domain):
    """"point(s)", "card(s)": a plural form says it right instead."""
    plurals = _plural_entries(language)
    texts = [(k, v) for k, v in CATALOGS[language].items() if k.startswith(domain + ".")]
    texts += [(f"{k}.{c}", v) for k, forms in plurals.items() if k.startswith(domain + ".")
              for c, v in forms.items()]
    assert [k for k, v in texts if "(s)" in v] == []


def test_the_french_glossary_is_the_same_everywhere():
    """Undo is « Défaire » and Cancel « Annuler »; a Castor trick is a « pli »; Bond's
    doubler cards are « cartes Doubleur »; colours agree with the cards they name."""
    fr = {k: v for k, v in CATALOGS["fr"].items()
          if k.split(".")[0] in ("core", "night", "castor", "bond", "evil")}
    fr.update({f"{k}.{c}": v for k, forms in _plural_entries("fr").items()
               if k.split(".")[0] in ("core", "night", "castor", "bond", "evil")
               for c, v in forms.items()})
    translate = Translator("fr")
    assert (translate("core.ui.undo"), translate("core.ui.redo"),
            translate("core.ui.cancel")) == ("Défaire", "Refaire", "Annuler")
    # « Annuler » names Cancel only, and « Annulé » what Cancel did to a long task
    assert [k for k, v in fr.items() if re.search(r"\bAnnul|ANNUL", v)
            and k not in ("core.ui.cancel", "night.progress.cancelled")] == []
    assert [k for k, v in fr.items() if k.startswith("castor.")
            and re.search(r"\btours?\b", v)] == []
    assert [k for k, v in fr.items() if "Doubler" in v] == []
    assert [k for k, v in fr.items() if re.search(r"cartes? \{colour\}", v)] == []
    assert translate("castor.colour_cards.blue") == "cartes bleues"
    assert translate("castor.colour_card.green") == "carte verte"
    # the score sheet's hint names the cards with their colour agreed
    assert "Le moins de cartes vertes" in translate(
        "castor.ui.sheet_hint", green=translate("castor.colour_cards.green"),
        yellow=translate("castor.colour_cards.yellow"), bonus=8, malus=8)


@pytest.mark.parametrize(("language", "key", "params", "expected"), [
    ("en", "bond.ui.score", {"n": 1}, "1 point"),
    ("en", "bond.ui.score", {"n": 0}, "0 points"),
    ("fr", "bond.ui.score", {"n": 0}, "0 point"),
    ("fr", "bond.ui.score", {"n": 1}, "1 point"),
    ("fr", "bond.ui.score", {"n": 12}, "12 points"),
    ("fr", "bond.ui.score", {"n": 2_000_000}, "2000000 de points"),
    ("en", "castor.ui.goal", {"n": 1}, "1 medal wins"),
    ("fr", "castor.story.rounds", {"n": 1}, "1 manche jouée"),
    ("en", "castor.say.trick_won", {"player": "Ana", "n": 1},
     "Ana wins the trick and 1 plan point."),
    ("fr", "bond.story.kills", {"n": 2}, "2 espions tués"),
])
def test_game_texts_take_the_right_plural_form(language, key, params, expected):
    assert Translator(language)(key, **params) == expected


@pytest.mark.parametrize(("language", "rooms", "expected"), [
    ("en", 1, "The professor moves 1 room through the RED doors"),
    ("en", 3, "The professor moves 3 rooms through the RED doors"),
    ("fr", 1, "Le professeur avance de 1 pièce par les portes ROUGES"),
    ("fr", 2, "Le professeur avance de 2 pièces par les portes ROUGES"),
])
def test_the_professor_moves_rooms_in_the_right_number(language, rooms, expected):
    from companion.messages import msg

    said = Translator(language)("evil.say.moves", n=rooms, doors=msg("evil.doors.red"))
    assert said.startswith(expected)


def test_pr_evil_s_french_colours_agree_with_what_they_name():
    """ « 2 portes bleues » (the seed), « trésor rouge », « marqueur vert »."""
    from companion.messages import msg

    fr = {k: v for k, v in CATALOGS["fr"].items() if k.startswith("evil.")}
    fr.update({f"{k}.{c}": v for k, forms in _plural_entries("fr").items()
               if k.startswith("evil.") for c, v in forms.items()})
    assert [k for k, v in fr.items() if re.search(r"portes? (à tapis )?\{colour\}", v)] == []
    translate = Translator("fr")
    assert [translate(f"evil.doors.{c}") for c in ("red", "green", "blue")] == [
        "portes ROUGES", "portes VERTES", "portes BLEUES"]
    assert "trésor rouge" in translate("evil.say.lost", colour=msg("evil.colour.red"))
    assert translate("evil.card.board_marker", colour=msg("evil.colour.green"),
                     position="V") == "vert sur V"


@pytest.mark.parametrize(("language", "counts", "expected"), [
    ("en", (0, 1, 2), ["(0 medals)", "(1 medal)", "(2 medals)"]),
    ("fr", (0, 1, 2, 1_000_000),
     ["(0 médaille)", "(1 médaille)", "(2 médailles)", "(1000000 de médailles)"]),
])
def test_plurals_follow_the_cldr_rule_of_the_language(language, counts, expected):
    translate = Translator(language)
    assert [translate("night.ui.medals_short", n=n) for n in counts] == expected


def test_a_plural_chosen_by_n_and_the_fallback_to_english():
    assert Translator("en")("night.ui.kind_kill", n=1, who="Bob") == \
        "Best kill: 1 point (Bob)"
    assert Translator("fr")("night.ui.games_finished", n=1) == "1 partie terminée"
    assert Translator("fr")("night.ui.games_finished", n=3) == "3 parties terminées"
    # no count given: the `other` form, never a crash
    assert Translator("en")("night.ui.medals_short") == "({n} medals)"


def test_dates_are_written_the_way_each_language_writes_them():
    import time as clock

    moment = clock.mktime((2026, 11, 26, 20, 5, 0, 0, 0, -1))
    assert Translator("en").when(moment).replace("\u202f", " ") == "Nov 26, 2026 8:05 PM"
    assert Translator("fr").when(moment) == "26 nov. 2026 20:05"


def test_dates_prepared_on_a_worker_load_nothing_when_a_screen_shows_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The app calls `prepare_dates` on a thread after its first frame: Babel's locale
    data (tens of ms the first time) is then never read in a frame."""
    import babel.localedata

    translator = Translator("fr")
    translator.prepare_dates()

    def refused(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("locale data read after prepare_dates")

    monkeypatch.setattr(babel.localedata, "load", refused)
    assert "2026" in translator.when(1_795_000_000)


def test_a_name_said_again_is_said_the_same_and_the_kept_names_stay_bounded() -> None:
    """A sheet asks each player's name at every action: a name is said once and then
    kept, the same words each time, and a night of many names keeps a bounded few."""
    from companion import i18n
    from companion.i18n import Translator
    from companion.names import display_name

    fr = Translator("fr")
    names = ["Player 3", " Anne  Marie ", "Joueur 7", "Zoë"]
    first = [fr.name(n) for n in names]
    assert first == ["Joueur 3", display_name(" Anne  Marie "), "Joueur 7", "Zoë"]
    assert [fr.name(n) for n in names] == first
    for k in range(3 * i18n.NAMES_KEPT):
        assert fr.name(f"Player {k}") == f"Joueur {k}"
    assert len(fr._names) <= i18n.NAMES_KEPT
    kept = len(fr._names)
    assert fr.name(["not", "a", "name"]) == display_name(["not", "a", "name"])  # said
    assert len(fr._names) == kept  # (not kept)


def test_a_guest_is_said_in_the_language_on_screen() -> None:
    """Issue 29: a seat nobody named, set up in one language, is said in the language on
    screen, in a name and in a message's name parameters; a typed name stays as typed."""
    from companion.i18n import Translator
    from companion.messages import msg

    fr, en = Translator("fr"), Translator("en")
    assert fr.name("Player 3") == "Joueur 3" and en.name("Joueur 3") == "Player 3"
    assert fr.name("Anne") == "Anne" and fr.name("Player Three") == "Player Three"
    said = fr.message(msg("bond.say.lair_card", player="Player 2", value=3, size=3))
    assert said == "Le repaire de Joueur 2 grandit de 3 : taille 3."
    assert fr.message(msg("bond.say.won", winners="Anne")) == "Victoire d'Anne !"
