"""The bounded YAML reader answers every input with data or a `Problem` (issue 44, item 3).

Hypothesis feeds arbitrary bytes, and hostile YAML (huge numbers, out-of-range dates,
odd tags and merge keys, deep nesting, every scalar type YAML 1.1 resolves) written
into real files (a clock preset, a pad template, a config layer, the app's settings),
to the reader and to each loader. Each answers with data, or with problems of one
line each naming the file; a hostile value written in a file that is otherwise fine
names its line too. Never another exception: a traceback is a crash at game night.
`make test` runs the same examples each time (tests/conftest.py); `make fuzz` fresh ones.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from companion import config
from companion import settings as app_settings
from companion.config import ConfigError, Problem
from companion.games.clock import presets
from companion.games.pad import templates
from companion.i18n import Translator
from ui.commands import checkconfig

LINE = re.compile(r"^(?P<where>[^\n]+?)(:\d+)?: (?P<key>[^\n]+?): (?P<text>\S[^\n]*)$")
TRANSLATORS = [Translator("en"), Translator("fr")]

# What YAML 1.1 (PyYAML) resolves a plain scalar to, at its edges
HOSTILE_SCALARS = [
    "9" * 5000, "-" + "9" * 5000, "0x" + "f" * 5000, "0o" + "7" * 5000, "0b" + "1" * 20000,
    "0" + "7" * 5000, "1_" * 2500 + "1", "1" + ":59" * 3000, "-1" + ":59" * 3000,
    "190:20:30", "190:20:30.15", "1:" + "9" * 5000,
    "1e999999", "-1e999999", "1.5e-999999", "9" * 5000 + ".5", ".inf", "-.Inf", ".NaN",
    "9999-99-99", "0000-01-01", "2001-02-30", "2001-12-14t21:59:43.10-05:00",
    "2001-12-14 25:61:61", "9999-12-31T23:59:59.999999-23:59", "0001-01-01T00:00:00+23:59",
    "2001-12-14t21:59:43.1234567890123456789", "2001-1-1 1:1:1 +99",
    "yes", "No", "off", "~", "null", "", "-0", "08", "0b2", "0x", "_", "+", "0:0",
    "!!binary aGVsbG8=", "!!binary '%%%'", "!!timestamp 2001-01-01", "!!timestamp x",
    "!!int abc", "!!int " + "9" * 5000, "!!float x", "!!float " + "9" * 400,
    "!!bool maybe", "!!null x", "!!str 1", "!!set {a, b}", "!!omap [a: 1]", "!!pairs [a: 1]",
    "!!python/name:os.system", "!<tag:yaml.org,2002:int> 1" + ":59" * 3000, "!local x",
    "&a 1", "*nothing", "{<<: {a: 1}}", "[<<]", "{? [a]: b}", "{1" + ":59" * 3000 + ": a}",
    "{" + "9" * 5000 + ": a}", "{9999-99-99: a}", "{1e999999: a}", "{.nan: a}",
    "[" * 40 + "]" * 40, "{a: " * 40 + "1" + "}" * 40, "'" + "x" * 10_000 + "'",
    '"\\ud800"', '"\\x00"', '"\\U0010ffff"',
]
hostile_scalar = st.one_of(
    st.sampled_from(HOSTILE_SCALARS),
    st.integers().map(str),
    st.floats(allow_nan=True).map(repr),
    st.from_regex(r"\A[-+]?[0-9_]{1,6}(:[0-5]?[0-9]){1,4}(\.[0-9]*)?\Z"),
    st.from_regex(r"\A[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt ][0-9]{1,2}:[0-9]{2}:[0-9]{2}"
                  r"(\.[0-9]*)?( ?(Z|[-+][0-9]{1,2}(:[0-9]{2})?))?)?\Z"),
    st.text(max_size=30),
)

CLOCK = "mode: turn\ntime: 1m\nat_zero: penalty\npenalty:\n  points: 1\n  every: 30s\n" \
        "warn: 15s\ndanger: 5s\nname:\n  en: A clock\n  fr: Une horloge\n"
PAD = (config.CONFIG_DIR / "pad" / "7-wonders-duel.yaml").read_text(encoding="utf-8")
LAYER = "language: en\nsnapshot_every: 100\ndisplay:\n  fullscreen: false\n  width: 800\n" \
        "  dim_after: 0\ngames:\n  evil:\n    dice: 3\n"
SETTINGS_FILE = "language: fr\ndisplay:\n  width: 900\n  dim_after: 60\n"
BASES = {"clock": CLOCK, "pad": PAD, "layer": LAYER, "settings": SETTINGS_FILE}
# `key: value` on a block line (a value that is not a flow collection)
LEAF = re.compile(r"^(?P<head>\s*(?:- )?)(?P<key>[A-Za-z_]\w*): (?P<value>[^{\[\s].*)$")
_DEFAULTS: dict[str, Any] = {}


def defaults() -> dict[str, Any]:
    if not _DEFAULTS:
        _DEFAULTS.update(config.load_defaults()[0])
    return _DEFAULTS


def loaders(folder: Path, path: Path) -> list[tuple[str, Callable[[], Any]]]:
    """Each way the app reads a file of this kind; each returns what it found or raises
    ConfigError (or returns its problems)."""
    def pad_folder() -> list[Problem]:
        return templates.check(own_dir=folder)

    def clock_folder() -> list[Problem]:
        found = presets.load_presets(own=folder)
        return [p for p in found.problems if str(folder) in p.file]

    return [
        ("read_yaml", lambda: config.read_yaml(path)),
        ("read_layer", lambda: config.read_layer(path, defaults())),
        ("user config", lambda: config.load(path, use_default_user_file=False)),
        ("settings", lambda: config.load(use_default_user_file=False, settings_file=path)),
        ("settings set aside", lambda: config.load(use_default_user_file=False,
                                                    settings_file=path,
                                                    set_aside_settings=True)),
        ("saved settings", lambda: app_settings.saved(path)),
        ("pad template", lambda: templates.read_template(path)),
        ("pad folder", pad_folder),
        ("clock preset", lambda: presets.read_file(path, own=True)[1]),
        ("clock folder", clock_folder),
        # the command prints each problem on its line, and says 1: never a traceback
        ("check-config", lambda: [checkconfig.main([str(path)])]),
    ]


OWN_LOADERS = {"clock": {"read_yaml", "clock preset", "clock folder"},
               "pad": {"read_yaml", "pad template", "pad folder"},
               "layer": {"read_yaml", "read_layer", "user config"},
               "settings": {"read_yaml", "settings", "settings set aside", "saved settings"}}


def check_every_loader(raw: bytes, *, lines_from: set[str] = frozenset()) -> None:
    """Every loader answers `raw` with data or one-line problems naming the file (and
    the loaders in `lines_from`, those of the file's kind, a line)."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        path = folder / "hostile.yaml"
        for loader, read in loaders(folder, path):
            path.write_bytes(raw)  # a refused settings file is moved aside
            try:
                answer = read()
            except ConfigError as exc:
                problems = list(exc.problems)
                assert problems, loader
            else:
                problems = [p for p in answer if isinstance(p, Problem)] \
                    if isinstance(answer, list) else []
                if loader == "check-config":
                    assert answer in ([0], [1]), answer
            for problem in problems:
                check_problem(problem, path, loader, want_lines=loader in lines_from)


def check_problem(problem: Problem, path: Path, loader: str, *, want_lines: bool) -> None:
    if problem.file != str(path) and problem.file.startswith(str(config.CONFIG_DIR)):
        return  # a shipped file's own problem (a section check of the defaults)
    assert problem.file in (str(path), str(path) + ".tmp"), (loader, problem)
    for tr in TRANSLATORS:
        line = problem.format(tr.message)
        assert "\n" not in line and LINE.match(line), (loader, line)
    # "cannot read the file: ValueError" is an exception caught blind, not a reading
    assert problem.message.key != "core.config.unreadable", (loader, problem)
    if want_lines:
        assert problem.line is not None, (loader, problem)


def with_leaf(base: str, index: int, scalar: str, *, as_key: bool) -> str:
    """`base` with its `index`-th `key: value` line's value (or key) made `scalar`."""
    lines = base.splitlines()
    leaves = [i for i, text in enumerate(lines) if LEAF.match(text)]
    i = leaves[index % len(leaves)]
    found = LEAF.match(lines[i])
    assert found is not None
    if as_key:
        lines[i] = f"{found['head']}{scalar}: {found['value']}"
    else:
        lines[i] = f"{found['head']}{found['key']}: {scalar}"
    return "\n".join(lines) + "\n"


# the examples' count and randomness from the profile (tests/conftest.py): the same 100
# in `make test`, 1000 fresh ones in `make fuzz`
SETTINGS = settings(suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])


