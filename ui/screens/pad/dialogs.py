"""The score pad's dialogs: the template list (a broken template shown as broken, with
why), the player count outside the template's range, a player's menu (leaves, is
eliminated, wins outright), and the questions the end asks: a tie-breaker's input
(leftover coins...), the table's choice among players tied after every tie-breaker,
and a co-operative game's win or loss. A question the table's last action raised has
its Undo, which takes that action back from the question itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from companion.messages import msg
from ui import theme
from ui.dialogs import Dialog, open_dialog
from ui.names import display_name
from ui.screens.night.common import scroll_list
from ui.screens.pad import typing
from ui.screens.pad.common import label, number
from ui.widgets.basics import Tap, Text, follow_height

TEMPLATE_ROW = 52  # px: two lines of small text (the name, then the range and the win)
BROKEN_ROWS = 20  # broken files listed as rows; the rest is one line (check-config)
ROWS_PER_FRAME = 6  # of the template list: a frame's work kept small on a Pi


def _send(dialog: Dialog, command: Any) -> None:
    dialog.dismiss()
    App.get_running_app().send(command)


def undo_item(dialog: Dialog) -> tuple[str, str, Callable[[], Any]]:
    """Undo the action that raised this question, from the question."""
    app = App.get_running_app()

    def undo() -> None:
        dialog.dismiss()
        app.undo()

    return app.tr("core.ui.undo"), f"{dialog.tid}.undo", undo


# -- set-up ------------------------------------------------------------------------------
def template_dialog(on_chosen: Callable[[dict[str, Any]], Any]) -> Dialog:
    """Every template, the built-ins first; a broken one greyed with its first problem
    (tapping it says every problem), never hiding the others."""
    from ui.ownfolders import folders

    app = App.get_running_app()
    dialog = Dialog(app.tr("pad.ui.templates_title"), "templates", size_hint=(0.94, 0.96))
    # two columns: the built-ins and a few of the table's own fit without scrolling
    scroller, rows = scroll_list(theme.SPACE_XS)
    rows.cols = 2
    rows.spacing = (dp(theme.SPACE_S), dp(theme.SPACE_XS))
    # `pad/` beside --config FILE, read on a worker thread: what is known now, the
    # rest when it arrives (the dialog still open)
    fill = lambda: _template_rows(dialog, rows, on_chosen)  # noqa: E731
    fill()
    folders().refresh(lambda: fill() if app.dialog is dialog else None)
    dialog.add(scroller)
    dialog.buttons([(app.tr("core.ui.cancel"), "templates.cancel", dialog.dismiss)])
    dialog.default = dialog.dismiss
    return open_dialog(dialog)


def _template_rows(dialog: Dialog, rows: Any, on_chosen: Callable[[dict[str, Any]], Any]
                   ) -> None:
    """The list's rows from what is known now, a few per frame (`in_steps`: a folder
    at its bound is a hundred rows and more); a refill stops the one before."""
    from companion.games.pad.template import to_data
    from companion.games.pad.templates import Catalogue
    from ui.background import in_steps
    from ui.ownfolders import folders

    app = App.get_running_app()
    known = folders()
    catalogue = known.templates if known.templates is not None else Catalogue((), ())
    rows.clear_widgets()
    fill = getattr(dialog, "fills", 0) + 1
    dialog.fills = fill

    def row(widget: Any) -> None:
        rows.add_widget(follow_height(widget, theme.touch(TEMPLATE_ROW)))

    def template_row(found: Any) -> None:
        template = found.template
        text = app.tr("pad.ui.template_line", name=label(template.name),
                      low=template.players_min, high=template.players_max,
                      win=app.tr(f"pad.ui.win_short.{template.win}"))
        tap = Tap(text, size=theme.SIZE_SMALL, tid=f"templates.{template.id}")
        tap.bind(on_release=lambda _b, t=template: (dialog.dismiss(), on_chosen(to_data(t))))
        row(tap)

    def broken_row(entry: tuple[int, Any]) -> None:
        k, broken = entry  # the file's name and "broken"; a tap says every problem
        tap = Tap(app.tr("pad.ui.template_broken", name=broken.path.name),
                  size=theme.SIZE_SMALL, tid=f"templates.broken.{k}",
                  background=theme.PANEL, color=theme.DANGER_TEXT)
        tap.bind(on_release=lambda _b, b=broken: _broken(b))
        row(tap)

    def note(text: str, tid: str) -> Callable[[], None]:
        return lambda: row(Text(text, size=theme.SIZE_SMALL, color=theme.MUTED, tid=tid))

    adds: list[Callable[[], None]] = []
    if known.loading:
        adds.append(note(app.tr("pad.ui.templates_loading"), "templates.loading"))
    adds += [lambda f=f: template_row(f) for f in catalogue.templates]
    shown = list(enumerate(catalogue.broken))[:BROKEN_ROWS]
    adds += [lambda e=e: broken_row(e) for e in shown]
    more = len(catalogue.broken) - len(shown)
    if more:  # every one is named by `companion check-config`
        adds.append(note(app.tr("pad.ui.templates_more_broken", n=more), "templates.more"))
    in_steps(adds, lambda add: add(),
             lambda: getattr(dialog, "fills", 0) == fill and app.dialog is dialog,
             per_frame=ROWS_PER_FRAME)


def _broken(broken: Any) -> None:
    """Every problem of a broken template, as `file:line: key: message`."""
    from dataclasses import replace
    from pathlib import Path

    from ui.dialogs import message

    app = App.get_running_app()
    lines = [replace(p, file=Path(p.file).name).format(app.say) for p in broken.problems]
    message(app.tr("pad.ui.broken_title", name=broken.path.name), "\n".join(lines),
            tid="broken", size_hint=(0.9, 0.8))


def save_template(state: Any) -> None:
    """Save this game's sheet (an ad-hoc pad's, say) as the table's own template: its
    name typed, its id made from it; said where it went, or why not."""
    from companion.games.pad.templates import save_as
    from companion.messages import CompanionError
    from ui.dialogs import NameKeyboard, message

    app = App.get_running_app()

    def named(name: str) -> None:
        if not name:
            return
        try:
            path = save_as(state.template, ident_for(name), name,
                           user_file=app.settings.user_file)
        except CompanionError as exc:
            app.show_error(exc.message)
            return
        except OSError as exc:
            app.show_error(msg("pad.ui.save_failed", reason=exc.strerror or str(exc)))
            return
        message(app.tr("pad.ui.saved_title"), app.tr("pad.ui.saved_text", name=name,
                                                     file=path.name), tid="saved")

    open_dialog(NameKeyboard(app.tr("pad.ui.save_title"), "", named))


def ident_for(name: str) -> str:
    """A template id from its name: lower-case ASCII letters, digits and dashes
    ("Mölkky à 4" -> "molkky-a-4"), at most 40 characters."""
    import re
    import unicodedata

    ascii_ = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    ident = re.sub(r"[^a-z0-9]+", "-", ascii_.lower()).strip("-")[:40].strip("-")
    return ident or "sheet"


# -- menus that come back after a power cut ----------------------------------------------
#: a menu kept (`common.remember`) -> how it opens again on the game reopened
REOPEN = {"player": lambda state, seat: player_dialog(state, seat),
          "coop": lambda state, seat: coop_dialog(),
          "places": lambda state, seat: places_dialog(state)}


def kept(dialog: Dialog, name: str, seat: int | None = None) -> Dialog:
    """`dialog` remembered as open over the screen on show until it closes (a menu the
    journal does not hold: it opens again after a power cut). A places order tapped
    half-way is not kept: the question comes back unanswered."""
    from ui.screens.pad.common import remember

    screen = App.get_running_app().root.current
    remember(screen, name, seat)

    def closed(*_: Any) -> None:  # None: a truthy answer would cancel the dismissal
        root = getattr(App.get_running_app(), "root", None)
        if root is not None and root.current == screen:
            remember(screen)

    dialog.bind(on_dismiss=closed)
    return dialog


def reopen(state: Any, record: dict[str, Any]) -> None:
    """The menu `record` says was open, if the game still asks it."""
    name, seat = record.get("dialog"), record.get("seat")
    if name not in REOPEN or state.finished or App.get_running_app().dialog is not None:
        return
    if name == "player" and not (isinstance(seat, int) and 0 <= seat < len(state.players)):
        return
    if name in ("coop", "places") and state.template.win != name:
        return
    REOPEN[name](state, seat)


# -- a player's menu ---------------------------------------------------------------------
def player_dialog(state: Any, seat: int) -> Dialog:
    """What can happen to one player during the game: leaving, elimination (when the
    template allows it), an outright win (likewise)."""
    from companion.games.pad import commands as c

    app = App.get_running_app()
    name = display_name(state.players[seat].name)
    dialog = Dialog(app.tr("pad.ui.player_title", player=name), "player",
                    size_hint=(0.7, 0.8))
    items = []
    active = state.exits[seat] is None if state.exits else True
    if active:
        items.append((app.tr("pad.ui.leave"), "player.leave",
                      lambda: _send(dialog, c.Leave(seat))))
        if state.template.eliminate:
            items.append((app.tr("pad.ui.eliminate"), "player.eliminate",
                          lambda: _send(dialog, c.Eliminate(seat))))
        if state.template.instant_win:
            items.append((app.tr("pad.ui.instant_win"), "player.instant",
                          lambda: _send(dialog, c.InstantWin((seat,)))))
    if items:
        dialog.buttons(items, cols=1)
    dialog.add(BoxLayout())
    dialog.buttons([(app.tr("core.ui.close"), "player.close", dialog.dismiss)])
    dialog.default = dialog.dismiss
    return open_dialog(kept(dialog, "player", seat))


# -- the end's questions -----------------------------------------------------------------
def ask_if_needed(state: Any) -> Dialog | None:
    """The question the game waits for, if any, once the table ends it: a tie-breaker's
    input, then the table's choice among players still tied."""
    from companion.games.pad.outcome import outcome

    app = App.get_running_app()
    if app.dialog is not None or not asks(state):
        return None
    seen = outcome(state)
    for seats, tiebreak in seen.pending:
        if tiebreak.input is not None:
            row = state.tie_row(tiebreak.input)
            missing = [s for s in seats if row[s] is None]
            if missing:
                return tie_input_dialog(state, seats, missing[0], tiebreak)
    if seen.undecided:
        return choose_dialog(state, seen.undecided)
    return None


