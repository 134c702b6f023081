"""Configuration: YAML defaults in `config/`, overridden by one user file, every key checked.

The defaults are also the schema: a user key must exist in the defaults (an empty
mapping there accepts any key) and have the same type. Then each section's own
validator (a game's dice faces, the hardware pins) checks the meaning. Every problem
names the file, the line and the dotted key, so `companion check-config` and the
screen can say exactly what to fix. Only `yaml.safe_load`-level constructs are read.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from companion.messages import Message, msg

CONFIG_DIR = Path(__file__).resolve().parents[1] / "config"
APP_DIR = "table-companion"
USER_FILE = "config.yaml"

Path_ = tuple[str, ...]
# libyaml's parser where PyYAML has it (same nodes and line marks, much faster)
YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
Validator = Callable[[Mapping[str, Any]], list[tuple[str, Message]]]
_VALIDATORS: dict[str, Validator] = {}


def register_validator(section: str, validator: Validator) -> None:
    """A layer (a game, the hardware) checks the meaning of its own section."""
    _VALIDATORS[section] = validator


@dataclass(frozen=True)
class Problem:
    """One problem in the configuration: file, line, dotted key, and what is wrong."""

    file: str
    line: int | None
    key: str
    message: Message

    def format(self, translate: Callable[[Message], str]) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.key or '-'}: {translate(self.message)}"


class ConfigError(Exception):
    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__(
            "; ".join(f"{p.file}:{p.line}: {p.key}: {p.message.key}" for p in problems)
        )


@dataclass
class Config:
    """The configuration in use: the defaults merged with the user's file."""

    data: dict[str, Any]
    user_file: Path | None = None
    files: list[str] = field(default_factory=list)

    def get(self, dotted: str, default: Any = None) -> Any:
        node: Any = self.data
        for part in dotted.split("."):
            if not isinstance(node, Mapping) or part not in node:
                return default
            node = node[part]
        return node


# -- reading YAML with line numbers ---------------------------------------------------
class _Reader:
    def __init__(self, file: str) -> None:
        self.file = file
        self.lines: dict[Path_, int] = {}
        self._constructor = yaml.SafeLoader("")

    def node_to_data(self, node: yaml.Node, path: Path_) -> Any:
        self.lines[path] = node.start_mark.line + 1
        if isinstance(node, yaml.MappingNode):
            out: dict[str, Any] = {}
            for key_node, value_node in node.value:
                key = str(self._constructor.construct_object(key_node, deep=True))
                if key in out:
                    raise ConfigError([Problem(self.file, key_node.start_mark.line + 1,
                                               ".".join((*path, key)),
                                               msg("core.config.duplicate_key"))])
                out[key] = self.node_to_data(value_node, (*path, key))
                # a key's line is where the key is written, not where its block value starts
                self.lines[(*path, key)] = key_node.start_mark.line + 1
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.node_to_data(item, (*path, str(i))) for i, item in enumerate(node.value)]
        return self._constructor.construct_object(node, deep=True)


def read_yaml(path: Path, prefix: Path_ = ()) -> tuple[Any, dict[Path_, int]]:
    file = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise ConfigError([Problem(file, None, "", msg("core.config.missing_file"))]) from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(
            [Problem(file, None, "", msg("core.config.unreadable", reason=str(exc)))]
        ) from exc
    try:
        node = yaml.compose(text, Loader=YAML_LOADER)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark else None
        if line is None and isinstance(getattr(exc, "position", None), int):
            line = text.count("\n", 0, exc.position) + 1  # a ReaderError: bad character
        # PyYAML's messages span lines ("\n  in <unicode string>"): one line per problem
        reason = " ".join(str(getattr(exc, "problem", None) or exc).split())
        raise ConfigError([Problem(file, line, "",
                                   msg("core.config.syntax", reason=reason))]) from exc
    if node is None:
        return {}, {}
    reader = _Reader(file)
    try:
        data = reader.node_to_data(node, prefix)
    except yaml.YAMLError as exc:
        reason = " ".join(str(exc).split())
        problem = Problem(file, None, "", msg("core.config.syntax", reason=reason))
        raise ConfigError([problem]) from exc
    return data, reader.lines


# -- defaults -------------------------------------------------------------------------
Where = dict[Path_, tuple[str, int]]


def load_defaults(config_dir: Path = CONFIG_DIR) -> tuple[dict[str, Any], Where]:
    """`app.yaml` at the top, `games/<kind>.yaml` under `games.<kind>`, `hardware.yaml`
    under `hardware`. Returns the data and where each key was set."""
    data: dict[str, Any] = {}
    where: Where = {}
    parts: list[tuple[Path, Path_]] = [(config_dir / "app.yaml", ())]
    parts += [(p, ("games", p.stem)) for p in sorted((config_dir / "games").glob("*.yaml"))]
    if (config_dir / "hardware.yaml").exists():
        parts.append((config_dir / "hardware.yaml", ("hardware",)))
    for path, prefix in parts:
        part, lines = read_yaml(path, prefix)
        if not isinstance(part, dict):
            problem = Problem(str(path), 1, ".".join(prefix), msg("core.config.not_mapping"))
            raise ConfigError([problem])
        target = data
        for key in prefix:
            target = target.setdefault(key, {})
        target.update(part)
        where.update({k: (str(path), line) for k, line in lines.items()})
    return data, where


def user_config_path() -> Path | None:
    """The user's file: $COMPANION_CONFIG, else the XDG config dir, else /etc."""
    explicit = os.environ.get("COMPANION_CONFIG")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    for candidate in (Path(xdg) / APP_DIR / USER_FILE, Path("/etc") / APP_DIR / USER_FILE):
        if candidate.exists():
            return candidate
    return None


