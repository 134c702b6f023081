"""Pr. Evil through the real app under Xvfb, by simulated touches only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.uidriver import Driver

pytestmark = pytest.mark.ui


def new_game(ui: Driver, minutes: int = 30) -> None:
    ui.tap("home.game.evil")
    assert ui.screen == "evil_setup"
    while "Standard" not in ui.text("setup.difficulty"):  # every tile in play
        ui.tap("setup.difficulty")
    for colour in ("red", "green", "blue"):
        label = ui.text(f"setup.minutes.{colour}")
        for _ in range(12):
            if f" {minutes} min" in label:
                break
            step = "minus" if int(label.split()[-2]) > minutes else "plus"
            ui.tap(f"setup.minutes.{colour}.{step}")
            label = ui.text(f"setup.minutes.{colour}")
        assert f" {minutes} min" in label, label
    ui.tap("setup.start")
    assert ui.screen == "evil_play"


def answer_dialogs(ui: Driver, minutes: int) -> None:
    """What the table does when the app asks: skip powers, place new treasures."""
    for _ in range(6):
        if ui.dialog == "power":
            ui.tap("power.skip")
        elif ui.dialog == "place":
            ui.tap(f"place.{minutes}")
        else:
            return


def test_a_game_to_victory(launch: Any) -> None:
    ui = launch()
    assert ui.screen == "home"
    ui.screenshot("evil-home-800x480")
    ui.tap("home.game.evil")
    # name the first player with the on-screen keyboard, add a third player
    ui.tap("setup.name.0")
    assert ui.dialog == "keyboard"
    ui.tap("keyboard.clear")
    for letter in "ANNE":
        ui.tap(f"keyboard.{letter}")
    ui.tap("keyboard.ok")
    assert ui.text("setup.name.0") == "Anne"
    ui.tap("setup.add")
    assert ui.text("setup.name.2") == "Player 3"
    before = ui.text("setup.character.2")
    ui.tap("setup.character.2")
    assert ui.text("setup.character.2") not in (before, ui.text("setup.character.0"),
                                                 ui.text("setup.character.1"))
    ui.screenshot("evil-setup-800x480")
    while "Anne" not in ui.text("setup.first"):  # the table overrides the draw
        ui.tap("setup.first")
    ui.tap("setup.start")
    assert ui.screen == "evil_play"
    assert ui.text("play.turn") == "Turn 1: Anne"
    assert ui.text("play.recovered") == "Recovered 0/4"
    assert ui.text("play.treasure.red").endswith("30 min")

    ui.tap("play.roll")
    answer_dialogs(ui, 55)
    assert ui.text("play.turn").startswith("Turn 2: ")
    say = ui.app.root.get_screen("evil_play").card.texts()
    assert any("time marker 1 step on" in text or "steps on" in text for text in say)
    after = ui.text("play.turn").split(": ", 1)[1]  # the header: the next player's turn
    assert say[0] == f"Anne: pass the dice to {after}, on your left."
    screen = ui.app.root.get_screen("evil_play")
    ui.wait_until(lambda: not screen.animating)  # the roll's tumble has ended
    ui.screenshot("evil-play-800x480")
    ui.resize(1280, 800)
    ui.screenshot("evil-play-1280x800")
    ui.resize(800, 480)

    for recovered in range(1, 5):
        colour = ("red", "green", "blue", "red")[recovered - 1]
        answer_dialogs(ui, 55)
        ui.tap(f"play.treasure.{colour}")
        assert ui.dialog == "treasure"
        ui.tap("treasure.recovered")
        if recovered < 4:
            assert ui.text("play.recovered") == f"Recovered {recovered}/4"
            assert ui.dialog == "place"  # the replacement is asked for at once
            assert "RED" in ui.text("place.title") or colour != "red"
            ui.tap("place.40")
            assert ui.text(f"play.treasure.{colour}").endswith("40 min")
    assert ui.screen == "evil_end"
    assert ui.text("end.title") == "Victory!"
    assert "recovered 4 treasures" in ui.text("end.text")
    ui.screenshot("evil-victory-800x480")

    # undo from the victory screen returns to the game, one treasure short
    ui.tap("end.undo")
    assert ui.screen == "evil_play"
    assert ui.text("play.recovered") == "Recovered 3/4"


def test_a_game_to_defeat_and_undo(launch: Any) -> None:
    ui = launch(seed=11)
    new_game(ui, minutes=5)
    rolls = 0
    while ui.screen == "evil_play":
        answer_dialogs(ui, 5)
        if ui.screen != "evil_play":
            break
        ui.tap("play.roll")
        rolls += 1
        assert rolls < 40, "four treasures of 5 minutes must be lost long before 40 rolls"
    assert ui.text("end.title") == "Defeat"
    assert "secured 4 treasures" in ui.text("end.text")
    state = ui.app.session.state
    # the story: turns, the treasures lost with their colours, powers, difficulty
    assert ui.text("end.story.0") == f"{state.turn} turns played"
    assert ui.text("end.story.1") == "No treasure recovered"
    colours = ", ".join(t.colour for t in state.lost)
    assert ui.text("end.story.2") == f"{len(state.lost)} treasures lost: {colours}"
    assert ui.text("end.story.4") == "Difficulty: Standard (all treasures)"
    assert ui.text("end.lost") == f"{len(state.lost)}/4"
    # a defeat shows the roll that decided it, die by die
    end = ui.app.root.get_screen("evil_end")
    assert {die: face.face for die, face in end.dice.items()} == {
        "professor": state.last_roll.professor, "colour": state.last_roll.colour,
        "clock": state.last_roll.clock}
    ui.screenshot("evil-defeat-800x480")
    ui.resize(1280, 800)
    ui.screenshot("evil-defeat-1280x800")
    ui.resize(800, 480)
    ui.tap("end.undo")
    assert ui.screen == "evil_play"
    lost = ui.text("play.lost")
    assert lost in ("Lost 3/4", "Lost 2/4")
    ui.tap("play.redo")
    assert ui.screen == "evil_end"


def test_a_new_game_with_the_same_players(launch: Any) -> None:
    ui = launch(seed=11)
    ui.tap("home.game.evil")
    ui.tap("setup.name.0")
    ui.tap("keyboard.clear")
    for letter in "ZOE":
        ui.tap(f"keyboard.{letter}")
    ui.tap("keyboard.ok")
    ui.tap("setup.add")
    ui.tap("setup.character.1")
    while "Standard" not in ui.text("setup.difficulty"):
        ui.tap("setup.difficulty")
    seats = [(ui.text(f"setup.name.{i}"), ui.text(f"setup.character.{i}")) for i in range(3)]
    for colour in ("red", "green", "blue"):
        for _ in range(6):
            ui.tap(f"setup.minutes.{colour}.minus")
    ui.tap("setup.start")
    for _ in range(40):
        answer_dialogs(ui, 5)
        if ui.screen != "evil_play":
            break
        ui.tap("play.roll")
    assert ui.screen == "evil_end"
    ui.tap("end.again")
    # the same seats in the same order, each with their character; the same difficulty
    assert ui.screen == "evil_setup"
    assert [(ui.text(f"setup.name.{i}"), ui.text(f"setup.character.{i}"))
            for i in range(3)] == seats
    assert not ui.has("setup.name.3")
    assert ui.text("setup.difficulty") == "Difficulty: Standard (all treasures)"
    ui.tap("setup.start")
    assert ui.screen == "evil_play" and ui.app.session.state.turn == 1
    assert [p.name for p in ui.app.session.state.players] == [name for name, _ in seats]


def test_a_refused_adjustment_says_why_and_changes_nothing(launch: Any) -> None:
    ui = launch()
    new_game(ui, minutes=55)
    ui.tap("play.adjust")
    ui.tap("adjust.time_back")
    assert ui.dialog == "error"
    assert "cannot go back" in ui.text("error.text")
    ui.tap("error.ok")
    assert ui.text("play.treasure.red").endswith("55 min")
    assert ui.find("play.undo").disabled  # nothing was recorded


def test_the_roll_animation_never_blocks_a_second_roll(launch: Any,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A second ROLL while the first roll's dice still tumble rolls at once. The tumble's
    clock is held still: the first tumble is surely running at the second roll, however
    long a busy machine takes over the taps (0.3 s of real time once ran out before)."""
    from companion.games.evil.dice import DICE
    from ui.screens.evil import play

    now = [1000.0]
    monkeypatch.setattr(play, "tumble_clock", lambda: now[0])
    ui = launch(seed=3)
    new_game(ui, minutes=55)
    screen = ui.app.root.get_screen("evil_play")
    ui.tap("play.roll")
    assert screen.animating
    answer_dialogs(ui, 55)
    assert screen.animating
    ui.tap("play.roll")
    assert ui.text("play.turn").startswith("Turn 3")
    # its time up, the tumble ends on the second roll's result
    now[0] += 1.0
    ui.wait_until(lambda: not screen.animating)
    roll = ui.app.session.state.last_roll
    assert {die: screen.dice[die].face for die in DICE} == \
        {die: getattr(roll, die) for die in DICE}


