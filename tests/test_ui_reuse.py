"""Nothing a roll triggers builds a widget: the turn card re-tells a pool of rows, the
power and placement dialogs are built once (half a second into a game, with a key per
minutes value and a button per seat) and re-told at each opening, and the end screen is
built while the table plays and re-told by the action that ends the game. Real games,
played by touches through the real app, count every `Widget` constructed.

`PlayScreen.open_reused` (for the other games' dialogs) builds a dialog once per key and
opens that same dialog again, with its changing labels set."""

from __future__ import annotations

import faulthandler
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from companion.games.evil.card import board, turn_card
from companion.games.evil.instructions import roman
from tests.test_ui_evil import new_game
from tests.uidriver import Driver

pytestmark = pytest.mark.ui

HANG = 900  # seconds: a layout that feeds itself would spin here, not hang CI


@pytest.fixture
def no_hang() -> Iterator[None]:
    """A wall-clock guard: a game that never ends (a layout loop re-fitting the card
    for ever) fails with every thread's stack instead of stalling the run."""
    faulthandler.dump_traceback_later(HANG, exit=True, file=sys.__stderr__)
    yield
    faulthandler.cancel_dump_traceback_later()


@pytest.fixture
def created(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every widget constructed from now on (any subclass goes through Widget's)."""
    from kivy.uix.widget import Widget

    made: list[Any] = []
    original = Widget.__init__

    def counting(self: Any, **kwargs: Any) -> None:
        made.append(self)
        original(self, **kwargs)

    monkeypatch.setattr(Widget, "__init__", counting)
    return made


class Table:
    """Plays a game by touches and checks, after each one, that it built no widget and
    that the card and the dialog say what the state on screen asks."""

    def __init__(self, ui: Driver, created: list[Any]) -> None:
        self.ui = ui
        self.created = created
        self.app = ui.app
        self.screen = ui.app.root.get_screen("evil_play")
        self.seen: dict[str, int] = {"rolls": 0, "power": 0, "waiting": 0, "place": 0,
                                     "chosen": 0}

    def touch(self, tid: str) -> None:
        """A tap, and what it triggers (the next frame's dialog, the card's fitting)."""
        before = len(self.created)
        self.ui.tap(tid)
        self.ui.pump(3)
        made = [type(w).__name__ for w in self.created[before:]]
        assert made == [], f"{tid} built {made}"
        if self.ui.screen == "evil_play":
            self.check_card()

    def check_card(self) -> None:
        """The card says the current state's card: its headline, then its lines in order
        (the least needed may give way at the smallest type), none cut off."""
        app, card = self.app, self.screen.card
        want = turn_card(app.session.state, app.session.steps, self.screen._verb)
        said = card.texts()
        assert said[0] == app.say(want.headline)
        lines: list[tuple[str, ...]] = []  # each line as the card may say it
        for line in want.lines:
            text = app.say(line.text)
            if line.parts:
                text = f"{text} {' · '.join(app.say(p) for p in line.parts)}"
            # with the rule's reminder under it, or without it when it gave way for room
            lines.append((text,) if line.detail is None
                         else (text, f"{text} {app.say(line.detail)}"))
        rest = iter(lines)
        assert all(any(text in ways for ways in rest) for text in said[1:]), (
            said, lines)  # in order
        assert bool(said[1:]) == bool(lines)
        assert card.fits(), "the turn card is cut off"

    def answer(self) -> None:
        """The roll's questions, one after the other, each checked before it is
        answered: the placement keypad (where each key lands), the power choice."""
        while self.ui.dialog is not None:
            if self.ui.dialog == "power":
                self.check_power()
                self.seen["power"] += 1
                if not self.seen["chosen"]:  # once the first tile, then skip
                    self.seen["chosen"] = 1
                    self.touch("power.choose")
                else:
                    self.touch("power.skip")
            else:
                assert self.ui.dialog == "place"
                self.check_place()
                self.seen["place"] += 1
                self.touch("place.55")

    def check_place(self) -> None:
        ui, app = self.ui, self.app
        state = app.session.state
        p = state.params
        name = app.tr(f"evil.colour_upper.{state.empty_colours[0]}")
        here = roman(state.time, p.dial_steps)
        if state.waiting_for_replacement:  # "le temps presse": before the black die
            self.seen["waiting"] += 1
            assert ui.text("place.title") == app.tr("evil.ui.place_title_waiting",
                                                    colour=name)
            assert ui.text("place.why") == app.tr(
                "evil.ui.place_why_waiting", position=here,
                clock=app.tr(f"evil.face.{state.pending_clock}"))
            assert ui.find("place.later") is None and ui.find("place.dice") is not None
            assert ui.text("place.undo") == app.tr("evil.ui.undo_roll")
        else:
            assert ui.text("place.title") == app.tr("evil.ui.place_title", colour=name)
            assert ui.text("place.why") == app.tr("evil.ui.place_why", position=here)
            assert ui.find("place.later") is not None and ui.find("place.dice") is None
            assert ui.text("place.undo") == app.tr("evil.ui.undo_last")
        for m in range(p.min_minutes, p.max_minutes + 1, p.step_minutes):
            lands = roman(state.time + m // p.step_minutes, p.dial_steps)
            assert ui.text(f"place.{m}") == f"{m}\n{app.tr('evil.ui.place_to', position=lands)}"

    def check_power(self) -> None:
        ui, app = self.ui, self.app
        state = app.session.state
        seats = len(state.players)
        free = [state.players[(state.active + i) % seats] for i in range(seats)]
        free = [pl for pl in free if pl.character not in state.powers_up]
        dialog = app.dialog
        shown = [w.tid for w in dialog.walk(restrict=True)
                 if str(getattr(w, "tid", "")).startswith("power.")
                 and w.tid not in ("power.title", "power.why", "power.choose", "power.skip",
                                   "power.undo")]
        assert shown == [f"power.{pl.character}" for pl in free]
        for pl in free:
            assert ui.text(f"power.{pl.character}") == f"{pl.name}\n{pl.character}"
        if free:
            assert ui.text("power.choose") == app.tr("evil.ui.choose",
                                                     character=free[0].character)

    def roll(self) -> None:
        assert self.ui.dialog is None and self.ui.screen == "evil_play"
        self.seen["rolls"] += 1
        self.touch("play.roll")

    def end(self, outcome: str) -> None:
        """The end screen, built before the game ended, tells this game's end."""
        ui, app = self.ui, self.app
        state = app.session.state
        assert ui.screen == "evil_end" and state.outcome == outcome
        won = outcome == "won"
        assert ui.text("end.title") == app.tr("evil.ui.won_title" if won
                                              else "evil.ui.lost_title")
        p = state.params
        assert ui.text("end.lost") == app.tr("evil.ui.count", n=len(state.lost),
                                             total=p.lost_to_lose)
        assert ui.text("end.recovered") == app.tr("evil.ui.count", n=len(state.recovered),
                                                  total=p.recovered_to_win)
        for kind, treasures in (("recovered", state.recovered), ("lost", state.lost)):
            for i, treasure in enumerate(treasures):
                assert ui.find(f"end.{kind}.chip.{i}").label.text == app.tr(
                    f"evil.letter.{treasure.colour}")
            assert ui.find(f"end.{kind}.chip.{len(treasures)}") is None
        assert ui.text("end.story.0") == app.tr("evil.story.turns", n=state.turn)
        end = app.root.get_screen("evil_end")
        if won:  # no deciding roll to show
            assert end.dice == {} and ui.find("end.roll.caption") is None
        else:
            assert {die: face.face for die, face in end.dice.items()} == {
                "professor": state.last_roll.professor, "colour": state.last_roll.colour,
                "clock": state.last_roll.clock}


def test_rolls_make_no_widget_through_dialogs_and_to_the_end_of_a_lost_and_a_won_game(
        launch: Any, created: list[Any], no_hang: None) -> None:
    ui = launch(seed=20)
    new_game(ui, minutes=55)
    # the end screen, the roll's dialogs and the card's rows are built meanwhile
    ui.wait_until(lambda: ui.app.root.get_screen("evil_play").warmed, timeout=30)
    end_screen = ui.app.root.built("evil_end")
    assert end_screen is not None
    created.clear()
    table = Table(ui, created)

    # a game lost to the clock, with powers and a treasure lost to "le temps presse"
    for _ in range(60):
        table.roll()
        if ui.screen != "evil_play":
            break
        table.answer()
    table.end("lost")
    assert ui.app.root.built("evil_end") is end_screen
    assert table.seen["power"] >= 2 and table.seen["waiting"] >= 1, table.seen

    # the table takes the deciding roll back, then plays it again: the card follows
    table.touch("end.undo")
    assert ui.screen == "evil_play" and table.screen._verb == "undo"
    table.answer()
    table.touch("play.redo")
    table.end("lost")
    # taken back again, the clock corrected by hand (the card leads with the board),
    # and the game played on to its end
    table.touch("end.undo")
    table.answer()
    ui.tap("play.adjust")  # its dialog is built by this tap
    assert ui.dialog == "adjust"
    table.touch("adjust.time_back" if ui.app.session.state.time > 0 else "adjust.time_forward")
    where = ui.app.say(board(ui.app.session.state).text)
    assert table.screen.card.texts()[1].startswith(where)
    for _ in range(30):
        if ui.screen != "evil_play":
            break
        table.answer()
        if ui.screen != "evil_play":
            break
        table.roll()
    table.end("lost")

    # a won game, in the same app: treasures recovered every third roll
    ui.app.new_seed = lambda: 20
    buttons = dict(table.screen.treasure_buttons)
    ui.tap("end.home")
    new_game(ui, minutes=55)
    # the treasure buttons are the last game's, told this game's minutes
    assert all(table.screen.treasure_buttons[c] is b for c, b in buttons.items())
    assert ui.text("play.treasure.red") == ui.app.tr("evil.letter.red") + " 55 min"
    ui.wait_until(lambda: ui.app.root.get_screen("evil_play").warmed, timeout=30)
    created.clear()
    for rolls in range(1, 60):
        table.roll()
        if ui.screen != "evil_play":
            break
        table.answer()
        if rolls % 3 == 0:
            colour = next(c for c in ui.app.session.state.params.colours
                          if ui.app.session.state.slot(c) is not None)
            ui.tap(f"play.treasure.{colour}")  # its dialog is built by this tap
            assert ui.dialog == "treasure"
            table.touch("treasure.recovered")  # the recovery, or the victory
            if ui.screen != "evil_play":
                break
            table.answer()  # the replacement is asked for at once
    table.end("won")
    assert ui.app.root.built("evil_end") is end_screen
    assert table.seen["rolls"] >= 20 and table.seen["place"] >= 4, table.seen


def test_a_dialog_opened_again_binds_its_centring_once(launch: Any) -> None:
    """ModalView binds its centring at each opening: a dialog a roll opens again and
    again would run it once more per opening."""
    ui = launch(seed=20)
    new_game(ui, minutes=55)
    ui.wait_until(lambda: ui.app.root.get_screen("evil_play").warmed, timeout=30)
    screen = ui.app.root.get_screen("evil_play")
    dialog = screen.placement()
    counts = []
    for _ in range(3):
        dialog.show(ui.app.session.state, "red", None)
        ui.pump(2)
        counts.append(len(dialog.get_property_observers("center")))
        ui.app.close_dialog()
        ui.pump(2)
    assert counts[0] == counts[1] == counts[2]


def test_a_reused_dialog_is_the_same_one_opened_again_with_its_texts_set(
        launch: Any) -> None:
    from ui.dialogs import Dialog, open_dialog
    from ui.widgets.basics import Text

    ui = launch(seed=3)
    new_game(ui)
    screen = ui.app.root.get_screen("evil_play")
    built: list[Dialog] = []

    def build(text: str) -> Any:
        def make() -> Dialog:
            dialog = Dialog("Reused", "reused")
            dialog.add(Text(text, tid="reused.text"))
            built.append(dialog)
            return open_dialog(dialog)
        return make

    first = screen.open_reused(("reused", 1), build("one"))
    ui.pump(2)
    assert ui.dialog == "reused" and ui.text("reused.text") == "one"
    ui.app.close_dialog()
    ui.pump(2)
    assert ui.app.dialog is None

    again = screen.open_reused(("reused", 1), build("never built"),
                               texts={"reused.text": "two"})
    ui.pump(2)
    assert again is first and ui.app.dialog is first and len(built) == 1
    assert ui.text("reused.text") == "two"
    ui.app.close_dialog()
    ui.pump(2)

    other = screen.open_reused(("reused", 2), build("three"))
    ui.pump(2)
    assert other is not first and len(built) == 2 and ui.text("reused.text") == "three"
    ui.app.close_dialog()


def test_rolls_and_a_finished_game_leave_nothing_a_frozen_collection_would_keep(
        launch: Any, no_hang: None) -> None:
    """The idle collector freezes what a collection leaves alive (ui/memory.py): what
    dies in a cycle after that stays until a thorough walk. So a roll makes no drawing
    instructions (the dial moves its own, a die shows a kept picture of its face), and
    a game that ended holds itself in no cycle. Here a collection and a freeze follow
    every roll, through a whole game and into the next; then everything unfrozen is
    walked once and its garbage read."""
    import gc

    from kivy.graphics.instructions import Instruction

    from companion.session import History, Session

    def play(rolls: int) -> None:
        for _ in range(rolls):
            while ui.dialog in ("power", "place"):
                ui.tap("power.skip" if ui.dialog == "power" else "place.5")
            if ui.screen != "evil_play":
                return
            ui.tap("play.roll")
            gc.collect()
            gc.freeze()  # as the idle collector does after each of its collections

    def holding(session: Session) -> list[str]:
        """Garbage now (a cycle), frozen or not, that holds the game's session."""
        gc.unfreeze()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            gc.collect()
            # read through the collector only: garbage may hold dead weak proxies
            return [type(o).__name__ for o in gc.garbage
                    if any(r is session for r in gc.get_referents(o))]
        finally:
            gc.set_debug(0)
            gc.garbage.clear()

    ui = launch(seed=20)
    new_game(ui, minutes=5)
    ui.wait_until(lambda: ui.app.root.get_screen("evil_play").warmed, timeout=30)
    # what warmed the game's dialogs and end screen is gone with no cycle holding it
    assert holding(ui.app.session) == []
    try:
        play(80)
        assert ui.screen == "evil_end"
        ui.tap("end.again")  # the setup screen is built again, for the same seats
        assert ui.screen == "evil_setup"
        gc.unfreeze()  # the quiet between two games: the thorough walk
        gc.collect()
        gc.freeze()
        ui.tap("setup.start")  # the ended game is dropped here
        ui.wait_until(lambda: ui.app.root.get_screen("evil_play").warmed, timeout=30)
        play(15)
        gc.unfreeze()
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        kept = [type(o).__name__ for o in gc.garbage
                if issubclass(type(o), (Instruction, Session, History))]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.unfreeze()
    assert kept == []


def test_castor_undo_and_redo_build_no_widget_on_the_scoreboard(
        launch: Any, created: list[Any]) -> None:
    """Issue 32: "11 of 600 Castor undo/redo taps took 150-510 ms": the scoreboard was
    built anew at every action, ~1 700 Kivy objects with cycles a tap, which the overdue
    full collection then walked in the middle of play. The board re-tells its rows."""
    from companion.games.castor import commands as cc
    from tests.test_ui_castor import new_game as new_castor

    ui = launch(seed=3)
    new_castor(ui, players=3)
    # a round on the board, then taken back and forth
    ui.app.send(cc.EnterSheet(1, (2, 1, 0), (2, 1, 1), (0, 0, 1)))
    ui.settle()
    ui.app.close_dialog()
    assert ui.screen == "castor_play"
    ui.tap("play.undo")
    ui.tap("play.redo")  # every widget the two boards need exists now
    ui.app.close_dialog()
    screen = ui.app.root.get_screen("castor_play")
    ui.wait_until(lambda: screen.warmed)  # the end screen is built while the table plays
    ui.pump(3)
    before = len(created)
    for _ in range(6):
        ui.tap("play.undo")
        assert not ui.has("board.round.1") and ui.text("board.total.0") == "0"
        ui.tap("play.redo")
        assert ui.has("board.round.1") and ui.has("board.cell.2.1")
        ui.app.close_dialog()
    assert created[before:] == []
