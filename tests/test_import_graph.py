"""The import graph of the project's own modules (companion/, hardware/, ui/), read with
`ast` without importing anything: no circles between modules, and no arrow running back
up: the domain imports neither the hardware nor the UI, the hardware does not import the
UI nor know which game is on (it is told what its buttons do), and a game's domain
package does not import another game's (what they share, the dice, is in companion/).

Every import counts, wherever it is written: at the top of a module, inside a function
(a lazy import still couples the two modules: one cannot be changed or loaded without the
other) and under `if TYPE_CHECKING:` (the annotation still names the other module). An
`importlib.import_module("a.b")` or `__import__("a.b")` with a literal name counts too; a
name computed at run time (a registry's table of screens, a game's kind) cannot be read
statically and is left out.

`from pkg import name` is an arrow to `pkg.name` when that is a module, else to `pkg`.
Importing `a.b.c` also runs `a/__init__.py` and `a/b/__init__.py`, but that is not
counted as an arrow to them: a package that re-exports its modules would otherwise be in
a circle with each of them.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("companion", "hardware", "ui")

#: (importer's package, imported package): an arrow running back up
UPWARD = (("companion", "hardware"), ("companion", "ui"), ("hardware", "ui"))


def project_modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the project's packages, by its dotted name."""
    modules: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def _target(name: str, modules: Mapping[str, Path]) -> str | None:
    """The project module `name` names: itself, else its longest known prefix."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def _literal_import(node: ast.Call) -> str | None:
    """The module a call `importlib.import_module("x")` or `__import__("x")` names."""
    func = node.func
    called = (
        func.attr if isinstance(func, ast.Attribute) else func.id
        if isinstance(func, ast.Name) else None
    )
    if called not in ("import_module", "__import__") or not node.args:
        return None
    first = node.args[0]
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        return first.value
    return None


def imports_of(name: str, path: Path, modules: Mapping[str, Path]) -> set[str]:
    """The project modules that module `name` (its source at `path`) imports."""
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(t for a in node.names if (t := _target(a.name, modules)))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")
                base_parts = base_parts[: len(base_parts) - (node.level - 1)]
                base = ".".join([*base_parts, *([node.module] if node.module else [])])
            else:
                base = node.module or ""
            for alias in node.names:
                target = _target(f"{base}.{alias.name}", modules)
                if target is not None and target != f"{base}.{alias.name}":
                    target = _target(base, modules)  # a name defined in `base`, not a module
                if target is not None:
                    found.add(target)
        elif (
            isinstance(node, ast.Call)
            and (literal := _literal_import(node))
            and (target := _target(literal, modules))
        ):
            found.add(target)
    found.discard(name)
    return found


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    modules = project_modules(root)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def strongly_connected(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of more than one module, each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(components)


def _cycle_in(component: list[str], graph: Mapping[str, Iterable[str]]) -> list[str]:
    """One circle through the component's first module, to name in a failure."""
    start = component[0]
    members = set(component)
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for nxt in sorted(graph[node]):
            if nxt == start:
                return [*paths[node], start]
            if nxt in members and nxt not in paths:
                paths[nxt] = [*paths[node], nxt]
                queue.append(nxt)
    raise AssertionError(f"no circle in {component}")


def _top(name: str) -> str:
    return name.partition(".")[0]


def _game(name: str) -> str | None:
    """The game whose domain package `name` is in (`companion.games.<kind>...`)."""
    match = re.match(r"companion\.games\.(\w+)", name)
    return match.group(1) if match else None


def wrong_arrows(graph: Mapping[str, Iterable[str]]) -> list[str]:
    """The arrows that run back up, or that tie a part to a game it should not know."""
    wrong = []
    for a, targets in graph.items():
        for b in targets:
            if (_top(a), _top(b)) in UPWARD:
                wrong.append(f"{a} -> {b}: runs back up")
            elif _top(a) == "hardware" and _game(b):
                wrong.append(f"{a} -> {b}: the hardware is told its actions, not the game")
            elif _game(a) and _game(b) and _game(a) != _game(b):
                wrong.append(f"{a} -> {b}: a game takes what it shares from companion/")
    return sorted(wrong)


def _write(root: Path, files: Mapping[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_every_kind_of_import_is_an_arrow(tmp_path):
    _write(tmp_path, {
        "companion/__init__.py": "",
        "companion/a.py": "from companion.b import NAME\n",  # a name: arrow to its module
        "companion/b.py": "NAME = 1\ndef f():\n    from . import c\n",  # relative, in a def
        "companion/c.py": "from typing import TYPE_CHECKING\n"
                          "if TYPE_CHECKING:\n    import companion.sub.d\n",
        "companion/sub/__init__.py": "from .. import a\n",  # two levels up
        "companion/sub/d.py": "from companion.sub import e\n",  # a submodule by `from`
        "companion/sub/e.py": "import importlib\nimportlib.import_module('hardware.x')\n",
        "hardware/__init__.py": "",
        "hardware/x.py": "import os\nimport companion.sub.e.missing\n",  # longest known
        "ui/__init__.py": "",
    })
    assert import_graph(tmp_path) == {
        "companion": set(),
        "companion.a": {"companion.b"},
        "companion.b": {"companion.c"},
        "companion.c": {"companion.sub.d"},
        "companion.sub": {"companion.a"},
        "companion.sub.d": {"companion.sub.e"},
        "companion.sub.e": {"hardware.x"},
        "hardware": set(),
        "hardware.x": {"companion.sub.e"},
        "ui": set(),
    }


def test_tarjan_finds_each_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"f"}, "f": {"e"}}
    assert strongly_connected(graph) == [["a", "b", "c"], ["e", "f"]]
    assert _cycle_in(["a", "b", "c"], graph) == ["a", "b", "c", "a"]


def test_the_rules_name_each_wrong_arrow():
    graph = {
        "companion.settings": {"hardware", "companion.config"},
        "companion.games.tray.rules": {"companion.games.evil.dice", "companion.dice"},
        "hardware.station": {"companion.games.evil.commands", "companion.messages"},
        "hardware.buttons": {"ui.app"},
        "ui.app": {"hardware", "companion.games.evil"},
    }
    assert wrong_arrows(graph) == [
        "companion.games.tray.rules -> companion.games.evil.dice:"
        " a game takes what it shares from companion/",
        "companion.settings -> hardware: runs back up",
        "hardware.buttons -> ui.app: runs back up",
        "hardware.station -> companion.games.evil.commands:"
        " the hardware is told its actions, not the game",
    ]


def test_the_project_is_read():
    graph = import_graph()
    assert len(graph) > 150
    assert "companion.messages" in graph["companion.config"]
    assert "hardware.pins" in graph["hardware.station"]  # imported inside a function


def test_no_circle_between_project_modules():
    graph = import_graph()
    circles = [" -> ".join(_cycle_in(c, graph)) for c in strongly_connected(graph)]
    assert not circles, f"{len(circles)} circles of imports:\n" + "\n".join(circles)


def test_nothing_runs_back_up():
    arrows = wrong_arrows(import_graph())
    assert not arrows, f"{len(arrows)} wrong arrows:\n" + "\n".join(arrows)
