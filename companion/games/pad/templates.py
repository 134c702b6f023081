"""Finding and reading score pad templates: the built-ins in `config/pad/*.yaml`, the
table's own in `pad/` beside the user's config file.

Each file is read with the config's hardened YAML reader (at most 64 KiB, strict
UTF-8, plain YAML only: no tags, no merge keys, bounded depth and aliases), then
checked by `template.parse`. Every refusal is a `companion.config.Problem` (file,
line, dotted key, message), so `companion check-config` prints `file:line: key:
message`. A broken file is listed as broken (`Catalogue.broken`) and never hides the
others. An id given twice, or a table's template using a built-in's id without
`replaces: true`, is a refusal of the later file.

The table's own folder is read within `companion.ownfolder`'s bound on the whole
folder (files and bytes; each file past it listed as broken, named), and each file's
reading is kept while the file is unchanged (`CACHE`): a folder read again costs a stat
per file. The app reads it on a worker thread (`ui.ownfolders`), never on the UI's.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from companion import config, ownfolder
from companion.config import ConfigError, Problem
from companion.files import fsync_dir
from companion.games.pad.template import ID, LABEL_MAX, Template, TemplateError, parse, to_data
from companion.messages import RuleError, msg

BUILTIN_DIR = config.CONFIG_DIR / "pad"
FOLDER = "pad"
CACHE = ownfolder.Cache()  # each file's reading, while the file is unchanged


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
    line = lines.get(parts)
    while parts and line is None:  # a key not written (a required one): the line of the
        parts = parts[:-1]  # mapping that lacks it, the file's own for a top-level key
        line = lines.get(parts)
    return Problem(str(path), line or 1, key, message)  # type: ignore[arg-type]


def _files(folder: Path | None) -> list[Path]:
    if folder is None or not folder.is_dir():
        return []
    # a named pipe, a folder or a link to nothing named *.yaml is read, and so named
    # as broken (the reader opens only a regular file), never skipped without a word
    return sorted(p for p in folder.glob("*.yaml") if not p.name.startswith("."))


Outcome = tuple[Template, dict[tuple[str, ...], int]] | tuple[Problem, ...]


def _outcome(path: Path) -> Outcome:
    """One file's template and lines, or its problems (what `CACHE` keeps)."""
    try:
        return _read(path)
    except ConfigError as exc:
        return tuple(exc.problems)
    except Exception as exc:  # one bad file never stops the others
        return (Problem(str(path), None, "", msg("core.config.unreadable",
                                                  reason=type(exc).__name__)),)


def own_folder(user_file: Path | None = None) -> Path:
    """The table's own templates: `pad/` beside the config file in use (the one
    `companion --config FILE` was given, as for the clock presets), else `user_dir()`."""
    return Path(user_file).parent / FOLDER if user_file is not None else user_dir()


def load(builtin_dir: Path = BUILTIN_DIR, own_dir: Path | None = None,
         user_file: Path | None = None) -> Catalogue:
    """Every template, the built-ins then the table's own (`own_dir`, else
    `own_folder(user_file)`)."""
    own = own_folder(user_file) if own_dir is None else own_dir
    found: dict[str, Found] = {}
    broken: list[Broken] = []
    listed = ownfolder.listing(own)
    CACHE.keep_only(own, listed.files)
    for builtin, files in ((True, _files(builtin_dir)), (False, listed.files)):
        for path in files:
            outcome = CACHE.read(path, _outcome)
            if not outcome or isinstance(outcome[0], Problem):
                broken.append(Broken(path, outcome))  # type: ignore[arg-type]
                continue
            template, lines = outcome  # type: ignore[misc]
            line = lines.get(("id",))
            before = found.get(template.id)
            if before is not None and (before.builtin == builtin or not template.replaces):
                key = "pad.template.duplicate_file" if before.builtin == builtin \
                    else "pad.template.shadows"
                broken.append(Broken(path, (Problem(str(path), line, "id", msg(
                    key, id=template.id, file=before.path.name)),)))
                continue
            found[template.id] = Found(template, path, builtin)
    # past the folder's bound: named, by name, after the files read
    broken.extend(Broken(Path(p.file), (p,)) for p in listed.refused)
    return Catalogue(tuple(found.values()), tuple(broken))


def check(builtin_dir: Path = BUILTIN_DIR, own_dir: Path | None = None) -> list[Problem]:
    """Every problem of every template file (for `companion check-config`)."""
    return [p for b in load(builtin_dir, own_dir).broken for p in b.problems]


def timer_warnings(catalogue: Catalogue, presets: Iterable[str]) -> list[Problem]:
    """A template whose `timer:` names no clock preset (`presets`: the ids there are):
    warned, `file:line: timer: message`, never refused (the game is played without its
    clock; the preset may come later)."""
    known = set(presets)
    out = []
    for found in catalogue.templates:
        timer = found.template.timer
        if timer is None or timer in known:
            continue
        outcome = CACHE.read(found.path, _outcome)
        line = outcome[1].get(("timer",)) if outcome and isinstance(  # type: ignore[union-attr]
            outcome[0], Template) else None
        out.append(Problem(str(found.path), line, "timer",
                           msg("pad.template.unknown_timer", id=timer)))
    return out


HEADER = ("# A score pad template saved from the app. Edit it freely (the schema is in\n"
          "# docs/architecture.md, \"Score pad templates\"), but never its id or its\n"
          "# categories' ids once a game used them: names may change.\n")


def save_as(template: Template, ident: str, name: str, folder: Path | None = None,
            builtin_dir: Path = BUILTIN_DIR, user_file: Path | None = None) -> Path:
    """Save a game's template (an ad-hoc pad's, say) as the table's own, under a new id
    and name, in `<folder>/<id>.yaml` (`folder` None: `own_folder(user_file)`).
    RuleError for an id that is not valid, a built-in's, or already a file; OSError if
    it cannot be written. The file is written whole or not at all, and read back
    before it counts."""
    folder = own_folder(user_file) if folder is None else folder
    if not isinstance(ident, str) or not ID.match(ident):
        raise RuleError("pad.error.save_id")
    clean = " ".join(str(name or "").split())
    if not clean or len(clean) > LABEL_MAX:
        raise RuleError("pad.error.save_name", n=LABEL_MAX)
    if (builtin_dir / f"{ident}.yaml").exists() or any(
            f.template.id == ident for f in load(builtin_dir, folder).templates):
        raise RuleError("pad.error.save_taken", id=ident)
    import yaml

    data = to_data(replace(template, id=ident, name=(("", clean),), check=False,
                           replaces=False))
    path = folder / f"{ident}.yaml"
    if path.exists():
        raise RuleError("pad.error.save_taken", id=ident)
    folder.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".tmp")
    try:
        with partial.open("w", encoding="utf-8") as handle:
            handle.write(HEADER)
            handle.write(yaml.safe_dump(data, allow_unicode=True, sort_keys=False,
                                        default_flow_style=False))
            handle.flush()
            os.fsync(handle.fileno())
        read_template(partial)  # what was written reads back as a valid template
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    fsync_dir(folder)
    return path