# -- checking -------------------------------------------------------------------------
def _type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "mapping"
    return "null" if value is None else type(value).__name__


def _same_type(default: Any, value: Any) -> bool:
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(default, bool) and isinstance(value, bool)
    if isinstance(default, float):
        return isinstance(value, (int, float))
    return isinstance(value, type(default))


def check_against(
    default: Any, value: Any, path: Path_, report: Callable[[Path_, Message], None]
) -> None:
    if not _same_type(default, value):
        report(path, msg("core.config.wrong_type", expected=_type_name(default),
                         found=_type_name(value)))
        return
    if isinstance(default, dict):
        if not default:
            return  # an empty mapping in the defaults accepts any keys
        for key, sub in value.items():
            if key not in default:
                import difflib  # only to suggest a key for a typo

                close = difflib.get_close_matches(key, list(default), n=1)
                hint = msg("core.config.did_you_mean", key=close[0]) if close else ""
                report((*path, key), msg("core.config.unknown_key", hint=hint))
            else:
                check_against(default[key], sub, (*path, key), report)
    elif isinstance(default, list) and default:
        kinds = {_type_name(item) for item in default}
        if len(kinds) == 1 and not isinstance(default[0], (dict, list)):
            for i, item in enumerate(value):
                if not _same_type(default[0], item):
                    report((*path, str(i)), msg("core.config.wrong_type",
                                                expected=_type_name(default[0]),
                                                found=_type_name(item)))


def merge(base: dict[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(base)
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), dict) and out[key]:
            out[key] = merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def _sections(data: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    found = []
    for section in _VALIDATORS:
        node: Any = data
        for part in filter(None, section.split(".")):
            node = node.get(part) if isinstance(node, Mapping) else None
        if isinstance(node, Mapping):
            found.append((section, node))
    return found


def load(user_file: Path | None = None, config_dir: Path = CONFIG_DIR,
         *, use_default_user_file: bool = True, check_defaults: bool = False) -> Config:
    """Defaults merged with the user's file; raises ConfigError listing every problem.

    A section's validator runs when the user's file sets something in it: the shipped
    defaults are checked by the tests and by `companion check-config`
    (`check_defaults=True`), so a start does not import every game to check them."""
    import companion.games  # noqa: F401  (registers each game's validator)

    defaults, where = load_defaults(config_dir)
    if user_file is None and use_default_user_file:
        user_file = user_config_path()
    problems: list[Problem] = []
    data = defaults
    user_lines: dict[Path_, int] = {}
    if user_file is not None:
        user, user_lines = read_yaml(Path(user_file))
        if user in (None, {}):
            user = {}
        if not isinstance(user, dict):
            raise ConfigError([Problem(str(user_file), 1, "", msg("core.config.not_mapping"))])

        def report(path: Path_, message: Message) -> None:
            problems.append(Problem(str(user_file), _line_of(user_lines, path),
                                    ".".join(path), message))

        check_against(defaults, user, (), report)
        if problems:
            raise ConfigError(problems)
        data = merge(defaults, user)

    for section, node in _sections(data):
        prefix = tuple(filter(None, section.split(".")))
        if prefix and not check_defaults and not _sets(user_lines, prefix):
            continue
        for key, message in _VALIDATORS[section](node):
            path = (*prefix, *[p for p in key.split(".") if p])
            user_line = _line_of(user_lines, path, stop=len(prefix))
            if user_file is not None and user_line:
                file, line = str(user_file), user_line
            else:
                file, line = where.get(path, where.get(prefix, ("config", 0)))
            problems.append(Problem(file, line or None, ".".join(path), message))
    if problems:
        raise ConfigError(problems)
    return Config(data, Path(user_file) if user_file else None)


def _sets(lines: Mapping[Path_, int], prefix: Path_) -> bool:
    """Whether the user's file sets a key in the section at `prefix`."""
    return any(path[:len(prefix)] == prefix for path in lines if len(path) >= len(prefix))


def _line_of(lines: Mapping[Path_, int], path: Path_, stop: int = 1) -> int | None:
    """The line of a key, or of its closest parent (at least `stop` deep) the file sets."""
    probe = path
    while len(probe) >= max(stop, 1):
        if probe in lines:
            return lines[probe]
        probe = probe[:-1]
    return None


MULTISAMPLES = (0, 2, 4, 8)  # what OpenGL ES drivers offer
ROTATIONS = (0, 90, 180, 270)  # what Kivy's Window.rotation takes


def _validate_app(data: Mapping[str, Any]) -> list[tuple[str, Message]]:
    from companion.i18n import LANGUAGES

    problems: list[tuple[str, Message]] = []
    if data.get("language") not in LANGUAGES:
        problems.append(("language", msg("core.config.language", choices=", ".join(LANGUAGES))))
    display = data.get("display", {})
    if not 0 <= display.get("roll_animation", 0) <= 0.6:
        problems.append(("display.roll_animation",
                         msg("core.config.bad_value", reason="0 .. 0.6")))
    for key in ("width", "height"):
        if display.get(key, 1) < 100:
            problems.append((f"display.{key}", msg("core.config.at_least", minimum=100)))
    if display.get("multisamples", 0) not in MULTISAMPLES:
        problems.append(("display.multisamples", msg(
            "core.config.bad_value", reason=", ".join(str(n) for n in MULTISAMPLES))))
    if display.get("rotation", 0) not in ROTATIONS:
        problems.append(("display.rotation", msg(
            "core.config.bad_value", reason=", ".join(str(n) for n in ROTATIONS))))
    return problems


register_validator("", _validate_app)
