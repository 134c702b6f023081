"""Castor's dialogs: a number keypad, and the trick tracker's power card, leader,
one-trick trumps, bottom plan card, the complice card's note and corrections (each a
logged command), the "check your cards" note, and a player's own pile (only they look)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from companion.games.castor import commands as c
from companion.games.castor import events as e
from companion.games.castor import scoreboard
from companion.games.castor.instructions import check_cards, colour_chain
from companion.games.castor.params import widened
from companion.games.castor.state import CastorState
from companion.games.castor.tricks import piles
from ui import theme
from ui.dialogs import Dialog, NameKeyboard, open_dialog
from ui.names import display_name
from ui.screens.castor.checks import Fix, check_cards_dialog, log_notes
from ui.screens.castor.common import MEDAL, SYMBOL_FONT, colour_card, colour_cards
from ui.widgets.basics import Text, follow_height

KEYPAD_DIGITS = 3  # no sheet value needs more


def _act(dialog: Dialog, command: object) -> None:
    dialog.dismiss()
    App.get_running_app().send(command)


def undo_item(dialog: Dialog, command: str,
              before: Callable[[], Any] | None = None) -> tuple[str, str, Callable[[], Any]]:
    """The way back from a question that an action raised: takes that action back
    (`command` names it: "DrawPower", "NoteComplice"...), from the question itself.
    `before` runs first (the undo itself may wait for the action before it to be saved)."""
    app = App.get_running_app()

    def undo() -> None:
        dialog.dismiss()
        if before is not None:
            before()
        app.undo()

    what = app.tr(f"castor.ui.command.{command}")
    return app.tr("castor.ui.undo_button", what=what), f"{dialog.tid}.undo", undo



def keypad_dialog(title: str, initial: int, on_done: Callable[[int], None]) -> Dialog:
    """Digits for a number too far for the steppers."""
    app = App.get_running_app()
    dialog = Dialog(title, tid="keypad", size_hint=(0.6, 0.94))
    typed = {"text": str(initial) if initial else ""}
    shown = dialog.add(Text(typed["text"] or "0", size=28, bold=True, halign="center",
                            tid="keypad.value", size_hint_y=None, height=dp(44)))

    def press(key: str) -> None:
        if key == "del":
            typed["text"] = typed["text"][:-1]
        elif len(typed["text"]) < KEYPAD_DIGITS:
            typed["text"] = (typed["text"] + key).lstrip("0")
        shown.text = typed["text"] or "0"

    def ok() -> None:
        dialog.dismiss()
        on_done(int(typed["text"] or 0))

    keys = [(d, f"keypad.{d}", lambda d=d: press(d)) for d in "123456789"]
    keys += [(app.tr("core.ui.delete"), "keypad.del", lambda: press("del")),
             ("0", "keypad.0", lambda: press("0")),
             (app.tr("core.ui.ok"), "keypad.ok", ok)]
    dialog.buttons(keys, cols=3, height=50)
    dialog.add(BoxLayout())
    dialog.buttons([(app.tr("core.ui.cancel"), "keypad.cancel", dialog.dismiss)], height=48)
    dialog.default = ok
    return open_dialog(dialog)


def drawn_powers(state: CastorState) -> set[str]:
    tracking = state.tracking
    if tracking is None:
        return set()
    return {agent for trick in (*tracking.done, tracking.current) for agent in trick.powers}


def power_dialog(state: CastorState) -> Dialog:
    """A power card is on top of the plan pile: whose agent is it?"""
    app = App.get_running_app()
    dialog = Dialog(app.tr("castor.ui.power_title"), tid="power",
                    subtitle=app.tr("castor.ui.power_hint"))
    drawn = drawn_powers(state)
    choices = []
    for player in state.players:
        spec = state.params.agent(player.agent) if player.agent else None
        if spec is None or spec.id in drawn:
            continue
        choices.append((f"{spec.name}\n({display_name(player.name)})", f"power.{spec.id}",
                        lambda a=spec.id: _act(dialog, c.DrawPower(a))))
    if choices:
        dialog.buttons(choices, cols=min(3, len(choices)), height=64)
    else:
        dialog.add(Text(app.tr("castor.ui.no_power_left"), size=theme.SIZE_SMALL, tid="power.none"))
    dialog.add(BoxLayout())
    dialog.buttons([(app.tr("core.ui.close"), "power.close", dialog.dismiss)])
    return open_dialog(dialog)


def leader_dialog(state: CastorState, chooser: str | None, after_note: bool = False) -> Dialog:
    """Who leads this trick: a Belton-like power's choice, or a correction."""
    app = App.get_running_app()
    title = app.tr("castor.ui.leader_power_title", player=chooser) if chooser \
        else app.tr("castor.ui.leader_title")
    dialog = Dialog(title, tid="leader", size_hint=(0.8, 0.8))
    dialog.buttons([(display_name(p.name), f"leader.{i}",
                     lambda name=p.name: _act(dialog, c.ChooseLeader(name)))
                    for i, p in enumerate(state.players)], cols=min(3, len(state.players)),
                   height=64)
    dialog.add(BoxLayout())
    if chooser:
        # the power must be applied: no Close, its way back is taking the card back
        dialog.buttons([undo_item(dialog, "DrawPower")])
    else:
        dialog.buttons(_complice_way_back(dialog, "leader.close", "core.ui.close", after_note))
    return open_dialog(dialog)


