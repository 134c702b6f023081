"""A tour of every screen and dialog of the app, as a table reaches them with real taps.

The tour is data: journeys (a fresh app on a fresh journal each) made of named steps.
A step taps widgets by their test ids (`tid`), checks that the screen or dialog it
names is on show, takes the picture (and lets a caller audit the widgets), then leaves
the way the next step expects. A step that fails is reported by name and the tour goes
on: the journey is started again on a fresh journal, the steps that worked are
replayed, and the next step is tried.

`make screenshots` runs it (`python -m tests.screen_tour`): every language at every
size into `test-artifacts/screens/<lang>/<size>/<step>.png`, the audit of each picture
into `test-artifacts/screens/audit.txt` (tests/screen_audit.py), and the README's
pictures into `docs/screenshots/`. tests/test_ui_audit.py runs it at 800x480.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # before anything imports kivy, as tests/conftest.py does
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
    os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")

Action = Callable[[Any], None]  # what a finger does to a tests.uidriver.Driver

#: window sizes: the official 7" screen, a 10" 1280x800 one, a 720x1280 panel turned
#: to landscape (a 1280x720 window)
SIZES: dict[str, tuple[int, int]] = {
    "800x480": (800, 480),
    "1280x800": (1280, 800),
    "1280x720": (1280, 720),
}
LANGUAGES = ("en", "fr")
OUT = Path(os.environ.get("TEST_ARTIFACTS", "test-artifacts")) / "screens"
DOCS = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
#: the README's pictures, from the 800x480 tour: step -> docs/screenshots/<name>.png
#: (English) and <name>-fr.png (French)
DOC_PICTURES = {
    "home_resume_rows": "home",
    "evil_setup_players": "evil-setup",
    "evil_play_rolled": "evil-play",
    "castor_play_round": "castor-play",
    "castor_tricks_played": "castor-tricks",
    "castor_dialog_revealed": "castor-reveal",
    "bond_play_scored": "bond-play",
    "tray_play": "tray-play",
    "pad_play_correcting": "pad-sheet",
    "pad_standings": "pad-standings",
    "clock_play_switched": "clock-play",
    "night_history": "history",
    "night_stats": "stats",
}


class StepFailed(AssertionError):
    pass


# -- what a finger does ---------------------------------------------------------------
def tap(tid: str) -> Action:
    return lambda ui: ui.tap(tid)


def _tids(ui: Any, prefix: str) -> list[str]:
    """Buttons on the touchable surface whose test id starts with `prefix`, in screen order
    (top to bottom, then left to right)."""
    from kivy.uix.behaviors import ButtonBehavior

    found = []
    for widget in ui.surface.walk(restrict=True):
        tid = getattr(widget, "tid", "")
        if isinstance(tid, str) and tid.startswith(prefix) and not widget.disabled \
                and isinstance(widget, ButtonBehavior):
            x, y = widget.to_window(*widget.center)
            found.append((-round(y), round(x), tid))
    return [tid for *_, tid in sorted(found)]


def tap_first(prefix: str, nth: int = 0) -> Action:
    """The `nth` enabled widget whose test id starts with `prefix` (ids with numbers
    that change between runs: a game's id, a backup's index)."""
    def act(ui: Any) -> None:
        tids = _tids(ui, prefix)
        if len(tids) <= nth:
            raise StepFailed(f"nothing tagged {prefix}* to tap (screen {ui.screen}, "
                             f"dialog {ui.dialog})")
        ui.tap(tids[nth])
    return act


def tap_if(tid: str) -> Action:
    """Tap it if it is there (a setup page that may or may not ask this)."""
    def act(ui: Any) -> None:
        if ui.has(tid) and not ui.find(tid).disabled:
            ui.tap(tid)
    return act


def expect_dialog(tid: str) -> Action:
    def act(ui: Any) -> None:
        if ui.dialog != tid:
            raise StepFailed(f"expected the {tid!r} dialog, found {ui.dialog!r} "
                             f"on {ui.screen}")
    return act


def _typed_open(name: str) -> Action:
    """The name keyboard is open: type `name` on its drawn keys (lower case: a name
    starts with a capital by itself; a letter the layout lacks is left out), then OK."""
    def act(ui: Any) -> None:
        expect_dialog("keyboard")(ui)
        ui.tap("keyboard.clear")
        for letter in name.lower():
            if ui.app.dialog.locate(f"keyboard.{letter}") is not None:
                ui.tap(f"keyboard.{letter}")
        ui.tap("keyboard.ok")
    return act


def expect_lines(tid: str, sentences: int) -> Action:
    """A status line that says `sentences` sentences (a long message, whole)."""
    def act(ui: Any) -> None:
        from ui.widgets.basics import find

        line = find(ui.app.root, tid)
        said = getattr(line, "sentences", ())
        if len(said) != sentences:
            raise StepFailed(f"{tid} says {len(said)} sentences, not {sentences}")
    return act


def close_dialog(ui: Any) -> None:
    """Back out of whatever dialog is open the way a table does: its Cancel, Close or
    OK (the Escape key as the last resort)."""
    for _ in range(4):
        if ui.dialog is None:
            return
        name = ui.dialog
        for suffix in ("cancel", "close", "later", "skip", "ok"):
            if ui.has(f"{name}.{suffix}"):
                ui.tap(f"{name}.{suffix}")
                break
        else:
            ui.app.dialog.dismiss()
            ui.pump(3)


def answer(ui: Any, minutes: int = 55) -> None:
    """Pr. Evil: what the table answers when the app asks (skip powers, place tiles)."""
    for _ in range(8):
        ui.quiet()  # asked once the action before is shown
        if ui.dialog == "power":
            ui.tap("power.skip")
        elif ui.dialog == "place":
            # `minutes` where a finger can reach it, else the first tile offered
            from tests.screen_audit import covering

            wanted = ui.find(f"place.{minutes}")
            if wanted is not None and covering(ui.surface, wanted) is None:
                ui.tap(f"place.{minutes}")
            else:
                tap_first("place.")(ui)
        else:
            return


def evil_roll_until(dialog: str, rolls: int = 40) -> Action:
    """Roll Pr. Evil's dice until the app asks `dialog` (the seed decides when)."""
    def act(ui: Any) -> None:
        for _ in range(rolls):
            ui.quiet()  # what the last roll opens comes in the frame after its result
            if ui.dialog == dialog:
                return
            answer(ui)
            if ui.screen != "evil_play":
                break
            ui.tap("play.roll")
        if ui.dialog != dialog:
            raise StepFailed(f"no {dialog!r} dialog after {rolls} rolls")
    return act