@SETTINGS
@given(st.binary(max_size=3000))
@example(b"")
@example(b"\xff\xfe\x00")
@example(b"a: \x00\n")
@example(b"penalty: {points: " + b"9" * 5000 + b"}\n")
def test_arbitrary_bytes_give_data_or_problems(raw: bytes) -> None:
    check_every_loader(raw)


@SETTINGS
@given(st.sampled_from(sorted(BASES)), st.integers(0, 60), hostile_scalar, st.booleans())
@example("clock", 3, "{points: " + "9" * 5000 + ", every: 30s}", False)
@example("clock", 4, "9" * 5000, False)
@example("clock", 1, "1e999999", False)
@example("clock", 0, "9999-99-99", False)
@example("clock", 0, "1" + ":59" * 3000, True)
@example("pad", 0, "0000-01-01", False)
@example("pad", 2, "1" + ":59" * 3000, False)
@example("layer", 1, "9" * 5000, False)
@example("layer", 1, "9999-99-99", True)
@example("settings", 2, "1" + ":59" * 3000, False)
def test_a_hostile_value_in_a_good_file_is_a_problem_with_its_line(
        base: str, index: int, scalar: str, as_key: bool) -> None:
    text = with_leaf(BASES[base], index, scalar, as_key=as_key)
    # a key made hostile can leave a required key unwritten: named without a line
    check_every_loader(text.encode("utf-8", "surrogatepass"),
                       lines_from=set() if as_key else OWN_LOADERS[base])


@SETTINGS
@given(st.lists(st.sampled_from(["- ", "a: ", "[", "{", "&x ", "*x ", "!!map ", "? ",
                                 "<<: ", "!!seq ", "b: 1\n", "\n", "  ", ", ", "]", "}"]),
                max_size=200))
def test_hostile_structures_give_data_or_problems(parts: list[str]) -> None:
    check_every_loader("".join(parts).encode())


def test_a_huge_integer_in_a_clock_preset_names_its_file_line_and_key(tmp_path: Path) -> None:
    """The issue's file: `penalty: {points: 999…}` (5000 digits)."""
    path = tmp_path / "huge.yaml"
    path.write_text(CLOCK.replace("  points: 1\n", "  points: " + "9" * 5000 + "\n"),
                    encoding="utf-8")
    preset, problems, _ = presets.read_file(path, own=True)
    assert preset is None
    assert [(p.file, p.line, p.key) for p in problems] == [(str(path), 5, "penalty.points")]
    assert problems[0].message.key == "core.config.bad_scalar"