def trumps_dialog(state: CastorState, after_note: bool = False) -> Dialog:
    """A "complice" card changes the trumps for one trick: usual, none, or another
    colour before the usual trumps."""
    app = App.get_running_app()
    usual = state.params.trumps
    dialog = Dialog(app.tr("castor.ui.trumps_title"), tid="trumps",
                    subtitle=app.tr("castor.ui.trumps_hint"))
    items = [(app.tr("castor.ui.trumps_usual", colours=app.say(colour_chain(usual)))
              if usual else app.tr("castor.ui.trumps_none"), "trumps.usual",
              lambda: _act(dialog, c.SetTrumps(None)))]
    if usual:
        items.append((app.tr("castor.ui.trumps_none"), "trumps.none",
                      lambda: _act(dialog, c.SetTrumps(()))))
    for colour in state.params.colour_names:
        if colour in usual:
            continue
        order = (colour, *usual)
        items.append((app.say(colour_chain(order)), f"trumps.{colour}",
                      lambda o=order: _act(dialog, c.SetTrumps(o))))
    dialog.buttons(items, cols=2, height=60)
    dialog.add(BoxLayout())
    dialog.buttons(_complice_way_back(dialog, "trumps.close", "core.ui.close", after_note))
    return open_dialog(dialog)


def _complice_way_back(dialog: Dialog, tid: str, key: str, after_note: bool) -> list[Any]:
    """A complice's correction follows its note (`after_note`): Undo takes the note
    back, from here (applied after the note, should the note still be being saved)."""
    app = App.get_running_app()
    items: list[Any] = []
    if after_note:
        items.append(undo_item(dialog, "NoteComplice"))
    items.append((app.tr(key), tid, dialog.dismiss))
    return items


def extra_plan_dialog(state: CastorState, player: str, plan: int,
                      values: list[int]) -> Dialog:
    """Martha-like power: the winner also takes the bottom plan card; its value? (any
    number through the keypad: the listed values are a guess)"""
    app = App.get_running_app()
    dialog = Dialog(app.tr("castor.ui.extra_title", player=player), tid="extra",
                    size_hint=(0.8, 0.7))

    def other() -> None:
        dialog.dismiss()
        keypad_dialog(app.tr("castor.ui.extra_title", player=player), 0,
                      lambda v: App.get_running_app().send(c.TakeTrick(plan, v)))

    items = [(str(v), f"extra.{v}", lambda v=v: _act(dialog, c.TakeTrick(plan, v)))
             for v in values]
    items.append((app.tr("castor.ui.other_value"), "extra.other", other))
    dialog.buttons(items, cols=min(7, len(items)), height=64)
    dialog.add(BoxLayout())
    dialog.buttons([(app.tr("core.ui.cancel"), "extra.cancel", dialog.dismiss)])
    return open_dialog(dialog)