def evil_treasures(outcome: str) -> Action:
    """Recover (or lose) treasures until the game ends."""
    def act(ui: Any) -> None:
        for _ in range(12):
            answer(ui)
            if ui.screen != "evil_play":
                return
            ui.tap(tap_first_tid(ui, "play.treasure."))
            if ui.dialog == "place":
                answer(ui)
                continue
            expect_dialog("treasure")(ui)
            ui.tap(f"treasure.{outcome}")
        if ui.screen == "evil_play":
            raise StepFailed(f"the game did not end by treasures {outcome}")
    return act


def tap_first_tid(ui: Any, prefix: str) -> str:
    tids = _tids(ui, prefix)
    if not tids:
        raise StepFailed(f"nothing tagged {prefix}*")
    return tids[0]


def until_has(tid: str, press: str, most: int = 8) -> Action:
    """Tap `press` until `tid` is there (add seats up to a count)."""
    def act(ui: Any) -> None:
        for _ in range(most):
            if ui.has(tid):
                return
            ui.tap(press)
        if not ui.has(tid):
            raise StepFailed(f"{tid!r} never appeared tapping {press!r}")
    return act


def keypad(value: int) -> Action:
    """Castor's number keypad, open: clear and type `value`."""
    def act(ui: Any) -> None:
        expect_dialog("keypad")(ui)
        for _ in range(3):
            tap_if("keypad.del")(ui)
        for digit in str(value):
            ui.tap(f"keypad.{digit}")
    return act


def castor_card(colour: str, value: int) -> Action:
    def act(ui: Any) -> None:
        ui.tap(f"tricks.colour.{colour}")
        ui.tap(f"tricks.value.{value}")
    return act


def castor_play_on(tricks: int = 12) -> Action:
    """Castor's tracker: the table plays on, `tricks` tricks or to the round's end (its
    reveal), a card not yet played each time (the keypad opens on the colour led), the
    first plan card offered; a power's, a complice's or a card's question answered."""
    def act(ui: Any) -> None:
        from companion.games.castor import playable_values

        taken = 0
        for _ in range(tricks * 12):
            if ui.dialog == "extra":
                tap_first("extra.")(ui)
            elif ui.dialog == "check":
                ui.tap("check.ok")
            if ui.dialog is not None or ui.screen != "castor_tricks" or taken >= tricks:
                return
            if _tids(ui, "tricks.plan."):
                tap_first("tricks.plan.")(ui)
                taken += 1
                continue
            state = ui.app.session.state
            colour, value = next((c, v) for c in state.params.colour_names
                                 for v in playable_values(state, c))
            if not ui.find(f"tricks.colour.{colour}").text.startswith("▶"):
                ui.tap(f"tricks.colour.{colour}")
            ui.tap(f"tricks.value.{value}")
        raise StepFailed(f"the tracker did not get through {tricks} tricks")
    return act


#: what `companion run` shows on a desktop without GPIO and the tour's app does not
HARDWARE_ONLY = frozenset({"play.pins"})


def killed(screen: str, *taps: str) -> Action:
    """kill -9: the app handed over to `companion run` on the same journal (the tour's
    app closed first, everything it showed written), which resumes on `screen`, taps
    `taps` (`~tid`: a tap that is not an action, as tests/helpers/power_cut_child.py
    reads them) and is killed with SIGKILL; then the app started again on the journal.
    The screen, the dialog and every tagged text must be what the killed one showed."""
    def act(ui: Any) -> None:
        ui.launcher.killed(ui, screen, taps)
    act.kills = True  # type: ignore[attr-defined]
    return act


def bond_end_by_agreement(ui: Any) -> None:
    ui.tap("play.end")
    expect_dialog("end_confirm")(ui)
    ui.tap("end_confirm.ok")


def home(ui: Any) -> None:
    """Back to home from wherever the finger is: close dialogs, then Home/Back."""
    close_dialog(ui)
    for _ in range(4):
        if ui.screen == "home":
            return
        for tid in ("play.home", "end.home", "standings.back", "setup.back", "traysetup.back",
                    "clocksetup.back",
                    "play.close",
                    "log.back", "history.back", "stats.back", "players.back",
                    "export.back", "settings.back"):
            if ui.has(tid):
                ui.tap(tid)
                break
        else:
            ui.app.root.current = "home"


# -- the tour ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Step:
    name: str  # the picture's file name: <name>.png
    do: Sequence[Action]  # from where the previous step left to this screen or dialog
    shows: str  # "screen:<name>" or "dialog:<tid>": what must be on show for the picture
    leave: Sequence[Action] = ()  # after the picture, to where the next step starts


@dataclass(frozen=True)
class Journey:
    name: str
    steps: Sequence[Step]
    seed: int = 7


def S(name: str, shows: str, *do: Action, leave: Sequence[Action] = ()) -> Step:
    """A step, written short: S(name, "screen:x" or "dialog:y", *actions, leave=...)."""
    return Step(name, do, shows, tuple(leave))


CLOSE = (close_dialog,)


def repeat(action: Action, times: int) -> Action:
    def act(ui: Any) -> None:
        for _ in range(times):
            action(ui)
    return act


def sheet(field_: str, seat: int, value: int) -> Action:
    """Castor's score sheet: a value typed on the keypad."""
    def act(ui: Any) -> None:
        ui.tap(f"sheet.{field_}.{seat}")
        keypad(value)(ui)
        ui.tap("keypad.ok")
    return act


def castor_sheet(plan: Sequence[int], green: Sequence[int], yellow: Sequence[int]) -> Action:
    def act(ui: Any) -> None:
        for name, values in (("plan", plan), ("green", green), ("yellow", yellow)):
            for seat, value in enumerate(values):
                sheet(name, seat, value)(ui)
    return act


def red_at_most(ui: Any) -> None:
    """Pr. Evil's setup: the red treasure on the last tile of the dial (the difficulty
    that has every tile in play), so that time cannot go back."""
    for _ in range(4):
        for _ in range(12):
            before = ui.text("setup.minutes.red")
            tap_if("setup.minutes.red.plus")(ui)
            if ui.text("setup.minutes.red") == before:
                break
        if "55" in ui.text("setup.minutes.red"):
            return
        ui.tap("setup.difficulty")
    raise StepFailed("no difficulty puts a treasure on 55 minutes")


