"""Every Mr. Bond message has an English and a French text with the same placeholders."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from companion.i18n import LOCALES_DIR, Translator, load_catalog
from companion.messages import RuleError

BOND_SOURCES = Path(__file__).resolve().parents[1] / "companion" / "games" / "bond"


def bond_keys(language: str) -> dict[str, str]:
    return {k: v for k, v in load_catalog(language, LOCALES_DIR).items()
            if k.startswith("bond.")}


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_english_and_french_have_the_same_keys_and_placeholders():
    en, fr = bond_keys("en"), bond_keys("fr")
    assert en and set(en) == set(fr)
    for key in en:
        assert placeholders(en[key]) == placeholders(fr[key]), key


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_key_the_code_uses_is_in_the_catalog(language):
    used = set()
    for path in BOND_SOURCES.glob("*.py"):
        used |= set(re.findall(r'"(bond\.(?:error|config)\.[a-z_]+)"', path.read_text()))
    assert {"bond.error.no_lair", "bond.error.letter_reused", "bond.config.range"} <= used
    missing = used - set(bond_keys(language))
    assert not missing


def test_a_rule_error_reads_well_in_both_languages():
    error = RuleError("bond.error.letter_reused", letter="C")
    assert Translator("en").message(error.message) == (
        "C was already played on this spy: choose another letter.")
    assert Translator("fr").message(error.message) == (
        "C a déjà été jouée sur cet espion : choisissez une autre lettre.")
