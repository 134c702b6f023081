"""1 000 mutated user configs: each loads, or gives ConfigError problems of one line
each. Never another exception (a traceback would be a crash at game night)."""

from __future__ import annotations

import copy
import random
import re
import traceback
from pathlib import Path
from typing import Any

import yaml

from companion import config
from companion.i18n import Translator

CASES = 1000
SEED = 20240607
LINE = re.compile(r"^(?P<where>[^\n]+?)(:\d+)?: (?P<key>[^\n]+?): (?P<text>\S[^\n]*)$")
WEIRD_VALUES: list[Any] = [
    None, True, 0, -1, 10**30, -(10**30), 1e308, float("inf"), float("nan"), "", "x" * 500,
    [], {}, [1, "a", None], {"k": {"deep": [1, {"deeper": None}]}}, "12", "yes", 3.5,
]
TEXT_BREAKERS = [":", "- ", "[", "{", "}", "]", "\t", "  ", "&a", "*a", "!!python/object:x",
                 "'", '"', "#", "\n  - ", ": :", "? ", "|", ">", "%YAML 9\n", "\x00", "\ufeff"]


def defaults_as_user_files() -> list[Any]:
    """The app file as a user file; the Evil file under games.evil, as a user writes it."""
    app = yaml.safe_load((config.CONFIG_DIR / "app.yaml").read_text())
    evil = yaml.safe_load((config.CONFIG_DIR / "games/evil.yaml").read_text())
    return [app, {"games": {"evil": evil}}, {**app, "games": {"evil": evil}}]


def paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    found = [prefix] if prefix else []
    if isinstance(node, dict):
        for key, value in node.items():
            found += paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += paths(value, (*prefix, i))
    return found


def weird(rng: random.Random) -> Any:
    """A fresh copy: a shared list or dict, mutated in place later, could end up inside
    itself and make the case an endless structure."""
    return copy.deepcopy(rng.choice(WEIRD_VALUES))


def get_parent(node: Any, path: tuple) -> Any:
    for part in path[:-1]:
        node = node[part]
    return node


def mutate_data(rng: random.Random, data: Any) -> Any:
    for _ in range(rng.randint(1, 4)):
        spots = paths(data)
        if not spots:
            return weird(rng)
        path = rng.choice(spots)
        parent = get_parent(data, path)
        key = path[-1]
        action = rng.choice(["type", "type", "delete", "unknown", "huge", "nest", "rename"])
        if action == "type":
            parent[key] = weird(rng)
        elif action == "delete":
            del parent[key]
        elif action == "unknown" and isinstance(parent, dict):
            parent[rng.choice(["colour", "lenguage", "fulscreen", "x" * 40, "0", "true"])] = (
                weird(rng))
        elif action == "huge":
            parent[key] = rng.choice([10**40, -(10**40), 1e300, 2**63, -0.0])
        elif action == "nest":
            parent[key] = {"inner": parent[key]}
        elif action == "rename" and isinstance(parent, dict):
            parent[str(key) + rng.choice(["_", "s", " ", "."])] = parent.pop(key)
    return data


def mutate_text(rng: random.Random, text: str) -> str:
    for _ in range(rng.randint(1, 3)):
        where = rng.randrange(len(text) + 1)
        action = rng.choice(["insert", "delete", "truncate", "duplicate", "indent"])
        if action == "insert":
            text = text[:where] + rng.choice(TEXT_BREAKERS) + text[where:]
        elif action == "delete":
            text = text[:where] + text[where + rng.randint(1, 20):]
        elif action == "truncate":
            text = text[:where]
        elif action == "duplicate":
            lines = text.splitlines(keepends=True) or [""]
            line = rng.choice(lines)
            text = text + line
        else:
            lines = text.splitlines(keepends=True)
            if lines:
                i = rng.randrange(len(lines))
                lines[i] = rng.choice(["  ", "\t", " "]) + lines[i]
                text = "".join(lines)
    return text


def make_case(rng: random.Random, bases: list[Any]) -> str:
    data = yaml.safe_load(yaml.safe_dump(rng.choice(bases)))  # a fresh deep copy
    if rng.random() < 0.6:
        data = mutate_data(rng, data)
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    if rng.random() < 0.45:
        text = mutate_text(rng, text)
    return text


def test_a_thousand_mutated_configs_load_or_give_one_line_problems(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    bases = defaults_as_user_files()
    translators = [Translator("en"), Translator("fr")]
    outcomes = {"loaded": 0, "refused": 0}
    crashes: list[str] = []
    for case in range(CASES):
        text = make_case(rng, bases)
        user_file = tmp_path / f"case{case}.yaml"
        user_file.write_text(text, encoding="utf-8", errors="surrogatepass")
        try:
            config.load(user_file, use_default_user_file=False)
            outcomes["loaded"] += 1
        except config.ConfigError as exc:
            outcomes["refused"] += 1
            assert exc.problems, text
            for problem in exc.problems:
                for tr in translators:
                    line = problem.format(tr.message)
                    found = LINE.match(line)
                    assert "\n" not in line and found, (repr(line), text)
                    assert found["where"] in (str(user_file), problem.file), line
                    assert problem.file == str(user_file) or problem.file.startswith(
                        str(config.CONFIG_DIR)), line
        except Exception:
            crashes.append(f"--- case {case}:\n{text}\n{traceback.format_exc(limit=3)}")
    assert not crashes, f"{len(crashes)} crashes; first:\n" + "\n".join(crashes[:3])
    # The mutator really produced both outcomes (else it tests nothing).
    assert outcomes["loaded"] > 50 and outcomes["refused"] > 300, outcomes
