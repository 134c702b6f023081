"""Every screen and dialog of the tour (tests/screen_tour.py) at 800x480, in English and
French, audited as the table reads it (tests/screen_audit.py).

Raw translation keys, English in French and text that does not fit its box fail on
every screen. Text size, key figures, touch targets and contrast fail on the screens
that meet them today (`MEETS_TODAY`): a regression there fails, and a screen that is
brought up to the rule joins the list. `make screenshots` writes every finding of every
screen to test-artifacts/screens/audit.txt.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests import screen_audit, screen_tour

pytestmark = pytest.mark.ui

LANGUAGES = ("en", "fr")

#: every step of the tour
EVERY_STEP = frozenset(step.name for step in screen_tour.steps())

#: rule -> the tour's steps that meet it today in both languages at 800x480
MEETS_TODAY: dict[str, frozenset[str]] = {
    "text": EVERY_STEP,
    "touch target": EVERY_STEP,
    "contrast": EVERY_STEP,
    "key figure": EVERY_STEP,
    "acted-on text": EVERY_STEP,
    "moved": EVERY_STEP,
    "overlaps": EVERY_STEP,
}


@pytest.fixture(scope="module")
def tour(window: None) -> Iterator[dict[str, Any]]:
    """The tour once per language: its failures and its findings."""
    runs = {}
    for language in LANGUAGES:
        auditor = screen_audit.Auditor(language)
        result = screen_tour.run(language, "800x480", out=None, capture=auditor)
        runs[language] = (result, auditor.violations)
    yield runs


def findings(tour: dict[str, Any], *kinds: str) -> list[str]:
    return [f"{language}/{v.screen}/{v.widget}/{v.what}"
            for language, (_result, violations) in tour.items()
            for v in violations if v.what.startswith(kinds)]


def test_every_step_of_the_tour_shows_what_it_names(tour: dict[str, Any]) -> None:
    failed = [f"{language}/{f.step}: {f.reason}"
              for language, (result, _v) in tour.items() for f in result.failures]
    assert not failed, "\n".join(failed)
    for language, (result, _v) in tour.items():
        assert len(set(result.pictures)) >= 40, language


def test_no_raw_translation_key_and_no_english_in_french(tour: dict[str, Any]) -> None:
    found = findings(tour, "raw translation key", "English in French")
    assert not found, "\n".join(found)


def test_every_label_fits_its_box(tour: dict[str, Any]) -> None:
    found = findings(tour, "does not fit")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("rule", sorted(MEETS_TODAY))
def test_screens_that_meet_a_rule_today_still_do(tour: dict[str, Any], rule: str) -> None:
    kept = MEETS_TODAY[rule]
    broken = [line for line in findings(tour, f"{rule} ")
              if line.split("/")[1] in kept]
    assert not broken, "\n".join(broken)


def test_each_game_is_killed_with_sigkill_and_reopened_in_the_tour() -> None:
    """Issue 29: "each game after a kill -9": a step of each game kills `companion run`
    with SIGKILL and starts the app again (`screen_tour.killed`, which fails the step
    unless the child died of SIGKILL and the same screen, dialog and texts came back)."""
    killing = {step.name for step in screen_tour.steps()
               if any(getattr(action, "kills", False) for action in step.do)}
    for game in ("evil", "castor", "bond"):
        assert any(name.startswith(f"{game}_") for name in killing), (game, killing)
    assert "bond_dialog_capture_after_kill" in killing  # a dialog open, mid-turn


def test_the_kept_screens_are_steps_of_the_tour() -> None:
    for rule, kept in MEETS_TODAY.items():
        assert kept <= EVERY_STEP, (rule, sorted(kept - EVERY_STEP))


def test_the_audit_sees_what_it_must() -> None:
    """The rules' arithmetic: WCAG's worked values and the key patterns."""
    assert screen_audit.contrast((1, 1, 1), (0, 0, 0)) == pytest.approx(21)
    assert screen_audit.contrast((0.5, 0.5, 0.5), (0.5, 0.5, 0.5)) == pytest.approx(1)
    # white on the theme's green is the "white on colour" case: under 4.5
    assert screen_audit.contrast((0.96, 0.96, 0.96), (0.24, 0.70, 0.36)) < 4.5
    assert screen_audit.raw_key("core.ui.ok", "en") == "core.ui.ok"
    assert screen_audit.raw_key("Difficulty: first_games", "en") == "first_games"
    assert screen_audit.raw_key("Saved: /tmp/a_b/journal.csv", "en") == ""
    assert screen_audit.raw_key("Undo", "en") == ""
    assert "first" in [w.lower() for w in screen_audit.english_words("Premières first")]
    assert screen_audit.english_words("Sauvegarde : /x/journal-backup-1.zip") == []


@pytest.mark.parametrize("size", ["1280x800", "1280x720"])
def test_the_new_treasure_dialog_hides_no_tile_on_larger_screens(window: None,
                                                                  size: str) -> None:
    """Its button rows grow with the window as its buttons do: Close once covered the
    last row of minute tiles at 1280x800. Every button lies inside the dialog's body,
    none covers another, none is cut (Pr. Evil's journey, up to that dialog)."""
    from kivy.core.window import Window
    from kivy.uix.behaviors import ButtonBehavior

    auditor = screen_audit.Auditor("en")
    outside: list[str] = []

    def capture(ui: Any, step: Any) -> None:
        auditor(ui, step)
        if step.name != "evil_dialog_place":
            return
        body = ui.app.dialog.box
        bx0, by0, bx1, by1 = screen_audit._box(body)
        for widget in body.walk(restrict=True):
            if isinstance(widget, ButtonBehavior):
                x0, y0, x1, y1 = screen_audit._box(widget)
                if x0 < bx0 - 1 or y0 < by0 - 1 or x1 > bx1 + 1 or y1 > by1 + 1:
                    outside.append(str(getattr(widget, "tid", widget)))

    steps = [step.name for step in screen_tour.EVIL.steps]
    journey = screen_tour.Journey("evil", screen_tour.EVIL.steps[
        :steps.index("evil_dialog_place") + 1])
    try:
        result = screen_tour.run("en", size, out=None, capture=capture, journeys=[journey])
    finally:
        Window.size = (800, 480)
    assert not result.failures
    assert "evil_dialog_place" in result.pictures
    found = [f"{v.widget}/{v.what}" for v in auditor.violations
             if v.screen == "evil_dialog_place" and v.what.startswith(("touch", "does not"))]
    assert not found, "\n".join(found)
    assert not outside, f"buttons outside the dialog's body: {outside}"


def test_the_audit_sees_controls_drawn_over_each_other_and_over_the_header(
        window: None) -> None:
    """Two buttons laid over each other, and a button over a header: each is found,
    while a button inside another and two buttons side by side are not."""
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.floatlayout import FloatLayout
    from kivy.uix.widget import Widget

    from ui.widgets.basics import Tap

    root = FloatLayout(size=(800, 480))
    bar = BoxLayout(size_hint=(None, None), pos=(0, 424), size=(800, 56))
    bar.back_button = Tap("Back", tid="back")  # as `components.header` marks its bar
    bar.add_widget(bar.back_button)
    bar.add_widget(Widget())
    root.add_widget(bar)
    places = {"a": (10, 100), "b": (60, 120), "c": (300, 100), "d": (420, 100),
              "e": (600, 400)}
    taps = {tid: Tap(tid, tid=tid, size_hint=(None, None), pos=pos, width=110, height=60)
            for tid, pos in places.items()}
    for tap in taps.values():
        root.add_widget(tap)
    taps["c"].add_widget(Tap("f", tid="f", size_hint=(None, None), pos=(310, 110),
                             width=60, height=48))
    found = {f"{v.widget} {v.what.split(' by ')[0]}"
             for v in screen_audit.overlaps(root, "made")}
    assert found == {"a overlaps b", "e overlaps the header"}


@pytest.mark.parametrize("size", ["800x480", "1280x720"])
def test_the_clock_set_up_for_eight_has_no_control_over_another(window: None,
                                                                 size: str) -> None:
    """Issue 46: at 1280x720 (Touch Display 2 turned) the set-up's seat rows were drawn
    over each other and over the header, its Add over seat 2's colour."""
    from kivy.core.window import Window

    auditor = screen_audit.Auditor("en")
    steps = [step.name for step in screen_tour.CLOCK.steps]
    journey = screen_tour.Journey("clock", screen_tour.CLOCK.steps[
        :steps.index("clock_setup_eight") + 1])
    try:
        result = screen_tour.run("en", size, out=None, capture=auditor, journeys=[journey])
    finally:
        Window.size = (800, 480)
    assert not result.failures
    assert "clock_setup_eight" in result.pictures
    found = [f"{v.screen}/{v.widget}/{v.what}" for v in auditor.violations
             if v.screen.startswith("clock_setup")
             and v.what.startswith(("overlaps", "touch", "does not"))]
    assert not found, "\n".join(found)
