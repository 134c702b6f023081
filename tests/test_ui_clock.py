"""The table clock through the real app under Xvfb, by simulated touches (and ROLL on
mock pins): a 4-player chess clock with a pause, an undo and a zero; a sand timer
flipped by ROLL; the LEDs it lights. Time is a fake monotonic clock the test moves
(`ui.screens.clock.moment.source`): what is checked never depends on the machine's
speed."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.kill_child import run_killed
from tests.uidriver import Driver

pytestmark = pytest.mark.ui

MINUS = "\u2212"


class FakeClock:
    """The monotonic clock in ms, moved by the test only."""

    def __init__(self, ms: int = 5_000_000) -> None:
        self.ms = ms

    def __call__(self) -> int:
        return self.ms


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeClock]:
    from ui.screens.clock import moment

    clock = FakeClock()
    monkeypatch.setattr(moment, "source", clock)
    yield clock
    # the app of this test stays Kivy's running app until the next one starts: its
    # clock screen stops looking (on the real clock it would journal a checkpoint)
    from kivy.app import App

    app = App.get_running_app()
    screen = app.root.built("clock_play") if app is not None and app.root else None
    if screen is not None:
        screen._stop_looking()


def later(ui: Driver, fake: FakeClock, ms: int) -> None:
    """Time passes: the screen looks at the clock (as its interval would)."""
    fake.ms += ms
    ui.app.root.get_screen("clock_play").look()
    ui.settle()
    ui.pump(2)


def journaled(ui: Driver) -> list[str]:
    return [type(s.command).__name__ for s in ui.app.session.steps]


def steps(ui: Driver) -> list[str]:
    """What the table did (the checkpoints a running clock journals left out)."""
    return [name for name in journaled(ui) if name != "Checkpoint"]


def bank(ui: Driver, seat: int) -> str:
    return str(ui.visible(f"play.seat.{seat}").figure)


def set_up(ui: Driver, preset: str, players: int, first: int | None = None) -> None:
    ui.tap("home.game.clock")
    assert ui.screen == "clock_setup"
    ui.tap("clocksetup.preset")
    ui.tap(f"clockpresets.{preset}")
    while ui.visible(f"setup.name.{players - 1}") is None:
        ui.tap("clocksetup.add")
    while ui.visible(f"setup.name.{players}") is not None:
        ui.tap(f"setup.remove.{players}")
    if first is not None:
        ui.tap(f"clocksetup.first.{first}")


TEXTS = {
    "en": {"player": "Player {n}", "paused": "Paused · pause {t}", "over": "Time is up: overtime",
           "status": "Chess clock · round 1"},
    "fr": {"player": "Joueur {n}", "paused": "En pause · pause {t}",
           "over": "Temps écoulé : dépassement", "status": "Pendule · manche 1"},
}


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_four_player_chess_clock_with_a_pause_an_undo_and_a_zero(
        launch: Any, fake: FakeClock, language: str) -> None:
    words = TEXTS[language]
    ui = launch(language=language)
    set_up(ui, "chess-5m-3s", 4, first=1)
    player = [ui.text(f"setup.name.{i}") for i in range(4)]
    assert player == [words["player"].format(n=i + 1) for i in range(4)]
    assert ui.text("clocksetup.note").endswith(player[1])
    ui.screenshot(f"clock-setup-{language}-800x480")
    ui.tap("clocksetup.start")
    assert ui.screen == "clock_play"
    assert steps(ui) == ["Start"]
    assert ui.app.session.state.last_at == fake.ms  # the tap's moment, read once
    assert ui.text("play.name") == player[1]
    assert ui.text("play.time") == "5:00"
    assert ui.text("play.status").startswith(words["status"])
    assert [bank(ui, i) for i in range(4)] == ["5:00"] * 4

    # 12.3 s later: shown from the state and the (fake) now, never from ticks counted
    later(ui, fake, 12_300)
    assert ui.text("play.time") == "4:48"  # 287.7 s left: every started second shows
    assert journaled(ui) == ["Start", "Checkpoint"]  # running 10 s: journaled
    ui.tap("play.area")  # one tap anywhere on the area ends the turn
    assert steps(ui) == ["Start", "Switch"]
    assert ui.text("play.name") == player[2]
    assert bank(ui, 1) == "4:51"  # 287.7 s + the 3 s increment, credited at the end
    ui.screenshot(f"clock-play-{language}-800x480")

    # a pause: charged to nobody, shown; a tap on the area meanwhile does nothing
    later(ui, fake, 20_000)
    ui.tap("play.pause")
    later(ui, fake, 65_000)
    assert ui.text("play.info") == words["paused"].format(t="1:05")
    assert ui.text("play.time") == "4:40"
    ui.screenshot(f"clock-paused-{language}-800x480")
    ui.tap("play.area")
    assert steps(ui) == ["Start", "Switch", "Pause"]
    ui.tap("play.pause")  # Resume
    later(ui, fake, 1_000)
    assert ui.text("play.time") == "4:39"  # the pause took nothing from Player 3

    # a wrong switch undone: every bank exactly as it was, the turn back with Player 3
    before = [bank(ui, i) for i in range(4)]
    ui.tap("play.area")
    assert ui.text("play.name") == player[3]
    assert bank(ui, 2) == "4:42"
    ui.tap("play.undo")
    assert ui.text("play.name") == player[2]
    assert [bank(ui, i) for i in range(4)] == before
    ui.tap("play.redo")
    assert ui.text("play.name") == player[3]
    ui.tap("play.undo")
    assert steps(ui) == ["Start", "Switch", "Pause", "Resume"]

    # a checkpoint after 10 s running: journaled, changes nothing shown
    later(ui, fake, 10_000)
    assert journaled(ui)[-1] == "Checkpoint"
    assert ui.text("play.time") == "4:29"

    # Player 3 runs out: the zero is journaled, overtime shows in red with a minus
    later(ui, fake, 268_500)  # 0.5 s left
    assert ui.text("play.time") == "0:01"
    later(ui, fake, 2_000)
    assert "Zero" in steps(ui)
    assert ui.text("play.time") == f"{MINUS}0:01"
    assert ui.text("play.info") == words["over"]
    assert ui.visible("play.area").fill == pytest.approx(__import__("ui.theme").theme.DANGER)
    ui.screenshot(f"clock-overtime-{language}-800x480")
    # a tap during the zero tune is answered "no", not a switch
    count = len(steps(ui))
    ui.tap("play.area")
    assert len(steps(ui)) == count
    later(ui, fake, 2_500)
    ui.tap("play.area")
    assert steps(ui)[-1] == "Switch"
    assert ui.text("play.name") == player[3]

    # time added to one seat
    ui.tap("play.adjust")
    ui.tap("clockadjust.seat.0")
    ui.tap("clockadjust.step.3")  # +1 min
    assert ui.text("clockadjust.bank").endswith("6:00")
    ui.tap("clockadjust.done")
    assert bank(ui, 0) == "6:00"

    # the end: per player times, turns, overtime
    ui.tap("play.close")
    ui.tap("clock_end.yes")
    assert ui.screen == "clock_end"
    assert ui.text("end.name.2") == player[2]
    assert ui.text("end.turns.1") == "1"
    assert ui.text("end.overtime.2") == "0:04"
    assert ui.text("end.overtime.0") == "0:00"
    ui.screenshot(f"clock-end-{language}-800x480")
    assert ui.app.journal.game(ui.app.session.game_id).finished


def test_a_sand_timer_flipped_by_roll_on_mock_pins(launch: Any, fake: FakeClock) -> None:
    ui = launch(hardware=True)
    ui.wait_until(lambda: ui.app.hardware is not None)
    set_up(ui, "sand-1m", 2)
    ui.tap("clocksetup.start")
    assert ui.screen == "clock_play"
    hardware = ui.app.hardware
    leds = hardware.section["clock_leds"]["pins"]

    def lit() -> set[int]:
        return {i for i, pin in enumerate(leds) if hardware.factory.pin(pin).state}

    assert ui.text("play.time") == "1:00"
    assert lit() == set(range(12))  # a full sand timer: the whole ring
    later(ui, fake, 40_000)
    assert ui.text("play.time") == "0:20"
    assert lit() == set(range(4))  # a third of the sand left: four twelfths
    assert hardware.panel_state()["clock"]["lit_all"] == [0, 1, 2, 3]
    ui.tap("play.pins")  # the simulated LEDs drawn as the pins are
    ui.wait_until(lambda: ui.app.root.current_screen.pin_panel.ring.lit == {0, 1, 2, 3})
    ui.screenshot("clock-sand-pins-800x480")
    ui.tap("play.pins")
    # ROLL, pressed on its mock pin (debounced as on the Pi), turns the timer over
    hardware.press("roll")
    # handed to the main loop and acted on; then its Flip made durable (the disk's
    # time, which settle waits for), not 5 s for both
    ui.wait_until(lambda: hardware.buttons.handled["roll"] == 1)
    ui.settle()
    ui.pump(2)
    assert steps(ui)[-1] == "Flip"
    assert ui.text("play.time") == "0:40"
    assert lit() == set(range(8))
    # the signal: green while safe; yellow (red and green) from 15 s; red from 5 s
    red, green = (hardware.factory.pin(hardware.section["treasure_leds"]["pins"][c])
                  for c in ("red", "green"))
    assert (bool(green.state), bool(red.state)) == (True, False)
    later(ui, fake, 30_000)
    assert (bool(green.state), bool(red.state)) == (True, True)
    later(ui, fake, 7_000)
    assert (bool(green.state), bool(red.state)) == (False, True)
    # the ring on loop:// shows the same clock
    assert hardware.ring.wait_acked(2.0)
    assert hardware.view.treasures == (("red", 1),)
    # the sand runs out: stopped, journaled; ROLL after the tune flips it again
    later(ui, fake, 4_000)
    assert steps(ui)[-1] == "Zero"
    later(ui, fake, 3_000)
    # a person's second press comes after the first one's bounce time
    ui.wait_until(lambda: hardware.buttons.quiet("roll"))
    hardware.press("roll")
    ui.wait_until(lambda: hardware.buttons.handled["roll"] == 2)
    ui.settle()
    ui.pump(2)
    assert steps(ui)[-1] == "Flip"
    assert ui.text("play.time") == "1:00"


@pytest.mark.parametrize("language", ["en", "fr"])
def test_killed_mid_turn_it_reopens_paused_with_the_banks_of_the_last_checkpoint(
        launch: Any, fake: FakeClock, tmp_path: Path, language: str) -> None:
    """`companion run` with a running chess clock, killed with SIGKILL mid-turn (after
    two checkpoints, a checkpoint a second): started again, the clock is paused, every
    bank as the last checkpoint journaled it, and the table is told that at most the
    checkpoint interval was charged to nobody."""
    from companion.games import rules_for
    from companion.games.clock import commands as c
    from companion.games.clock.presets import load_presets, setup_for
    from companion.journal import Journal
    from companion.session import Session
    from ui.screens.clock.figures import clock_text

    data = tmp_path / "data"
    data.mkdir()
    folder = tmp_path / "conf"
    (folder / "clock").mkdir(parents=True)
    (folder / "clock" / "quick.yaml").write_text("mode: bank\ntime: 5m\ncheckpoint: 1s\n",
                                                 encoding="utf-8")
    config = folder / "config.yaml"
    config.write_text(f"language: {language}\n", encoding="utf-8")
    preset = load_presets(config).get("quick")
    assert preset is not None and preset.params.checkpoint_ms == 1000
    path = data / "journal.sqlite3"
    journal = Journal(path)
    session = Session.start(rules_for("clock"), journal, setup_for(
        preset, [{"name": n} for n in ("Anne", "Bob", "Chloé")], seed=1, start=0))
    start = time.monotonic_ns() // 1_000_000
    session.dispatch(c.Start(at=start))
    session.dispatch(c.Switch(at=start + 7_000))  # Anne: 4:53; Bob's turn
    game_id = session.game_id
    journal.close()

    done = run_killed("clock_kill_child.py", tmp_path, str(data), str(config), "2")
    entries = int([line for line in done.stdout.splitlines()
                   if line.startswith("killing")][-1].split()[1])

    journal = Journal(path)
    assert len(journal.entries(game_id)) == entries  # nothing the table saw was lost
    killed = Session.resume(rules_for("clock"), journal, game_id)
    names = [type(s.command).__name__ for s in killed.steps]
    assert names[:4] == ["Start", "Switch", "Interrupted", "Resume"]
    assert names[4:] == ["Checkpoint"] * (len(names) - 4) and len(names) >= 6
    as_journaled = killed.state  # the banks as of the last checkpoint, still running
    assert as_journaled.status == "running" and as_journaled.active == 1
    journal.close()

    ui = launch(language=language, journal_file=path)
    assert ui.screen == "clock_play"
    ui.wait_until(lambda: ui.dialog == "clock_interrupted")
    text = ui.text("clock_interrupted.text")
    assert ("at most 1 second was charged to nobody" in text if language == "en" else
            "au plus 1 seconde n'a été comptée à personne" in text)
    state = ui.app.session.state
    assert state.status == "paused"
    assert [s.bank_ms for s in state.seats] == [s.bank_ms for s in as_journaled.seats]
    assert ui.text("play.name") == "Bob"
    assert ui.text("play.time") == clock_text(as_journaled.seats[1].bank_ms)
    assert bank(ui, 0) == "4:53"
    ui.screenshot(f"clock-reopened-{language}-800x480")
    # paused: time passing charges nobody; resumed, Bob's time runs from where it was
    later(ui, fake, 30_000)
    assert ui.text("play.time") == clock_text(as_journaled.seats[1].bank_ms)
    ui.tap("clock_interrupted.ok")
    ui.tap("play.pause")
    later(ui, fake, 2_000)
    assert ui.app.session.state.status == "running"
    assert ui.text("play.time") == clock_text(as_journaled.seats[1].bank_ms - 2_000)


def test_admin_time_is_charged_to_nobody_and_a_player_out_is_skipped(
        launch: Any, fake: FakeClock) -> None:
    ui = launch()
    set_up(ui, "chess-5m-3s", 3)
    ui.tap("clocksetup.start")
    later(ui, fake, 5_000)
    assert ui.text("play.time") == "4:55"
    ui.tap("play.admin")  # a rules look-up: the clock counts it apart
    assert ui.app.session.state.status == "admin"
    assert ui.text("play.admin") == "End admin"
    later(ui, fake, 120_000)
    assert ui.text("play.time") == "4:55"
    assert ui.text("play.info") == "Admin time · 2:00 so far"
    assert [bank(ui, i) for i in (1, 2)] == ["5:00", "5:00"]
    ui.tap("play.area")  # no switch during admin time: a "no" beep
    assert steps(ui)[-1] == "Admin"
    ui.tap("play.admin")
    later(ui, fake, 1_000)
    assert ui.text("play.time") == "4:54"
    assert ui.app.session.state.admin_ms == 120_000
    # Player 2 is out: the turn goes from Player 1 to Player 3
    ui.tap("play.adjust")
    ui.tap("clockadjust.seat.1")
    ui.tap("clockadjust.out")
    ui.tap("clockadjust.done")
    assert ui.visible("play.seat.1").figure == "out"
    ui.tap("play.area")
    assert ui.text("play.name") == "Player 3"


def test_a_zero_waits_for_the_open_dialog_and_only_the_active_seat_s_button_switches(
        launch: Any, fake: FakeClock) -> None:
    """The seat buttons on the ring's Pico arrive as the app's press `seat<n>`: the
    active seat's ends the turn, another seat's is refused with the "no" beep. A zero
    reached while a dialog is open is journaled once it is closed."""
    ui = launch(hardware=True)
    ui.wait_until(lambda: ui.app.hardware is not None)
    set_up(ui, "chess-5m-3s", 3)
    ui.tap("clocksetup.start")
    hardware = ui.app.hardware
    sounds: list[tuple[str, int | None]] = []
    play = hardware.sound
    hardware.sound = lambda kind, seat=None: (sounds.append((kind, seat)), play(kind, seat))
    later(ui, fake, 2_000)
    hardware.press_seat(2)  # not Player 1's button
    ui.wait_until(lambda: ("clock_no", None) in sounds)
    assert steps(ui) == ["Start"]
    hardware.press_seat(0)
    ui.wait_until(lambda: steps(ui) == ["Start", "Switch"])
    ui.settle()
    assert ui.app.session.steps[-1].command.seat == 0
    assert ("clock_turn", 1) in sounds  # Player 2's motif
    # the time dialog open while Player 2's bank runs out: the zero waits for it
    ui.tap("play.adjust")
    later(ui, fake, 301_000)
    assert "Zero" not in steps(ui)
    assert ui.text("play.time") == f"{MINUS}0:01"  # shown as it is all the same
    ui.tap("clockadjust.done")
    later(ui, fake, 0)
    assert steps(ui)[-1] == "Zero"
    assert ("clock_zero", None) in sounds


def test_the_turn_order_changed_mid_game(launch: Any, fake: FakeClock) -> None:
    ui = launch(language="fr")
    set_up(ui, "count-up", 3)
    ui.tap("clocksetup.start")
    later(ui, fake, 4_000)
    assert ui.text("play.time") == "0:04"  # a count-up counts the turn's time up
    ui.tap("play.adjust")
    assert ui.find("clockadjust.step.0").disabled  # no bank to add to in a count-up
    ui.tap("clockadjust.order")
    for seat in (0, 2, 1):
        ui.tap(f"clockorder.seat.{seat}")
    assert ui.dialog is None
    assert steps(ui)[-1] == "Reorder"
    ui.tap("play.area")
    assert ui.text("play.name") == "Joueur 3"
    ui.tap("play.undo")  # the switch
    ui.tap("play.undo")  # the order
    ui.tap("play.area")
    assert ui.text("play.name") == "Joueur 2"


def test_a_stalled_screen_and_a_wall_clock_jump_change_no_bank(
        launch: Any, fake: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """The screen not looking for 2 s (a stalled UI thread) gains or loses no time: the
    tap that ends the turn carries the moment it was read; the wall clock jumping by an
    hour changes nothing (only the monotonic clock counts)."""
    ui = launch()
    set_up(ui, "chess-5m-3s", 2)
    ui.tap("clocksetup.start")
    started = ui.app.session.state.last_at
    fake.ms += 2_000  # no look meanwhile
    wall = time.time
    monkeypatch.setattr(time, "time", lambda: wall() + 3600)
    ui.tap("play.area")
    switch = ui.app.session.steps[-1].command
    assert switch.at == started + 2_000
    assert ui.app.session.state.seats[0].bank_ms == 300_000 - 2_000 + 3_000
    assert bank(ui, 0) == "5:01"
    later(ui, fake, 1_000)
    assert ui.text("play.time") == "4:59"


def test_a_clock_beside_an_unfinished_score_pad_game(launch: Any, fake: FakeClock) -> None:
    """The clock set up beside a score pad game takes its players in seat order and
    records the game it runs beside (History adds the clock's times to that game)."""
    ui = launch()
    ui.tap("home.game.pad")
    ui.tap("setup.add")
    ui.tap("setup.start")
    assert ui.screen == "pad_play", ui.dialog
    pad_id = ui.app.session.game_id
    pad_players = ui.app.journal.game(pad_id).summary["players"]
    assert len(pad_players) == 3
    ui.tap("play.home")
    ui.tap("home.game.clock")
    assert ui.text("clocksetup.beside") == "Alone, no score pad"
    ui.tap("clocksetup.beside")
    assert ui.text("clocksetup.beside") == "With the score pad (3 players)"
    assert [ui.text(f"setup.name.{i}") for i in range(3)] == pad_players
    ui.screenshot("clock-setup-beside-pad-800x480")
    ui.tap("clocksetup.start")
    assert ui.screen == "clock_play"
    assert ui.app.session.state.pad_game == pad_id
    assert ui.app.journal.game(ui.app.session.game_id).summary["pad_game"] == pad_id


def test_a_stand_alone_clock_says_its_penalty_points_and_the_end_page_adds_them_up(
        launch: Any, fake: FakeClock) -> None:
    """Issue 46: "A stand-alone clock never says a penalty point was given ...; the end
    page has no penalty and no admin time." A turn timer of 1 min, a point per started
    30 s over: Player 1 ends a turn 31 s over."""
    ui = launch()
    set_up(ui, "turn-1m-penalty", 2, first=0)
    ui.tap("clocksetup.start")
    player = [p.name for p in ui.app.session.state.seats]
    later(ui, fake, 61_000)  # the zero, its tune
    later(ui, fake, 30_000)
    ui.tap("play.area")
    assert ui.text("play.name") == player[1]
    assert ui.text("play.info") == f"{player[0]}: 2 penalty points (2 in all)"
    later(ui, fake, 5_000)
    assert ui.text("play.info") == f"{player[0]}: 2 penalty points (2 in all)"
    later(ui, fake, 4_000)  # a while later: the tap hint again
    assert ui.text("play.info") != f"{player[0]}: 2 penalty points (2 in all)"
    ui.tap("play.admin")
    later(ui, fake, 42_000)
    ui.tap("play.admin")
    ui.tap("play.close")
    ui.tap("clock_end.yes")
    assert ui.screen == "clock_end"
    assert ui.text("end.head.penalty") == "Penalty"
    assert [ui.text(f"end.penalty.{i}") for i in range(2)] == ["2", "0"]
    assert ui.text("end.totals") == "Table time 2:22 · pauses 0:00 · admin time 0:42"
    ui.screenshot("clock-end-penalty-800x480")


def test_a_new_round_is_said_on_the_play_screen(launch: Any, fake: FakeClock) -> None:
    """Issue 46: the clock never said "that a new round began"; everyone passes."""
    ui = launch()
    set_up(ui, "count-up", 2, first=0)
    ui.tap("clocksetup.start")
    player = [p.name for p in ui.app.session.state.seats]
    later(ui, fake, 3_000)
    ui.tap("play.pass")
    later(ui, fake, 3_000)
    ui.tap("play.pass")
    assert ui.text("play.info") == f"Everyone passed: round 2, {player[1]} begins"
    assert ui.text("play.name") == player[1]
    ui.tap("play.undo")  # an undo says nothing of its own
    assert ui.text("play.info") != f"Everyone passed: round 2, {player[1]} begins"


def test_pause_resume_undone_twice_charges_the_pause_to_nobody(
        launch: Any, fake: FakeClock) -> None:
    """Issue 46: "4 players, chess clock: Pause, about 14 s, Resume, Undo twice: Player
    3 drops from 5:00 to 4:44 at once and the end page says "pauses 0:00"."""
    ui = launch()
    set_up(ui, "chess-5m-3s", 4, first=2)
    ui.tap("clocksetup.start")
    ui.tap("play.pause")
    later(ui, fake, 14_000)
    ui.tap("play.pause")  # Resume
    ui.tap("play.undo")
    ui.tap("play.undo")
    later(ui, fake, 100)
    assert ui.app.session.state.status == "running"
    assert bank(ui, 2) == "5:00"  # 0.1 s run since the undo: 4:59.9 shows 5:00
    ui.tap("play.close")
    ui.tap("clock_end.yes")
    assert ui.text("end.totals").endswith("pauses 0:14 · admin time 0:00")


def test_the_end_page_s_undo_charges_nobody_for_its_time(launch: Any, fake: FakeClock) -> None:
    """Ended by mistake, undone from the end page a minute later: nobody's minute."""
    ui = launch()
    set_up(ui, "chess-5m-3s", 2, first=0)
    ui.tap("clocksetup.start")
    later(ui, fake, 4_000)
    ui.tap("play.close")
    ui.tap("clock_end.yes")
    assert ui.screen == "clock_end"
    fake.ms += 60_000
    ui.tap("end.undo")
    assert ui.screen == "clock_play"
    later(ui, fake, 100)
    assert bank(ui, 0) == "4:56"
