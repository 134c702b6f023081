"""Before I Kill You, Mr. Bond through the real app under Xvfb, by simulated touches only."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from companion import config
from tests.uidriver import Driver

pytestmark = pytest.mark.ui


def new_game(ui: Driver, players: int = 3, first: str = "") -> None:
    ui.tap("home.game.bond")
    assert ui.screen == "bond_setup"
    if first:
        ui.tap("setup.name.0")
        ui.tap("keyboard.clear")
        for letter in first:
            ui.tap(f"keyboard.{letter}")
        ui.tap("keyboard.ok")
    for _ in range(players - 2):
        ui.tap("setup.add")
    ui.tap("setup.start")
    assert ui.screen == "bond_play"


def add_lair(ui: Driver, player: int, value: int) -> None:
    ui.tap(f"play.player.{player}.add_lair")
    assert ui.dialog == "lair"
    ui.tap(f"lair.add.{value}")


def choose_spies(ui: Driver, target: int, spies: list[int], by: int | None = None) -> str:
    """Open the attack flow and pick the spies; returns the preview shown."""
    ui.tap(f"play.player.{target}.attack")
    assert ui.dialog == "attack"
    if by is not None:
        ui.tap(f"attack.by.{by}")
    for value in spies:
        ui.tap(f"attack.spy.{value}")
    if ui.app.translator.language == "en":
        assert ui.text("attack.spies").startswith("Spies: " + " + ".join(map(str, spies)))
    # the outcome, or else why the attack is refused (a sentence under it)
    return ui.text("attack.preview") or ui.text("attack.note")


def ridicule(ui: Driver, letter: str, answered: bool) -> None:
    assert ui.dialog == "capture"
    ui.tap(f"capture.letter.{letter}")
    assert ui.dialog == "capture"
    assert letter in ui.text("capture.pending")
    ui.tap("capture.answered" if answered else "capture.not_answered")


def card(ui: Driver, player: int, part: str) -> str:
    return ui.text(f"play.player.{player}.{part}")


def test_a_game_to_the_target_with_ridicules_and_an_escape(launch: Any) -> None:
    ui = launch()
    ui.tap("home.game.bond")
    assert ui.text("setup.deal").startswith("Deal 6 cards")  # 2 players
    assert ui.text("setup.note") == "First to 30 points"
    # "Le joueur à la gauche du donneur commence la partie puis le jeu se poursuit dans
    # le sens horaire": the table is told who sits first, since seat 1 starts
    assert ui.text("setup.first_seat").startswith("Seat 1 is the player on the dealer's left")
    ui.tap("setup.name.0")
    ui.tap("keyboard.clear")
    for letter in "ANNE":
        ui.tap(f"keyboard.{letter}")
    ui.tap("keyboard.ok")
    ui.tap("setup.add")
    ui.tap("setup.add")
    assert ui.text("setup.deal").startswith("Deal 5 cards")  # 4 players
    ui.tap("setup.remove.3")
    assert ui.text("setup.deal").startswith("Deal 6 cards")  # 3 players again
    assert [ui.text(f"setup.name.{i}") for i in range(3)] == ["Anne", "Player 2", "Player 3"]
    ui.screenshot("bond-setup-800x480")
    ui.tap("setup.start")
    assert ui.screen == "bond_play"
    assert (card(ui, 0, "name"), card(ui, 0, "score"), card(ui, 0, "to_go"),
            card(ui, 0, "lair")) == ("Anne", "0 points", "30 to go", "No lair")
    assert ui.find("play.player.0.attack").disabled  # no lair, no spy

    # 3 ridiculed twice kills for 12; a letter already on the spy is not offered
    add_lair(ui, 1, 3)
    assert card(ui, 1, "lair") == "Lair 3"
    assert choose_spies(ui, 1, [3], by=0) == "Captured"
    ui.screenshot("bond-attack-800x480")
    ui.tap("attack.send")
    assert ui.dialog == "capture"
    assert ui.text("capture.value") == "Kill now: 3 points"
    assert card(ui, 1, "capture") == "Captured spy"
    ridicule(ui, "A", answered=False)
    assert ui.text("capture.value") == "Kill now: 6 points"
    assert ui.find("capture.letter.A").disabled
    assert not ui.find("capture.letter.B").disabled
    ridicule(ui, "B", answered=False)
    assert ui.text("capture.value") == "Kill now: 12 points"
    assert ui.text("capture.ridiculed") == "Ridiculed with: A, B"
    assert ui.find("capture.letter.A").disabled and ui.find("capture.letter.B").disabled
    ui.screenshot("bond-capture-800x480")
    ui.tap("capture.kill")
    assert ui.dialog is None
    assert (card(ui, 1, "score"), card(ui, 1, "to_go")) == ("12 points", "18 to go")
    assert "+12" in ui.text("play.say")

    # power = size + 1 escapes: the lair is destroyed, shown in a dialog and on the card
    add_lair(ui, 2, 2)
    assert choose_spies(ui, 2, [2, 1]) == "Escapes"
    ui.tap("attack.send")
    assert ui.dialog == "escaped"
    assert "lair is destroyed" in ui.text("escaped.text")
    ui.screenshot("bond-escaped-800x480")
    ui.tap("escaped.ok")
    assert card(ui, 2, "lair") == "No lair"
    assert card(ui, 2, "score") == "0 points"

    # power = size is captured; two more ridicules carry Player 2 past 30
    add_lair(ui, 1, 4)
    assert card(ui, 1, "lair") == "Lair 7: 3+4"
    assert choose_spies(ui, 1, [4, 3], by=0) == "Captured"
    ui.tap("attack.send")
    assert ui.text("capture.value") == "Kill now: 7 points"
    ridicule(ui, "C", answered=False)
    ridicule(ui, "D", answered=False)
    assert ui.text("capture.value") == "Kill now: 28 points"
    ui.tap("capture.kill")
    assert ui.screen == "bond_end"
    assert ui.text("end.title") == "Victory!"
    assert ui.text("end.text") == "Player 2 reached 40 points first."
    # best first: the names and the scores as key figures
    assert [ui.text(f"end.name.{k}") for k in (0, 1)] == ["Player 2", "Anne"]
    assert [ui.text(f"end.score.{k}") for k in (0, 1)] == ["40", "0"]
    ui.screenshot("bond-victory-800x480")

    # undo from the victory screen: the spy is held again, worth 28
    ui.tap("end.undo")
    assert ui.screen == "bond_play"
    assert ui.dialog == "capture"
    assert ui.text("capture.value") == "Kill now: 28 points"
    assert card(ui, 1, "score") == "12 points"


def test_end_by_agreement_with_a_tie_after_an_answered_ridicule(launch: Any) -> None:
    ui = launch()
    new_game(ui, players=2)
    # the score stepper logs one correction
    ui.tap("play.player.0.correct")
    assert ui.dialog == "correct"
    assert ui.find("correct.minus").disabled and ui.find("correct.ok").disabled
    ui.tap("correct.plus")
    ui.tap("correct.plus")
    assert ui.text("correct.delta") == "+2"
    assert ui.text("correct.value") == "From 0 to 2 points"
    ui.screenshot("bond-correct-800x480")
    ui.tap("correct.ok")
    assert card(ui, 0, "score") == "2 points"

    # an answered ridicule: the spy escapes, the lair is destroyed, nothing scored
    add_lair(ui, 1, 2)
    assert choose_spies(ui, 1, [2]) == "Captured"
    ui.tap("attack.send")
    ridicule(ui, "A", answered=True)
    assert ui.dialog == "escaped"
    assert "answered" in ui.text("escaped.text")
    ui.tap("escaped.ok")
    assert (card(ui, 1, "lair"), card(ui, 1, "score")) == ("No lair", "0 points")

    # several spies on the attacker's own lair are refused before they are sent
    add_lair(ui, 0, 4)
    preview = choose_spies(ui, 0, [1, 1], by=0)
    assert "another player's lair" in preview
    assert ui.find("attack.send").disabled
    ui.tap("attack.remove")
    assert ui.text("attack.preview") == "Captured"
    ui.tap("attack.send")
    # both A cards are played: A is not offered on this spy either
    assert ui.find("capture.letter.A").disabled
    ui.tap("capture.kill")
    assert card(ui, 0, "score") == "3 points"
    ui.tap("play.player.1.correct")
    for _ in range(3):
        ui.tap("correct.plus")
    ui.tap("correct.ok")
    assert card(ui, 1, "score") == "3 points"

    ui.tap("play.end")
    assert ui.dialog == "end_confirm"
    ui.tap("end_confirm.ok")
    assert ui.screen == "bond_end"
    assert ui.text("end.title") == "Shared victory!"
    assert ui.text("end.text") == (
        "Game stopped by agreement: Player 1, Player 2 with 3 points.")
    assert {ui.text("end.name.0"), ui.text("end.name.1")} == {"Player 1", "Player 2"}
    assert [ui.text("end.score.0"), ui.text("end.score.1")] == ["3", "3"]
    ui.screenshot("bond-tie-800x480")
    ui.tap("end.undo")
    assert ui.screen == "bond_play"
    assert ui.text("play.say") == "Undo: End of the game"
    ui.tap("play.redo")
    assert ui.screen == "bond_end"
    ui.tap("end.again")
    assert ui.screen == "bond_setup"


def test_six_player_cards_fit_at_800x480_and_1280x800(launch: Any) -> None:
    from kivy.core.window import Window
    from kivy.metrics import dp

    from ui.widgets.basics import Tap

    ui = launch()
    ui.tap("home.game.bond")
    for _ in range(4):
        ui.tap("setup.add")
    assert ui.find("setup.add").disabled  # 6 is the most
    assert ui.text("setup.deal").startswith("Deal 5 cards")
    ui.tap("setup.start")
    for player, value in ((0, 4), (0, 3), (0, 3), (2, 1), (5, 2)):
        add_lair(ui, player, value)
    assert card(ui, 0, "lair") == "Lair 10: 4+3+3"
    ui.tap("play.player.0.add_lair")  # a card entered by mistake is taken off
    assert ui.find("lair.remove.2") is None
    ui.screenshot("bond-lair-800x480")
    ui.tap("lair.remove.3")
    ui.tap("play.player.3.correct")
    for _ in range(4):
        ui.tap("correct.plus")
    ui.tap("correct.ok")

    def check_fit() -> None:
        screen = ui.app.root.get_screen("bond_play")
        width, height = Window.size
        for index, widget in enumerate(screen.cards):
            x, y = widget.to_window(*widget.pos)
            assert x >= 0 and y >= 0, index
            assert x + widget.width <= width + 1 and y + widget.height <= height + 1, index
            assert card(ui, index, "name") == f"Player {index + 1}"
        taps = [w for w in screen.walk() if isinstance(w, Tap)]
        assert len(taps) == 6 * 3 + 5  # the cards, Home, Undo, Redo, End, Next player
        for button in taps:
            assert button.height >= dp(48) and button.width >= dp(48), button.tid
            assert button.texture_size[1] <= button.height, button.tid  # text not cut

    check_fit()
    assert card(ui, 0, "lair") == "Lair 7: 4+3"
    assert card(ui, 3, "to_go") == "26 to go"
    ui.screenshot("bond-play-800x480")
    ui.resize(1280, 800)
    check_fit()
    ui.screenshot("bond-play-1280x800")
    ui.resize(800, 480)


def test_a_lower_target_and_the_screens_in_french(launch: Any, defaults: config.Config) -> None:
    games = dict(defaults.data["games"])
    games["bond"] = dict(games["bond"], target_score=10)
    ui = launch(language="fr", games=games)
    ui.tap("home.game.bond")
    assert ui.text("setup.deal").startswith("Distribuez 6 cartes")
    assert ui.text("setup.note") == "Premier à 10 points"
    assert ui.text("setup.first_seat").startswith("Le siège 1 est le joueur à la gauche")
    ui.tap("setup.start")
    assert (card(ui, 0, "score"), card(ui, 0, "to_go"), card(ui, 0, "lair")) == (
        "0 point", "encore 10", "Pas de repaire")
    add_lair(ui, 1, 2)
    assert choose_spies(ui, 1, [3]) == "S'échappe"
    ui.tap("attack.remove")
    ui.tap("attack.spy.2")
    assert ui.text("attack.preview") == "Capturé"
    ui.tap("attack.send")
    assert ui.text("capture.value") == "Le tuer maintenant : 2 points"
    ridicule(ui, "E", answered=False)
    ridicule(ui, "F", answered=False)
    ui.screenshot("bond-capture-fr-800x480")
    ui.tap("capture.kill")
    assert card(ui, 1, "score") == "8 points"
    assert card(ui, 1, "to_go") == "encore 2"
    ui.tap("play.player.1.correct")
    ui.tap("correct.plus")
    ui.tap("correct.plus")
    ui.tap("correct.ok")
    assert ui.screen == "bond_end"
    assert ui.text("end.title") == "Victoire !"
    assert ui.text("end.text") == "Joueur 2 atteint 10 points en premier."


def test_after_a_restart_the_captured_spy_is_still_waiting(launch: Any) -> None:
    ui = launch()
    new_game(ui, players=2)
    add_lair(ui, 0, 4)
    choose_spies(ui, 0, [4])
    ui.tap("attack.send")
    ridicule(ui, "G", answered=False)
    ui.tap("capture.close")  # look at the table; the holder's card reopens the flow
    assert ui.dialog is None
    assert ui.find("play.player.0.add_lair") is None  # the holder's card: one button
    assert ui.find("play.player.1.attack").disabled  # nothing else until the spy is done
    ui = launch(seed=99)  # the app starts again on the same journal
    assert ui.screen == "bond_play"
    assert ui.dialog == "capture"
    assert ui.text("capture.value") == "Kill now: 8 points"
    assert ui.find("capture.letter.G").disabled
    ui.tap("capture.close")
    ui.tap("play.player.0.capture")
    assert ui.dialog == "capture"
    ui.tap("capture.undo")  # the ridicule is taken back: a pending answer again
    assert ui.dialog == "capture"
    assert "G" in ui.text("capture.pending")
    assert ui.find("capture.kill") is None  # the answer comes first
    ui.screenshot("bond-ridicule-800x480")


def test_two_players_with_one_name_are_refused_and_the_setup_is_kept(launch: Any) -> None:
    ui = launch()
    ui.tap("home.game.bond")
    for index in (0, 1):
        ui.tap(f"setup.name.{index}")
        ui.tap("keyboard.clear")
        for letter in "BOB":
            ui.tap(f"keyboard.{letter}")
        ui.tap("keyboard.ok")
    ui.tap("setup.start")
    assert ui.dialog == "error"
    assert ui.text("error.text") == "Two players have the same name."
    ui.tap("error.ok")
    assert ui.screen == "bond_setup"
    assert [ui.text("setup.name.0"), ui.text("setup.name.1")] == ["Bob", "Bob"]
    assert ui.app.journal.unfinished() == []  # no game was started


# -- cards the settings did not expect ------------------------------------------------------
@pytest.mark.parametrize("language", ["en", "fr"])
def test_cards_outside_the_settings_are_accepted_with_a_note_and_a_fix_for_next_games(
        launch: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    # seed: "18 cartes pour améliorer son repaire (Lair)" and "18 cartes espions":
    # counts, not the numbers printed;
    # the settings' 1-4 lairs and 1-5 spies are guesses, never a refusal
    # saved from the screen into the app's own settings file, never the user's config
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    target = tmp_path / "settings.yaml"
    monkeypatch.setenv("COMPANION_SETTINGS", str(target))
    ui = launch(language=language)
    new_game(ui, players=2)
    ui.tap("play.player.1.add_lair")
    ui.tap("lair.add.other")
    assert ui.dialog == "keypad"
    ui.tap("keypad.6")
    ui.tap("keypad.ok")
    assert ui.dialog == "check"
    assert ui.app.session.state.players[1].lair == (6,)  # recorded before it is shown
    if language == "en":
        assert ui.text("check.text") == ("Check your cards: a lair card worth 6 is outside "
                                         "1–4 in the settings. Accepted.")
        assert ui.text("check.fix.0") == "Next games: lair cards 1 to 6"
    ui.screenshot(f"bond-check-cards-{language}-800x480")
    ui.tap("check.fix.0")
    assert yaml.safe_load(target.read_text())["games"]["bond"]["lair_values"] == {
        "min": 1, "max": 6}
    ui.tap("check.ok")
    assert ui.dialog is None
    assert card(ui, 1, "lair").endswith("6")
    # the game keeps its settings; the next game's setup reads the widened ones
    assert ui.app.session.state.params.lair_max == 4
    assert ui.app.settings.get("games.bond.lair_values") == {"min": 1, "max": 6}

    # a spy of 7 typed in the attack, with a 2: the note first, then the capture goes on
    ui.tap("play.player.1.attack")
    ui.tap("attack.spy.2")
    ui.tap("attack.spy.other")
    ui.tap("attack.digit.7")
    assert ui.text("attack.typed") == "7"
    ui.screenshot(f"bond-attack-typing-{language}-800x480")
    ui.tap("attack.digit.ok")
    assert ui.text("attack.spies").startswith("Spies: 2 + 7" if language == "en"
                                              else "Espions")
    ui.screenshot(f"bond-attack-other-{language}-800x480")
    ui.tap("attack.send")
    assert ui.dialog == "check"
    ui.tap("check.ok")
    assert ui.dialog == "escaped"  # 9 against a lair of 6: the spy escapes
    ui.tap("escaped.ok")

    # a number no card prints: a clear message, nothing lost, undo still works
    ui.tap("play.player.0.add_lair")
    ui.tap("lair.add.other")
    for key in ("1", "2", "0", "ok"):
        ui.tap(f"keypad.{key}")
    assert ui.dialog == "error"
    if language == "en":
        assert ui.text("error.text") == (
            "120 cannot be a lair card: cards print a whole number from 1 to 99.")
    ui.tap("error.ok")
    assert ui.app.session.state.players[0].lair == ()
    ui.tap("play.undo")
    assert ui.app.session.state.players[1].lair == (6,)
    assert ui.app.session.state.spies_played == 0


def test_the_end_tells_the_story_and_starts_again_with_the_same_players(launch: Any) -> None:
    from tests.legibility import problems

    ui = launch()
    new_game(ui, 3, first="ANNE")
    assert problems(ui.app.root) == []
    add_lair(ui, 1, 4)
    assert choose_spies(ui, 1, [3], by=0) == "Captured"
    ui.tap("attack.send")
    assert ui.text("capture.value") == "Kill now: 3 points"
    assert problems(ui.app.dialog) == []  # the kill's value at the key-figure size
    ridicule(ui, "C", answered=False)
    ui.tap("capture.kill")
    assert card(ui, 1, "score") == "6 points"
    ui.tap("play.end")
    ui.tap("end_confirm.ok")
    assert ui.screen == "bond_end"
    assert ui.text("end.text") == "Game stopped by agreement: Player 2 with 6 points."
    assert [ui.text(f"end.story.{k}") for k in range(3)] == [
        "1 spy captured", "1 spy killed",
        "Best kill: Player 2, 6 points (power 3, doubled 1×)"]
    assert problems(ui.app.root) == []
    ui.screenshot("bond-end-story-800x480")

    ui.tap("end.again")
    assert ui.screen == "bond_setup"
    assert [ui.text(f"setup.name.{k}") for k in range(3)] == ["Anne", "Player 2", "Player 3"]
    ui.tap("setup.start")
    assert [p["name"] for p in ui.app.session.setup["players"]] == [
        "Anne", "Player 2", "Player 3"]


def test_six_players_are_legible_at_800x480_and_1280x800(launch: Any) -> None:
    """Every label fits, no text under 18 px, every target 48 px, contrast 4.5:1:
    the setup, the play screen and the end page, with six players, in both languages."""
    from tests.legibility import problems

    for language in ("en", "fr"):
        ui = launch(language=language)
        ui.tap("home.game.bond")
        for _ in range(4):
            ui.tap("setup.add")
        assert problems(ui.app.root) == []
        ui.tap("setup.start")
        for size in ((800, 480), (1280, 800)):
            ui.resize(*size)
            assert problems(ui.app.root) == [], size
        ui.resize(800, 480)
        ui.tap("play.end")
        ui.tap("end_confirm.ok")
        assert ui.screen == "bond_end"
        assert problems(ui.app.root) == []
        ui.screenshot(f"bond-end-six-{language}-800x480")


def _button_places(ui: Driver) -> dict[str, tuple[float, float, float, float]]:
    from kivy.uix.behaviors import ButtonBehavior

    places = {}
    for widget in ui.app.root.current_screen.walk(restrict=True):
        tid = getattr(widget, "tid", "")
        if tid and isinstance(widget, ButtonBehavior) and widget.get_root_window():
            x, y = widget.to_window(*widget.pos)
            places[tid] = (round(x, 1), round(y, 1), round(widget.width, 1),
                           round(widget.height, 1))
    return places


@pytest.mark.parametrize("language", ["en", "fr"])
def test_no_button_moves_whatever_the_message_says(launch: Any, language: str) -> None:
    """Issue 29: the message grew to 2-3 lines and pushed every card's buttons up
    (y 419 -> 395 -> 371 px) between two taps. Its box keeps its height; the log keeps
    the whole text."""
    ui = launch(language=language)
    new_game(ui, players=6)
    before = _button_places(ui)
    said = ui.app.root.get_screen("bond_play").say_label
    height = said.height
    from ui.widgets.basics import find
    from ui.widgets.text_height import text_height

    add_lair(ui, 1, 4)
    add_lair(ui, 2, 2)
    # captured and killed after a ridicule; then two spies stronger than a lair: they
    # escape and destroy it (three sentences)
    for target, spies in ((1, [3]), (2, [1, 2])):
        choose_spies(ui, target, spies)
        ui.tap("attack.send")
        if ui.dialog == "capture":
            ui.tap("capture.letter.A")
            ui.tap("capture.not_answered")
            ui.tap("capture.kill")
        assert find(ui.app.root, "play.say").text
        if ui.dialog is not None:
            ui.app.close_dialog()
            ui.pump(2)
        after = _button_places(ui)
        moved = {tid: (before[tid], place) for tid, place in after.items()
                 if tid in before and before[tid] != place}
        assert not moved, moved
        assert said.height == height
        assert text_height(said, said.width) <= said.height + 0.5  # never cut
    assert len(said.sentences) == 3, said.sentences
    ui.screenshot(f"bond-steady-{language}")


def test_the_capture_question_is_undone_from_itself(launch: Any) -> None:
    ui = launch()
    new_game(ui, players=3)
    add_lair(ui, 1, 4)
    choose_spies(ui, 1, [3])
    ui.tap("attack.send")
    assert ui.dialog == "capture"
    ui.tap("capture.undo")
    ui.pump(3)
    assert ui.dialog is None
    assert ui.app.session.state.capture is None
    assert card(ui, 1, "lair").endswith("4")
    assert ui.text("play.say").startswith("Undo: Attack")


def test_an_escape_is_undone_from_what_it_tells(launch: Any) -> None:
    ui = launch()
    new_game(ui, players=3)
    add_lair(ui, 2, 2)
    choose_spies(ui, 2, [3])
    ui.tap("attack.send")
    assert ui.dialog == "escaped"
    ui.tap("escaped.undo")
    ui.pump(3)
    assert ui.dialog is None
    assert card(ui, 2, "lair").endswith("2")  # the lair is back: the attack undone
    assert ui.text("play.say").startswith("Undo: Attack")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_headline_says_whose_turn_and_what_they_may_do(launch: Any, language: str) -> None:
    """Issue 29, one instruction rule for every game: Bond's headline is what the table
    must do now (rulebook: draw, then maybe a lair card, then maybe spies), at the
    key-figure size, its line under it at 20 px capitals; Next player passes the turn,
    spies dealt with pass it too, Undo gives it back."""
    from kivy.metrics import sp

    from tests import screen_audit

    en = language == "en"
    ui = launch(language=language)
    new_game(ui, players=3)
    screen = ui.app.root.get_screen("bond_play")
    assert ui.text("play.turn") == ("Player 1: draw a card" if en
                                    else "Joueur 1 : piochez une carte")
    assert ui.text("play.turn_hint") == ("Then, if you wish, a lair card and spies" if en
                                         else "Puis, au choix, une carte repaire et des espions")
    ui.tap("play.next_turn")
    assert ui.text("play.turn").startswith("Player 2:" if en else "Joueur 2 :")
    assert ui.text("play.say") == ("Player 2's turn." if en else "À Joueur 2 de jouer.")
    add_lair(ui, 1, 3)
    assert ui.text("play.turn") == ("Player 2: spies, if you wish" if en
                                    else "Joueur 2 : des espions, au choix")
    choose_spies(ui, 1, [2])
    ui.tap("attack.send")
    assert ui.dialog == "capture"
    assert ui.text("play.turn") == ("Player 2: kill or ridicule the spy" if en
                                    else "Joueur 2 : tuez ou ridiculisez")
    from ui.widgets.basics import find

    assert find(ui.app.root, "play.next_turn").disabled  # the spy is dealt with at once
    ui.tap("capture.kill")
    assert ui.dialog is None
    assert ui.text("play.turn").startswith("Player 3:" if en else "Joueur 3 :")
    ui.tap("play.undo")  # the kill undone: the capture is back, and Player 2 with it
    assert ui.text("play.turn").startswith("Player 2:" if en else "Joueur 2 :")
    ui.app.close_dialog()
    ui.pump(2)
    # the sizes: the headline a key figure, its line and the last action 20 px capitals
    scale = ui.app.scale
    assert ui.find("play.turn").font_size >= sp(theme_size("SIZE_FIGURE")) * scale
    for tid in ("play.turn_hint", "play.say"):
        assert ui.find(tid).font_size * screen_audit.CAP_HEIGHT >= 20 * scale, tid
    assert screen_audit.audit(screen, "play", language, shown="bond_play") == []
    ui.find("play.turn_hint").font_size = sp(24)
    ui.pump(2)
    found = screen_audit.audit(screen, "play", language, shown="bond_play")
    assert [v.widget for v in found] == ["play.turn_hint"]


def theme_size(name: str) -> float:
    from ui import theme

    return float(getattr(theme, name))


def test_a_long_name_is_cut_in_the_headline_not_what_to_do(launch: Any) -> None:
    ui = launch()
    new_game(ui, players=6, first="ABCDEFGHIJKLMNOPQRSTUVWX")
    said = ui.text("play.turn")
    assert said.endswith("…: draw a card") and said.startswith("Abcdefgh")
    from ui.widgets.text_height import text_height

    label = ui.find("play.turn")
    assert text_height(label, label.width) <= label.height  # one line, not wrapped
    ui.tap("play.next_turn")
    assert ui.text("play.turn") == "Player 2: draw a card"


def test_a_guest_is_named_in_the_language_on_screen(launch: Any) -> None:
    """Issue 29: a guest has one name everywhere. A game set up in English ("Player 2"),
    the language switched to French in Settings: its play screen says "Joueur 2" on the
    cards, in the headline and in the last action, as History does; a typed name stays."""
    from ui.widgets.basics import find

    ui = launch(language="en")
    new_game(ui, players=3, first="ANNE")
    ui.tap("play.next_turn")
    assert ui.text("play.turn") == "Player 2: draw a card"
    game = ui.app.session.game_id
    ui.tap("play.home")
    ui.tap("home.settings")
    ui.tap("settings.lang.fr")
    ui.tap("settings.back")
    assert ui.screen == "home"
    ui.tap(f"home.resume.{game}")
    assert ui.screen == "bond_play"
    assert [card(ui, i, "name") for i in range(3)] == ["Anne", "Joueur 2", "Joueur 3"]
    assert ui.text("play.turn") == "Joueur 2 : piochez une carte"
    add_lair(ui, 2, 3)
    assert ui.text("play.say") == "Le repaire de Joueur 3 grandit de 3 : taille 3."
    ui.tap("play.player.2.attack")
    labels = {find(ui.app.dialog, f"attack.by.{i}").text for i in range(3)}
    assert labels == {"Anne", "Joueur 2", "Joueur 3"}
    # the game keeps the names it was set up with: a guest is still one seat
    assert [p.name for p in ui.app.session.state.players] == ["Anne", "Player 2", "Player 3"]



@pytest.mark.parametrize("language", ["en", "fr"])
def test_after_sigkill_mid_turn_with_the_capture_open_the_same_screen_comes_back(
        tmp_path: Any, language: str) -> None:
    """`companion run` killed with SIGKILL mid-turn (Player 2's lair card down, then a
    spy sent by touches: the capture question open, the kill a touch away): started
    again, it shows the same screen, pixel for pixel: the capture question over the
    play screen, the headline saying who deals with the spy."""
    import signal

    from companion import config as config_module
    from companion.games import rules_for
    from companion.games.bond import commands as c
    from companion.journal import Journal
    from companion.session import Session
    from tests.test_ui_castor_tracker import _child

    data = tmp_path / "data"
    data.mkdir()
    journal = Journal(data / "journal.sqlite3")
    params = config_module.load(use_default_user_file=False).get("games.bond")
    session = Session.start(rules_for("bond"), journal, {
        "params": params, "players": [{"name": n} for n in ("Anne", "Bob", "Chloé")]})
    session.dispatch(c.NextTurn())
    session.dispatch(c.AddLairCard(1, 4))  # Bob's turn: his lair card, spies next
    journal.close()
    config = tmp_path / "config.yaml"
    config.write_text(f"language: {language}\n", encoding="utf-8")
    before, seen_before, code = _child(
        data, config, tmp_path / "before.rgba", "bond_play",
        ["~play.player.1.attack", "~attack.spy.3", "attack.send"], tmp_path)
    assert code == -signal.SIGKILL
    assert seen_before["dialog"] == "capture"
    after, seen_after, code = _child(data, config, tmp_path / "after.rgba", "bond_play", [],
                                     tmp_path)
    assert code == 0
    assert seen_after["screen"] == seen_before["screen"] == "bond_play"
    assert seen_after["dialog"] == "capture"
    assert seen_after["texts"] == seen_before["texts"]
    assert seen_after["dialog_texts"] == seen_before["dialog_texts"]
    assert seen_after["texts"]["play.turn"] == (
        "Bob: kill or ridicule the spy" if language == "en" else "Bob : tuez ou ridiculisez")
    assert len(after) == len(before) > 0
    differ = sum(1 for a, b in zip(before, after, strict=True) if a != b)
    assert differ == 0, f"{differ} bytes differ"


def test_the_capture_question_is_built_once_and_tells_each_spy_afresh(launch: Any) -> None:
    """The capture dialog is the play screen's own, opened again at every step and every
    capture: what a spy showed (its ridicules, its pending letter, a letter not offered)
    is never left on the next one's."""
    ui = launch()
    new_game(ui, players=3)
    add_lair(ui, 1, 3)
    choose_spies(ui, 1, [3], by=0)
    ui.tap("attack.send")
    first = ui.app.dialog
    assert ui.find("capture.ridiculed") is None
    ridicule(ui, "A", answered=False)
    assert ui.app.dialog is first  # the same widgets, re-told
    assert ui.text("capture.ridiculed") == "Ridiculed with: A"
    assert ui.find("capture.pending") is None and ui.find("capture.answered") is None
    ui.tap("capture.letter.B")
    assert ui.find("capture.kill") is None and ui.find("capture.letter.C") is None
    assert "B" in ui.text("capture.pending")
    ui.tap("capture.not_answered")
    ui.tap("capture.kill")
    assert ui.dialog is None

    add_lair(ui, 2, 4)
    choose_spies(ui, 2, [4], by=0)
    ui.tap("attack.send")
    assert ui.app.dialog is first
    assert ui.text("capture.title") == "Captured! Player 3 holds a spy of power 4"
    assert ui.find("capture.ridiculed") is None
    assert ui.find("capture.pending") is None
    assert ui.text("capture.value") == "Kill now: 4 points"
    assert ui.text("capture.kill") == "Kill: +4"
    assert not ui.find("capture.letter.A").disabled
    assert not ui.find("capture.letter.B").disabled
    ui.tap("capture.kill")
    assert card(ui, 2, "score") == "4 points"
