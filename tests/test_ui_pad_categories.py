"""The score pad's categories sheet and co-operative sheet through the real app under
Xvfb, by simulated touches only, in English and French."""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_ui_pad_rounds import enter, totals
from tests.uidriver import Driver

pytestmark = [pytest.mark.ui, pytest.mark.usefixtures("instant_release")]


def choose(ui: Driver, ident: str) -> None:
    ui.tap("setup.template")
    assert ui.dialog == "templates"
    ui.tap(f"templates.{ident}")
    assert ui.dialog is None


@pytest.mark.parametrize(("language", "player"), [("en", "Player"), ("fr", "Joueur")])
def test_seven_wonders_with_seven_players(launch: Any, language: str, player: str) -> None:
    """A categories sheet: coins a point per 3, science from its three inputs (the sum
    of the squares plus 7 per complete set), worked out by hand below."""
    ui = launch(language=language)
    ui.tap("home.game.pad")
    for _ in range(5):
        ui.tap("setup.add")
    choose(ui, "7-wonders")
    assert ui.text("setup.template").startswith("7 Wonders")
    ui.tap("setup.start")
    assert ui.screen == "pad_play", ui.dialog
    values = {  # category -> per seat s: what is typed
        "military": lambda s: s - 1, "coins": lambda s: 3 * s + 2, "wonder": lambda s: 5,
        "civilian": lambda s: 10 + s, "commerce": lambda s: 0, "guilds": lambda s: s,
        "gear": lambda s: 1, "tablet": lambda s: 1, "compass": lambda s: s % 2}
    for category, typed in values.items():
        for seat in range(7):
            # the keypad's one line: "Player 1 · Military" where it fits, else the
            # name alone (the lit cell's row says the category)
            who = ui.text("keypad.who")
            assert who == f"{player} {seat + 1}" or who.startswith(
                f"{player} {seat + 1} · "), category
            value = typed(seat)
            enter(ui, f"{-value}±" if value < 0 else str(value))
    # total = (s-1) + s + 5 + (10+s) + 0 + s + science, science 10 with a compass, else 2
    expected = [4 * s + 14 + (10 if s % 2 else 2) for s in range(7)]
    assert totals(ui, 7) == [str(t) for t in expected]
    ui.screenshot(f"pad-7-wonders-{language}-800x480")
    # seven narrow columns: the Treasury cell says what it can ("20 → 6", else "6"),
    # the keypad all of it
    from tests.test_ui_pad_fairness import on_page, plain

    treasury = on_page(ui, "Trésor (pièces)" if language == "fr" else "Treasury (coins)", 6)
    assert plain(ui, treasury) in ("20 → 6", "6")
    ui.tap(treasury)
    assert plain(ui, "keypad.typed") == ("20 pièces → 6" if language == "fr"
                                         else "20 coins → 6")
    # the science row is the calculation's: on the next page, not typed in
    science = "Science"
    for _ in range(4):  # a page at a time, to the last rows
        ui.tap("sheet.down")
        shown = [ui.text(f"sheet.label.{k}") for k in range(8)
                 if ui.visible(f"sheet.label.{k}") is not None]
        if science in shown:
            break
    assert science in shown, shown
    k = shown.index(science)
    assert [ui.text(f"sheet.cell.{k}.{s}") for s in range(7)] == \
        ["2", "10", "2", "10", "2", "10", "2"]
    assert ui.find(f"sheet.cell.{k}.0").disabled
    ui.tap("play.standings")
    assert [ui.text(f"standings.total.{i}") for i in range(7)] == \
        ["44", "40", "36", "32", "28", "24", "16"]
    ui.screenshot(f"pad-7-wonders-standings-{language}-800x480")
    ui.tap("standings.end")
    assert ui.screen == "pad_end"
    assert ui.text("end.name.0") == f"{player} 6"
    assert ui.text("end.score.0") == "44"


@pytest.mark.parametrize(("language", "title"), [("en", "The table wins"),
                                                 ("fr", "La table gagne")])