# Each step's `leave` closes what it opened, so that after a failed step the steps
# that worked, replayed, leave the next one on a screen without a dialog.
EVIL = Journey("evil", (
    S("home", "screen:home"),
    S("evil_setup", "screen:evil_setup", tap("home.game.evil")),
    S("dialog_keyboard", "dialog:keyboard", tap("setup.name.0"),
      leave=(_typed_open("CLÉMENCE"),)),
    S("evil_setup_players", "screen:evil_setup", until_has("setup.name.2", "setup.add"),
      tap_if("setup.character.2"), red_at_most),
    S("dialog_roster_empty", "dialog:roster", tap("setup.roster"), leave=CLOSE),
    S("evil_play", "screen:evil_play", tap("setup.start"), answer),
    S("evil_dialog_adjust", "dialog:adjust", tap("play.adjust"), leave=CLOSE),
    # the red treasure is at 55 minutes: time cannot go back
    S("evil_dialog_error", "dialog:error", tap("play.adjust"), tap("adjust.time_back"),
      leave=CLOSE),
    S("evil_dialog_enter_roll", "dialog:enter_roll", tap("play.adjust"),
      tap("adjust.enter_roll"), leave=CLOSE),
    S("evil_play_rolled", "screen:evil_play", tap("play.roll"), answer),
    S("evil_dialog_power", "dialog:power", evil_roll_until("power"),
      leave=(close_dialog, answer)),
    # a power question undone from the question itself, then asked again by Redo
    S("evil_play_power_undone", "screen:evil_play", tap("play.roll"),
      evil_roll_until("power"), tap("power.undo"), leave=(tap("play.redo"), answer)),
    S("evil_dialog_treasure", "dialog:treasure", answer, tap("play.treasure.green"),
      leave=CLOSE),
    S("evil_dialog_place", "dialog:place", tap("play.treasure.green"),
      tap("treasure.recovered"), leave=(tap_first("place."), answer)),
    S("evil_end_victory", "screen:evil_end", evil_treasures("recovered")),
    S("evil_play_after_undo", "screen:evil_play", tap("end.undo"), answer),
    # kill -9 (SIGKILL) and started again: the same turn card
    S("evil_play_after_kill", "screen:evil_play", killed("evil_play")),
    S("home_resume", "screen:home", answer, tap("play.home")),
))

EVIL_DEFEAT = Journey("evil_defeat", (
    S("evil_end_defeat", "screen:evil_end", tap("home.game.evil"), tap("setup.start"),
      answer, tap("play.roll"), evil_treasures("lost")),
), seed=11)

CASTOR = Journey("castor", (
    S("castor_setup", "screen:castor_setup", tap("home.game.castor"),
      until_has("setup.name.2", "setup.add"), tap_if("setup.agent.1")),
    S("castor_play", "screen:castor_play", tap("setup.start")),
    S("castor_sheet", "screen:castor_sheet", tap("play.sheet")),
    S("castor_dialog_keypad", "dialog:keypad", tap("sheet.plan.0"), keypad(9),
      leave=(tap("keypad.ok"),)),
    # 17 green cards: the deck holds 16
    S("castor_dialog_error", "dialog:error", sheet("green", 0, 17), tap("sheet.ok"),
      leave=(close_dialog, sheet("green", 0, 0))),
    S("castor_play_round", "screen:castor_play",
      castor_sheet([9, 9, 1], [0, 0, 1], [0, 0, 1]), tap("sheet.ok")),
    S("castor_end", "screen:castor_end", tap("play.sheet"),
      castor_sheet([6, 6, 2], [1, 1, 1], [0, 0, 0]), tap("sheet.ok")),
))

CASTOR_TRICKS = Journey("castor_tricks", (
    S("castor_tricks", "screen:castor_tricks", tap("home.game.castor"),
      repeat(tap("setup.agent.0"), 2), tap("setup.agent.1"), tap("setup.start"),
      tap("play.tricks")),
    S("castor_dialog_power", "dialog:power", tap("tricks.power"), leave=CLOSE),
    S("castor_dialog_leader", "dialog:leader", tap("tricks.power"), tap("power.belton"),
      leave=(tap("leader.1"),)),
    S("castor_tricks_played", "screen:castor_tricks", castor_card("blue", 7),
      castor_card("blue", 9)),
    S("castor_dialog_extra", "dialog:extra", tap("tricks.plan.3"), tap("tricks.power"),
      tap("power.martha"), castor_card("mauve", 10), castor_card("green", 5),
      tap("tricks.plan.2"), leave=(tap("extra.4"),)),
    S("castor_dialog_complice", "dialog:complice", tap("tricks.complice"), leave=CLOSE),
    S("castor_dialog_trumps", "dialog:trumps", tap("tricks.complice"),
      tap("complice.trumps"), leave=(tap("trumps.blue"),)),
    # a card off the game's guess: accepted, the table is asked to check its cards
    S("castor_dialog_card_keypad", "dialog:keypad", tap("tricks.colour.blue"),
      tap("tricks.value.other"), keypad(20), leave=CLOSE),
    S("castor_dialog_check", "dialog:check", tap("tricks.colour.blue"),
      tap("tricks.value.other"), keypad(20), tap("keypad.ok"), leave=(tap("check.ok"),)),
    # the complice's corrections, each asked after its note (its Undo takes it back)
    S("castor_dialog_award", "dialog:award", tap("tricks.complice"),
      tap("complice.winner"), leave=(tap("award.undo"),)),
    S("castor_dialog_move_from", "dialog:move_from", tap("tricks.complice"),
      tap("complice.card"), leave=(tap("move_from.undo"),)),
    S("castor_dialog_move_to", "dialog:move_to", tap("tricks.complice"),
      tap("complice.card"), tap("move_from.0"), leave=CLOSE),
    S("castor_dialog_move_colour", "dialog:move_colour", tap("tricks.complice"),
      tap("complice.card"), tap("move_from.0"), tap("move_to.1"), leave=CLOSE),
    S("castor_dialog_complice_leader", "dialog:leader", tap("tricks.complice"),
      tap("complice.leader"), leave=(tap("leader.undo"),)),
    # a player's own pile: whose, "only they look", the pile
    S("castor_dialog_piles", "dialog:piles", tap("tricks.piles"), leave=CLOSE),
    S("castor_dialog_look", "dialog:look", tap("tricks.piles"), tap("piles.0"),
      leave=CLOSE),
    S("castor_dialog_pile", "dialog:pile", tap("tricks.piles"), tap("piles.0"),
      tap("look.show"), leave=CLOSE),
    # every card down: who wins the trick, the plan card to tap
    S("castor_tricks_complete", "screen:castor_tricks", castor_card("yellow", 9)),
    # the scoreboard mid-round: its sheet would replace the tricks, so it asks
    S("castor_play_tracking", "screen:castor_play", tap("tricks.plan.1"), tap("tricks.board")),
    S("castor_dialog_sheet_confirm", "dialog:sheet_confirm", tap("play.sheet"),
      leave=CLOSE),
    S("castor_sheet_tracked", "screen:castor_sheet", tap("play.sheet"),
      tap("sheet_confirm.yes"), leave=(tap("sheet.cancel"), tap("play.tricks"))),
    # kill -9 (SIGKILL) just after a card, started again: the trick being tracked
    S("castor_tricks_reopened", "screen:castor_tricks",
      killed("castor_tricks", "~tricks.colour.green", "tricks.value.13")),
    S("castor_dialog_stop_confirm", "dialog:stop_confirm", tap("tricks.cancel"),
      leave=CLOSE),
    # the last trick taken: every pile revealed, a table of key figures
    S("castor_dialog_revealed", "dialog:revealed", castor_play_on(), leave=CLOSE),
))