def asks(state: Any) -> bool:
    """The end's questions are asked once the table ended the game."""
    return bool(state.finished)


def tie_input_dialog(state: Any, seats: tuple[int, ...], seat: int, tiebreak: Any) -> Dialog:
    """One tied player's tie-breaker input, on a keypad of its own."""
    from companion.games.pad import commands as c

    app = App.get_running_app()
    names = ", ".join(display_name(state.players[s].name) for s in seats)
    what = label(tiebreak.name)
    dialog = Dialog(app.tr("pad.ui.tie_title", players=names, what=what), "tie",
                    size_hint=(0.7, 0.96))
    typed = {"text": ""}
    shown = dialog.add(Text(app.tr("pad.ui.tie_ask", player=display_name(
        state.players[seat].name), what=what), size=theme.SIZE_BODY, tid="tie.ask",
        size_hint_y=None, height=dp(30)))
    value = dialog.add(Text("", size=theme.SIZE_TITLE, bold=True, halign="center",
                            tid="tie.value", size_hint_y=None, height=dp(40)))
    del shown

    def press(key: str) -> None:
        typed["text"] = typing.press(typed["text"], key)
        value.text = typing.shown(typed["text"])

    def ok() -> None:
        if typed["text"]:
            _send(dialog, c.SetTieInput(seat, str(tiebreak.input), typed["text"]))

    keys = [(d, f"tie.{d}", lambda d=d: press(d)) for d in "123456789"]
    keys += [(app.tr("core.ui.delete"), "tie.del", lambda: press("del")),
             ("0", "tie.0", lambda: press("0")), (app.tr("core.ui.ok"), "tie.ok", ok)]
    dialog.buttons(keys, cols=3, height=48)
    dialog.buttons([undo_item(dialog)], height=48)
    dialog.default = ok
    return open_dialog(dialog)


