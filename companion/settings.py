"""The settings saved from the screen: a file the app owns, layered over the user's.

The user's `config.yaml` is theirs: the app reads it and never writes it, so its
comments and layout are never at risk. What the settings screen (or any other part of
the app) saves goes into `settings.yaml` beside the journal (`config.settings_path`),
which `companion.config.load` reads last, so a saved setting wins over the same key in
`config.yaml`. The data directory is also the one place the hardened services may
write.

`save_settings(changes)` merges the changes into that file, checks the whole
configuration with the result (a refused change writes nothing), then replaces the file
atomically: a temporary file, fsync, rename, fsync of the folder. A power cut leaves the
old file or the new one, never half of one.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from companion import config
from companion.config import Config, ConfigError, Problem
from companion.files import fsync_dir

_LOCK = threading.Lock()
HEADER = """\
# Table Companion: the settings chosen on the screen. The app writes this file (and
# rewrites it whole); put your own settings in config.yaml, which the app never
# changes. A key here wins over the same key in config.yaml: delete a line to go back
# to config.yaml's value.
"""


def nested(dotted: str, value: Any) -> dict[str, Any]:
    """`{"a": {"b": value}}` for "a.b"."""
    out: dict[str, Any] = {}
    node = out
    parts = dotted.split(".")
    for part in parts[:-1]:
        node = node.setdefault(part, {})
    node[parts[-1]] = value
    return out


def path_for(cfg: Config | None = None) -> Path:
    """The settings file of this configuration (where the app found or would put it)."""
    if cfg is not None and cfg.settings_file is not None:
        return Path(cfg.settings_file)
    return config.settings_path(cfg.data if cfg is not None else None)


def saved(path: Path) -> dict[str, Any]:
    """What the settings file holds ({} when there is none yet)."""
    if not path.exists():
        return {}
    data, _ = config.read_yaml(path)
    return data if isinstance(data, dict) else {}


def save_settings(changes: Mapping[str, Any], cfg: Config | None = None) -> dict[str, Any]:
    """Merge the nested `changes` into the settings file, and into `cfg` (the
    configuration in use) once written. Returns what the file now holds.

    Raises ConfigError when the configuration with the changes would be refused
    (nothing is written) and OSError when the file cannot be written."""
    path = path_for(cfg)
    with _LOCK:  # two saves at once: each reads what the other wrote
        data = _write(path, changes, cfg.user_file if cfg is not None
                      else config.user_config_path(),
                      cfg.validators if cfg is not None else {})
        if cfg is not None:
            cfg.data = config.merge(cfg.data, changes)
            cfg.settings_file = path
    return data


def _write(path: Path, changes: Mapping[str, Any], user_file: Path | None,
           validators: config.Validators) -> dict[str, Any]:
    data = config.merge(saved(path), changes)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    try:
        with tmp.open("w", encoding="utf-8") as handle:
            handle.write(HEADER)
            handle.write(yaml.safe_dump(data, allow_unicode=True, sort_keys=True,
                                        default_flow_style=False))
            handle.flush()
            os.fsync(handle.fileno())
        try:
            config.load(user_file, use_default_user_file=False, settings_file=tmp,
                        validators=validators)
        except ConfigError as exc:  # say which file the refused value would go to
            raise ConfigError([Problem(str(path) if p.file == str(tmp) else p.file,
                                       p.line, p.key, p.message)
                               for p in exc.problems]) from None
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    fsync_dir(path.parent)  # the rename itself survives a power cut once synced
    return data
