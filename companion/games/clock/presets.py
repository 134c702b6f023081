"""The clock's presets: the built-in `config/clock/<id>.yaml` and the table's own,
`clock/<id>.yaml` beside the user's config file (`companion.config.user_config_path`,
else `$XDG_CONFIG_HOME/table-companion/clock/`). A table's preset with a built-in's id
replaces it.

Each file is read by the project's hardened YAML reader (`companion.config.read_yaml`:
bounded size and depth, plain YAML only) and checked (`params.read_preset`); every
problem is a `Problem` with `file:line: key: message`. A broken file is listed as
broken and never hides the others; `companion check-config` prints them all.

The table's own folder is read within `companion.ownfolder`'s bound on the whole
folder (files and bytes; each file past it listed as broken, named), and each file's
reading is kept while the file is unchanged (`CACHE`): a folder read again costs a stat
per file. The app reads it on a worker thread (`ui.ownfolders`), never on the UI's.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion import ownfolder
from companion.config import APP_DIR, CONFIG_DIR, ConfigError, Problem, read_yaml
from companion.games.clock.params import MODES, ClockParams, read_preset
from companion.messages import Message, msg

BUILTIN_DIR = CONFIG_DIR / "clock"
CACHE = ownfolder.Cache()  # each file's reading, while the file is unchanged
_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")


@dataclass(frozen=True)
class Preset:
    """One preset: its id (the file's name), its name per language ("" for every
    language; none: the catalog's `clock.preset.<id>`), its parameters, its file."""

    id: str
    params: ClockParams
    file: str
    own: bool  # the table's own (else built in)
    names: tuple[tuple[str, str], ...] = ()

    def title(self, translate: Callable[..., str], language: str) -> str:
        """The name shown: the file's in the language (or its one name), else the
        catalog's for a built-in, else the id."""
        names = dict(self.names)
        for key in (language, "", "en"):
            if key in names:
                return names[key]
        if names:
            return next(iter(names.values()))
        text = translate(f"clock.preset.{self.id}")
        return self.id if text == f"clock.preset.{self.id}" else text


@dataclass
class Presets:
    """Every preset read, in order (built-ins then the table's own, each by mode, then
    shortest first), with the problems
    and warnings of every file; `broken`: the files refused."""

    presets: dict[str, Preset] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    broken: list[str] = field(default_factory=list)

    def get(self, preset_id: str) -> Preset | None:
        return self.presets.get(preset_id)


def own_dir(user_file: Path | None = None) -> Path:
    """Where the table keeps its own presets: beside its config file."""
    if user_file is not None:
        return Path(user_file).parent / "clock"
    xdg = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(xdg) / APP_DIR / "clock"


def _line(lines: dict[tuple[str, ...], int], key: str) -> int | None:
    path = tuple(p for p in key.split(".") if p)
    while path:
        if path in lines:
            return lines[path]
        path = path[:-1]
    return 1 if lines else None


def read_file(path: Path, *, own: bool) -> tuple[Preset | None, list[Problem], list[Problem]]:
    """One preset file: the preset (None when refused), its problems, its warnings."""
    file = str(path)
    if not _ID.match(path.stem):
        return None, [Problem(file, None, "", msg("clock.config.file_name"))], []
    try:
        data, lines = read_yaml(path)
    except ConfigError as exc:
        return None, list(exc.problems), []
    read = read_preset(data)

    def problem(key: str, message: Message) -> Problem:
        return Problem(file, _line(lines, key), key, message)

    problems = [problem(k, m) for k, m in read.problems]
    warnings = [problem(k, m) for k, m in read.warnings]
    if read.params is None or problems:
        return None, problems, warnings
    preset = Preset(path.stem, read.params, file, own, tuple(read.names.items()))
    return preset, [], warnings


def _files(folder: Path) -> tuple[list[Path], list[Problem]]:
    """The built-in folder's files (the project's own: not bounded)."""
    try:
        return sorted(p for p in folder.glob("*.yaml") if not p.name.startswith(".")), []
    except OSError as exc:
        return [], [Problem(str(folder), None, "", msg("core.config.unreadable",
                                                       reason=exc.strerror or str(exc)))]


def _read(path: Path, own: bool) -> tuple[Preset | None, list[Problem], list[Problem]]:
    return CACHE.read(path, lambda p: read_file(p, own=own))


def load_presets(user_file: Path | None = None, *, builtin_dir: Path = BUILTIN_DIR,
                 own: Path | None = None) -> Presets:
    """The built-in presets, then the table's own (`own`, else beside `user_file`)."""
    out = Presets()
    own = own or own_dir(user_file)
    folders = [(builtin_dir, False), (own, True)]
    for folder, is_own in folders:
        if not folder.is_dir():
            continue
        if is_own:
            listed = ownfolder.listing(folder)
            CACHE.keep_only(folder, listed.files)
            files, problems = list(listed.files), list(listed.refused)
        else:
            files, problems = _files(folder)
        out.problems.extend(problems)
        out.broken.extend(p.file for p in problems if p.file != str(folder))
        read = []
        for path in files:
            preset, problems, warnings = _read(path, is_own)
            out.problems.extend(problems)
            out.warnings.extend(warnings)
            if preset is None:
                out.broken.append(str(path))
            else:
                read.append(preset)
        # offered by mode (sand, turn, bank, phase, count-up), then shortest first
        for preset in sorted(read, key=_order):
            out.presets.pop(preset.id, None)
            out.presets[preset.id] = preset
    return out


def _order(preset: Preset) -> tuple[int, int, str]:
    return MODES.index(preset.params.mode), preset.params.time_ms, preset.id


def setup_for(preset: Preset, players: list[dict[str, Any]], *, seed: int,
              start: int | None = None, banks: list[int | None] | None = None,
              pad_game: int | None = None) -> dict[str, Any]:
    """A clock session's setup from a preset (what `RULES.initial_state` takes)."""
    setup: dict[str, Any] = {"preset": preset.id, "params": preset.params.to_setup(),
                             "players": players, "seed": seed, "start": start,
                             "pad_game": pad_game}
    if banks is not None:
        setup["banks"] = banks
    return setup
