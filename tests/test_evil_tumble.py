"""The tumble's decorative faces: every tick changes every die that can change, so a
frame is drawn at every tick while a roll is being saved (two ticks whose faces came
out as they were left 106 ms without a frame on a slow card)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.dice import draw, tumble_face

FACES = st.lists(st.sampled_from("ABCDEF"), min_size=1, max_size=8)


@given(FACES, st.integers(0, 2), st.integers(0, 10_000), st.integers(1, 60))
def test_a_tumbling_die_never_shows_the_same_face_twice_in_a_row(faces, index, seed, ticks):
    shown = None
    for tick in range(seed, seed + ticks):
        face = tumble_face(tick, index, faces, shown)
        assert face in faces
        if len(set(faces)) > 1:
            assert face != shown
        shown = face


def test_a_face_unlike_the_shown_one_is_the_drawn_one() -> None:
    faces = ["1", "2", "3", "4", "5", "6"]
    for tick in range(50):
        drawn = draw(tick, 0, faces)
        other = "6" if drawn != "6" else "5"
        assert tumble_face(tick, 0, faces, other) == drawn  # as a roll draws it
        assert tumble_face(tick, 0, faces, drawn) != drawn


def test_a_die_of_one_face_shows_it() -> None:
    assert tumble_face(3, 1, ["X", "X"], "X") == "X"
