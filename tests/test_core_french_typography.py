"""French as the table reads it: "d'Hélène", not "de Hélène" (one rule, in the
translation layer, for every name after "de", "que" or "le"); a colon, a question mark
or a unit never starts a line (no-break spaces);"""

from __future__ import annotations

import pytest

from companion.i18n import Translator, elide, no_break

NBSP = "\u00a0"


@pytest.mark.parametrize(("name", "expected"), [
    ("Hélène", "Le repaire d'Hélène grandit"),
    ("Anne", "Le repaire d'Anne grandit"),
    ("Émile", "Le repaire d'Émile grandit"),
    ("Bob", "Le repaire de Bob grandit"),
    ("Yannick", "Le repaire de Yannick grandit"),  # a y that is a consonant
])
def test_a_name_after_de_is_elided_before_a_vowel_or_a_mute_h(name, expected) -> None:
    text = Translator("fr")("bond.say.lair_card", player=name, value=3, size=4)
    assert text.startswith(expected)


def test_the_elision_keeps_the_capital_and_applies_to_que_and_le() -> None:
    assert elide("De {player} : {n}", {"player": "Ida", "n": 2}) == "D'{player} : {n}"
    assert elide("plus que {player}", {"player": "Hugo"}) == "plus qu'{player}"
    assert elide("le {value}", {"value": "11"}) == "le {value}"  # "le 11": no elision
    assert elide("de {low}", {"low": 8}) == "de {low}"


def test_english_is_not_elided() -> None:
    text = Translator("en")("bond.say.lair_card", player="Anne", value=3, size=4)
    assert "Anne" in text and "d'" not in text


def test_a_colon_a_question_mark_and_a_unit_hold_to_the_word_before() -> None:
    text = no_break(Translator("fr")("pad.head.reached", score=100, players="Anne"))
    assert text == f"100 atteint par Anne{NBSP}: finir la partie{NBSP}?"
    assert no_break("Échecs 10 min, Bronstein 5 s") == f"Échecs 10{NBSP}min, Bronstein 5{NBSP}s"
    assert no_break("« Faire revenir »") == f"«{NBSP}Faire revenir{NBSP}»"
    assert no_break("5 seats, 3 sets") == "5 seats, 3 sets"  # a count, not a unit
