"""Pr. Evil's roll in the rulebook's order, played by touches in the real app: a
treasure lost to "le temps presse" is replaced before the black die, the turn card says
what to do at each step, and the dialogs leave it in view."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.evil import commands as c
from tests.uidriver import Driver

pytestmark = pytest.mark.ui


def set_minutes(ui: Driver, colour: str, minutes: int) -> None:
    for _ in range(12):
        label = ui.text(f"setup.minutes.{colour}")
        current = int(label.split()[-2])
        if current == minutes:
            return
        ui.tap(f"setup.minutes.{colour}.{'minus' if current > minutes else 'plus'}")
    raise AssertionError(f"{colour} never reached {minutes}")


def card(ui: Driver) -> list[str]:
    """What the turn card says, after checking it is whole and large enough to read."""
    from kivy.metrics import sp

    ui.pump(4)  # the card fits itself over a frame or two
    shown = ui.app.root.get_screen("evil_play").card
    scale = ui.app.scale
    assert shown.fits(), "the turn card is cut off"
    assert shown.headline.font_size >= sp(26) * scale - 0.01
    for text in shown.lines:
        assert text.font_size >= sp(18) * scale - 0.01
        assert text.height >= text.texture_size[1] and text.texture_size[0] <= text.width + 1
    if shown.card is not None and shown.card.lines:
        assert shown.lines, "an effect must always be shown"
    return shown.texts()


def enter(ui: Driver, professor: str, colour: str, clock: str) -> None:
    """Physical dice, tapped in on the dice dialog."""
    ui.tap("play.adjust")
    ui.tap("adjust.enter_roll")
    for die, face in (("professor", professor), ("colour", colour), ("clock", clock)):
        ui.tap(f"enter_roll.{die}.{face}")
    ui.tap("enter_roll.ok")


def start_game(ui: Driver, red: int = 5, others: int = 30) -> None:
    ui.tap("home.game.evil")
    while "Standard" not in ui.text("setup.difficulty") and \
            "Standard" not in ui.text("setup.difficulty").title():
        ui.tap("setup.difficulty")
    set_minutes(ui, "red", red)
    set_minutes(ui, "green", others)
    set_minutes(ui, "blue", others)


def test_a_time_presses_loss_waits_for_the_replacement(launch: Any) -> None:
    ui = launch(seed=7)  # seed 7: the first roll is time 5 + red, then 1 clock
    start_game(ui)
    assert "seating order" in ui.text("setup.note")
    # "Décidez au hasard qui sera le premier joueur": drawn from the seed, changeable
    assert ui.text("setup.first") == "First player (drawn at random): Player 2"
    ui.screenshot("evil-order-setup-en")
    ui.tap("setup.first")
    assert ui.text("setup.first") == "First player (chosen): Player 1"
    ui.tap("setup.first")
    assert ui.text("setup.first") == "First player (chosen): Player 2"
    ui.tap("setup.start")
    assert ui.screen == "evil_play"
    assert ui.text("play.turn") == "Turn 1: Player 2"
    said = card(ui)
    assert said[0] == "Player 2, your turn"
    assert said[1].startswith("Player 2 (Edward Wyre): draw 2 action cards")
    phases = ui.app.root.get_screen("evil_play").card.phase_chips
    assert [chip.phase_state for chip in phases] == ["current", "next", "next"]
    ui.screenshot("evil-order-turn-start-en")

    ui.tap("play.roll")
    assert ui.dialog == "place"
    # the dialog says why it asks, and the card beside it says what the board must show
    assert ui.text("place.title") == "The RED treasure was lost to time presses"
    assert "before the black die" in ui.text("place.why")
    assert "(XII)" in ui.text("place.why") and "1 clock" in ui.text("place.why")
    said = card(ui)
    assert said[0] == "First, place a new RED treasure"
    assert any("red treasure is lost" in text for text in said)  # its reminder may go
    assert ui.text("play.turn") == "Turn 1: Player 2"  # the roll is not over
    assert ui.find("place.later") is None  # no way to close it into a state that rolls
    ui.app.confirm()  # nor the OK button
    assert ui.dialog == "place"
    screen = ui.app.root.get_screen("evil_play")
    assert screen.roll_button.disabled
    ui.app.send(c.Roll())  # the hardware ROLL button takes this path
    assert ui.dialog == "error" and "waits for the new red treasure" in ui.text("error.text")
    ui.pump(5)  # the error dialog is laid out
    ui.tap("error.ok")
    ui.wait_until(lambda: ui.dialog == "place")
    ui.screenshot("evil-order-replacement-en")
    from kivy.metrics import dp

    from ui.widgets.basics import Tap

    for button in (w for w in ui.app.dialog.walk() if isinstance(w, Tap)):
        assert button.height >= dp(48) and button.width >= dp(48), button.tid

    ui.tap("place.10")  # the new marker 10 minutes ahead of XII: II; then the clock: I
    assert ui.dialog is None
    state = ui.app.session.state
    assert state.time == 1 and state.marker_position("red") == 2
    assert ui.text("play.turn") == "Turn 2: Player 1"
    said = card(ui)
    # the headline names the player the header names: the one the dice go to
    assert said[0] == "Player 2: pass the dice to Player 1, on your left."
    assert any("now on I." in text for text in said)
    assert ui.text("play.treasure.red") == "R 5 min"
    ui.screenshot("evil-order-after-roll-en")

    # undo: back to the roll waiting for its replacement, the card says so
    assert ui.dialog is None
    ui.tap("play.undo")
    ui.wait_until(lambda: ui.dialog == "place")
    assert card(ui)[0] == "First, place a new RED treasure"
    ui.tap("place.undo")  # the roll itself is taken back
    assert ui.app.session.state.last_roll is None
    said = card(ui)
    assert said[1].startswith("The board now: time marker on XII")
    assert not any("Undo" in text for text in said)


def test_the_power_dialog_chooses_on_ok_and_skips_only_on_its_button(launch: Any) -> None:
    ui = launch(seed=7, language="en")
    start_game(ui, red=55, others=55)
    ui.tap("setup.start")
    for _ in range(3):  # the time marker reaches III by hand: a power activation is due
        ui.tap("play.adjust")
        ui.tap("adjust.time_forward")
    ui.wait_until(lambda: ui.dialog == "power")
    assert "Decide together" in ui.text("power.why")
    first = ui.app.session.state.current_player.character
    assert ui.text("power.choose") == f"Turn {first}'s tile face up"
    ui.screenshot("evil-order-power-en")
    ui.app.confirm()  # the hardware OK button / Enter: chooses, never skips
    ui.settle()  # the choice made durable, then shown
    state = ui.app.session.state
    assert state.powers_up == (first,) and state.pending_powers == 0
    assert any("tile is face up" in text for text in card(ui))
    ui.tap("play.undo")
    ui.wait_until(lambda: ui.dialog == "power")
    other = next(p.character for p in ui.app.session.state.players if p.character != first)
    ui.tap(f"power.{other}")
    assert ui.text("power.choose") == f"Turn {other}'s tile face up"
    ui.tap("power.skip")
    assert ui.app.session.state.powers_up == () and ui.app.session.state.pending_powers == 0


def test_the_replacement_in_french(launch: Any) -> None:
    ui = launch(seed=7, language="fr")
    start_game(ui)
    assert "sens horaire" in ui.text("setup.note")
    ui.screenshot("evil-order-setup-fr")
    ui.tap("setup.start")
    ui.screenshot("evil-order-turn-start-fr")
    ui.tap("play.roll")
    assert ui.dialog == "place"
    assert ui.text("place.title") == "Le trésor ROUGE est perdu : le temps presse"
    assert card(ui)[0] == "D'abord, placez un nouveau trésor ROUGE"
    ui.screenshot("evil-order-replacement-fr")
    ui.tap("place.10")
    assert card(ui)[0] == "Joueur 2 : passez les dés à Joueur 1, votre voisin de gauche."
    ui.screenshot("evil-order-after-roll-fr")
    ui.tap("play.adjust")
    ui.tap("adjust.time_forward")  # II: the new red marker is reached, by hand this time
    ui.wait_until(lambda: ui.dialog == "place")
    assert ui.find("place.later") is not None  # no roll waits: it may be put off
    ui.screenshot("evil-order-placement-fr")
    ui.tap("place.55")
    ui.tap("play.adjust")
    ui.tap("adjust.time_forward")
    ui.wait_until(lambda: ui.dialog == "power")
    assert ui.text("power.skip") == "Personne (passer)"
    ui.screenshot("evil-order-power-fr")


def test_a_waiting_roll_can_be_re_rolled_and_asks_again(launch: Any) -> None:
    ui = launch(seed=7)
    start_game(ui)
    ui.tap("setup.start")
    ui.tap("play.roll")
    assert ui.dialog == "place"
    ui.tap("place.dice")  # a power re-rolls a die of this roll
    assert ui.dialog == "adjust"
    ui.tap("adjust.close")  # nothing changed: the roll still waits, the keypad comes back
    ui.wait_until(lambda: ui.dialog == "place")
    ui.tap("place.dice")
    ui.tap("adjust.reroll.professor")
    state = ui.app.session.state
    # resolved again from before the roll: 3 chevrons (seed 7's fourth draw), no loss to
    # the white dice, so the black die went on and took the 5-minute red treasure
    assert state.last_roll.professor == "chevron3" and state.draws == 4
    assert state.pending_clock is None and state.time == 1 and len(state.lost) == 1
    assert ui.dialog == "place" and ui.find("place.later") is not None
    assert ui.text("play.turn") == "Turn 2: Player 1"


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_longest_cards_are_whole_and_readable(launch: Any, language: str) -> None:
    ui = launch(seed=7, language=language)
    start_game(ui)
    ui.tap("setup.start")
    card(ui)
    enter(ui, "chevron3", "blue", "clock1")  # the 5-minute red is taken by the black die
    ui.wait_until(lambda: ui.dialog == "place")
    said = card(ui)
    assert any(("BLUE" if language == "en" else "BLEU") in text for text in said)
    ui.screenshot(f"evil-card-chevrons-loss-{language}")
    ui.tap("place.55")
    enter(ui, "chevron2", "green", "clock2")  # I -> III: a power space
    ui.wait_until(lambda: ui.dialog == "power")
    card(ui)
    ui.screenshot(f"evil-card-power-{language}")
    ui.app.confirm()
    ui.settle()
    said = card(ui)
    # the dice's effects stay whole; the power's note may give way to the status line
    # under the card, which names the tile face up
    assert len(said) >= 3 and said[2].startswith(("Black die", "Dé noir"))
    assert "Edward Wyre" in ui.text("play.character")
    enter(ui, "passage", "red", "clock1")
    card(ui)
    ui.screenshot(f"evil-card-passage-{language}")
    ui.resize(1280, 800)
    card(ui)
    ui.screenshot(f"evil-card-passage-1280x800-{language}")
    ui.resize(800, 480)


def test_whose_turn_is_correctable_from_adjust(launch: Any) -> None:
    ui = launch(seed=7)
    start_game(ui, red=55, others=55)
    ui.tap("setup.add")
    ui.tap("setup.add")
    ui.tap("setup.start")
    # seed 7 draws the second seat when the page opens; the seats added keep it
    assert ui.text("play.turn") == "Turn 1: Player 2"
    ui.tap("play.adjust")
    ui.screenshot("evil-adjust-en")
    ui.tap("adjust.player.Player 4")
    assert ui.text("play.turn") == "Turn 1: Player 4"
    said = card(ui)
    assert said[0] == "Player 4, your turn"
    assert said[-1].startswith("Player 4 (Leroy Johnson): draw 2 action cards")
    ui.tap("play.roll")
    assert ui.text("play.turn") == "Turn 2: Player 1"  # clockwise from the corrected seat


def test_a_power_cut_while_the_roll_waits_reopens_the_question(launch: Any) -> None:
    ui = launch(seed=7)
    start_game(ui)
    ui.tap("setup.start")
    ui.tap("play.roll")
    assert ui.dialog == "place"
    ui = launch(seed=99)  # the app starts again on the same journal
    ui.wait_until(lambda: ui.dialog == "place")
    assert ui.text("place.title") == "The RED treasure was lost to time presses"
    assert card(ui)[0] == "First, place a new RED treasure"
    ui.tap("place.20")
    assert ui.app.session.state.time == 1 and ui.text("play.turn") == "Turn 2: Player 1"


def test_an_old_game_is_reopened_in_its_own_order_and_says_so(launch: Any,
                                                              tmp_path: Any) -> None:
    from companion.games.evil import RULES
    from companion.journal import Journal
    from companion.session import Session
    from tests.helpers.evil import setup

    path = tmp_path / "old.sqlite3"
    journal = Journal(path)
    old = Session.start(RULES, journal, setup(treasures={"red": 10, "green": 40,
                                                         "blue": 50}))  # no rules_version
    old.dispatch(c.EnterRoll("time10", "red", "clock1"))  # old order: time moved at once
    journal.close()
    ui = launch(journal_file=path)
    ui.wait_until(lambda: ui.dialog == "old_order")
    assert "black die at once" in ui.text("old_order.text")
    ui.tap("old_order.ok")
    ui.wait_until(lambda: ui.dialog == "place")  # then what the rules ask for
    state = ui.app.session.state
    assert state.rules_version == 1 and state.time == 1 and state.turn == 2
    assert ui.find("place.later") is not None
