"""The roster a page at a time (`roster.pages`), as the long lists read it: every
player once, in the order `roster.players` gives, active players before retired ones,
however the pages fall."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from companion.journal import Journal, fold_name
from companion.night import roster


def _journal(tmp: str, players: list[tuple[str, bool]]) -> Journal:
    journal = Journal(Path(tmp) / "journal.sqlite3")
    with journal.writing() as db:  # straight into the table, as a restore may leave it
        db.executemany("INSERT INTO players(name, folded, retired, created)"
                       " VALUES (?, ?, ?, 0)", [(n, fold_name(n), int(r)) for n, r in players])
    return journal


NAMES = st.text(st.sampled_from(["a", "B", "é", " ", "\x00", "\u202e", "z"]), max_size=6)


@given(players=st.lists(st.tuples(NAMES, st.booleans()), max_size=25,
                        unique_by=lambda p: fold_name(p[0])),
       size=st.integers(1, 7), include_retired=st.booleans())
def test_the_pages_hold_every_player_once_in_order(players: list[tuple[str, bool]], size: int,
                                                   include_retired: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        journal = _journal(tmp, players)
        pages = list(roster.pages(journal, include_retired=include_retired, size=size))
        everyone = roster.players(journal, include_retired=include_retired)
        expected = ([p for p in everyone if not p.retired] + [p for p in everyone if p.retired])
        assert [p.id for page in pages for p in page] == [p.id for p in expected]
        assert all(0 < len(page) <= size for page in pages)
        assert roster.count(journal) == len(players)
        journal.close()


def test_a_page_is_one_query_from_where_the_last_ended(tmp_path: Path) -> None:
    journal = _journal(str(tmp_path), [(f"Player {i:03d}", i % 10 == 9) for i in range(100)])
    pages = roster.pages(journal, include_retired=True, size=30)
    first = next(pages)  # read alone: what a list shows in the frame that opens it
    assert [p.name for p in first] == [f"Player {i:03d}" for i in range(40) if i % 10 != 9][:30]
    rest = list(pages)
    assert [len(page) for page in rest] == [30, 30, 10]  # 90 active, then the 10 retired
    assert all(p.retired for p in rest[-1])
    journal.close()
