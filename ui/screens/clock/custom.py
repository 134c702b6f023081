"""A clock of the table's own in a few taps (issue 46): each player's time or each
turn's, an increment or a delay, used at once or saved as the table's own preset
(`clock/<id>.yaml` beside the user's config file, read back by the project's preset
reader before it is offered).

`custom_data` is pure: the preset file's data for a choice, checked by
`companion.games.clock.params.read_preset` like any preset file.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from ui import theme
from ui.dialogs import Dialog, open_dialog
from ui.widgets.basics import Tap, Text, follow_height, follow_width

#: the steps offered: a bank's minutes, a turn's seconds, an increment's or a delay's
BANK_MIN = (1, 2, 3, 5, 10, 15, 20, 25, 30, 45, 60, 90, 120)
TURN_S = (10, 15, 20, 30, 45, 60, 90, 120, 180, 300)
EXTRA_S = (1, 2, 3, 5, 10, 15, 20, 30, 60)
EXTRAS = ("none", "increment", "delay")


@dataclass(frozen=True)
class Choice:
    """What the dialog shows: the mode, the time's step, the extra and its step."""

    mode: str = "bank"  # or "turn"
    time: int = BANK_MIN.index(10)
    extra: str = "increment"  # bank only: none, increment (Fischer) or delay (simple)
    extra_s: int = EXTRA_S.index(5)

    @property
    def seconds(self) -> int:
        return BANK_MIN[self.time] * 60 if self.mode == "bank" else TURN_S[self.time]

    def moved(self, steps: int) -> Choice:
        count = len(BANK_MIN if self.mode == "bank" else TURN_S)
        return replace(self, time=max(0, min(count - 1, self.time + steps)))

    def extra_moved(self, steps: int) -> Choice:
        return replace(self, extra_s=max(0, min(len(EXTRA_S) - 1, self.extra_s + steps)))


def custom_id(choice: Choice) -> str:
    """The preset's id (its file's name): what it is, so the same clock saved twice is
    one file."""
    if choice.mode == "turn":
        return f"own-turn-{choice.seconds}s"
    extra = {"none": "", "increment": f"-{EXTRA_S[choice.extra_s]}s",
             "delay": f"-delay-{EXTRA_S[choice.extra_s]}s"}[choice.extra]
    return f"own-{choice.seconds // 60}m{extra}"


