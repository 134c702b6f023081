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

#: rule -> the tour's steps that meet it today in both languages at 800x480
MEETS_TODAY: dict[str, frozenset[str]] = {
    "text": frozenset((
        "bond_dialog_correct", "bond_dialog_end_confirm", "bond_dialog_escaped",
        "bond_dialog_lair", "bond_setup", "castor_dialog_complice",
        "castor_dialog_error", "castor_dialog_extra", "castor_dialog_keypad",
        "castor_dialog_leader", "castor_dialog_power", "castor_dialog_trumps",
        "castor_end", "dialog_keyboard", "dialog_roster", "dialog_roster_empty",
        "evil_dialog_adjust", "evil_dialog_error", "evil_dialog_place",
        "evil_dialog_power", "evil_dialog_treasure", "evil_end_defeat",
        "evil_end_victory", "evil_play", "evil_play_after_undo", "evil_play_rolled",
        "home", "home_resume", "home_resume_rows", "night_dialog_abandon",
        "night_dialog_colour", "night_dialog_restore", "night_dialog_retire",
        "night_roster", "night_roster_empty", "night_stats", "night_stats_charts",
        "night_stats_games", "tray_dialog_error", "tray_play", "tray_setup",
    )),
    "key figure": frozenset((
        "bond_dialog_correct", "bond_dialog_end_confirm", "bond_dialog_escaped",
        "bond_dialog_lair", "bond_setup", "castor_dialog_check",
        "castor_dialog_complice", "castor_dialog_error", "castor_dialog_extra",
        "castor_dialog_keypad", "castor_dialog_leader", "castor_dialog_power",
        "castor_dialog_trumps", "castor_setup", "castor_sheet", "castor_tricks",
        "castor_tricks_played", "dialog_keyboard", "dialog_roster",
        "dialog_roster_empty", "evil_dialog_adjust", "evil_dialog_enter_roll",
        "evil_dialog_error", "evil_dialog_place", "evil_dialog_power",
        "evil_dialog_treasure", "evil_end_defeat", "evil_end_victory", "evil_setup",
        "evil_setup_players", "home", "home_resume", "home_resume_rows",
        "night_dialog_abandon", "night_dialog_colour", "night_dialog_restore",
        "night_dialog_retire", "night_export", "night_history", "night_log",
        "night_roster", "night_roster_empty", "night_settings", "night_stats",
        "night_stats_charts", "night_stats_games", "tray_dialog_error", "tray_play",
        "tray_setup",
    )),
    "touch target": frozenset(step.name for step in screen_tour.steps()) - {"castor_play_round"},
    "contrast": frozenset((
        "bond_dialog_capture", "bond_dialog_correct", "bond_dialog_end_confirm",
        "bond_dialog_escaped", "bond_dialog_lair", "bond_play", "bond_play_scored",
        "bond_setup", "castor_dialog_check", "castor_dialog_complice",
        "castor_dialog_error", "castor_dialog_extra", "castor_dialog_keypad",
        "castor_dialog_leader", "castor_dialog_power", "castor_dialog_trumps",
        "castor_play", "castor_play_round", "castor_setup", "castor_tricks",
        "castor_tricks_played", "dialog_keyboard", "dialog_roster",
        "dialog_roster_empty", "evil_dialog_adjust", "evil_dialog_enter_roll",
        "evil_dialog_error", "evil_dialog_place", "evil_dialog_power",
        "evil_dialog_treasure", "evil_setup", "evil_setup_players", "home",
        "home_resume", "home_resume_rows", "night_dialog_abandon",
        "night_dialog_colour", "night_dialog_restore", "night_dialog_retire",
        "night_export", "night_history", "night_log", "night_roster",
        "night_roster_empty", "night_settings", "night_stats", "night_stats_charts",
        "night_stats_games", "tray_dialog_error", "tray_setup",
    )),
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


def test_the_kept_screens_are_steps_of_the_tour() -> None:
    names = {step.name for step in screen_tour.steps()}
    for rule, kept in MEETS_TODAY.items():
        assert kept <= names, (rule, sorted(kept - names))


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
