"""Statistics against a hand-computed night: ties, co-operative games, a retired player,
an undone kill, an abandoned and an unfinished game; charts; the facts cache."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.bond import commands as bc
from companion.journal import Journal
from companion.messages import RuleError
from companion.night import history, roster, stats
from tests.test_night_support import bond, castor, evil, open_journal, sheet, start

WIN2 = sheet([10, 5], [1, 2], [0, 3])  # 2 players: 18 / -3, the first takes the medal
TIE3 = sheet([5, 5, 0], [1, 1, 2], [0, 0, 3])  # 3 players: 13 / 13 / -8, two medals


@pytest.fixture
def night(tmp_path: Path) -> tuple[Journal, dict[str, int]]:
    j = open_journal(tmp_path)
    ids = {name: roster.add(j, name).id for name in ("Ann", "Bob", "Cy", "Dee")}
    a, b, c, d = ids["Ann"], ids["Bob"], ids["Cy"], ids["Dee"]
    castor(j, [a, b], [WIN2, WIN2], day=0)
    castor(j, [a, b, c], [TIE3, TIE3], day=1)
    evil(j, [a, b, c], won=True, difficulty="expert", day=2)
    evil(j, [a, d], won=False, day=3)
    bond(j, [b, c, d], [(0, 3), (1, 4), (0, 1)], day=4)
    bond(j, [a, b], [(0, 2), (1, 4)], undo_last=True, day=5)
    abandoned = castor(j, [a, b], [WIN2], day=6)
    history.abandon(j, abandoned)
    ids["open"] = bond(j, [c, d], [], end=False, day=7)
    roster.retire(j, d)
    return j, ids


def test_players_hand_computed(night: tuple[Journal, dict[str, int]]) -> None:
    j, ids = night
    s = stats.statistics(j)
    ann, bob, cy, dee = (s.player(ids[n]) for n in ("Ann", "Bob", "Cy", "Dee"))
    # Ann: W W W L W
    assert (ann.overall.games, ann.overall.wins) == (5, 4)
    assert ann.overall.win_rate == pytest.approx(0.8)
    assert (ann.overall.longest_streak, ann.overall.current_streak) == (3, 1)
    c = ann.by_kind["castor"]
    assert (c.games, c.wins, c.best_score, c.average_score, c.medals) == (2, 2, 36, 31.0, 4)
    e = ann.by_kind["evil"]
    assert (e.games, e.wins, e.coop) == (2, 1, {"expert": (1, 0), "": (0, 1)})
    b = ann.by_kind["bond"]
    assert (b.games, b.wins, b.best_score, b.best_kill) == (1, 1, 2, 2)
    # Bob: L W W W L; the kill of 4 he made was undone
    assert (bob.overall.games, bob.overall.wins) == (5, 3)
    assert (bob.overall.longest_streak, bob.overall.current_streak) == (3, 0)
    assert bob.by_kind["castor"].average_score == 10.0
    assert bob.by_kind["castor"].medals == 2
    assert (bob.by_kind["bond"].best_kill, bob.by_kind["bond"].average_score) == (3, 2.0)
    # Cy: L W W
    assert (cy.overall.games, cy.overall.wins) == (3, 2)
    assert (cy.overall.longest_streak, cy.overall.current_streak) == (2, 2)
    assert cy.by_kind["castor"].best_score == -16
    assert cy.by_kind["bond"].best_kill == 4
    # Dee, retired: L L, never killed
    assert dee.player.retired
    assert (dee.overall.games, dee.overall.wins, dee.overall.win_rate) == (2, 0, 0.0)
    assert dee.by_kind["bond"].best_kill is None
    assert dee.by_kind["bond"].best_score == 0


def test_kinds_hand_computed(night: tuple[Journal, dict[str, int]]) -> None:
    j, ids = night
    k = stats.statistics(j).kinds
    castor_, evil_, bond_ = k["castor"], k["evil"], k["bond"]
    assert (castor_.games, castor_.abandoned, castor_.unfinished) == (2, 1, 0)
    assert (castor_.shared_victories, castor_.medals) == (1, 6)
    assert castor_.best_score == (36, (ids["Ann"],))
    assert castor_.wins == {ids["Ann"]: 2, ids["Bob"]: 1}
    assert castor_.average_minutes == pytest.approx(45)
    assert (evil_.games, evil_.coop) == (2, {"expert": (1, 0), "": (0, 1)})
    # co-operative: the table's record is treasures, not wins per player; one game
    # recovered its red treasure, the other lost it
    assert (evil_.recovered, evil_.lost) == (1, 1)
    assert (bond_.games, bond_.unfinished, bond_.shared_victories) == (2, 1, 1)
    assert bond_.best_kill == (4, (ids["Cy"],))
    assert bond_.best_score == (4, (ids["Bob"], ids["Cy"]))
    assert bond_.average_minutes == pytest.approx(20)


def test_players_never_seen_have_empty_records(tmp_path: Path) -> None:
    j = open_journal(tmp_path)
    pid = roster.add(j, "Solo").id
    record = stats.statistics(j).player(pid)
    assert (record.overall.games, record.overall.win_rate, record.by_kind) == (0, None, {})
    with pytest.raises(RuleError):
        stats.statistics(j).player(pid + 1)


def test_bars(night: tuple[Journal, dict[str, int]]) -> None:
    j, _ = night
    s = stats.statistics(j)
    overall = {bar.name: (bar.games, bar.wins) for bar in stats.bars(s)}
    assert overall == {"Ann": (5, 4), "Bob": (5, 3), "Cy": (3, 2), "Dee": (2, 0)}
    evil_bars = {bar.name: (bar.games, bar.wins) for bar in stats.bars(s, "evil")}
    assert evil_bars == {"Ann": (2, 1), "Bob": (1, 1), "Cy": (1, 1), "Dee": (1, 0)}


def test_score_lines(tmp_path: Path) -> None:
    j = open_journal(tmp_path)
    a, b, c = (roster.add(j, n).id for n in ("Ann", "Bob", "Cy"))
    gid = castor(j, [a, b, c], [TIE3, TIE3])
    line = stats.score_lines(j, gid)
    assert line.points == ((0, 13, 26), (0, 13, 26), (0, -8, -16))
    assert line.player_ids == (a, b, c)
    gid = bond(j, [a, b], [(0, 2), (1, 4), (0, 3)], undo_last=True)
    # Ann kills 2, Bob kills 4, Ann's kill of 3 is undone: it leaves no point on the line
    assert stats.score_lines(j, gid).points == ((0, 2, 2), (0, 0, 4))
    gid = evil(j, [a, b], won=True)
    with pytest.raises(RuleError):
        stats.score_lines(j, gid)


def test_cache_follows_changes(night: tuple[Journal, dict[str, int]]) -> None:
    j, ids = night
    before = stats.statistics(j).player(ids["Cy"]).overall
    assert j.read("SELECT COUNT(*) FROM game_facts")[0][0] == 8
    session = history.resume(j, ids["open"])
    session.dispatch(bc.AddLairCard(0, 4))
    session.dispatch(bc.Attack(0, (2,)))
    session.dispatch(bc.Kill())
    session.dispatch(bc.EndGame())
    after = stats.statistics(j).player(ids["Cy"]).overall
    assert (after.games, after.wins, after.current_streak) == (
        before.games + 1, before.wins + 1, 3)


def test_cached_and_fresh_statistics_agree(night: tuple[Journal, dict[str, int]]) -> None:
    j, _ = night
    cached = stats.statistics(j)
    with j.writing() as db:
        db.execute("UPDATE game_facts SET stamp = 'stale'")
    fresh = stats.statistics(j)
    assert cached == fresh


def test_tied_winners_each_get_a_win_and_keep_streaks(tmp_path: Path) -> None:
    j = open_journal(tmp_path)
    a, b = roster.add(j, "Ann").id, roster.add(j, "Bob").id
    session = start(j, "bond", [a, b])
    session.dispatch(bc.EndGame())  # 0 - 0: both win
    s = stats.statistics(j)
    assert s.player(a).overall.wins == s.player(b).overall.wins == 1
    assert s.kinds["bond"].shared_victories == 1


# -- placeholder seats: guests, never roster players -----------------------------------
def _unnamed_bond(j: Journal, names: list[str]) -> int:
    from companion.games import rules_for
    from companion.session import Session
    from tests.test_night_support import params

    setup = {"params": params("bond"), "players": [{"name": n} for n in names]}
    session = Session.start(rules_for("bond"), j, setup)
    session.dispatch(bc.EndGame())
    return session.game_id


def test_placeholder_names_in_both_languages() -> None:
    from companion.night.facts import is_placeholder

    assert all(is_placeholder(n) for n in ("Player 1", "Joueur 2", " player  12 "))
    assert not any(is_placeholder(n) for n in ("Anne", "Player", "Player One", "Joueuse 1"))


def test_opening_history_or_statistics_adds_no_placeholder_to_the_roster(
        tmp_path: Path) -> None:
    j = open_journal(tmp_path)
    ann = roster.add(j, "Ann").id
    _unnamed_bond(j, ["Ann", "Player 2", "Player 3"])
    _unnamed_bond(j, ["Joueur 1", "Joueur 2"])
    history.games(j)
    s = stats.statistics(j)
    assert [p.name for p in roster.players(j, include_retired=True)] == ["Ann"]
    assert [p.player.id for p in s.players] == [ann]
    assert [b.name for b in s.bars] == ["Ann"]
    # the games are still there, their unnamed seats are guests
    assert len(history.games(j)) == 2
    assert s.kinds["bond"].games == 2


def test_placeholders_an_older_version_put_in_the_roster_are_taken_out(
        tmp_path: Path) -> None:
    j = open_journal(tmp_path)
    bea = roster.add(j, "Bea").id
    picked = roster.add(j, "Player 9").id  # typed by hand and picked at a setup: a person
    start(j, "bond", [picked, bea]).dispatch(bc.EndGame())
    gid = _unnamed_bond(j, ["Bea", "Player 2"])
    started = j.game(gid).started
    # what the linking by name used to do: the placeholder became a player dated from
    # the game's start, linked to the seat
    with j.writing() as db:
        cursor = db.execute("INSERT INTO players(name, folded, created) VALUES (?, ?, ?)",
                            ("Player 2", "player 2", started))
        db.execute("INSERT INTO game_players(game_id, seat, player_id) VALUES (?, 0, ?)",
                   (gid, bea))
        db.execute("INSERT INTO game_players(game_id, seat, player_id) VALUES (?, 1, ?)",
                   (gid, cursor.lastrowid))
    s = stats.statistics(j)
    assert sorted(p.name for p in roster.players(j, include_retired=True)) == [
        "Bea", "Player 9"]
    assert sorted(p.player.name for p in s.players) == ["Bea", "Player 9"]
    assert s.player(bea).overall.games == 2
    seats = history.game(j, gid).seats
    assert [(seat.name, seat.player_id) for seat in seats] == [("Bea", bea), ("Player 2", None)]