# -- "check your cards" ------------------------------------------------------------------
def check_dialog(events: Sequence[Any], then: Callable[[], Any] | None = None,
                 command: str | None = None) -> Dialog | None:
    """The note for cards the game's settings did not expect, with the settings fix for
    the next games; None when the user's settings already expect every such card (the
    game in progress keeps its own settings, so its log still notes them)."""
    app = App.get_running_app()
    notes = [ev for ev in events if isinstance(ev, e.CheckCards)]
    section = app.settings.get("games.castor") or {}
    fixes: list[Fix] = []
    needed = False
    for note in notes:
        change = widened(section, note.reason, note.value, note.colour)
        if change is None:
            needed |= note.reason not in ("value", "plan_value")  # no settings fix for it
            continue
        needed = True
        key, value = change
        if key == "colours":
            spec = next(s for s in value if s["name"] == note.colour)
            label = app.tr("castor.ui.fix_colour", cards=colour_cards(note.colour),
                           low=spec["min"], high=spec["max"])
        else:
            label = app.tr("castor.ui.fix_plan", value=note.value, n=len(value))
        fixes.append(Fix(label, f"games.castor.{key}", value))
    lines = [app.say(check_cards(note)) for note in notes]
    log_notes(lines)
    if not needed:
        return None
    undo = None
    if command is not None:
        undo = (app.tr("castor.ui.undo_button",
                       what=app.tr(f"castor.ui.command.{command}")), app.undo)
    return check_cards_dialog(app.tr("castor.ui.check_title"), lines,
                              app.tr("castor.ui.check_hint"), fixes,
                              app.tr("castor.ui.fix_saved"), then, undo=undo)


# -- the complice card -------------------------------------------------------------------
def complice_dialog(state: CastorState) -> Dialog:
    """A complice card came up: note what it says, then make the correction it needs."""
    app = App.get_running_app()
    dialog = Dialog(app.tr("castor.ui.complice_title"), tid="complice",
                    subtitle=app.tr("castor.ui.complice_hint"))

    def choose(action: str) -> None:
        dialog.dismiss()
        if action == "other":
            open_dialog(NameKeyboard(app.tr("castor.ui.complice_text_title"), "",
                                     lambda text: text and app.send(c.NoteComplice("other",
                                                                                   text))))
            return
        if not app.send(c.NoteComplice(action)):
            return
        follow = {"trumps": trumps_dialog, "leader": lambda s, **k: leader_dialog(s, None, **k),
                  "winner": award_dialog, "card": move_card_dialog,
                  "points": move_points_dialog}
        follow[action](current(), after_note=True)

    def label(action: str) -> str:  # the phrase fits in a sentence: a capital on a button
        text = app.tr(f"castor.complice.{action}")
        return text[:1].upper() + text[1:]

    dialog.buttons([(label(action), f"complice.{action}",
                     lambda a=action: choose(a)) for action in c.COMPLICE_ACTIONS],
                   cols=2, height=56)
    dialog.add(BoxLayout())
    dialog.buttons([(app.tr("core.ui.close"), "complice.close", dialog.dismiss)])
    return open_dialog(dialog)


def current() -> CastorState:
    session = App.get_running_app().session
    assert session is not None
    return session.state


def pick_player(state: CastorState, title: str, tid: str, then: Callable[[str], Any],
                leave_out: str | None = None, extra: tuple[str, Any] | None = None,
                after_note: bool = False) -> Dialog:
    """One button per player (and an optional extra choice); `then(name)`."""
    dialog = Dialog(title, tid=tid, size_hint=(0.8, 0.75))

    def chosen(value: Any) -> None:
        dialog.dismiss()
        then(value)

    items = [(display_name(p.name), f"{tid}.{i}", lambda n=p.name: chosen(n))
             for i, p in enumerate(state.players) if p.name != leave_out]
    if extra is not None:
        items.append((extra[0], f"{tid}.none", lambda v=extra[1]: chosen(v)))
    dialog.buttons(items, cols=min(3, len(items)), height=60)
    dialog.add(BoxLayout())
    dialog.buttons(_complice_way_back(dialog, f"{tid}.cancel", "core.ui.cancel", after_note))
    return open_dialog(dialog)