BOND = Journey("bond", (
    S("bond_setup", "screen:bond_setup", tap("home.game.bond"),
      until_has("setup.name.2", "setup.add")),
    S("bond_play", "screen:bond_play", tap("setup.start")),
    S("bond_dialog_lair", "dialog:lair", tap("play.player.1.add_lair"),
      leave=(tap("lair.add.3"), close_dialog)),
    S("bond_dialog_attack", "dialog:attack", tap("play.player.1.attack"),
      tap_first("attack.by."), tap("attack.spy.3"), leave=CLOSE),
    S("bond_dialog_capture", "dialog:capture", tap("play.player.1.attack"),
      tap_first("attack.by."), tap("attack.spy.3"), tap("attack.send"),
      tap_first("capture.letter.")),
    S("bond_play_scored", "screen:bond_play", tap("capture.not_answered"),
      tap("capture.kill")),
    S("bond_dialog_escaped", "dialog:escaped", tap("play.player.2.add_lair"),
      tap("lair.add.2"), close_dialog, tap("play.player.2.attack"), tap("attack.spy.2"),
      tap("attack.spy.1"), tap("attack.send"), leave=CLOSE),
    # the escape's three sentences under the cards, in a box of fixed height
    S("bond_play_message", "screen:bond_play", expect_lines("play.say", 3)),
    # the capture asked, then undone from the question itself
    S("bond_play_capture_undone", "screen:bond_play", tap("play.player.1.add_lair"),
      tap("lair.add.4"), close_dialog, tap("play.player.1.attack"), tap_first("attack.by."),
      tap("attack.spy.3"), tap("attack.send"), expect_dialog("capture"),
      tap("capture.undo")),
    # kill -9 (SIGKILL) mid-turn, a spy just captured: the capture question is back
    S("bond_dialog_capture_after_kill", "dialog:capture",
      killed("bond_play", "~play.player.1.attack", "~attack.spy.3", "attack.send"),
      leave=(tap("capture.undo"),)),
    S("bond_dialog_correct", "dialog:correct", tap("play.player.0.correct"),
      tap("correct.plus"), leave=CLOSE),
    S("bond_dialog_end_confirm", "dialog:end_confirm", tap("play.end"), leave=CLOSE),
    S("bond_end", "screen:bond_end", bond_end_by_agreement),
))

def pad_keys(text: str) -> Action:
    """The score pad's keypad: `text` typed (digits, "+", "±"), Enter not pressed."""
    def act(ui: Any) -> None:
        for ch in text:
            ui.tap({"+": "keypad.plus", "±": "keypad.pm"}.get(ch, f"keypad.{ch}"))
    return act


def pad_fill(cells: int = 999, rounds: int | None = None, same: int | None = None) -> Action:
    """Type a score in the cell the sheet asks for and Enter, `cells` times, or until
    `rounds` rounds are complete, or until the sheet asks for none (a categories sheet
    filled in). The values vary by seat and row (0 to 9), or are all `same`."""
    def act(ui: Any) -> None:
        from companion.games.pad.view import sheet_view

        for count in range(cells):
            view = sheet_view(ui.app.session.state)
            if view.current is None or (
                    rounds is not None and view.current[0] is not None
                    and view.current[0] >= rounds):
                return
            seat = view.current_seat or 0
            ui.tap(f"keypad.{(3 * seat + count) % 10 if same is None else same}")
            ui.tap("keypad.enter")
            if ui.dialog is not None:
                raise StepFailed(f"the pad refused a cell ({ui.dialog})")
    return act


def pad_values(value: Callable[[int, int | None, str | None], int], cells: int = 999,
               rounds: int | None = None) -> Action:
    """As `pad_fill`, each cell's value `value(seat, round, category)` typed whole (four
    digits, a category's coins), then Enter."""
    def act(ui: Any) -> None:
        from companion.games.pad.view import sheet_view

        for _ in range(cells):
            view = sheet_view(ui.app.session.state)
            if view.current is None or (
                    rounds is not None and view.current[0] is not None
                    and view.current[0] >= rounds):
                return
            row, category = view.current
            pad_keys(str(value(view.current_seat or 0, row, category)))(ui)
            ui.tap("keypad.enter")
            if ui.dialog is not None:
                raise StepFailed(f"the pad refused a cell ({ui.dialog})")
    return act


def tie_answers(*values: int) -> Action:
    """The tie-breaker's question, one tied player after the other: `values` typed."""
    def act(ui: Any) -> None:
        for value in values:
            expect_dialog("tie")(ui)
            for digit in str(value):
                ui.tap(f"tie.{digit}")
            ui.tap("tie.ok")
    return act


def pad_template(ident: str) -> Action:
    """The set-up's template list: the template `ident` chosen."""
    def act(ui: Any) -> None:
        ui.tap("setup.template")
        expect_dialog("templates")(ui)
        ui.tap(f"templates.{ident}")
    return act


# the ad-hoc pad at eight players and twelve rounds: the sheet's largest rounds shape
PAD = Journey("pad", (
    S("pad_setup", "screen:pad_setup", tap("home.game.pad")),
    S("pad_dialog_templates", "dialog:templates", tap("setup.template"), leave=CLOSE),
    S("pad_setup_eight", "screen:pad_setup", until_has("setup.name.7", "setup.add")),
    S("pad_play", "screen:pad_play", tap("setup.start")),
    S("pad_play_typing", "screen:pad_play", pad_keys("3+6+2")),
    S("pad_dialog_error", "dialog:error", pad_keys("+"), tap("keypad.enter"),
      leave=(close_dialog, tap("keypad.del"), tap("keypad.enter"))),
    S("pad_play_missing", "screen:pad_play", pad_fill(cells=3)),
    # kill -9 just after a cell entered mid-round: the same cell, "?" and totals come back
    S("pad_play_after_kill", "screen:pad_play",
      killed("pad_play", "~keypad.4", "keypad.enter")),
    S("pad_play_12_rounds", "screen:pad_play", pad_fill(rounds=12)),
    S("pad_play_page_up", "screen:pad_play", tap("sheet.up")),
    S("pad_play_correcting", "screen:pad_play", tap("sheet.cell.1.0"), pad_keys("7±")),
    S("pad_dialog_player", "dialog:player", tap("sheet.name.2"), leave=CLOSE),
    S("pad_standings", "screen:pad_standings", tap("keypad.enter"), tap("play.standings")),
    S("pad_end", "screen:pad_end", tap("standings.end")),
))

