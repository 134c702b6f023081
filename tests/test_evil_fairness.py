"""The app's dice are fair: chi-square at p = 0.001 over 60 000 rolls at a fixed seed."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

import pytest

from companion.dice import draw
from companion.games.evil.dice import DICE
from tests.helpers.evil import default_params

ROLLS = 60_000
SEED = 20_240_601
# upper critical values of the chi-square distribution at p = 0.001, by degrees of freedom
CRITICAL = {1: 10.828, 2: 13.816, 5: 20.515, 17: 40.790, 35: 66.619}


def chi_square(observed: Counter, expected: dict) -> float:
    assert set(observed) <= set(expected)
    return sum((observed[k] - e) ** 2 / e for k, e in expected.items())


def expected_counts(faces: list[str], n: int) -> dict[str, float]:
    """Each distinct face, weighted by how many sides carry it."""
    return {face: n * count / len(faces) for face, count in Counter(faces).items()}


@pytest.fixture(scope="module")
def rolls() -> list[tuple[str, str, str]]:
    """60 000 rolls, each die drawn with the counter the Roll command gives it."""
    dice = default_params()["dice"]
    return [tuple(draw(SEED, 3 * k + i, dice[die]) for i, die in enumerate(DICE))
            for k in range(ROLLS)]


@pytest.mark.slow
@pytest.mark.parametrize("index,die", list(enumerate(DICE)))
def test_each_die_is_fair(rolls, index, die):
    faces = default_params()["dice"][die]
    expected = expected_counts(faces, ROLLS)
    observed = Counter(roll[index] for roll in rolls)
    df = len(expected) - 1
    assert chi_square(observed, expected) < CRITICAL[df], (die, observed)


@pytest.mark.slow
def test_professor_and_colour_dice_are_independent(rolls):
    dice = default_params()["dice"]
    p, q = expected_counts(dice["professor"], 1), expected_counts(dice["colour"], 1)
    expected = {(a, b): ROLLS * p[a] * q[b] for a in p for b in q}
    observed = Counter((roll[0], roll[1]) for roll in rolls)
    assert chi_square(observed, expected) < CRITICAL[len(expected) - 1]


@pytest.mark.slow
def test_consecutive_rolls_are_independent(rolls):
    p = expected_counts(default_params()["dice"]["professor"], 1)
    expected = {(a, b): (ROLLS - 1) * p[a] * p[b] for a in p for b in p}
    observed = Counter((x[0], y[0]) for x, y in pairwise(rolls))
    assert chi_square(observed, expected) < CRITICAL[len(expected) - 1]


def test_the_statistic_catches_a_loaded_die():
    """The check can fail: one face drawn a bit more often than fair is caught."""
    faces = default_params()["dice"]["professor"]
    loaded = [*faces, "chevron3"]  # a seventh side: chevron3 at 2/7 instead of 1/6
    observed = Counter(draw(SEED, k, loaded) for k in range(ROLLS))
    assert chi_square(observed, expected_counts(faces, ROLLS)) > CRITICAL[5]