def award_dialog(state: CastorState, after_note: bool = False) -> Dialog:
    """A complice's rule gives the trick to someone other than the strongest card."""
    app = App.get_running_app()
    return pick_player(state, app.tr("castor.ui.award_title"), "award",
                       lambda name: app.send(c.AwardTrick(name)),
                       extra=(app.tr("castor.ui.award_usual"), None), after_note=after_note)


def move_card_dialog(state: CastorState, after_note: bool = False) -> Dialog:
    """A won card changes piles: from whom, to whom, which colour, which number. Nobody
    sees a pile here: the giver reads the card from their own."""
    app = App.get_running_app()

    def giver(name: str) -> None:
        pick_player(current(), app.tr("castor.ui.move_to", player=name), "move_to",
                    lambda to: colour(name, to), leave_out=name, after_note=after_note)

    def colour(name: str, to: str) -> None:
        dialog = Dialog(app.tr("castor.ui.move_colour", player=name), tid="move_colour",
                        size_hint=(0.8, 0.6))

        def chosen(col: str) -> None:
            dialog.dismiss()
            keypad_dialog(app.tr("castor.ui.move_value", player=name, card=colour_card(col)), 0,
                          lambda v: app.send(c.MoveCard(name, to, col, v)))

        dialog.buttons([(app.tr(f"castor.colour.{col}"), f"move_colour.{col}",
                         lambda col=col: chosen(col)) for col in state.params.colour_names],
                       cols=2, height=56)
        dialog.buttons(_complice_way_back(dialog, "move_colour.cancel", "core.ui.cancel",
                                          after_note))
        open_dialog(dialog)

    return pick_player(state, app.tr("castor.ui.move_card_from"), "move_from", giver,
                       after_note=after_note)


def move_points_dialog(state: CastorState, after_note: bool = False) -> Dialog:
    """Plan points change piles: from whom, to whom, how many."""
    app = App.get_running_app()

    def giver(name: str) -> None:
        pick_player(current(), app.tr("castor.ui.move_to", player=name), "move_to",
                    lambda to: keypad_dialog(app.tr("castor.ui.move_points", player=name,
                                                    receiver=to), 0,
                                             lambda n: app.send(c.MovePlan(name, to, n))),
                    leave_out=name, after_note=after_note)

    return pick_player(state, app.tr("castor.ui.move_points_from"), "move_from", giver,
                       after_note=after_note)


# -- a player's own pile -----------------------------------------------------------------
def piles_dialog(state: CastorState) -> Dialog:
    """Whose pile? Then only that player looks (the rules hide the others' piles)."""
    app = App.get_running_app()
    return pick_player(state, app.tr("castor.ui.piles_title"), "piles",
                       lambda name: look_dialog(name))


def look_dialog(name: str) -> Dialog:
    app = App.get_running_app()
    dialog = Dialog(app.tr("castor.ui.look_title", player=name), tid="look",
                    size_hint=(0.8, 0.6))
    dialog.add(Text(app.tr("castor.ui.look_text", player=name), size=18, tid="look.text"))

    def show() -> None:
        dialog.dismiss()
        pile_dialog(current(), name)

    dialog.buttons([(app.tr("core.ui.cancel"), "look.cancel", dialog.dismiss),
                    (app.tr("castor.ui.look_show", player=name), "look.show", show)])
    dialog.default = show
    return open_dialog(dialog)


def pile_dialog(state: CastorState, name: str) -> Dialog:
    """One player's won pile this round: cards by colour, plan points, the bonus and
    malus colours' counts."""
    app = App.get_running_app()
    seat = state.seat(name)
    tracking = state.tracking
    assert seat is not None
    tricks = (*tracking.done, tracking.current) if tracking else ()
    pile = piles(len(state.players), tricks)[seat]
    lines = [app.tr("castor.ui.pile_plan", points=pile.plan)]
    for colour in state.params.colour_names:
        values = sorted(v for col, v in pile.cards if col == colour)
        lines.append(app.tr("castor.ui.pile_colour", colour=app.tr(f"castor.colour.{colour}"),
                            n=len(values), values=", ".join(map(str, values)) or "—"))
    dialog = Dialog(app.tr("castor.ui.pile_title", player=name), tid="pile",
                    size_hint=(0.85, 0.8))
    dialog.add(Text("\n".join(lines), size=18, tid="pile.text", valign="top"))
    dialog.buttons([(app.tr("castor.ui.pile_hide"), "pile.close", dialog.dismiss)])
    dialog.default = dialog.dismiss
    return open_dialog(dialog)