def test_after_a_restart_the_game_is_where_it_was(launch: Any, tmp_path: Path) -> None:
    ui = launch(seed=5)
    new_game(ui, minutes=45)
    for _ in range(3):
        answer_dialogs(ui, 45)
        ui.tap("play.roll")
    answer_dialogs(ui, 45)
    shown = {tid: ui.text(tid) for tid in ("play.turn", "play.lost", "play.treasure.red",
                                            "play.treasure.green", "play.treasure.blue")}
    time_marker = ui.app.root.get_screen("evil_play").dial.view
    ui = launch(seed=99)  # the app starts again on the same journal
    assert ui.screen == "evil_play"
    for tid, text in shown.items():
        assert ui.text(tid) == text
    assert ui.app.root.get_screen("evil_play").dial.view == time_marker


def test_the_screens_speak_french(launch: Any) -> None:
    ui = launch(language="fr")
    assert ui.find("home.game.evil").text == "Pr. Evil et la Citadelle du Temps"
    new_game(ui, minutes=30)
    assert ui.text("play.roll") == "LANCER"
    assert ui.text("play.recovered") == "Récupérés 0/4"
    ui.tap("play.roll")
    answer_dialogs(ui, 30)
    assert "passez les dés à " in ui.text("play.say")


def test_the_dial_face_is_drawn_once_and_shown_as_one_picture(launch: Any) -> None:
    """What moves (the hand, the markers, the time-left arcs, the gold power spaces over
    them) is drawn at each roll; the face (disc, rim, numerals) is drawn again only for
    a new size."""

    ui = launch()
    new_game(ui, minutes=30)
    screen = ui.app.root.get_screen("evil_play")
    dial = screen.dial
    views, draws, faces = {dial.view}, dial.redraws, dial.face_draws
    for _ in range(4):
        ui.tap("play.roll")
        answer_dialogs(ui, 30)
        views.add(dial.view)
    assert len(views) > 1 and dial.redraws > draws  # the rolls moved the dial
    assert dial.face_draws == faces
    # on screen: the face's disc between two numerals (the picture), and a gold power
    # space above its numeral (drawn over the arcs)
    from kivy.core.image import Image as CoreImage

    from ui import theme

    image = CoreImage(str(ui.screenshot("dial_face")), keep_data=True)

    def colour_at(position: float, radius: float, up: float = 0) -> tuple[float, ...]:
        x, y = dial.to_window(*dial._point(position, radius))
        return tuple(image.read_pixel(int(x), image.height - 1 - int(y + up))[:3])

    def near(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
        return all(abs(p - q) < 0.02 for p, q in zip(a, b, strict=True))

    r = min(dial.width, dial.height) / 2 * 0.96
    assert near(colour_at(0.5, r * 0.7), theme.PANEL[:3])  # between XII and I
    space = dial.view.power_spaces[0]
    assert near(colour_at(space, r * 0.78, dial.numeral_font * 1.45 * 0.42), theme.ACCENT[:3])
    ui.resize(1280, 800)  # a new size: the face is drawn again, at that size
    assert dial.face_draws > faces
    assert tuple(dial._face.size) == (round(dial.right) - round(dial.x),
                                      round(dial.top) - round(dial.y))
    faces = dial.face_draws
    ui.tap("play.roll")
    answer_dialogs(ui, 30)
    assert dial.face_draws == faces
    ui.resize(800, 480)


def test_idle_screen_redraws_nothing_and_targets_are_large(launch: Any) -> None:
    from kivy.metrics import dp
    from kivy.uix.behaviors import ButtonBehavior

    ui = launch()
    new_game(ui, minutes=30)
    ui.tap("play.roll")
    answer_dialogs(ui, 30)
    screen = ui.app.root.get_screen("evil_play")
    ui.wait_until(lambda: not screen.animating)  # the roll's tumble has ended
    dial_draws = screen.dial.redraws
    faces = {die: widget.face for die, widget in screen.dice.items()}
    ui.wait(1.0)
    assert screen.dial.redraws == dial_draws
    assert {die: widget.face for die, widget in screen.dice.items()} == faces
    assert not screen.animating
    taps = [w for w in screen.walk() if isinstance(w, ButtonBehavior)]
    assert len(taps) >= 8
    for button in taps:
        assert button.height >= dp(48) and button.width >= dp(48), button.tid


def test_a_treasure_button_keeps_its_figures_inside_at_any_width(launch: Any) -> None:
    """The letter and the minutes (key figures) and the unit stay inside the button:
    at 800x480 "min" once ran past the green button's edge. A narrower button (more
    colours, a smaller window) drops its gaps first, then its unit, never its figures."""
    from tests.screen_audit import outside_button
    from ui.screens.evil.play import TreasureButton

    ui = launch()
    new_game(ui, minutes=30)
    screen = ui.app.root.get_screen("evil_play")
    for colour, button in screen.treasure_buttons.items():
        assert button.text == f"{button.letter.text} 30 min"
        for label in (button.letter, button.minutes, button.unit):
            assert label.opacity == 1 and outside_button(label) == "", (colour, label.tid)

    button = TreasureButton("green", tid="test.treasure")
    button.letter.text = "G"
    button.show("45", "min")
    button.size_hint = (None, None)
    screen.add_widget(button)
    try:
        found = {}
        for width in (160, 111, 80):
            button.size = (width, screen.treasure_buttons["red"].height)
            ui.pump(3)
            assert button.letter.font_size == screen.treasure_buttons["red"].letter.font_size
            for label in (button.letter, button.minutes, button.unit):
                if label.opacity:  # what is shown
                    assert outside_button(label) == "", (width, label.tid)
            found[width] = (button.spacing, button.unit.opacity)
        assert found[160][0] > 0 and found[160][1] == 1  # room to spare: gaps and unit
        assert found[111] == (0, 1)  # the width at 800x480: no gaps, the unit kept
        assert found[80] == (0, 0)  # "G45": the unit goes, the figures stay
        assert button.unit.width == 0 and button.minutes.width > 0
        assert button.text == "G 45"  # what it shows
        button.size = (160, button.height)
        ui.pump(3)
        assert button.unit.opacity == 1 and button.text == "G 45 min"
    finally:
        screen.remove_widget(button)


def test_home_offers_the_unfinished_game_and_abandoning_removes_it(launch: Any) -> None:
    ui = launch(seed=2)
    new_game(ui, minutes=45)
    ui.tap("play.roll")
    answer_dialogs(ui, 45)
    ui.tap("play.home")
    assert ui.screen == "home"
    game_id = ui.app.journal.unfinished()[0].id
    label = ui.text(f"home.resume.{game_id}")
    assert label == "Resume: Pr. Evil and the Citadel of Time, turn 2 (Player 1, Player 2)"
    ui.tap(f"home.resume.{game_id}")
    assert ui.screen == "evil_play" and ui.text("play.turn").startswith("Turn 2")
    ui.tap("play.home")
    ui.tap(f"home.abandon.{game_id}")
    ui.tap("abandon.yes")  # abandoning asks first
    assert ui.find(f"home.resume.{game_id}") is None
    assert ui.app.journal.unfinished() == []


def test_an_unreadable_journal_is_kept_aside_and_said(launch: Any, tmp_path: Path) -> None:
    journal = tmp_path / "garbled.sqlite3"
    journal.write_bytes(b"this is not a database" * 100)
    ui = launch(journal_file=journal)
    assert ui.dialog == "message"
    kept = sorted(tmp_path.glob("garbled.sqlite3.unreadable-*"))
    assert len(kept) == 1 and kept[0].read_bytes() == b"this is not a database" * 100
    assert str(kept[0]) in ui.text("message.text")
    ui.tap("message.ok")
    new_game(ui, minutes=30)  # and a new journal works
    ui.tap("play.roll")
    assert ui.app.journal.unfinished()


def test_the_difficulty_leaves_tiles_out_of_the_keypads(launch: Any) -> None:
    ui = launch(seed=9)
    ui.tap("home.game.evil")
    assert ui.text("setup.difficulty") == "Difficulty: First games (without the 55s)"
    for _ in range(5):
        ui.tap("setup.minutes.red.plus")
    assert ui.text("setup.minutes.red").endswith(" 50 min")  # no 55 in first games
    ui.tap("setup.difficulty")
    ui.tap("setup.difficulty")
    assert ui.text("setup.difficulty") == "Difficulty: Expert (without the 30s)"
    ui.tap("setup.start")
    assert ui.app.session.state.difficulty == "expert"
    ui.tap("play.treasure.red")
    ui.tap("treasure.recovered")
    assert ui.dialog == "place"
    assert ui.find("place.30") is None and ui.find("place.55") is not None
    assert "No 30-minute tile at this difficulty." in ui.text("place.why")
    ui.tap("place.later")
    ui.tap("play.home")
    assert ui.app.journal.unfinished()[0].summary["difficulty"] == "expert"


def test_closed_dialogs_do_not_stay_alive(launch: Any) -> None:
    """Each dialog's buttons must die with it (a leak grew GC pauses into long rolls)."""
    import gc

    from ui.widgets.basics import Tap

    def live_taps() -> int:
        gc.collect()
        return sum(1 for o in gc.get_objects() if type(o) is Tap)

    ui = launch()
    new_game(ui, minutes=30)
    ui.tap("play.adjust")
    ui.tap("adjust.close")
    # built half a second in anyway, once (the end screen, the dialogs of a roll)
    ui.wait_until(lambda: ui.app.root.get_screen("evil_play").warmed, timeout=30)
    before = live_taps()
    for _ in range(10):
        ui.tap("play.adjust")
        ui.tap("adjust.close")
    # a leak keeps ten dialogs' buttons; fewer than before is garbage of earlier work
    # (an earlier test's app) let go meanwhile
    assert live_taps() <= before


# -- legible at arm's length (issue: "Readable from every seat") ---------------------------
PLAY_FIGURES = ("play.say", "play.recovered.figure", "play.lost.figure",
                "play.treasure.red.minutes", "play.treasure.green.minutes",
                "play.treasure.blue.minutes")


def legible(ui: Driver, key_figures: tuple[str, ...] = ()) -> None:
    """What a finger can reach now (the dialog, or the screen) reads at 1 m."""
    from tests.helpers.legibility import problems

    ui.pump(4)
    assert problems(ui.surface, ui.app.scale, key_figures) == []


def legible_board(ui: Driver) -> None:
    """The dial's numerals and markers and the dice's figures: 26 px cap height."""
    from ui import theme

    screen = ui.app.root.get_screen("evil_play")
    cap = theme.KEY_FIGURE_CAP * ui.app.scale - 0.01
    assert screen.dial.numeral_font * theme.CAP_RATIO >= cap
    assert screen.dial.marker_font * theme.CAP_RATIO >= cap
    for face in screen.dice.values():
        if face.figure_font:  # minutes or a colour's letter on the face
            assert face.figure_font * theme.CAP_RATIO >= cap, face.die
        assert min(face.size) >= theme.HEADER * ui.app.scale - 0.5


def legible_question(ui: Driver, tag: str) -> None:
    """A question the rules ask (a new treasure, a power) and the screen beside it,
    where the turn card says why (ROLL disabled meanwhile)."""
    from tests.helpers.legibility import problems

    legible(ui)
    assert ui.app.root.get_screen("evil_play").roll_button.disabled
    # (a slot waiting for its new treasure shows no minutes)
    assert problems(ui.app.root, ui.app.scale, PLAY_FIGURES[:3]) == []
    ui.screenshot(f"evil-legible-{ui.dialog}-{tag}")


@pytest.mark.parametrize(("language", "size"), [("en", (800, 480)), ("fr", (800, 480)),
                                                ("en", (1280, 800)), ("fr", (1920, 1080))])
def test_every_screen_and_dialog_reads_at_arm_s_length(launch: Any, language: str,
                                                       size: tuple[int, int]) -> None:
    ui = launch(seed=11, language=language)
    if size != (800, 480):
        ui.resize(*size)
    tag = f"{language}-{size[0]}x{size[1]}"
    ui.tap("home.game.evil")
    for _ in range(3):
        ui.tap("setup.add")
    legible(ui)
    ui.screenshot(f"evil-legible-setup-{tag}")
    ui.tap("setup.start")
    legible(ui, PLAY_FIGURES)
    legible_board(ui)
    ui.tap("play.roll")
    ui.wait_until(lambda: not ui.app.root.get_screen("evil_play").animating)
    ui.screenshot(f"evil-legible-play-{tag}")
    answer_dialogs(ui, 30)
    legible(ui, PLAY_FIGURES)
    legible_board(ui)
    ui.tap("play.treasure.red")
    legible(ui)
    ui.tap("treasure.close")
    ui.tap("play.adjust")
    legible(ui)
    ui.tap("adjust.enter_roll")
    legible(ui)  # the professor die's name is whole
    ui.screenshot(f"evil-legible-enter_roll-{tag}")
    ui.tap("enter_roll.professor.chevron3")
    ui.tap("enter_roll.colour.green")
    ui.tap("enter_roll.clock.clock2")
    ui.tap("enter_roll.ok")
    ui.wait_until(lambda: ui.dialog is not None or ui.app.session.state.pending_powers == 0)
    for _ in range(40):
        if ui.screen != "evil_play":
            break
        if ui.dialog is not None:
            legible_question(ui, tag)
        answer_dialogs(ui, 5)
        if ui.screen != "evil_play":
            break
        legible(ui, PLAY_FIGURES)
        ui.tap("play.roll")
    assert ui.screen == "evil_end"
    legible(ui, ("end.title", "end.recovered", "end.lost"))
    from ui.screens.evil.end import _content

    story = ui.app.root.get_screen("evil_end").story
    assert story and _content(story[0].parent) <= story[0].parent.height + 1  # whole
    ui.screenshot(f"evil-legible-end-{tag}")


def test_the_phase_strip_shows_one_current_phase(launch: Any) -> None:
    ui = launch(seed=7)
    new_game(ui, minutes=30)
    screen = ui.app.root.get_screen("evil_play")
    chips = screen.card.phase_chips
    assert [chip.phase_state for chip in chips] == ["current", "next", "next"]
    assert not any(chip.text.startswith("✓") for chip in chips)

    def enter(professor: str, colour: str, clock: str) -> None:
        ui.tap("play.adjust")
        ui.tap("adjust.enter_roll")
        for die, face in (("professor", professor), ("colour", colour), ("clock", clock)):
            ui.tap(f"enter_roll.{die}.{face}")
        ui.tap("enter_roll.ok")

    enter("chevron1", "red", "clock2")  # XII -> II
    enter("chevron1", "red", "clock2")  # II -> IV: past the power space III
    ui.wait_until(lambda: ui.dialog == "power")
    chips = screen.card.phase_chips  # the card on screen (a roll may swap in another)
    # the roll is the phase until the table has chosen: 1 and 2 done, 3 alone current
    assert [chip.phase_state for chip in chips] == ["done", "done", "current"]
    assert chips[0].text.startswith("✓") and chips[1].text.startswith("✓")
    assert not chips[2].text.startswith("✓")
    ui.tap("power.skip")
    ui.pump(4)
    chips = screen.card.phase_chips
    assert [chip.phase_state for chip in chips] == ["current", "next", "next"]


def test_a_long_story_fits_its_column(launch: Any) -> None:
    """Long lines (many powers, a long difficulty name) go to the smallest text size,
    then the last lines give way: nothing runs into the buttons or is cut off."""
    from tests.helpers.legibility import problems
    from ui.screens.evil.end import _content

    ui = launch(seed=11, language="fr")
    new_game(ui, minutes=5)
    for _ in range(40):
        answer_dialogs(ui, 5)
        if ui.screen != "evil_play":
            break
        ui.tap("play.roll")
    end = ui.app.root.get_screen("evil_end")
    for label in end.story[1:]:
        label.text += " et encore des mots pour faire une ligne bien longue"
    end._fit_story()
    ui.pump(3)
    column = end.story[0].parent
    assert _content(column) <= column.height + 1
    assert [label.opacity for label in end.story][:2] == [1, 1]  # turns, recovered kept
    assert problems(ui.app.root, ui.app.scale) == []


def record_renders(monkeypatch: pytest.MonkeyPatch,
                   cls: type) -> list[tuple[Any, str, float, float, int]]:
    """Every texture `cls` labels render from now on: (label, text, font size, width,
    frame), as they are when rendered."""
    from kivy.clock import Clock

    rendered: list[tuple[Any, str, float, float, int]] = []
    update = cls.texture_update

    def texture_update(self: Any, *args: Any) -> None:  # Kivy calls it by this name
        if self.text:
            rendered.append((self, self.text, self.font_size, self.width, Clock.frames))
        update(self, *args)

    monkeypatch.setattr(cls, "texture_update", texture_update)
    return rendered


def test_the_card_renders_each_text_once_at_the_size_it_shows(
        launch: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The card fits its type before its texts are drawn: a roll renders each line at
    the size the table sees, never first at the largest size (twice the work)."""
    from kivy.metrics import sp

    from ui.screens.evil.card import LINE_SP, Para

    rendered = record_renders(monkeypatch, Para)
    ui = launch(seed=3)
    new_game(ui, minutes=30)
    screen = ui.app.root.get_screen("evil_play")
    largest = sp(LINE_SP[0]) * ui.app.scale
    ui.pump(2)
    rendered.clear()  # the game's first card
    shrunk = 0
    for _ in range(12):
        answer_dialogs(ui, 30)
        if ui.screen != "evil_play":
            break
        ui.tap("play.roll")
        ui.pump(2)
        # the card on screen was told (and fitted) in one frame: as the roll's own, or
        # off screen for it while the table played. Each of its texts was rendered in
        # that frame at the size it shows it at, and only at that size: never first at
        # the largest size (twice the work). (The two cards share their rows: a row may
        # have shown another text earlier in that frame.)
        card = screen.card
        last = {id(label): frame for label, *_, frame in rendered}
        for label in (card.headline, *card.lines):
            assert id(label) in last, f"{label.text!r} was never rendered"
            assert [size for told, text, size, _, frame in rendered
                    if told is label and text == label.text
                    and frame == last[id(label)]] == [label.font_size]
        shrunk += any(text.font_size < largest for text in card.lines)
    assert shrunk, "no card had to shrink: the test would prove nothing"


def test_the_card_s_rows_stack_their_icons_and_texts_by_themselves(launch: Any) -> None:
    """Each line of the card: its icons at its top left, its text beside them in the
    rest of the card's width, the lines one under the other inside the card. The rows
    and their stack place themselves, once a frame: no layout widget inside them (nested
    box layouts were laid out again at each text's new height, ~18 boxes a roll). What
    is counted is the card's structure, not layout passes, which vary with the frames a
    busy machine gives a roll."""
    from kivy.uix.layout import Layout

    def layouts(widget: Any) -> set[int]:
        return {id(w) for w in widget.walk(restrict=True) if isinstance(w, Layout)}

    ui = launch(seed=3)
    new_game(ui, minutes=30)
    screen = ui.app.root.get_screen("evil_play")
    # the card the next roll swaps in is built while the table plays (`warm_steps`)
    ui.wait_until(lambda: screen.warmed)
    seen = 0
    for _ in range(10):
        answer_dialogs(ui, 30)
        if ui.screen != "evil_play":
            break
        ui.tap("play.roll")
        ui.pump(2)
        # the card shown and the one the next roll swaps in: the card's own box and
        # its phase strip are its only layouts
        for shown in (screen.card, screen._next_card):
            assert layouts(shown) == {id(shown), id(shown.phase_row)}
        card = screen.card
        top = card.lines_box.top
        for row in card.lines_box.rows:
            assert row.top <= top + 0.5 and row.width == pytest.approx(card.width)
            top = row.y
            right = row.x
            for icon in row.icons:
                assert icon.x >= right - 0.5 and icon.top == pytest.approx(row.top)
                right = icon.right
            assert row.text.x >= right and row.text.right == pytest.approx(row.right)
            assert row.y - 0.5 <= row.text.y and row.text.top <= row.top + 0.5
            seen += 1
        assert card.lines_box.y >= card.y - 0.5
    assert seen > 10


def test_the_last_roll_renders_the_end_screen_s_texts_once_at_their_widths(
        launch: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The end screen is laid out and told while the table plays: the roll that ends the
    game renders only the texts that differ (the story, the outcome), each at the width
    it shows at, never first at a width the screen never has."""
    from ui.widgets.kept_texture import KeptLabel

    rendered = record_renders(monkeypatch, KeptLabel)
    ui = launch(seed=11)
    new_game(ui, minutes=5)
    ui.wait_until(lambda: ui.app.root.get_screen("evil_play").warmed, timeout=30)
    for _ in range(40):
        answer_dialogs(ui, 5)
        if ui.screen != "evil_play":
            break
        rendered.clear()
        ui.tap("play.roll")
    assert ui.screen == "evil_end"
    end = ui.app.root.get_screen("evil_end")
    on_end = {id(widget) for widget in end.walk()}
    told = [(label, text, width) for label, text, _, width, _ in rendered
            if id(label) in on_end]
    assert told, "the last roll tells the end"
    assert [(text, width) for label, text, width in told if width != label.width] == []
    tids = {getattr(label, "tid", "") for label, _, _ in told}
    # the buttons and headings were rendered while the table played
    assert not tids & {"end.undo", "end.home", "end.again", "end.story", "end.caption"}
    assert any(tid.startswith("end.story.") for tid in tids)  # the story is this game's
