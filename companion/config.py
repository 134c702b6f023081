"""Configuration: YAML defaults in `config/`, then the user's file, then the settings the
app saved (`companion.settings`), every key checked.

The defaults are also the schema: a user key must exist in the defaults (an empty
mapping there accepts any key) and have the same type. Then each section's own
validator (a game's dice faces, the hardware pins) checks the meaning. Every problem
names the file, the line and the dotted key, so `companion check-config` and the
screen can say exactly what to fix. Only plain YAML is read, within bounds (size,
depth, aliases: see `read_yaml`), so a hostile file is refused, never a hang or a crash.
"""

from __future__ import annotations

import copy
import json
import logging
import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.files import NotRegularFile, keep_aside, open_regular
from companion.messages import Message, msg

if TYPE_CHECKING:
    import yaml

CONFIG_DIR = Path(__file__).resolve().parents[1] / "config"
APP_DIR = "table-companion"
USER_FILE = "config.yaml"
SETTINGS_FILE = "settings.yaml"  # what the settings screen saves (the app's own file)

Path_ = tuple[str, ...]
Validator = Callable[[Mapping[str, Any]], list[tuple[str, Message]]]
#: a section's name ("games.evil", "hardware") -> its validator: each layer (a game, the
#: hardware) offers its own, and the caller that knows the layers hands them to `load`
#: (the configuration imports none of them); the app's own keys are always checked
Validators = Mapping[str, Validator]
log = logging.getLogger(__name__)


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
    """The configuration in use: the defaults, the user's file, the app's settings."""

    data: dict[str, Any]
    user_file: Path | None = None
    files: list[str] = field(default_factory=list)
    settings_file: Path | None = None  # the app's own layer (`companion.settings`)
    set_aside: SetAside | None = None  # that layer, refused at start and moved aside
    #: the sections' validators it was checked with: a saved setting is checked by them
    validators: Validators = field(default_factory=dict)

    def get(self, dotted: str, default: Any = None) -> Any:
        node: Any = self.data
        for part in dotted.split("."):
            if not isinstance(node, Mapping) or part not in node:
                return default
            node = node[part]
        return node


# -- reading YAML with line numbers, within bounds ---------------------------------------
# A config is a few kilobytes written by hand. These bounds refuse, before anything is
# built, a file that would take the app down: a huge file, deep nesting, an alias that
# contains itself or aliases that multiply ("billion laughs"). Each refusal has a line.
MAX_BYTES = 64 * 1024  # the defaults, copied whole with their comments, are 12 KiB
MAX_DEPTH = 32  # nested mappings and lists (the defaults use 5)
MAX_ALIASES = 32  # `*name` references in one file
MAX_NODES = 20_000  # values once every alias is expanded (the defaults hold 300)
MAX_INTEGER = 10**100  # a larger integer is refused as it is read (nothing needs one)
_TAG = "tag:yaml.org,2002:"
PLAIN_TAGS = frozenset(_TAG + t for t in ("str", "int", "float", "bool", "null", "seq",
                                          "map"))


def _refuse(file: str, line: int | None, path: Path_, message: Message) -> ConfigError:
    return ConfigError([Problem(file, line, ".".join(path), message)])


