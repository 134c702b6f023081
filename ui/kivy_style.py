"""Kivy's default widget rules, read in two steps at start.

`import kivy.lang` parses Kivy's whole `style.kv` (1 300 lines of rules for every Kivy
widget: text inputs, file choosers, settings panels, video players...), ~50 ms of CPU
before any window, though this app builds only a few of those widgets. So the start
imports Kivy's lang module with its rules file read from `kivy_first.kv` instead: the
rules of the Kivy widgets this app builds (`FIRST`), cut from that same `style.kv`.
Once the first frame is on screen, `all_rules` swaps them for the whole file, in its
own order, so that every widget built from then on gets exactly what Kivy gives it.

When Kivy's `style.kv` is not the one `kivy_first.kv` was cut from (another Kivy),
nothing is redirected: the whole file is read at import, as without this module.
Regenerate the cut with `python -m ui.kivy_style`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path

#: the rules, by their selector in style.kv, of every Kivy widget class this app's
#: widgets are or derive from (tests/test_ui_start.py checks it against the app's classes)
FIRST = ("Label", "Scatter", "RelativeLayout", "StencilView", "ModalView", "ScrollView",
         "ScreenManager")
FIRST_FILE = Path(__file__).with_name("kivy_first.kv")
_CACHE = "kv.resourcefind"  # kivy.resources' cache: where `resource_find` looks first


def style_path() -> Path:
    """Kivy's own rules file (found without importing Kivy's lang module)."""
    import kivy

    return Path(kivy.kivy_data_dir) / "style.kv"


def selectors(header: str) -> list[str]:
    """The class names a rule's header line names: `<-Button,-ToggleButton>:` gives
    Button and ToggleButton; a dynamic class `<Name@Base>` gives Name."""
    inner = header.strip().rstrip(":").strip("<>[]")
    return [part.strip().lstrip("-").split("@")[0] for part in inner.split(",")]


def blocks(style: str) -> tuple[str, list[tuple[str, str]]]:
    """The text before the first rule, and each rule as (header line, text): a rule runs
    from its header (a line that starts with `<` or `[`) to the next one."""
    head: list[str] = []
    rules: list[tuple[str, list[str]]] = []
    for line in style.splitlines(keepends=True):
        if line.startswith(("<", "[")):
            rules.append((line, [line]))
        elif rules:
            rules[-1][1].append(line)
        else:
            head.append(line)
    return "".join(head), [(header, "".join(text)) for header, text in rules]


def cut(style: str, names: Iterable[str] = FIRST) -> str:
    """The rules of `style` whose header names only classes among `names`, in order."""
    wanted = set(names)
    head, rules = blocks(style)
    return head + "".join(text for header, text in rules if set(selectors(header)) <= wanted)


def import_with_first_rules() -> bool:
    """Import Kivy's lang module with only the `FIRST` rules (call it before anything
    imports it). False: it was imported already, or this Kivy's style.kv is not the one
    the cut came from; then Kivy's rules are whole, as usual."""
    if "kivy.lang" in sys.modules:
        return False
    try:
        style = style_path()
        ours = FIRST_FILE.read_text(encoding="utf-8")
        same = cut(style.read_text(encoding="utf-8")) == ours
    except OSError:
        return False
    if not same:
        return False
    import kivy
    import kivy.resources  # registers the cache the redirect goes in
    from kivy.cache import Cache

    key = os.path.join(kivy.kivy_data_dir, "style.kv")  # the name Kivy's lang asks for
    Cache.append(_CACHE, key, str(FIRST_FILE))
    try:
        import kivy.lang  # its import loads the rules: ours, found in the cache
    finally:
        Cache.remove(_CACHE, key)
    return True


def all_rules() -> None:
    """After the first frame: Kivy's whole style.kv in place of the first rules (the
    widgets already built keep what they got; the rules are the same for them)."""
    from kivy.lang import Builder

    first = str(FIRST_FILE)
    if first not in Builder.files:
        return
    Builder.unload_file(first)
    Builder.load_file(str(style_path()), rulesonly=True)


if __name__ == "__main__":  # regenerate kivy_first.kv from the installed Kivy
    FIRST_FILE.write_text(cut(style_path().read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote {FIRST_FILE}")