# 7 Wonders at eight players (one past its box: asked, then allowed), its ten
# categories filled in
PAD_CATEGORIES = Journey("pad_categories", (
    S("pad_dialog_count", "dialog:count", tap("home.game.pad"),
      until_has("setup.name.7", "setup.add"), pad_template("7-wonders"),
      tap("setup.start")),
    S("pad_play_categories", "screen:pad_play", tap("count.yes")),
    S("pad_play_categories_full", "screen:pad_play", pad_fill()),
    S("pad_play_categories_down", "screen:pad_play", tap("sheet.down")),
    S("pad_standings_eight", "screen:pad_standings", tap("play.standings")),
))

# Wingspan's tie-breaker (unused food) asked at the end, undone from the question
PAD_TIE = Journey("pad_tie", (
    S("pad_dialog_tie", "dialog:tie", tap("home.game.pad"), pad_template("wingspan"),
      tap("setup.start"), pad_fill(same=5), tap("play.standings"), tap("standings.end")),
    S("pad_end_tie_undone", "screen:pad_play", tap("tie.undo")),
    # asked again and answered: the end page names the winner on unused food
    S("pad_end_tie_food", "screen:pad_end", tap("play.standings"), tap("standings.end"),
      tie_answers(3, 1)),
))

# 7 Wonders at two players tied on points, the tie broken on coins (11 to 9, three
# points each): said on the standings and on the end page
PAD_WONDERS_TIE = Journey("pad_wonders_tie", (
    S("pad_standings_wonders_tie", "screen:pad_standings", tap("home.game.pad"),
      pad_template("7-wonders"), tap("setup.start"),
      pad_values(lambda seat, row, category: (11 - 2 * seat) if category == "coins" else 3),
      tap("play.standings")),
    S("pad_end_wonders_tie", "screen:pad_end", tap("standings.end")),
))

# eight players, scores in the thousands: every total of four digits on one line
PAD_THOUSANDS = Journey("pad_thousands", (
    S("pad_play_thousands", "screen:pad_play", tap("home.game.pad"),
      until_has("setup.name.7", "setup.add"), tap("setup.start"),
      pad_values(lambda seat, row, category: 4987 - 611 * seat + 7 * (row or 0), rounds=2)),
    S("pad_standings_thousands", "screen:pad_standings", tap("play.standings")),
    S("pad_end_thousands", "screen:pad_end", tap("standings.end")),
))

# a team game: four players in two teams, the sheet's Team row and the standings
PAD_TEAMS = Journey("pad_teams", (
    S("pad_setup_teams", "screen:pad_setup", tap("home.game.pad"),
      until_has("setup.name.3", "setup.add"), tap("setup.teams")),
    S("pad_play_teams", "screen:pad_play", tap("setup.start"), pad_fill(rounds=2)),
    S("pad_standings_teams", "screen:pad_standings", tap("play.standings")),
))

# a co-operative sheet: the table's win asked at the end
PAD_COOP = Journey("pad_coop", (
    S("pad_dialog_coop", "dialog:coop", tap("home.game.pad"), pad_template("coop"),
      tap("setup.start"), pad_fill(cells=2), tap("play.standings"), tap("standings.end")),
    S("pad_end_coop", "screen:pad_end", tap("coop.won")),
))

# game night after a score pad game: lowest wins, two rounds, the end; History, the
# game's log, and the template in the statistics (after all games and the three others)
PAD_NIGHT = Journey("pad_night", (
    S("night_pad_history", "screen:night_history", tap("home.game.pad"),
      pad_template("rounds-lowest"), tap("setup.start"), pad_fill(rounds=2),
      tap("play.standings"), tap("standings.end"), home, tap("home.history")),
    S("night_pad_log", "screen:night_log", tap_first("history.game.")),
    S("night_pad_stats", "screen:night_stats", tap("log.back"), tap("history.back"),
      tap("home.stats"), repeat(tap("stats.filter"), 4)),
    S("night_pad_stats_games", "screen:night_stats", tap("stats.tab.games")),
    S("night_pad_stats_charts", "screen:night_stats", tap("stats.tab.charts")),
))

TRAY = Journey("tray", (
    S("tray_setup", "screen:tray_setup", tap("home.tray"), tap("traysetup.add.d6"),
      tap("traysetup.add.d6"), tap("traysetup.add.d20")),
    S("tray_play", "screen:tray_play", tap("traysetup.roll"), tap("play.die.0"),
      tap("play.roll")),
    # a die put in the tray since the last roll cannot be kept before it is rolled
    S("tray_dialog_error", "dialog:error", tap("play.add.d4"), tap("play.die.3"),
      leave=CLOSE),
))


class _Ahead:
    """The clock screens' moment (`ui.screens.clock.moment.source`) run ahead of the
    monotonic clock by `ms`: a pause that lasts, a turn over its time, without waiting
    for them. Only ever forward; put back to the plain clock when an app starts."""

    ms = 0

    def __call__(self) -> int:
        from ui.screens.clock import moment

        return moment.monotonic_ms() + self.ms


AHEAD = _Ahead()


def _plain_time() -> None:
    from ui.screens.clock import moment

    AHEAD.ms = 0
    moment.source = moment.monotonic_ms


def time_passes(ms: int) -> Action:
    """`ms` of the table's time pass at once; the clock screen looks (as its interval
    would)."""
    def act(ui: Any) -> None:
        from ui.screens.clock import moment

        AHEAD.ms += ms
        moment.source = AHEAD
        ui.app.root.get_screen("clock_play").look()
        ui.quiet()
    return act


def clock_seconds(text: str) -> int:
    minutes, _, seconds = text.replace("\u2212", "-").rpartition(":")
    return int(minutes or 0) * 60 + int(seconds)


def undo_across_pause(pause_ms: int) -> Action:
    """A pause that lasts `pause_ms`, then Undo: the pause is taken back and the time
    it ran is charged to nobody (the running player's time as it was, within 2 s)."""
    def act(ui: Any) -> None:
        before = clock_seconds(ui.text("play.time"))
        ui.tap("play.pause")
        time_passes(pause_ms)(ui)
        ui.tap("play.undo")
        after = clock_seconds(ui.text("play.time"))
        if abs(after - before) > 2:
            raise StepFailed(f"undo across a pause of {pause_ms} ms: {before} s "
                             f"before, {after} s after")
    return act


def says(tid: str, words: str) -> Action:
    def act(ui: Any) -> None:
        if words not in ui.text(tid):
            raise StepFailed(f"{tid} says {ui.text(tid)!r}, not {words!r}")
    return act