def _yaml_loader() -> Any:
    """libyaml's parser where PyYAML has it (same nodes and line marks, much faster)."""
    import yaml

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Reader:
    def __init__(self, file: str) -> None:
        import yaml

        self.file = file
        self.lines: dict[Path_, int] = {}
        self.nodes = 0
        self._constructor = yaml.SafeLoader("")

    def node_to_data(self, node: yaml.Node, path: Path_) -> Any:
        import yaml

        line = node.start_mark.line + 1
        self.lines[path] = line
        self.nodes += 1
        if self.nodes > MAX_NODES:  # aliases can multiply what a small file holds
            raise _refuse(self.file, line, path, msg("core.config.too_many_values",
                                                     limit=MAX_NODES))
        if len(path) > MAX_DEPTH:  # aliases nested in aliases
            raise _refuse(self.file, line, path, msg("core.config.too_deep", limit=MAX_DEPTH))
        if isinstance(node, yaml.MappingNode):
            out: dict[str, Any] = {}
            for key_node, value_node in node.value:
                key_line = key_node.start_mark.line + 1
                if key_node.tag == _TAG + "merge":
                    raise _refuse(self.file, key_line, (*path, "<<"),
                                  msg("core.config.merge_key"))
                if not isinstance(key_node, yaml.ScalarNode):
                    raise _refuse(self.file, key_line, path, msg("core.config.complex_key"))
                key = str(self.scalar(key_node, path))
                if key in out:
                    raise _refuse(self.file, key_line, (*path, key),
                                  msg("core.config.duplicate_key"))
                out[key] = self.node_to_data(value_node, (*path, key))
                # a key's line is where the key is written, not where its block value starts
                self.lines[(*path, key)] = key_line
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.node_to_data(item, (*path, str(i))) for i, item in enumerate(node.value)]
        return self.scalar(node, path)

    def scalar(self, node: yaml.Node, path: Path_) -> Any:
        """A scalar's value; what PyYAML's constructors cannot build from its text (an
        integer of 5000 digits, the date 9999-99-99, year 0) is refused at its key."""
        import yaml

        kind = (node.tag or "").removeprefix(_TAG)
        try:
            value = self._constructor.construct_object(node, deep=True)
            if isinstance(value, int) and not isinstance(value, bool) \
                    and abs(value) >= MAX_INTEGER:  # from 0x…, 0b…, 1:59:59…
                raise OverflowError(kind)
            str(value)  # what a message or a key makes of it
        except yaml.YAMLError as exc:  # `!!binary` of what is not base64...
            reason = " ".join(str(getattr(exc, "problem", None) or exc).split())
            raise _refuse(self.file, node.start_mark.line + 1, path,
                          msg("core.config.syntax", reason=reason)) from exc
        except (ValueError, OverflowError, ArithmeticError, TypeError, KeyError,
                IndexError) as exc:
            raise _refuse(self.file, node.start_mark.line + 1, path,
                          msg("core.config.bad_scalar", kind=kind)) from exc
        return value


def _read_bounded(path: Path) -> str:
    """The file's text: at most MAX_BYTES, strict UTF-8; the refusals name a line."""
    file = str(path)
    try:
        with open_regular(path) as handle:  # a named pipe here must not hang the start
            data = handle.read(MAX_BYTES + 1)
    except FileNotFoundError as exc:
        key = "core.config.not_regular" if os.path.lexists(path) else "core.config.missing_file"
        raise ConfigError([Problem(file, None, "", msg(key))]) from exc  # a link to nothing
    except NotRegularFile as exc:
        raise ConfigError([Problem(file, None, "", msg("core.config.not_regular"))]) from exc
    except OSError as exc:
        raise ConfigError([Problem(file, None, "", msg(
            "core.config.unreadable", reason=exc.strerror or str(exc)))]) from exc
    if len(data) > MAX_BYTES:
        line = data.count(b"\n", 0, MAX_BYTES) + 1
        raise _refuse(file, line, (), msg("core.config.too_big", limit=MAX_BYTES // 1024))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise _refuse(file, line, (), msg("core.config.not_utf8", column=column,
                                          byte=f"0x{data[exc.start]:02x}")) from exc


