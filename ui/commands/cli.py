"""The `companion` command: the app by default, and the builder's and admin's tools.

Sub-commands are imported only when used, so `companion check-config` never opens a
window and `companion` alone starts no more than the app needs.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# sub-command -> (module, function, help); each function takes the remaining argv
COMMANDS: dict[str, tuple[str, str, str]] = {
    "run": ("ui.main", "main", "start the app (the default)"),
    "check-config": ("ui.commands.checkconfig", "main",
                     "check a config file and print every problem"),
    "doctor": ("hardware.doctor", "main",
               "test the LEDs, buzzer, buttons and LED ring (--report: describe this machine)"),
    "journal": ("ui.commands.journalcheck", "main",
                "journal check [--salvage]: find damaged games, save what is readable"),
    "install": ("ui.commands.deploy", "install_main", "install on a Raspberry Pi (kiosk at boot)"),
    "update": ("ui.commands.deploy", "update_main", "update, keeping config and data"),
    "uninstall": ("ui.commands.deploy", "uninstall_main", "remove the service (keeps data)"),
}


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or (args[0].startswith("-") and args[0] not in ("-h", "--help")):
        args.insert(0, "run")
    if args[0] in ("-h", "--help"):
        parser = argparse.ArgumentParser(prog="companion", description="Table Companion")
        sub = parser.add_subparsers(title="commands")
        for name, (_, _, text) in COMMANDS.items():
            sub.add_parser(name, help=text)
        parser.print_help()
        return 0
    name, rest = args[0], args[1:]
    if name not in COMMANDS:
        print(f"companion: unknown command '{name}' (see companion --help)", file=sys.stderr)
        return 2
    module_name, function, _ = COMMANDS[name]
    module = importlib.import_module(module_name)
    return int(getattr(module, function)(rest) or 0)


if __name__ == "__main__":
    sys.exit(main())