def test_a_co_operative_sheet_ends_won_together(launch: Any, language: str,
                                                title: str) -> None:
    ui = launch(language=language)
    ui.tap("home.game.pad")
    ui.tap("setup.add")
    choose(ui, "coop")
    ui.tap("setup.start")
    assert ui.screen == "pad_play"
    for value in ("2", "3", "4"):  # a round of the co-op's own scores (optional)
        enter(ui, value)
    ui.tap("play.standings")
    ui.tap("standings.end")
    assert ui.dialog == "coop"
    ui.tap("coop.won")
    assert ui.screen == "pad_end"
    assert ui.text("end.title") == title
    ui.screenshot(f"pad-coop-end-{language}-800x480")
    ui.tap("end.undo")  # back into the game, as the other games' end pages do
    assert ui.screen == "pad_play"
    assert ui.app.session.state.coop_won is None


def test_a_tie_breaker_is_asked_at_the_end_and_undone_from_the_question(launch: Any) -> None:
    """Wingspan: two players tied on points; the unused food is asked of each, then
    decides; Undo in the question takes the end back."""
    ui = launch()
    ui.tap("home.game.pad")
    choose(ui, "wingspan")
    ui.tap("setup.start")
    for _ in range(12):
        enter(ui, "5")
    ui.tap("play.standings")
    assert ui.text("standings.rank.0") == ui.text("standings.rank.1") == "1"
    ui.tap("standings.end")
    assert ui.screen == "pad_end"
    assert ui.dialog == "tie"
    ui.tap("tie.undo")
    assert ui.screen == "pad_play"
    assert not ui.app.session.state.finished
    ui.tap("play.standings")
    ui.tap("standings.end")
    assert ui.dialog == "tie"
    assert ui.text("end.title") == "Tie: Player 1, Player 2"  # no winner said before
    assert ui.text("tie.ask") == "Unused food tokens of Player 1?"
    ui.tap("tie.3")
    ui.tap("tie.ok")
    assert ui.dialog == "tie"
    assert ui.text("tie.ask") == "Unused food tokens of Player 2?"
    ui.tap("tie.1")
    ui.tap("tie.ok")
    assert ui.dialog is None
    assert ui.screen == "pad_end"
    assert ui.text("end.title") == "Player 1 wins"
    # Wingspan's rules: "In case of a tie, the player with the most unused food tokens
    # wins": said on the end page
    assert ui.text("end.story.0") == "Player 1 wins the tie on unused food tokens, 3 to 1"


PLACES = """id: race
name: {en: Race, fr: Course}
players: {min: 2, max: 6}
shape: rounds
win: places
"""
BROKEN = """id: broken-one
name: Broken
shape: rounds
win: highest
rounds: {count: 0}
"""