def _scan(text: str, file: str, prefix: Path_) -> None:
    """Walk the parser's events (no tree is built) and refuse what is out of bounds,
    with the line and the key where it is written."""
    import yaml

    frames: list[list[Any]] = []  # per open collection: [is_mapping, expects_key, key/index]
    anchors: list[str | None] = []  # of the open collections: an alias to one is recursive
    aliases = 0
    for event in yaml.parse(text, Loader=_yaml_loader()):
        if not isinstance(event, yaml.NodeEvent):
            if isinstance(event, yaml.CollectionEndEvent):
                frames.pop()
                anchors.pop()
            continue
        line = event.start_mark.line + 1
        if frames:
            frame = frames[-1]
            if frame[0] and frame[1]:  # a key
                frame[2] = event.value if isinstance(event, yaml.ScalarEvent) else "?"
                frame[1] = False
                if frame[2] == "<<" and isinstance(event, yaml.ScalarEvent) \
                        and event.implicit[0]:
                    path = (*prefix, *(str(f[2]) for f in frames))
                    raise _refuse(file, line, path, msg("core.config.merge_key"))
            elif frame[0]:
                frame[1] = True
            else:
                frame[2] += 1
        path = (*prefix, *(str(f[2]) for f in frames))
        if isinstance(event, yaml.AliasEvent):
            aliases += 1
            if event.anchor in anchors:
                raise _refuse(file, line, path, msg("core.config.recursive_alias",
                                                    name=str(event.anchor)))
            if aliases > MAX_ALIASES:
                raise _refuse(file, line, path, msg("core.config.too_many_aliases",
                                                    limit=MAX_ALIASES))
            continue
        tag = getattr(event, "tag", None)
        if tag is not None and tag not in PLAIN_TAGS and tag != "!":
            raise _refuse(file, line, path, msg("core.config.tag", tag=str(tag)))
        if isinstance(event, yaml.CollectionStartEvent):
            if len(frames) >= MAX_DEPTH:
                raise _refuse(file, line, path, msg("core.config.too_deep", limit=MAX_DEPTH))
            is_mapping = isinstance(event, yaml.MappingStartEvent)
            # a list's index starts at -1: its first item makes it 0
            frames.append([is_mapping, True, "" if is_mapping else -1])
            anchors.append(event.anchor)


def read_yaml(path: Path, prefix: Path_ = (), *, scan: bool = True
              ) -> tuple[Any, dict[Path_, int]]:
    """The data of a YAML file and the line of each key; ConfigError otherwise.
    `scan=False` skips the walk over the events, for the shipped defaults only (the
    tests check them; a start reads six of them). Every start parses its files: what
    one start parsed is not kept for the next, since a kept copy would have to be
    checked as its source is (each game's section) to be trusted."""
    return _parse(_read_bounded(path), str(path), prefix, scan)


def _parse(text: str, file: str, prefix: Path_, scan: bool
           ) -> tuple[Any, dict[Path_, int]]:
    import yaml

    try:
        if scan:
            _scan(text, file, prefix)
        node = yaml.compose(text, Loader=_yaml_loader())
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
    except (yaml.YAMLError, RecursionError) as exc:
        mark = getattr(exc, "problem_mark", None)
        reason = " ".join(str(getattr(exc, "problem", None) or exc).split())
        problem = Problem(file, mark.line + 1 if mark else None, "",
                          msg("core.config.syntax", reason=reason))
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
        part, lines = read_yaml(path, prefix, scan=config_dir != CONFIG_DIR)
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
def type_name(value: Any) -> str:
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


NUMBER_LIMIT = 10**9  # any number in a config; each key's validator narrows it
WINDOW = (100, 7680)  # pixels, each side (SDL refuses a larger window)
DIM_MAX = 86_400  # seconds: a day
# keys whose range is known before the sections' validators run, so that a huge value
# is refused with the key's own range
SNAPSHOT_EVERY = (1, 10_000)  # actions between snapshots (more only slows a resume)
RANGES: dict[Path_, tuple[int, int]] = {
    ("display", "width"): WINDOW, ("display", "height"): WINDOW,
    ("display", "dim_after"): (0, DIM_MAX), ("snapshot_every",): SNAPSHOT_EVERY,
    ("display", "blank_after"): (0, DIM_MAX),
}