# -- the end of a tracked round: the piles are revealed -----------------------------------
#: the reveal's columns: the name, then one figure each (their share of the width)
REVEAL_NAME = 0.2
REVEAL_COLUMNS = ("plan", "green", "yellow", "bonus", "malus", "total", "medal")
GOLD = (0.93, 0.74, 0.22, 1)


def revealed_dialog(state: CastorState, number: int,
                    undo: Callable[[], Any] | None = None) -> Dialog | None:
    """The round's sheet as the tricks filled it, now that every pile may be seen: a
    moment. Per player, as key figures: plan points, green and yellow cards, bonus,
    malus, total and medal. Its Undo takes the last trick back (`undo` runs first)."""
    app = App.get_running_app()
    board = scoreboard(state)
    if not 1 <= number <= len(board.rounds):
        return None
    column = board.rounds[number - 1]
    params = state.params
    dialog = Dialog(app.tr("castor.ui.revealed_title", round=number), tid="revealed",
                    size_hint=(0.98, 0.98))
    share = (1 - REVEAL_NAME) / len(REVEAL_COLUMNS)
    heads = {"plan": app.tr("castor.ui.reveal.plan"),
             "green": colour_cards(params.bonus_colour).capitalize(),
             "yellow": colour_cards(params.malus_colour).capitalize(),
             "bonus": app.tr("castor.ui.reveal.bonus"), "malus": app.tr("castor.ui.reveal.malus"),
             "total": app.tr("castor.ui.total"), "medal": app.tr("castor.ui.medal_head")}
    inks = {"green": theme.SUCCESS_TEXT, "yellow": theme.colour("yellow")}
    head = follow_height(BoxLayout(spacing=dp(theme.SPACE_XS)), dp(46))  # two lines
    head.add_widget(BoxLayout(size_hint_x=REVEAL_NAME))
    for name in REVEAL_COLUMNS:
        head.add_widget(Text(heads[name], size=theme.SIZE_SMALL, halign="center",
                             color=inks.get(name, theme.MUTED), size_hint_x=share,
                             tid=f"revealed.head.{name}"))
    dialog.add(head)
    for seat, (player, cell) in enumerate(zip(board.players, column.cells, strict=True)):
        row = BoxLayout(spacing=dp(theme.SPACE_XS))
        row.add_widget(Text(display_name(player.name), size=theme.SIZE_BODY, bold=cell.medal,
                            color=GOLD if cell.medal else theme.TEXT,
                            size_hint_x=REVEAL_NAME, tid=f"revealed.name.{seat}"))
        figures = {"plan": str(cell.plan), "green": str(cell.green),
                   "yellow": str(cell.yellow),
                   "bonus": f"+{cell.bonus}" if cell.bonus else "·",
                   "malus": f"−{cell.malus}" if cell.malus else "·",
                   "total": str(cell.total), "medal": MEDAL if cell.medal else "·"}
        for name in REVEAL_COLUMNS:
            text = figures[name]
            colour = theme.MUTED if text == "·" else GOLD if name == "medal" or (
                name == "total" and cell.medal) else inks.get(name, theme.TEXT)
            figure = Text(text, size=theme.SIZE_FIGURE, halign="center",
                          font_name=SYMBOL_FONT, color=colour,
                          size_hint_x=share, tid=f"revealed.{name}.{seat}")
            figure.key_figure = True
            row.add_widget(figure)
        dialog.add(row)
    for _ in range(max(0, 5 - len(board.players))):
        dialog.add(BoxLayout())  # rows keep their height whatever the number of players
    items = []
    if undo is not None:
        items.append(undo_item(dialog, "TakeTrick", before=undo))
    items.append((app.tr("core.ui.ok"), "revealed.ok", dialog.dismiss))
    dialog.buttons(items, height=52)
    dialog.default = dialog.dismiss
    return open_dialog(dialog)