# the table clock: a chess clock for eight (two columns of seats), the start player
# chosen, a switch, time added, a pause, the end; a sand timer on its own
CLOCK = Journey("clock", (
    S("clock_setup", "screen:clock_setup", tap("home.game.clock")),
    S("clock_dialog_presets", "dialog:clockpresets", tap("clocksetup.preset"),
      leave=(tap("clockpresets.chess-5m-3s"),)),
    S("clock_dialog_custom", "dialog:clockcustom", tap("clocksetup.preset"),
      tap("clockpresets.custom"), leave=CLOSE),
    S("clock_setup_eight", "screen:clock_setup", until_has("setup.name.7", "clocksetup.add"),
      tap("clocksetup.first.2")),
    S("clock_play", "screen:clock_play", tap("clocksetup.start")),
    S("clock_play_switched", "screen:clock_play", tap("play.area")),
    S("clock_dialog_adjust", "dialog:clockadjust", tap("play.adjust"),
      tap("clockadjust.step.3"), leave=CLOSE),
    S("clock_dialog_order", "dialog:clockorder", tap("play.adjust"),
      tap("clockadjust.order"), tap("clockorder.seat.3"), leave=CLOSE),
    S("clock_play_admin", "screen:clock_play", tap("play.admin"),
      leave=(tap("play.admin"),)),
    # a pause of 1:05, then Undo: the pause taken back, charged to nobody
    S("clock_play_undo_across_pause", "screen:clock_play", undo_across_pause(65_000)),
    S("clock_play_paused", "screen:clock_play", tap("play.pause")),
    S("clock_dialog_end", "dialog:clock_end", tap("play.close"), leave=CLOSE),
    S("clock_end", "screen:clock_end", tap("play.pause"), tap("play.area"),
      tap("play.close"), tap("clock_end.yes")),
))

CLOCK_SAND = Journey("clock_sand", (
    S("clock_play_sand", "screen:clock_play", tap("home.game.clock"),
      tap("clocksetup.preset"), tap("clockpresets.sand-1m"), tap("setup.remove.1"),
      tap("clocksetup.start")),
    S("clock_play_sand_flipped", "screen:clock_play", tap("play.area")),
))

# a stand-alone turn timer of 1 min, a penalty point per started 30 s over: the first
# player ends a turn 31 s over, the line says the points; the end page adds them up
CLOCK_PENALTY = Journey("clock_penalty", (
    S("clock_play_penalty", "screen:clock_play", tap("home.game.clock"),
      tap("clocksetup.preset"), tap("clockpresets.turn-1m-penalty"),
      tap("clocksetup.start"), time_passes(61_000), time_passes(30_000), tap("play.area"),
      says("play.info", "2")),
    S("clock_end_penalty", "screen:clock_end", tap("play.close"), tap("clock_end.yes")),
))


def _add_player(name: str) -> tuple[Action, Action]:
    return tap("players.add"), _typed_open(name)


NIGHT = Journey("night", (
    S("night_roster_empty", "screen:night_roster", tap("home.players")),
    S("night_roster", "screen:night_roster", *_add_player("Anne"), *_add_player("Bob"),
      *_add_player("Chloé")),
    S("night_dialog_colour", "dialog:colour", tap("players.0.colour"),
      leave=(tap_first("colour."), close_dialog)),
    S("night_dialog_retire", "dialog:retire", tap("players.2.retire"), leave=CLOSE),
    S("dialog_roster", "dialog:roster", tap("players.back"), tap("home.game.bond"),
      tap("setup.roster"), tap("roster.pick.0"), tap("roster.pick.1"),
      leave=(tap("roster.ok"),)),
    # a finished Bond game, an unfinished Pr. Evil game and a dice tray for the history
    S("home_resume_rows", "screen:home", tap("setup.start"),
      tap("play.player.1.add_lair"), tap("lair.add.3"), close_dialog,
      tap("play.player.1.attack"), tap_first("attack.by."), tap("attack.spy.3"),
      tap("attack.send"), tap("capture.kill"), bond_end_by_agreement, tap("end.home"),
      tap("home.game.evil"), tap("setup.start"), answer, tap("play.roll"), answer,
      tap("play.home"), tap("home.tray"), tap("traysetup.add.d6"),
      tap("traysetup.roll"), tap("play.close")),
    S("night_history", "screen:night_history", tap("home.history")),
    S("night_dialog_abandon", "dialog:abandon", tap_first("history.abandon."),
      leave=CLOSE),
    S("night_log", "screen:night_log", tap_first("history.game.")),
    S("night_stats", "screen:night_stats", tap("log.back"), tap("history.back"),
      tap("home.stats")),
    S("night_stats_games", "screen:night_stats", tap("stats.tab.games")),
    S("night_stats_charts", "screen:night_stats", tap("stats.tab.charts")),
    S("night_export", "screen:night_export", tap("stats.back"), tap("home.export"),
      tap("export.backup")),
    S("night_dialog_restore", "dialog:restore", tap("export.back"), tap("home.export"),
      tap_first("restore."), leave=CLOSE),
    S("night_settings", "screen:night_settings", home, tap("home.settings")),
))

TOUR: tuple[Journey, ...] = (EVIL, EVIL_DEFEAT, CASTOR, CASTOR_TRICKS, BOND, TRAY, NIGHT,
                             PAD, PAD_CATEGORIES, PAD_TIE, PAD_WONDERS_TIE, PAD_THOUSANDS,
                             PAD_TEAMS, PAD_COOP, PAD_NIGHT, CLOCK, CLOCK_SAND,
                             CLOCK_PENALTY)


# -- running it --------------------------------------------------------------------------
@dataclass
class Failure:
    step: str
    reason: str


@dataclass
class Result:
    lang: str
    size: str
    pictures: list[str] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    seconds: float = 0.0


Capture = Callable[[Any, Step], None]  # (driver, step): look at what is on show


def _driver(app: Any) -> Any:
    from tests.uidriver import Driver

    class TourDriver(Driver):
        """Driver's taps with two frames rather than four: a tour taps ~350 times, and a
        frame costs ~30 ms of software GL. A step's picture waits for three more."""

        def tap(self, tid: str) -> None:
            from kivy.tests.common import UnitTestTouch

            widget = self.find(tid)
            drawn = None
            if widget is None and hasattr(self.app.dialog, "locate"):
                drawn = self.app.dialog.locate(tid)  # a key drawn on a canvas (VKeyboard)
            if widget is None and drawn is None:
                raise StepFailed(f"nothing tagged {tid!r} can be touched now "
                                 f"(screen {self.screen}, dialog {self.dialog})")
            if widget is not None and widget.disabled:
                raise StepFailed(f"{tid!r} is disabled")
            if getattr(widget, "rolls", False):  # a roll's result shown before the next
                self.wait_until(self.app.may_roll)
            touch = UnitTestTouch(*(drawn or widget.to_window(*widget.center)))
            touch.touch_down()
            self.pump(1)
            touch.touch_up()
            self.pump(1)
            self.quiet()

        def quiet(self) -> None:
            """What the last tap started is done: its action durable and shown, the
            work beside the screen handed back (history, stats), and what the action
            opens open. Pr. Evil's play screen opens it (a power, a new treasure) in
            the frame after the action is shown, and an action shown again in that
            frame puts it off by one more: the next step must not look, or tap, before
            it (it once found no dialog after Redo, tapped on, and the power it left
            pending came up in the place of a later step's dialog)."""
            self.settle()
            self.wait_until(lambda: not _prompting(self.app), timeout=30)

    return TourDriver(app)