def check_against(
    default: Any, value: Any, path: Path_, report: Callable[[Path_, Message], None]
) -> None:
    if not _same_type(default, value):
        report(path, msg("core.config.wrong_type", expected=type_name(default),
                         found=type_name(value)))
        return
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        # what no setting means and what would overflow a C integer in a library; a
        # key with a known range says that range
        low, high = RANGES.get(path, (-NUMBER_LIMIT, NUMBER_LIMIT))
        if not (math.isfinite(value) and low <= value <= high):
            report(path, msg("core.config.number_range", low=low, high=high))
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
        kinds = {type_name(item) for item in default}
        if len(kinds) == 1 and not isinstance(default[0], (dict, list)):
            for i, item in enumerate(value):
                if not _same_type(default[0], item):
                    report((*path, str(i)), msg("core.config.wrong_type",
                                                expected=type_name(default[0]),
                                                found=type_name(item)))
                elif isinstance(item, (int, float)) and not isinstance(item, bool) and not (
                        math.isfinite(item) and abs(item) <= NUMBER_LIMIT):
                    report((*path, str(i)), msg("core.config.number_range",
                                                low=-NUMBER_LIMIT, high=NUMBER_LIMIT))


def merge(base: dict[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(base)
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), dict) and out[key]:
            out[key] = merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def _sections(data: Mapping[str, Any],
              validators: Validators) -> list[tuple[str, Mapping[str, Any]]]:
    found = []
    for section in validators:
        node: Any = data
        for part in filter(None, section.split(".")):
            node = node.get(part) if isinstance(node, Mapping) else None
        if isinstance(node, Mapping):
            found.append((section, node))
    return found


