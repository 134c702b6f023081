"""`companion journal check [--salvage] [--journal FILE]`: report what in the journal
cannot be read (SQLite's own check, then every game's row and actions), and with
`--salvage` save what is readable into a new journal, keeping the old one (or, when
only snapshots do not match their games, rebuild those in place).

Exit status: 0 nothing damaged (or salvaged), 1 damage found, 2 the journal cannot be
opened. Never opens a window. Stop the app before salvaging.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from companion import config, instance
from companion.i18n import Translator
from companion.journal import JournalError, default_path
from companion.journal_check import Report, check, rebuild_snapshots, salvage
from ui.commands.checkconfig import configured_language


def journal_file() -> Path:
    """The app's journal: `data_dir` from the config when it can be read."""
    try:
        folder = config.load(use_default_user_file=True).get("data_dir") or ""
    except Exception:  # a broken config must not keep the journal from being checked
        folder = ""
    return Path(folder) / "journal.sqlite3" if folder else default_path()


def print_report(tr: Translator, report: Report) -> None:
    print(tr("core.journal_check.summary", path=str(report.path), games=report.games,
             actions=report.actions, integrity=report.integrity))
    for damage in report.damages:
        if damage.seq is None:
            print(tr("core.journal_check.damaged_game", game=damage.game,
                     reason=damage.reason))
        else:
            print(tr("core.journal_check.damaged_action", game=damage.game,
                     n=damage.seq + 1, reason=damage.reason))
    for mismatch in report.snapshots:
        print(tr("core.journal_check.snapshot", game=mismatch.game,
                 seq=str(mismatch.seq)[:20], reason=mismatch.reason))


def main(argv: Sequence[str] | None = None) -> int:
    tr = Translator(configured_language(config.user_config_path()))
    parser = argparse.ArgumentParser(prog="companion journal",
                                     description=tr("core.journal_check.description"))
    parser.add_argument("action", choices=["check"])
    parser.add_argument("--salvage", action="store_true",
                        help=tr("core.journal_check.salvage_help"))
    parser.add_argument("--journal", type=Path, help=tr("core.journal_check.file_help"))
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    path = args.journal or journal_file()
    try:
        report = check(path)
        print_report(tr, report)
        if report.ok:
            print(tr("core.journal_check.ok"))
            return 0
        if not args.salvage:
            print(tr("core.journal_check.to_rebuild" if report.only_snapshots
                     else "core.journal_check.to_salvage"))
            return 1
        instance.lock(path.parent)  # never under a running app
        if report.only_snapshots:  # derived rows only: rebuilt in place
            rebuilt = rebuild_snapshots(path)
            print(tr("core.journal_check.rebuilt", n=len(rebuilt.snapshots)))
            return 0
        saved = salvage(path)
    except (JournalError, instance.AlreadyRunning) as exc:
        print(tr.message(exc.message), file=sys.stderr)
        return 2
    except OSError as exc:
        print(tr("core.journal_check.failed", reason=exc.strerror or str(exc)),
              file=sys.stderr)
        return 2
    print(tr("core.journal_check.salvaged", path=str(saved.path), kept=str(saved.kept),
             games=saved.games, actions=saved.actions))
    return 0