@pytest.fixture
def own_templates(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The table's own templates folder, here (the user's is never touched)."""
    from companion.games.pad import templates

    folder = tmp_path / "pad"
    folder.mkdir()
    monkeypatch.setattr(templates, "user_dir", lambda: folder)
    return folder


def audited(ui: Driver, language: str) -> list[str]:
    """What the screen audit finds in the open dialog (tests/screen_audit.py)."""
    from tests import screen_audit

    dialog = ui.app.dialog
    found = screen_audit.audit(dialog, str(dialog.tid), language, shown=ui.screen)
    found += screen_audit.outside_dialog(dialog, str(dialog.tid))
    return [v.line(language, "800x480") for v in found]


@pytest.mark.parametrize(("language", "race", "broken", "player"), [
    ("en", "Race\n2–6 players · places", "zz-oops.yaml\nbroken: tap to see why", "Player"),
    ("fr", "Course\n2 à 6 joueurs · places",
     "zz-oops.yaml\nillisible : touchez pour voir pourquoi", "Joueur")])
def test_the_table_s_own_templates_a_broken_one_shown_as_broken(
        launch: Any, own_templates: Any, language: str, race: str, broken: str,
        player: str) -> None:
    (own_templates / "race.yaml").write_text(PLACES, encoding="utf-8")
    (own_templates / "zz-oops.yaml").write_text(BROKEN, encoding="utf-8")
    ui = launch(language=language)
    ui.tap("home.game.pad")
    ui.tap("setup.template")
    assert ui.text("templates.race") == race
    assert ui.text("templates.7-wonders").startswith("7 Wonders")  # never hidden
    assert ui.text("templates.broken.0") == broken
    assert audited(ui, language) == []
    ui.tap("templates.broken.0")
    assert ui.dialog == "broken"
    assert "zz-oops.yaml:5: rounds.count:" in ui.text("broken.text")
    assert audited(ui, language) == []
    ui.tap("broken.ok")
    # a game of places: the table says who finished where, a tie shared
    ui.tap("setup.template")
    ui.tap("templates.race")
    ui.tap("setup.add")
    ui.tap("setup.start")
    ui.tap("play.standings")
    ui.tap("standings.end")
    assert ui.dialog == "places"
    assert audited(ui, language) == []
    ui.tap("places.2")
    ui.tap("places.same")
    ui.tap("places.0")
    assert ui.text("places.0") == f"1. {player} 1"
    assert ui.find("places.ok").disabled
    ui.tap("places.1")
    assert ui.text("places.1") == f"3. {player} 2"
    assert audited(ui, language) == []
    ui.screenshot(f"pad-places-{language}-800x480")
    ui.tap("places.ok")
    assert ui.screen == "pad_end"
    assert ui.text("end.title") == (f"{player} 3, {player} 1 " +
                                    ("gagnent" if language == "fr" else "win"))


def test_an_ad_hoc_pad_saved_as_the_table_s_own_template(launch: Any,
                                                         own_templates: Any) -> None:
    ui = launch()
    ui.tap("home.game.pad")
    ui.tap("setup.start")  # the ad-hoc pad, two taps from home
    enter(ui, "4")
    enter(ui, "6")
    ui.tap("play.standings")
    ui.tap("standings.save")
    assert ui.dialog == "keyboard"
    for letter in "PUB":
        ui.tap(f"keyboard.{letter}")
    ui.tap("keyboard.ok")
    assert ui.dialog == "saved", ui.text("error.text") if ui.dialog == "error" else ui.dialog
    assert ui.text("saved.text") == "“Pub” is now among the score sheets (pub.yaml)."
    assert audited(ui, "en") == []
    ui.tap("saved.ok")
    assert (own_templates / "pub.yaml").is_file()
    # the same name again: refused, said, nothing written over
    ui.tap("standings.save")
    for letter in "PUB":
        ui.tap(f"keyboard.{letter}")
    ui.tap("keyboard.ok")
    assert ui.dialog == "error"
    ui.tap("error.ok")
    # the next game offers it
    ui.tap("standings.back")
    ui.tap("play.home")
    ui.tap("home.game.pad")
    ui.tap("setup.template")
    assert ui.text("templates.pub") == "Pub\n1–12 players · highest wins"


DUEL = """id: duel
name: Duel
players: {min: 2, max: 2}
shape: rounds
win: highest
ties: chosen
instant_win: true
eliminate: true
"""


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_tie_the_table_settles_and_an_outright_win(launch: Any, own_templates: Any,
                                                     language: str) -> None:
    """`ties: chosen`: the table picks the winner among players still tied, asked at the
    end with its Undo; then, played again, an outright win from a player's menu."""
    (own_templates / "duel.yaml").write_text(DUEL, encoding="utf-8")
    ui = launch(language=language)
    ui.tap("home.game.pad")
    choose(ui, "duel")
    ui.tap("setup.start")
    enter(ui, "7")
    enter(ui, "7")
    ui.tap("play.standings")
    ui.tap("standings.end")
    assert ui.screen == "pad_end"
    assert ui.dialog == "choose"
    assert audited(ui, language) == []
    assert ui.find("choose.ok").disabled
    ui.tap("choose.undo")  # the end taken back from the question
    assert ui.screen == "pad_play" and ui.dialog is None
    ui.tap("play.standings")
    ui.tap("standings.end")
    ui.tap("choose.1")
    ui.tap("choose.ok")
    assert ui.dialog is None
    assert ui.app.session.state.settled == (1,)
    player = "Joueur" if language == "fr" else "Player"
    assert ui.text("end.name.0") == f"{player} 2"
    # the same players again: an outright win, from the player's menu on the sheet
    ui.tap("end.again")
    ui.tap("setup.start")
    enter(ui, "3")
    ui.tap("sheet.name.0")
    assert ui.dialog == "player"
    assert audited(ui, language) == []
    ui.tap("player.instant")
    assert ui.screen == "pad_end"
    assert ui.text("end.name.0") == f"{player} 1"