def custom_data(choice: Choice, name: str) -> dict[str, Any]:
    """The preset file's data: the built-ins' warning times, scaled to short clocks."""
    seconds = choice.seconds
    warn = min(60 if choice.mode == "bank" else 15, seconds // 4)
    data: dict[str, Any] = {"name": name, "mode": choice.mode, "time": f"{seconds}s",
                            "warn": f"{warn}s", "danger": f"{max(1, warn // 3)}s"}
    if choice.mode == "bank" and choice.extra == "increment":
        data["increment"] = f"{EXTRA_S[choice.extra_s]}s"
    elif choice.mode == "bank" and choice.extra == "delay":
        data["delay"] = f"{EXTRA_S[choice.extra_s]}s"
        data["delay_kind"] = "simple"
    return data


def title(choice: Choice, tr: Callable[..., str]) -> str:
    """The clock as a table says it: "10 min + 5 s", "20 min each", "45 s per turn"."""
    s = EXTRA_S[choice.extra_s]
    if choice.mode == "turn":
        seconds = choice.seconds
        return tr("clockui.custom.turn_min", n=seconds // 60) if seconds % 60 == 0 else \
            tr("clockui.custom.turn_s", n=seconds)
    m = choice.seconds // 60
    return {"none": tr("clockui.custom.each", m=m),
            "increment": tr("clockui.custom.increment", m=m, s=s),
            "delay": tr("clockui.custom.delay", m=m, s=s)}[choice.extra]


def preset_for(choice: Choice, tr: Callable[..., str], file: str = "",
               own: bool = False) -> Any:
    """The preset the set-up starts, checked as a preset file is."""
    from companion.games.clock.params import read_preset
    from companion.games.clock.presets import Preset

    name = title(choice, tr)
    read = read_preset(custom_data(choice, name))
    assert read.params is not None, read.problems  # every step offered is a clock
    return Preset(custom_id(choice), read.params, file, own, (("", name),))


def save(choice: Choice, tr: Callable[..., str], user_file: Path | None) -> str:
    """The choice written as the table's own preset, durable (synced, renamed, the
    folder synced), then read back as the set-up reads presets; returns its id."""
    import yaml

    from companion.files import fsync_dir
    from companion.games.clock.presets import load_presets, own_dir

    folder = own_dir(user_file)
    folder.mkdir(parents=True, exist_ok=True)
    preset_id = custom_id(choice)
    path = folder / f"{preset_id}.yaml"
    tmp = path.with_name(path.name + ".tmp")
    try:
        with tmp.open("w", encoding="utf-8") as handle:
            handle.write("# A clock of the table's own, saved from the clock's set-up.\n")
            handle.write(yaml.safe_dump(custom_data(choice, title(choice, tr)),
                                        allow_unicode=True, sort_keys=False))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    fsync_dir(folder)
    if load_presets(user_file).get(preset_id) is None:
        raise OSError(f"{path}: not read back as a preset")
    return preset_id


def custom_dialog(on_use: Callable[[Any], None], on_saved: Callable[[Any], None],
                  user_file: Path | None) -> Dialog:
    """Mode, time (− and +), for a chess clock an increment or a delay (− and +); Use
    starts that clock from this set-up, Save keeps it among the presets."""
    app = App.get_running_app()
    dialog = Dialog(app.tr("clockui.custom.title"), "clockcustom", size_hint=(0.94, 0.94))
    chosen = {"choice": Choice()}
    row_height = theme.touch(theme.ROW)

    def stepper(tid: str, on_step: Callable[[int], None]) -> tuple[BoxLayout, Text]:
        row = follow_height(BoxLayout(spacing=dp(theme.SPACE_S)), row_height)
        shown = Text("", size=theme.SIZE_ACT, bold=True, halign="center", tid=f"{tid}.value")
        shown.acted_on = True
        for sign, steps, end in (("\u2212", -1, "minus"), ("+", 1, "plus")):
            tap = follow_width(Tap(sign, size=theme.SIZE_TITLE, tid=f"{tid}.{end}"),
                               theme.ROW + 24)
            tap.bind(on_release=lambda _b, k=steps: on_step(k))
            row.add_widget(tap)
            if steps < 0:
                row.add_widget(shown)
        return row, shown

    modes = dialog.buttons([(app.tr("clockui.custom.mode_bank"), "clockcustom.mode.bank",
                             lambda: pick(mode="bank")),
                            (app.tr("clockui.custom.mode_turn"), "clockcustom.mode.turn",
                             lambda: pick(mode="turn"))])
    time_row, time_shown = stepper("clockcustom.time", lambda k: change(
        chosen["choice"].moved(k)))
    dialog.add(time_row)
    extras = dialog.buttons([(app.tr(f"clockui.custom.extra_{kind}"),
                              f"clockcustom.extra.{kind}",
                              lambda kind=kind: pick(extra=kind)) for kind in EXTRAS])
    extra_row, extra_shown = stepper("clockcustom.extra", lambda k: change(
        chosen["choice"].extra_moved(k)))
    dialog.add(extra_row)
    summary = dialog.add(Text("", size=theme.SIZE_BODY, halign="center",
                              tid="clockcustom.summary", size_hint_y=None, height=dp(40)))

    def use() -> None:
        dialog.dismiss()
        on_use(preset_for(chosen["choice"], app.tr))

    def keep() -> None:
        try:
            save(chosen["choice"], app.tr, user_file)
        except OSError as exc:  # a full card, a read-only folder: said, nothing lost
            summary.text = app.tr("clockui.custom.not_saved", reason=str(exc))
            return
        dialog.dismiss()
        on_saved(preset_for(chosen["choice"], app.tr))

    dialog.buttons([(app.tr("clockui.custom.save"), "clockcustom.save", keep),
                    (app.tr("clockui.custom.use"), "clockcustom.use", use),
                    (app.tr("core.ui.cancel"), "clockcustom.cancel", dialog.dismiss)])

    def pick(**changes: str) -> None:
        choice = chosen["choice"]
        if changes.get("mode", choice.mode) != choice.mode:  # a turn's steps, or a bank's
            choice = replace(choice, time=(BANK_MIN if changes["mode"] == "bank" else
                                           TURN_S).index(10 if changes["mode"] == "bank"
                                                         else 60))
        change(replace(choice, **changes))

    def change(choice: Any) -> None:
        chosen["choice"] = choice
        for button in modes.children:
            button.set_background(theme.SELECTED if button.tid.endswith(choice.mode)
                                  else theme.BUTTON)
        bank = choice.mode == "bank"
        for button in extras.children:
            button.disabled = not bank
            button.set_background(theme.SELECTED if bank and button.tid.endswith(
                choice.extra) else theme.BUTTON)
        seconds = choice.seconds
        time_shown.text = app.tr("clockui.custom.minutes", n=seconds // 60) if bank else \
            app.tr("clockui.custom.seconds", n=seconds)
        has_extra = bank and choice.extra != "none"
        extra_shown.text = app.tr("clockui.custom.seconds", n=EXTRA_S[choice.extra_s]) \
            if has_extra else ""
        for tap in extra_row.children:
            if isinstance(tap, Tap):
                tap.disabled = not has_extra
        summary.text = title(choice, app.tr)

    change(chosen["choice"])
    dialog.default = use
    return open_dialog(dialog)
