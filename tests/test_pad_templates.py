"""Score pad templates: the built-ins, the table's own beside the user's config file,
the hardened loader, a broken file listed as broken, and `companion check-config`
printing `file:line: key: message` for every refusal of issue 30."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.pad import templates
from companion.games.pad.template import parse, problems, to_data
from companion.i18n import Translator
from ui.commands import checkconfig

BUILTINS = {"rounds-highest", "rounds-lowest", "first-to-100", "7-wonders", "wingspan",
            "skat", "coop", "7-wonders-duel"}


@pytest.fixture(autouse=True)
def _no_user_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    # nor the settings an earlier test of the run saved in the shared data folder
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.delenv("COMPANION_SETTINGS", raising=False)


def own(tmp_path: Path, name: str, text: str | bytes) -> Path:
    folder = tmp_path / "pad"
    folder.mkdir(exist_ok=True)
    path = folder / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def test_every_built_in_loads_says_check_and_round_trips():
    catalogue = templates.load(own_dir=Path("/nonexistent"))
    assert catalogue.broken == ()
    assert {f.template.id for f in catalogue.templates} == BUILTINS
    for found in catalogue.templates:
        assert found.builtin and found.template.check  # "check against your box"
        assert parse(to_data(found.template)) == found.template
        assert found.path.name == f"{found.template.id}.yaml"


def test_the_tables_own_templates_sit_beside_the_users_config_file(tmp_path, monkeypatch):
    config_file = tmp_path / "conf" / "config.yaml"
    config_file.parent.mkdir()
    config_file.write_text("language: en\n")
    monkeypatch.setenv("COMPANION_CONFIG", str(config_file))
    assert templates.user_dir() == tmp_path / "conf" / "pad"
    monkeypatch.delenv("COMPANION_CONFIG")
    assert templates.user_dir() == tmp_path / "xdg" / "table-companion" / "pad"


GOOD = "id: yahtzee\nname: Yahtzee\nshape: rounds\nwin: highest\nrounds: {count: 13}\n"


def test_a_broken_file_is_listed_and_never_hides_the_others(tmp_path):
    own(tmp_path, "yahtzee.yaml", GOOD)
    own(tmp_path, "bad.yaml", "id: bad\nshape: rounds\nrounds: {count: 0}\n")
    catalogue = templates.load(own_dir=tmp_path / "pad")
    assert catalogue.get("yahtzee") is not None and catalogue.get("yahtzee").rounds_count == 13
    assert {f.template.id for f in catalogue.templates} == BUILTINS | {"yahtzee"}
    assert [b.path.name for b in catalogue.broken] == ["bad.yaml"]


def _refusal(tmp_path: Path, text: str | bytes) -> list[str]:
    path = own(tmp_path, "t.yaml", text)
    broken = templates.load(own_dir=path.parent).broken
    assert [b.path for b in broken] == [path]
    tr = Translator("en")
    return [p.format(tr.message).replace(str(path), "t.yaml") for p in broken[0].problems]


CATS = "id: x\nshape: categories\ncategories:\n  - {id: a}\n  - {id: b}\n"


@pytest.mark.parametrize(("text", "expected"), [
    (CATS + "tiebreak:\n  - {category: c}\n",
     "t.yaml:7: tiebreak.0.category: no category has the id “c”"),
    ("id: x\nshape: categories\ncategories:\n  - id: a\n    derive: {per: 0}\n",
     "t.yaml:5: categories.0.derive.per: per N takes a whole number of at least 1 "
     "(points = input ÷ N, rounded down)"),
    ("id: x\nshape: rounds\nrounds:\n  count: 0\n",
     "t.yaml:4: rounds.count: a fixed count of rounds is a whole number from 1 to 1000 "
     "(or null: open-ended)"),
    (CATS + "  - {id: a}\n", "t.yaml:6: categories.2.id: the id “a” is used twice"),
    ("id: x\nshape: rounds\n!!python/object:os.system {}: 1\n", "t.yaml:3: "),
    ("id: x\nshape: !!str rounds\nwin: !custom highest\n", "t.yaml:3: win: "),
    ("base: &b {shape: rounds}\nid: x\n<<: *b\n", "t.yaml:3: <<: "),
    ("id: x\nshape: rounds\nmystery: 1\n", "t.yaml:3: mystery: unknown key"),
    ("id: X Y\nshape: rounds\n", "t.yaml:1: id: an id is 1 to 40"),
    ("id: x\nshape: triangles\n", "t.yaml:2: shape: expected one of: rounds, categories"),
    ("id: x\nshape: categories\ncategories:\n  - {id: a, derive: {calc: magic}}\n",
     "t.yaml:4: categories.0.derive.calc: unknown calculation (known: science_sets)"),
    ("id: x\nshape: categories\ncategories:\n  - id: a\n    derive: {per: 3, unit: gold}\n",
     "t.yaml:5: categories.0.derive.unit: unit is one of: coins, cards, tokens"),
])
def test_every_refusal_names_file_line_and_key(tmp_path, text, expected):
    lines = _refusal(tmp_path, text)
    assert any(line.startswith(expected) for line in lines), lines


def test_a_file_over_64_kib_is_refused(tmp_path):
    lines = _refusal(tmp_path, GOOD + "#" * (64 * 1024) + "\n")
    assert lines[0].startswith("t.yaml:") and "64 KiB" in lines[0]


def test_a_file_not_in_utf8_is_refused(tmp_path):
    lines = _refusal(tmp_path, b"id: x\nname: Caf\xe9\nshape: rounds\n")
    assert lines[0].startswith("t.yaml:2: ") and "UTF-8" in lines[0]


def test_a_duplicate_id_and_shadowing_a_built_in(tmp_path):
    own(tmp_path, "a.yaml", GOOD)
    own(tmp_path, "b.yaml", GOOD.replace("Yahtzee", "Yahtzee again"))
    own(tmp_path, "c.yaml", "id: skat\nshape: rounds\nwin: lowest\n")
    catalogue = templates.load(own_dir=tmp_path / "pad")
    tr = Translator("en")
    said = {b.path.name: b.problems[0].format(tr.message) for b in catalogue.broken}
    assert said["b.yaml"].endswith(":1: id: the template id “yahtzee” is already used by a.yaml")
    assert said["c.yaml"].endswith(":1: id: “skat” is a built-in template (skat.yaml): "
                                   "add replaces: true to replace it, or choose another id")
    assert catalogue.get("skat").win == "highest"  # the built-in stays


def test_a_table_template_replaces_a_built_in_when_it_says_so(tmp_path):
    own(tmp_path, "skat.yaml", "id: skat\nreplaces: true\nshape: rounds\nwin: lowest\n")
    catalogue = templates.load(own_dir=tmp_path / "pad")
    assert catalogue.broken == () and catalogue.get("skat").win == "lowest"
    assert [f.template.id for f in catalogue.templates].count("skat") == 1


def test_check_config_lists_template_problems(tmp_path, capsys):
    good = tmp_path / "config.yaml"
    good.write_text("language: en\n")
    assert checkconfig.main([str(good)]) == 0
    capsys.readouterr()
    path = own(tmp_path, "broken.yaml", "id: x\nshape: rounds\nrounds:\n  count: 0\n")
    assert checkconfig.main([str(good)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{path}:4: rounds.count: a fixed count of rounds is a whole number "
                   "from 1 to 1000 (or null: open-ended)"]


@pytest.mark.parametrize("data", [
    {"id": "x", "shape": "categories", "categories": [{"id": "a"}],
     "tiebreak": [{"input": "food"}, {"input": "food"}]},
    {"id": "x", "shape": "rounds", "players": {"min": 5, "max": 2}},
    {"id": "x", "shape": "rounds", "categories": [{"id": "a"}]},
    {"id": "x", "shape": "categories", "categories": [
        {"id": "a", "derive": {"per": 2, "table": {0: 1}}}]},
    {"id": "x", "shape": "categories", "categories": [
        {"id": "s", "derive": {"calc": "science_sets", "inputs": ["a", "b"]}}]},
    {"id": "x", "shape": "categories", "categories": [{"id": "a", "range": {"min": 3,
                                                                             "max": 1}}]},
    {"id": "x", "shape": "rounds", "name": {"de": "Spiel"}},
    {"id": "x", "shape": "rounds", "ties": "random"},
    {"id": "x", "shape": "rounds", "teams": {"score": "best"}},
    {"id": "x"},
    "not a mapping",
])
def test_invalid_templates_are_refused_with_a_translated_reason(data):
    found = problems(data)
    assert found
    for _, message in found:
        for language in ("en", "fr"):
            said = Translator(language).message(message)
            assert not said.startswith("pad.") and "{" not in said


def test_a_lookup_table_from_json_keys():
    t = parse({"id": "x", "shape": "categories",
               "categories": [{"id": "a", "derive": {"table": {"0": 0, "2": 3, "1": 1}}}]})
    assert t.categories[0].derive.table == ((0, 0), (1, 1), (2, 3))


def test_an_ad_hoc_pad_is_saved_as_the_tables_own_template(tmp_path):
    from companion.games.pad import commands as c
    from companion.messages import RuleError
    from tests.pad_helpers import play, start

    state = play(start("rounds-lowest", 2), c.SetCell(0, 0, None, "3"))
    folder = tmp_path / "pad"
    path = templates.save_as(state.template, "golf", "Golf night", folder)
    assert path == folder / "golf.yaml"
    catalogue = templates.load(own_dir=folder)
    assert catalogue.broken == ()
    golf = catalogue.get("golf")
    assert golf.win == "lowest" and golf.name == (("", "Golf night"),) and not golf.check
    for ident, name, key in (("golf", "Again", "pad.error.save_taken"),
                             ("skat", "Mine", "pad.error.save_taken"),
                             ("Not an id", "Mine", "pad.error.save_id"),
                             ("mine", "", "pad.error.save_name")):
        with pytest.raises(RuleError) as caught:
            templates.save_as(state.template, ident, name, folder)
        assert caught.value.message.key == key
    assert sorted(p.name for p in folder.iterdir()) == ["golf.yaml"]  # nothing else left


# -- the games.pad config section ------------------------------------------------------
def test_the_pad_config_section_bounds_the_debounce(tmp_path: Path) -> None:
    """`games.pad.debounce` is seconds from 0 to 1: a negative, a longer one and a text
    are refused with the key named; the shipped value is taken."""
    from companion.config import ConfigError
    from companion.games.pad.params import debounce
    from tests.helpers import checked as config_module

    shipped = config_module.load(use_default_user_file=False, check_defaults=True)
    assert debounce(shipped.get("games.pad")) == 0.1
    for bad in ("-0.1", "1.5", "soon"):
        user = tmp_path / "config.yaml"
        user.write_text(f"games:\n  pad:\n    debounce: {bad}\n", encoding="utf-8")
        with pytest.raises(ConfigError) as refused:
            config_module.load(user, use_default_user_file=False)
        assert "games.pad.debounce" in str(refused.value)
    user.write_text("games:\n  pad:\n    debounce: 0\n", encoding="utf-8")
    assert debounce(config_module.load(user, use_default_user_file=False)
                    .get("games.pad")) == 0


def test_a_timer_naming_no_clock_preset_is_a_warning_with_file_and_line(tmp_path, capsys):
    """Issue 31: "a score pad template (the score pad issue) can name a preset"; one
    that names no preset is warned (`file:line: timer: message`), never refused: the
    template loads, check-config passes."""
    from companion.games.clock.presets import load_presets

    good = tmp_path / "config.yaml"
    good.write_text("language: en\n")
    known = own(tmp_path, "timed.yaml", "id: timed\nshape: rounds\ntimer: chess-5m-3s\n")
    unknown = own(tmp_path, "slow.yaml", "id: slow\nshape: rounds\n\ntimer: hourglass\n")
    catalogue = templates.load(own_dir=known.parent)
    assert catalogue.get("timed").timer == "chess-5m-3s"
    assert catalogue.get("slow").timer == "hourglass"  # loaded: a warning only
    warnings = templates.timer_warnings(catalogue, load_presets(good).presets)
    assert [(w.file, w.line, w.key) for w in warnings] == [(str(unknown), 4, "timer")]
    assert checkconfig.main([str(good)]) == 0
    captured = capsys.readouterr()
    assert captured.err.splitlines()[0] == (
        f"{unknown}:4: timer: no clock preset is called \"hourglass\" (the game is played "
        "without its clock)")
    fr = Translator("fr")
    assert fr.message(warnings[0].message) == (
        "aucun préréglage d'horloge ne s'appelle « hourglass » (la partie se joue sans "
        "son horloge)")


@pytest.mark.parametrize(("text", "expected"), [
    ("# a comment first\nid: x\nwin: highest\n", "t.yaml:2: shape: this key is required"),
    ("name: Nameless\nshape: rounds\n", "t.yaml:1: id: an id is 1 to 40"),
    ("id: x\nshape: categories\ncategories:\n  - {id: a}\n  - name: B\n    points: true\n",
     "t.yaml:5: categories.1.id: an id is 1 to 40"),
    (CATS + "tiebreak:\n  - {better: lower}\n", "t.yaml:7: tiebreak.0: "),
])
def test_a_missing_key_is_refused_on_the_line_of_the_mapping_that_lacks_it(
        tmp_path, text, expected):
    """Issue 46, item 13: "A template missing a required key is refused as `file: key:
    …` with no line." The refusal names the line of the mapping the key is missing
    from (the file's own first line of data for a top-level key)."""
    lines = _refusal(tmp_path, text)
    assert any(line.startswith(expected) for line in lines), lines