def choose_dialog(state: Any, seats: tuple[int, ...]) -> Dialog:
    """Players tied after every tie-breaker, and the template says the table chooses:
    tap the winners (one or more), then OK; recorded."""
    from companion.games.pad import commands as c

    app = App.get_running_app()
    names = ", ".join(display_name(state.players[s].name) for s in seats)
    dialog = Dialog(app.tr("pad.ui.choose_title", players=names), "choose",
                    subtitle=app.tr("pad.ui.choose_hint"), size_hint=(0.84, 0.9))
    chosen: list[int] = []
    buttons: dict[int, Tap] = {}

    def toggle(seat: int) -> None:
        if seat in chosen:
            chosen.remove(seat)
        else:
            chosen.append(seat)
        for s, tap in buttons.items():
            tap.set_background(theme.SELECTED if s in chosen else theme.BUTTON)
        ok_button.disabled = not chosen

    row = dialog.buttons([(display_name(state.players[s].name), f"choose.{s}",
                           lambda s=s: toggle(s)) for s in seats],
                         cols=min(4, len(seats)), height=60)
    for tap, s in zip(reversed(row.children), seats, strict=True):
        buttons[s] = tap
    dialog.add(BoxLayout())

    def ok() -> None:
        if chosen:
            _send(dialog, c.SettleTie(tuple(sorted(chosen))))

    bottom = dialog.buttons([undo_item(dialog),
                             (app.tr("core.ui.ok"), "choose.ok", ok)])
    ok_button = bottom.children[0]
    ok_button.disabled = True
    dialog.default = ok
    return open_dialog(dialog)


