"""`companion check-config [FILE] [--settings FILE]`: the defaults, FILE, then the
settings saved from the screen (`settings.yaml` beside the journal, when there is one),
layered as the app reads them, every problem on one line; then the score pad's
templates (the built-ins, and the table's own in `pad/` beside FILE).

Prints `file:line: key: message` for each problem (in the configured language, else
English) and exits 1, or prints OK with the file checked and exits 0. Never opens a
window: it imports neither kivy nor the app.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion import config, games
from companion.files import open_regular
from companion.i18n import FALLBACK, LANGUAGES, Translator


def import_hardware() -> tuple[config.Validators, str | None]:
    """The validator of the hardware section, and None; or no validator and the reason
    `import hardware` failed (the rest is still checked)."""
    try:
        hardware = importlib.import_module("hardware")
    except Exception as exc:  # any failure here must not stop the other checks
        return {}, f"{type(exc).__name__}: {exc}"
    return hardware.VALIDATORS, None


_LANGUAGE = re.compile(r"^language:[ \t]*['\"]?([A-Za-z_-]+)['\"]?[ \t]*(?:#.*)?$", re.M)


def configured_language(path: Path | None) -> str:
    """The language the file asks for, else the default one, else English. Only the
    top-level `language:` line is looked at, in the first MAX_BYTES: the file may be
    the very thing that is broken (or hostile), and load() reports its problems."""
    for source in (path, config.CONFIG_DIR / "app.yaml"):
        if source is None:
            continue
        try:  # a regular file only: a named pipe here must not hang the problem screen
            with open_regular(source) as handle:
                text = handle.read(config.MAX_BYTES).decode("utf-8", "replace")
        except OSError:
            continue
        found = _LANGUAGE.search(text)
        if found and found.group(1) in LANGUAGES:
            return found.group(1)
    return FALLBACK


def one_line(text: str) -> str:
    return " ".join(text.split())


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    early = Translator(configured_language(config.user_config_path()))
    parser = argparse.ArgumentParser(prog="companion check-config",
                                     description=early("deploy.check.description"))
    parser.add_argument("file", nargs="?", type=Path, help=early("deploy.check.file_help"))
    parser.add_argument("--settings", type=Path, help=early("deploy.check.settings_help"))
    args = parser.parse_args(args_list)

    hardware_validators, skipped = import_hardware()
    path: Path | None = args.file if args.file is not None else config.user_config_path()
    tr = Translator(configured_language(path))
    if skipped:
        print(one_line(tr("deploy.check.hardware_skipped", reason=skipped)), file=sys.stderr)
    settings = args.settings or settings_file(path)
    problems: list[config.Problem] = []
    try:
        config.load(path, use_default_user_file=False, check_defaults=True,
                    settings_file=settings,
                    validators={**games.VALIDATORS, **hardware_validators})
    except config.ConfigError as exc:
        problems += exc.problems
    problems += pad_templates(path)
    problems += clock_presets(path, tr)
    for warning in pad_timers(path):
        print(one_line(warning.format(tr.message)), file=sys.stderr)
    if problems:
        for problem in problems:
            print(one_line(problem.format(tr.message)))
        print(tr("deploy.check.problems", count=len(problems)), file=sys.stderr)
        return 1
    if path is None:
        places = ", ".join(str(p) for p in searched_places())
        print(tr("deploy.check.ok_defaults", places=places))
    else:
        print(tr("deploy.check.ok", file=path))
    if settings is not None:
        print(tr("deploy.check.ok_settings", file=path or "-", settings=settings))
        for line in overridden(path, settings, tr):
            print(line, file=sys.stderr)
    return 0


def pad_templates(user_file: Path | None) -> list[config.Problem]:
    """The score pad's templates: the built-ins, and the table's own in `pad/` beside
    the checked file (or beside where the user's file is looked for)."""
    from companion.games.pad import templates

    folder = user_file.parent / templates.FOLDER if user_file is not None else None
    return templates.check(own_dir=folder)
def pad_timers(user_file: Path | None) -> list[config.Problem]:
    """Warnings: a template's `timer:` naming no clock preset (built in or the table's)."""
    from companion.games.clock.presets import load_presets
    from companion.games.pad import templates

    folder = user_file.parent / templates.FOLDER if user_file is not None else None
    return templates.timer_warnings(templates.load(own_dir=folder),
                                    load_presets(user_file).presets)


def clock_presets(user_file: Path | None, tr: Translator) -> list[config.Problem]:
    """The clock's presets, built in and the table's own (in `clock/` beside the
    user's file): their problems; their warnings are printed on stderr."""
    from companion.games.clock.presets import load_presets

    found = load_presets(user_file)
    for warning in found.warnings:
        print(one_line(warning.format(tr.message)), file=sys.stderr)
    return list(found.problems)


def overridden(user_file: Path | None, settings: Path, tr: Translator) -> list[str]:
    """A note per value of the user's file that a saved setting replaces (both files
    were just read without a problem)."""
    if user_file is None:
        return []
    user, user_lines = config.read_yaml(user_file)
    saved, saved_lines = config.read_yaml(settings)
    notes = []
    for key, line in sorted(saved_lines.items(), key=lambda item: item[1]):
        if key in user_lines and not isinstance(_at(saved, key), dict) \
                and _at(user, key) != _at(saved, key):
            notes.append(one_line(tr("deploy.check.overridden", key=".".join(key),
                                     settings=f"{settings}:{line}",
                                     file=f"{user_file}:{user_lines[key]}")))
    return notes


def _at(data: Any, key: tuple[str, ...]) -> Any:
    for part in key:
        data = data.get(part) if isinstance(data, dict) else None
    return data


def settings_file(user_file: Path | None) -> Path | None:
    """The settings file the app would read with `user_file`, when it exists (its
    place depends on the `data_dir` that file sets, read leniently here)."""
    data: Any = {}
    if user_file is not None:
        try:
            data = config.read_yaml(user_file)[0]
        except Exception:  # a broken file: load() reports it
            data = {}
    found = config.settings_path(data if isinstance(data, dict) else {})
    return found if found.is_file() else None


def searched_places() -> list[Path]:
    """Where `companion.config.user_config_path` looks (for the message only)."""
    xdg = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return [Path(xdg) / config.APP_DIR / config.USER_FILE,
            Path("/etc") / config.APP_DIR / config.USER_FILE]
