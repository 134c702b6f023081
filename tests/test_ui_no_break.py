"""A label wraps between words, never before a colon, a question mark or a unit: no
drawn line starts with ": finir la partie ?" or with the "s" of "Bronstein 5 s"."""

from __future__ import annotations

import pytest

from ui.widgets.basics import Text

pytestmark = pytest.mark.ui

TEXTS = ["100 atteint par Anne, Bob et Chloé : finir la partie ?",
         "Toutes les catégories sont remplies : finir la partie ?",
         "Échecs 10 min, Bronstein 5 s, Fischer 3 min + 2 s",
         "« Faire revenir » annule ce retrait ; les parties sont gardées !"]


def drawn_lines(label: Text) -> list[str]:
    label.texture_update()
    return [" ".join(word.text for word in line.words).strip()
            for line in label._label._cached_lines]


@pytest.mark.parametrize("width", range(150, 420, 7))
def test_no_line_starts_with_a_mark_or_a_unit(window: None, width: int) -> None:
    for text in TEXTS:
        label = Text(text, size=18)
        label.text_size = (width, None)
        lines = drawn_lines(label)
        assert len(lines) >= 1
        for line in lines[1:]:
            assert not line.startswith((":", "?", "!", ";", "»", "s ", "s,", "min")), \
                (width, lines)
            assert line != "s", (width, lines)
        assert label.text == text  # the text kept is the one given