def coop_dialog() -> Dialog:
    """A co-operative game ends: did the table win?"""
    from companion.games.pad import commands as c

    app = App.get_running_app()
    dialog = Dialog(app.tr("pad.ui.coop_title"), "coop", size_hint=(0.8, 0.6))
    won = dialog.buttons([(app.tr("pad.ui.coop_won"), "coop.won",
                           lambda: _send(dialog, c.CoopOutcome(True))),
                          (app.tr("pad.ui.coop_lost"), "coop.lost",
                           lambda: _send(dialog, c.CoopOutcome(False)))], height=72)
    won.children[1].set_background(theme.SUCCESS)
    won.children[0].set_background(theme.DANGER)
    dialog.add(BoxLayout())
    dialog.buttons([(app.tr("core.ui.cancel"), "coop.cancel", dialog.dismiss)])
    dialog.default = dialog.dismiss
    return open_dialog(kept(dialog, "coop"))


def places_dialog(state: Any) -> Dialog:
    """A game of places, no points: the table taps the players in the order they
    finished; "Same place" makes the next one tapped share the place before (a tie).
    OK records it (`SetPlaces`) and ends the game."""
    from companion.games.pad import commands as c

    app = App.get_running_app()
    dialog = Dialog(app.tr("pad.ui.places_title"), "places",
                    subtitle=app.tr("pad.ui.places_hint"), size_hint=(0.9, 0.96))
    active = [s for s in range(len(state.players)) if state.exits[s] is None]
    groups: list[list[int]] = []
    share = {"next": False}
    buttons: dict[int, Tap] = {}

    def place_of(seat: int) -> int | None:
        done = 0
        for group in groups:
            if seat in group:
                return done + 1
            done += len(group)
        return None

    def tell() -> None:
        for seat, tap in buttons.items():
            place = place_of(seat)
            name = display_name(state.players[seat].name)
            tap.text = name if place is None else app.tr("pad.ui.place_line", n=place,
                                                         player=name)
            tap.set_background(theme.BUTTON if place is None else theme.SELECTED)
        same.set_background(theme.SELECTED if share["next"] else theme.BUTTON)
        same.disabled = not groups
        ok.disabled = sum(len(g) for g in groups) != len(active)

    def tapped(seat: int) -> None:
        if place_of(seat) is not None:
            return
        if share["next"] and groups:
            groups[-1].append(seat)
        else:
            groups.append([seat])
        share["next"] = False
        tell()

    def toggle_share() -> None:
        share["next"] = not share["next"]
        tell()

    def clear() -> None:
        groups.clear()
        share["next"] = False
        tell()

    def done() -> None:
        if sum(len(g) for g in groups) == len(active):
            _send(dialog, c.SetPlaces(tuple(tuple(g) for g in groups)))

    row = dialog.buttons([(display_name(state.players[s].name), f"places.{s}",
                           lambda s=s: tapped(s)) for s in active],
                         cols=min(4, len(active)), height=56)
    for tap, seat in zip(reversed(row.children), active, strict=True):
        buttons[seat] = tap
    dialog.add(BoxLayout())
    bottom = dialog.buttons([(app.tr("pad.ui.places_same"), "places.same", toggle_share),
                             (app.tr("core.ui.clear"), "places.clear", clear),
                             (app.tr("core.ui.cancel"), "places.cancel", dialog.dismiss),
                             (app.tr("core.ui.ok"), "places.ok", done)])
    ok, _cancel, _clear, same = bottom.children
    ok.set_background(theme.SUCCESS)
    dialog.default = done
    tell()
    return open_dialog(kept(dialog, "places"))


__all__ = ["ask_if_needed", "choose_dialog", "coop_dialog", "number",
           "player_dialog", "template_dialog", "tie_input_dialog"]
