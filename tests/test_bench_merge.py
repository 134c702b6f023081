"""The benchmarks' pooling of an app's processes (`bench.roll_ui.merge`): samples one
after another, counts added up, memory the largest."""

from __future__ import annotations

from bench.roll_ui import merge


def test_parts_pool_their_samples_and_add_their_counts() -> None:
    merged = merge([
        {"shown_s": [0.004, 0.006], "labels_wrong": 0, "journaled": 410, "rss_mib": 80.5,
         "hardware": True},
        {"shown_s": [0.009], "labels_wrong": 1, "journaled": 405, "rss_mib": 82.0,
         "hardware": True},
    ])
    assert merged["shown_s"] == [0.004, 0.006, 0.009]
    assert merged["labels_wrong"] == 1 and merged["journaled"] == 815
    assert merged["rss_mib"] == 82.0
    assert merged["hardware"] is True  # a flag is not a count


def test_one_part_is_itself() -> None:
    part = {"shown_s": [0.005], "labels_wrong": 0}
    assert merge([part]) == part