def _prompting(app: Any) -> bool:
    """Pr. Evil's play screen has yet to open what the rules ask after an action."""
    root = app.root
    play = root.built("evil_play") if hasattr(root, "built") else None
    return getattr(play, "_prompt_event", None) is not None


class Launcher:
    """Fresh apps on fresh journals in one Kivy window (tests/conftest.py's `launch`
    without pytest): the window is sized first, the app built into it."""

    def __init__(self, defaults: Any, language: str, size: tuple[int, int],
                 folder: Path) -> None:
        self.defaults = defaults
        self.language = language
        self.size = size
        self.folder = folder
        self.apps: list[Any] = []
        self.count = 0

    def start(self, seed: int) -> Any:
        from kivy.core.window import Window

        from companion import config
        from companion.journal import Journal
        from ui.app import CompanionApp

        self.stop()
        _plain_time()
        if tuple(Window.size) != self.size:
            Window.size = self.size
        self.count += 1
        journal = self.folder / f"run{self.count}" / "journal.sqlite3"
        journal.parent.mkdir(parents=True)
        data = config.merge(self.defaults.data, {"language": self.language})
        # a tour rolls as soon as a roll is shown (as tests/conftest.py's apps do)
        data["display"] = dict(data["display"], roll_animation=0, roll_guard=0)
        data["games"]["pad"] = dict(data["games"]["pad"], debounce=0)
        app = CompanionApp(config.Config(data), Journal(journal), new_seed=lambda: seed)
        app._run_prepare()
        self.apps.append(app)
        driver = _driver(app)
        driver.launcher = self  # a step may kill the app and start it again (`killed`)
        driver.wait_until(lambda: tuple(Window.size) == self.size, timeout=3)
        driver.pump(5)
        return driver

    def restart(self, ui: Any) -> None:
        """The app on `ui` stopped and started again on the same journal, the same
        seed; `ui` drives the new one."""
        from companion import config
        from companion.journal import Journal
        from ui.app import CompanionApp

        path = ui.app.journal.path
        seed = ui.app.new_seed()
        self.stop()
        data = config.merge(self.defaults.data, {"language": self.language})
        data["display"] = dict(data["display"], roll_animation=0)
        app = CompanionApp(config.Config(data), Journal(path), new_seed=lambda: seed)
        app._run_prepare()
        self.apps.append(app)
        ui.app = app
        ui.pump(5)

    def killed(self, ui: Any, screen: str, taps: Sequence[str]) -> None:
        """See `killed`: the child killed with SIGKILL, `ui` on the app started again."""
        import json
        import signal
        import subprocess

        from kivy.core.window import Window

        folder = Path(ui.app.journal.path).parent
        self.stop()
        config = folder / "config.yaml"
        width, height = self.size
        config.write_text(f"language: {self.language}\n"
                          f"display: {{width: {width}, height: {height}, fullscreen: false, "
                          f"roll_animation: 0, roll_guard: 0}}\n", encoding="utf-8")
        out = folder / "before.rgba"
        env = dict(os.environ, KIVY_HOME=str(folder / "kivy"), KIVY_NO_ARGS="1",
                   KIVY_NO_FILELOG="1", KIVY_NO_CONSOLELOG="1",
                   GPIOZERO_PIN_FACTORY="mock", XDG_CONFIG_HOME=str(folder / "xdg-empty"))
        env.pop("NOTIFY_SOCKET", None)
        child = Path(__file__).resolve().parent / "helpers" / "power_cut_child.py"
        done = subprocess.run([sys.executable, str(child), str(folder), str(config), str(out),
                               screen, "--kill", *taps], capture_output=True, text=True,
                              env=env, timeout=300, cwd=Path(__file__).resolve().parents[1])
        if done.returncode != -signal.SIGKILL:
            raise StepFailed(f"companion run was not killed (exit {done.returncode}): "
                             f"{done.stderr[-1500:]}")
        before = json.loads(Path(f"{out}.json").read_text("utf-8"))
        self.restart(ui)
        if tuple(Window.size) != self.size:
            Window.size = self.size
        ui.pump(3)

        def seen() -> dict[str, Any]:
            from tests.helpers.power_cut_child import texts

            app = ui.app
            shown = {"screen": app.root.current,
                     "dialog": None if app.dialog is None else app.dialog.tid,
                     "texts": texts(app.root.current_screen),
                     "dialog_texts": {} if app.dialog is None else texts(app.dialog)}
            for key in ("texts", "dialog_texts"):
                shown[key] = {t: v for t, v in shown[key].items() if t not in HARDWARE_ONLY}
            return shown

        # the Pins button is the desktop's (`companion run` finds no hardware there)
        for key in ("texts", "dialog_texts"):
            before[key] = {t: v for t, v in before[key].items() if t not in HARDWARE_ONLY}
        want = {k: before[k] for k in ("screen", "dialog", "texts", "dialog_texts")}
        try:
            # what the new app first lays out may still change (a headline fitted to
            # its header once laid out): the same once its frames are done, not in
            # passing
            ui.wait_until(lambda: seen() == want, timeout=30)
            ui.quiet()
            ui.pump(3)
            if seen() != want:
                raise AssertionError("not settled")
        except AssertionError:
            now = seen()
            differ = {k: (want[k], now[k]) for k in want if want[k] != now[k]}
            raise StepFailed(f"after kill -9 the app came back otherwise: {differ}") from None

    def stop(self) -> None:
        from kivy.base import EventLoop
        from kivy.core.window import Window

        for _ in range(3):  # the old app's pending callbacks run while it is current
            EventLoop.idle()
        for app in self.apps:
            app.close_dialog()
            # its last action written and shown now, while it is the running app: an
            # action still with the writer (a running clock's checkpoint, sent by its
            # look in the frames above) was otherwise handed back once the next app
            # ran, and its screen's `show_end_or_stay` put that app on `clock_play`
            app.close_writer()
            if app.root is not None and app.root.parent is not None:
                Window.remove_widget(app.root)
            app.journal.close()
            # nothing of it runs again: its frame hook (which commits a held action,
            # on a journal now closed), its window handlers, and a game its screens'
            # looks and prompts would act on
            Window.unbind(on_flip=app._before_flip, size=app._rescale,
                          on_keyboard=app._on_key)
            app.stop_touch_pace()
            app.session = app.beside = None
        self.apps.clear()