def default_data_dir() -> Path:
    """Where the app keeps what it writes (the journal, its settings) by default."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / APP_DIR


def settings_path(data: Mapping[str, Any] | None = None, data_dir: str | None = None) -> Path:
    """The settings file the app owns: $COMPANION_SETTINGS, else `settings.yaml` beside
    the journal (the `data_dir` given or configured, else the XDG data dir): the one
    place a hardened service may write."""
    explicit = os.environ.get("COMPANION_SETTINGS")
    if explicit:
        return Path(explicit)
    folder = data_dir or (data or {}).get("data_dir") or ""
    return (Path(folder) if folder else default_data_dir()) / SETTINGS_FILE


Layer = tuple[str, dict[Path_, int]]  # a file and the line of each key it sets


def read_layer(path: Path, defaults: Mapping[str, Any],
               refused_keys: tuple[str, ...] = ()) -> tuple[dict[str, Any], Layer]:
    """A user file checked against the defaults (the schema); ConfigError otherwise."""
    file = str(path)
    data, lines = read_yaml(path)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError([Problem(file, 1, "", msg("core.config.not_mapping"))])
    problems: list[Problem] = []

    def report(key: Path_, message: Message) -> None:
        if len(problems) >= MAX_PROBLEMS:
            raise _TooMany  # a screenful says enough; listing 20 000 would take seconds
        problems.append(Problem(file, _line_of([(file, lines)], key)[1], ".".join(key),
                                message))

    try:
        for key in refused_keys:
            if key in data:
                report((key,), msg("core.config.not_a_setting", key=key))
        check_against(defaults, data, (), report)
    except _TooMany:
        problems.append(Problem(file, None, "", msg("core.config.more_problems",
                                                    shown=MAX_PROBLEMS)))
    if problems:
        raise ConfigError(problems)
    return data, (file, lines)


MAX_PROBLEMS = 30  # listed per file; the rest is one line saying there are more


class _TooMany(Exception):
    pass


def load(user_file: Path | None = None, config_dir: Path = CONFIG_DIR,
         *, use_default_user_file: bool = True, check_defaults: bool = False,
         settings_file: Path | None = None, data_dir: str | None = None,
         set_aside_settings: bool = False, validators: Validators | None = None) -> Config:
    """The defaults, then the user's file, then the app's settings file, each layer
    over the one before; raises ConfigError listing every problem.

    `set_aside_settings` (the app's start): a settings file that is refused (it cannot
    be read, or a value in it is) is moved aside with its reason (`set_aside`) and the
    start goes on without it; `Config.set_aside` says what was dropped. Otherwise (a
    save, `companion check-config`) its problems are raised like any other.

    With `use_default_user_file`, the user's file is looked for (`user_config_path`)
    and the settings file is `settings_path(...)` (when it exists). A section's
    validator runs when a user layer sets something in it: the shipped defaults are
    checked by the tests and by `companion check-config` (`check_defaults=True`), so a
    start does not import every game to check them. `validators` are the sections'
    (`companion.games.VALIDATORS`, the hardware's): the caller hands them in, the
    app's own keys are checked in any case."""
    return _load(user_file, config_dir, use_default_user_file, check_defaults,
                 settings_file, data_dir, set_aside_settings,
                 validators={"": _validate_app, **(validators or {})})


def _load(user_file: Path | None, config_dir: Path, use_default_user_file: bool,
          check_defaults: bool, settings_file: Path | None, data_dir: str | None,
          set_aside_settings: bool, without_settings: SetAside | None = None, *,
          validators: Validators) -> Config:
    defaults, where = load_defaults(config_dir)
    if user_file is None and use_default_user_file:
        user_file = user_config_path()
    data = defaults
    layers: list[Layer] = []
    if user_file is not None:
        user, layer = read_layer(Path(user_file), defaults)
        data = merge(defaults, user)
        layers.append(layer)
    settings = settings_file
    if settings is None and use_default_user_file:
        settings = settings_path(data, data_dir)
    set_aside = without_settings
    if settings is not None and set_aside is None \
            and (settings_file is not None or Path(settings).exists()):
        # the journal's place cannot move with a file kept in that place
        try:
            saved, layer = read_layer(Path(settings), defaults, refused_keys=("data_dir",))
        except ConfigError as exc:
            if not set_aside_settings:
                raise
            set_aside = _set_aside(Path(settings), exc.problems)
        else:
            data = merge(data, saved)
            layers.append(layer)

    problems: list[Problem] = []
    for section, node in _sections(data, validators):
        prefix = tuple(filter(None, section.split(".")))
        if prefix and not check_defaults and not any(_sets(lines, prefix)
                                                     for _, lines in layers):
            continue
        for key, message in validators[section](node):
            path = (*prefix, *[p for p in key.split(".") if p])
            file, line = _line_of(layers, path, stop=len(prefix))
            if not line:
                file, line = where.get(path, where.get(prefix, ("config", 0)))
            problems.append(Problem(file, line or None, ".".join(path), message))
    if problems and set_aside_settings and settings is not None and set_aside is None:
        blamed = [p for p in problems if p.file == str(settings)]
        if blamed:  # a saved value a section refuses: the start goes on without the file
            return _load(user_file, config_dir, use_default_user_file, check_defaults,
                         settings_file, data_dir, set_aside_settings,
                         without_settings=_set_aside(Path(settings), blamed),
                         validators=validators)
    if problems:
        raise ConfigError(problems)
    return Config(data, Path(user_file) if user_file else None,
                  settings_file=Path(settings) if settings is not None else None,
                  set_aside=set_aside,
                  validators={k: v for k, v in validators.items() if k})


# -- the app's own settings file, when refused ----------------------------------------
MAX_DROPPED_KEYS = 40  # kept to be listed; the file kept aside has them all


@dataclass(frozen=True)
class SetAside:
    """A settings file refused at start and moved out of the way, so the start goes on
    with the user's config (the people at the table cannot edit the app's own file)."""

    file: str  # where it was (the app saves there again)
    kept: str | None  # where it is now; None: it could not be moved (said each start)
    keys: tuple[str, ...] | None  # the settings it held (the first MAX_DROPPED_KEYS);
    # None: it could not be read
    count: int  # how many settings it held
    problems: tuple[Problem, ...]  # why it was refused


def _set_aside(path: Path, problems: list[Problem]) -> SetAside:
    """Move a refused settings file aside as `<name>.refused-<stamp>`, its reason in a
    `.reason` file beside it, and say what it held."""
    keys: tuple[str, ...] | None = None
    count = 0
    try:
        data, _ = read_yaml(path)
    except ConfigError:
        data = None
    if isinstance(data, dict):
        found = _leaf_keys(data)
        keys, count = tuple(found[:MAX_DROPPED_KEYS]), len(found)
    reason = "\n".join(f"{p.file}:{p.line or '-'}: {p.key or '-'}: {p.message.key} "
                       f"{json.dumps(p.message.params, default=str)}" for p in problems)
    kept: Path | None = None
    try:
        kept = keep_aside(path, "refused")
        kept.with_name(kept.name + ".reason").write_text(reason + "\n", encoding="utf-8")
    except OSError as exc:
        log.warning("config: the refused %s could not be set aside: %s", path,
                    exc.strerror or exc)
    log.warning("config: %s refused, the start goes on without it%s: %s", path,
                f" (kept as {kept})" if kept else "", reason.replace("\n", "; "))
    return SetAside(str(path), str(kept) if kept else None, keys, count, tuple(problems))


def _leaf_keys(data: Mapping[str, Any]) -> list[str]:
    """The dotted keys a settings file sets, in the file's order (a read file is
    bounded: at most MAX_NODES values)."""
    found: list[str] = []
    todo: list[tuple[str, Any]] = [(str(k), v) for k, v in reversed(list(data.items()))]
    while todo:
        key, value = todo.pop()
        if isinstance(value, Mapping) and value:
            todo.extend((f"{key}.{k}", v) for k, v in reversed(list(value.items())))
        else:
            found.append(key)
    return found


def _sets(lines: Mapping[Path_, int], prefix: Path_) -> bool:
    """Whether the user's file sets a key in the section at `prefix`."""
    return any(path[:len(prefix)] == prefix for path in lines if len(path) >= len(prefix))


def _line_of(layers: list[Layer], path: Path_, stop: int = 1) -> tuple[str, int | None]:
    """The file and line of a key, or of its closest parent (at least `stop` deep) a
    layer sets; the last layer that sets it wins (its value is the one in use)."""
    probe = path
    while len(probe) >= max(stop, 1):
        for file, lines in reversed(layers):
            if probe in lines:
                return file, lines[probe]
        probe = probe[:-1]
    return (layers[-1][0] if layers else "config"), None


MULTISAMPLES = (0, 2, 4, 8)  # what OpenGL ES drivers offer
ROTATIONS = (0, 90, 180, 270)  # what Kivy's Window.rotation takes


def _validate_app(data: Mapping[str, Any]) -> list[tuple[str, Message]]:
    from companion.i18n import LANGUAGES

    problems: list[tuple[str, Message]] = []
    if data.get("language") not in LANGUAGES:
        problems.append(("language", msg("core.config.language", choices=", ".join(LANGUAGES))))
    low, high = SNAPSHOT_EVERY
    if not low <= data.get("snapshot_every", low) <= high:  # never quietly made 1
        problems.append(("snapshot_every", msg("core.config.number_range", low=low,
                                               high=high)))
    display = data.get("display", {})
    if not 0 <= display.get("roll_animation", 0) <= 0.6:
        problems.append(("display.roll_animation",
                         msg("core.config.bad_value", reason="0 .. 0.6")))
    if not 0 <= display.get("roll_guard", 0) <= 2:
        problems.append(("display.roll_guard", msg("core.config.number_range", low=0,
                                                   high=2)))
    for key in ("width", "height"):  # a window larger than 8K is refused by SDL
        if not WINDOW[0] <= display.get(key, 800) <= WINDOW[1]:
            problems.append((f"display.{key}", msg("core.config.number_range",
                                                   low=WINDOW[0], high=WINDOW[1])))
    for key in ("dim_after", "blank_after"):
        if not 0 <= display.get(key, 0) <= DIM_MAX:
            problems.append((f"display.{key}", msg("core.config.number_range", low=0,
                                                   high=DIM_MAX)))
    if display.get("multisamples", 0) not in MULTISAMPLES:
        problems.append(("display.multisamples", msg(
            "core.config.bad_value", reason=", ".join(str(n) for n in MULTISAMPLES))))
    if display.get("rotation", 0) not in ROTATIONS:
        problems.append(("display.rotation", msg(
            "core.config.bad_value", reason=", ".join(str(n) for n in ROTATIONS))))
    return problems

