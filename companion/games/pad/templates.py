"""Finding and reading score pad templates: the built-ins in `config/pad/*.yaml`, the
table's own in `pad/` beside the user's config file.

Each file is read with the config's hardened YAML reader (at most 64 KiB, strict
UTF-8, plain YAML only: no tags, no merge keys, bounded depth and aliases), then
checked by `template.parse`. Every refusal is a `companion.config.Problem` (file,
line, dotted key, message), so `companion check-config` prints `file:line: key:
message`. A broken file is listed as broken (`Catalogue.broken`) and never hides the
others. An id given twice, or a table's template using a built-in's id without
`replaces: true`, is a refusal of the later file.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from companion import config
from companion.config import ConfigError, Problem
from companion.games.pad.template import Template, TemplateError, parse
from companion.messages import msg

BUILTIN_DIR = config.CONFIG_DIR / "pad"
FOLDER = "pad"
MAX_FILES = 200  # a folder of the table's own templates (more are listed as skipped)


@dataclass(frozen=True)
class Found:
    template: Template
    path: Path
    builtin: bool


@dataclass(frozen=True)
class Broken:
    path: Path
    problems: tuple[Problem, ...]


@dataclass(frozen=True)
class Catalogue:
    templates: tuple[Found, ...]  # built-ins first (replaced ones by the table's), by id
    broken: tuple[Broken, ...]

    def get(self, ident: str) -> Template | None:
        for found in self.templates:
            if found.template.id == ident:
                return found.template
        return None


def user_dir() -> Path:
    """`pad/` beside the user's config file (or where that file would be)."""
    user = config.user_config_path()
    if user is not None:
        return user.parent / FOLDER
    xdg = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(xdg) / config.APP_DIR / FOLDER


def read_template(path: Path) -> Template:
    """One template file; ConfigError listing its problems, each with its line."""
    return _read(path)[0]


def _read(path: Path) -> tuple[Template, dict[tuple[str, ...], int]]:
    data, lines = config.read_yaml(path)
    try:
        return parse(data), lines
    except TemplateError as exc:
        raise ConfigError([_problem(path, lines, key, message)
                           for key, message in exc.problems]) from exc


def _problem(path: Path, lines: dict[tuple[str, ...], int], key: str, message: object
             ) -> Problem:
    parts = tuple(key.split(".")) if key else ()
    line = None
    while parts and line is None:  # a key not written (a required one): its parent's line
        line = lines.get(parts)
        parts = parts[:-1]
    return Problem(str(path), line or (1 if not key else None), key, message)  # type: ignore[arg-type]


def _files(folder: Path | None) -> list[Path]:
    if folder is None or not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("*.yaml") if p.is_file())


def load(builtin_dir: Path = BUILTIN_DIR, own_dir: Path | None = None) -> Catalogue:
    """Every template, the built-ins then the table's own; `own_dir` None: `user_dir()`."""
    own = user_dir() if own_dir is None else own_dir
    found: dict[str, Found] = {}
    broken: list[Broken] = []
    for builtin, folder in ((True, builtin_dir), (False, own)):
        files = _files(folder)
        for index, path in enumerate(files):
            if index >= MAX_FILES:
                broken.append(Broken(path, (Problem(str(path), None, "", msg(
                    "pad.template.too_many_files", n=MAX_FILES)),)))
                continue
            try:
                template, lines = _read(path)
            except ConfigError as exc:
                broken.append(Broken(path, tuple(exc.problems)))
                continue
            except Exception as exc:  # one bad file never stops the others
                broken.append(Broken(path, (Problem(str(path), None, "", msg(
                    "core.config.unreadable", reason=type(exc).__name__)),)))
                continue
            line = lines.get(("id",))
            before = found.get(template.id)
            if before is not None and (before.builtin == builtin or not template.replaces):
                key = "pad.template.duplicate_file" if before.builtin == builtin \
                    else "pad.template.shadows"
                broken.append(Broken(path, (Problem(str(path), line, "id", msg(
                    key, id=template.id, file=before.path.name)),)))
                continue
            found[template.id] = Found(template, path, builtin)
    return Catalogue(tuple(found.values()), tuple(broken))


def check(builtin_dir: Path = BUILTIN_DIR, own_dir: Path | None = None) -> list[Problem]:
    """Every problem of every template file (for `companion check-config`)."""
    return [p for b in load(builtin_dir, own_dir).broken for p in b.problems]