def on_show(ui: Any, shows: str) -> bool:
    ui.quiet()  # what the last tap opens (a dialog) is open
    kind, _, name = shows.partition(":")
    if kind == "dialog":
        return ui.dialog == name
    return ui.dialog is None and ui.screen == name


def _play(ui: Any, step: Step) -> None:
    for action in step.do:
        action(ui)
    ui.pump(3)
    if not on_show(ui, step.shows):
        raise StepFailed(f"expected {step.shows}, found screen {ui.screen}, "
                         f"dialog {ui.dialog}")


def _leave(ui: Any, step: Step) -> None:
    for action in step.leave:
        action(ui)



def _journey(launcher: Launcher, journey: Journey, result: Result, folder: Path,
             capture: Capture | None) -> None:
    """Every step of a journey; after a failure, a fresh app replays the steps that
    worked and the journey goes on with the next step."""
    ui = launcher.start(journey.seed)
    done: list[Step] = []
    for step in journey.steps:
        if os.environ.get("TOUR_VERBOSE"):
            print(f"  {journey.name}/{step.name}", flush=True)
        try:
            _play(ui, step)
            if folder is not None:
                _screenshot(ui, folder / f"{step.name}.png")
            result.pictures.append(step.name)
            if capture is not None:
                capture(ui, step)
            _leave(ui, step)
            done.append(step)
        except Exception as exc:  # reported by name; the tour goes on
            result.failures.append(Failure(step.name, f"{type(exc).__name__}: {exc}"))
            ui = launcher.start(journey.seed)
            try:
                for before in done:
                    _play(ui, before)
                    _leave(ui, before)
            except Exception as again:
                for rest in journey.steps[journey.steps.index(step) + 1:]:
                    result.failures.append(Failure(
                        rest.name, f"not reached: replaying {before.name} failed ({again})"))
                return


def _screenshot(ui: Any, target: Path) -> None:
    from kivy.core.window import Window

    target.parent.mkdir(parents=True, exist_ok=True)
    ui.pump(3)
    written = Path(Window.screenshot(name=str(target.with_name(target.stem + "-tmp.png"))))
    written.replace(target)


def run(language: str, size: str, out: Path | None = OUT,
        capture: Capture | None = None, journeys: Sequence[Journey] = TOUR,
        defaults: Any = None) -> Result:
    """The tour in one language at one window size; pictures into out/<lang>/<size>/
    (none if `out` is None); `capture` looks at each step's screen after its picture."""
    from kivy.clock import Clock
    from kivy.config import Config as KivyConfig
    from kivy.core.window import Window

    from companion import config

    defaults = defaults or config.load(use_default_user_file=False, check_defaults=True)
    result = Result(language, size)
    started = time.monotonic()
    # a quick tap's release is not held on the clock (35 ms a tap otherwise)
    before = KivyConfig.get("graphics", "min_state_time")
    KivyConfig.set("graphics", "min_state_time", "0")
    # frames as fast as the machine draws them, not 60 a second: the tour waits on
    # frames, never on the wall clock
    fps, Clock._max_fps = Clock._max_fps, 0
    # without pictures, the widgets live, lay out and take touches as ever, but frames
    # are not drawn: drawing is most of a frame's cost under software GL (~30 ms)
    if out is None:
        Window.on_draw = Window.flip = lambda: None
    folder = None if out is None else out / language / size
    with tempfile.TemporaryDirectory(prefix="tour-") as tmp:
        launcher = Launcher(defaults, language, SIZES[size], Path(tmp))
        try:
            for journey in journeys:
                _journey(launcher, journey, result, folder, capture)
        finally:
            launcher.stop()
            _plain_time()
            KivyConfig.set("graphics", "min_state_time", before)
            Clock._max_fps = fps
            Window.__dict__.pop("on_draw", None)
            Window.__dict__.pop("flip", None)
    result.seconds = time.monotonic() - started
    return result


def steps(journeys: Sequence[Journey] = TOUR) -> Iterator[Step]:
    for journey in journeys:
        yield from journey.steps


def main(argv: Sequence[str] = ()) -> int:
    """`make screenshots`: every language at every size, the audit, the README's pictures.
    Arguments narrow it: languages, sizes and journeys by name (`python -m
    tests.screen_tour en 1280x720 pad`: the score pad's journey alone, in English at
    1280x720); the README's pictures are copied only from a whole tour at 800x480."""
    from tests import screen_audit
    from ui.main import configure_kivy

    configure_kivy(None)
    from kivy.core.window import Window  # noqa: F401  (the window exists from here)

    languages = [a for a in argv if a in LANGUAGES] or list(LANGUAGES)
    sizes = [a for a in argv if a in SIZES] or list(SIZES)
    named = {journey.name: journey for journey in TOUR}
    unknown = [a for a in argv if a not in LANGUAGES and a not in SIZES and a not in named]
    if unknown:
        print(f"unknown {' '.join(unknown)}: languages {' '.join(LANGUAGES)}, sizes "
              f"{' '.join(SIZES)}, journeys {' '.join(named)}", file=sys.stderr)
        return 2
    journeys = [named[a] for a in argv if a in named] or list(TOUR)
    shutil.rmtree(OUT, ignore_errors=True)
    findings: list[str] = []
    failed = 0
    for size in sizes:
        for language in languages:
            audit = screen_audit.Auditor(language)
            result = run(language, size, capture=audit, journeys=journeys)
            findings += [v.line(language, size) for v in audit.violations]
            failed += len(result.failures)
            print(f"{language} {size}: {len(result.pictures)} screens and dialogs in "
                  f"{result.seconds:.1f} s, {len(audit.violations)} audit findings")
            for failure in result.failures:
                print(f"  FAILED {failure.step}: {failure.reason}")
                findings.append(f"{language}/{size}/{failure.step}/-/tour step failed: "
                                f"{failure.reason}")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "audit.txt").write_text("".join(f"{line}\n" for line in findings),
                                   encoding="utf-8")
    print(f"audit: {len(findings)} lines in {OUT / 'audit.txt'}")
    if "800x480" in sizes and len(journeys) == len(TOUR):
        DOCS.mkdir(parents=True, exist_ok=True)
        for language in languages:
            suffix = "" if language == "en" else f"-{language}"
            for step, name in DOC_PICTURES.items():
                picture = OUT / language / "800x480" / f"{step}.png"
                if picture.exists():
                    shutil.copyfile(picture, DOCS / f"{name}{suffix}.png")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
