"""Game night for the score pad and the clock: History, the log and the statistics of
score pad games worked out by hand (7 Wonders with its tie-breaker and a shared
victory, lowest wins, co-op, an instant win over points, an eliminated player), a clock
beside a score pad game, and a property test: a lowest-wins statistic never counts the
highest scorer, and every tied winner is counted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.pad import commands as pc
from companion.games.pad.rules import RULES
from companion.i18n import Translator
from companion.journal import Journal
from companion.night import facts as night_facts
from companion.night import history, roster, stats
from companion.night.roster import RosterPlayer
from tests.pad_helpers import setup as pad_setup
from tests.pad_helpers import template as pad_template
from tests.test_night_support import clock, open_journal, pad

WONDERS = ("military", "coins", "wonder", "civilian", "commerce", "guilds", "gear",
           "tablet", "compass")
# Ann: 5 + 7 coins (2) + 3 + 10 + 2 + 4 + science 2,1,1 (4+1+1+7 = 13) = 39
ANN = (5, 7, 3, 10, 2, 4, 2, 1, 1)
# Bob: 3 + 9 coins (3) + 5 + 12 + 0 + 6 + science 0,2,0 (4) = 33
BOB = (3, 9, 5, 12, 0, 6, 0, 2, 0)
# Cy: -1 + 4 coins (1) + 7 + 20 + 3 + 0 + science 3,0,0 (9) = 39: tied with Ann, fewer coins
CY = (-1, 4, 7, 20, 3, 0, 3, 0, 0)
ZERO = (0,) * 9


def wonders(*sheets: tuple[int, ...]) -> list[Any]:
    return [*(pc.SetCell(seat, None, cat, str(v)) for seat, sheet in enumerate(sheets)
              for cat, v in zip(WONDERS, sheet, strict=True)), pc.End()]


def rounds(*rows: tuple[int, ...], end: bool = True) -> list[Any]:
    out: list[Any] = [pc.SetCell(seat, r, None, str(v)) for r, row in enumerate(rows)
                      for seat, v in enumerate(row)]
    return out + ([pc.End()] if end else [])


@pytest.fixture
def night(tmp_path: Path) -> tuple[Journal, dict[str, int]]:
    j = open_journal(tmp_path)
    ids = {name: roster.add(j, name).id for name in ("Ann", "Bob", "Cy")}
    abc = [ids["Ann"], ids["Bob"], ids["Cy"]]
    ids["w1"] = pad(j, abc, "7-wonders", wonders(ANN, BOB, CY), day=0)
    ids["w2"] = pad(j, abc, "7-wonders", wonders(ANN, ANN, ZERO), day=1)
    # lowest wins: Ann 3 (5 corrected to 3), Bob 9, Cy 5; then Ann 10, Bob 4, Cy 4
    ids["l1"] = pad(j, abc, "rounds-lowest",
                    [*rounds((5, 9, 5), end=False), pc.SetCell(0, 0, None, "3"), pc.End()],
                    day=2)
    ids["l2"] = pad(j, abc, "rounds-lowest", rounds((6, 1, 3), (4, 3, 1)), day=3)
    ids["c1"] = pad(j, abc, "coop", [pc.CoopOutcome(True)], day=4)
    ids["c2"] = pad(j, abc, "coop", [pc.CoopOutcome(False)], day=5)
    duel = {**pad_template("rounds-highest"), "id": "duel", "name": "Duel",
            "instant_win": True, "eliminate": True, "bgg_id": 173346}
    ids["i1"] = pad(j, abc, duel, [*rounds((10, 20, 5), end=False), pc.Eliminate(2),
                                   pc.InstantWin((0,), "science")], day=6)
    ids["open"] = pad(j, abc, "rounds-highest", rounds((1, 2, 3), end=False), day=7)
    return j, ids


def _line(j: Journal, game_id: int) -> history.GameLine:
    return history.game(j, game_id)


def test_history_tie_breaker_and_shared(night: tuple[Journal, dict[str, int]]) -> None:
    j, ids = night
    w1, w2 = _line(j, ids["w1"]), _line(j, ids["w2"])
    assert (w1.kind, w1.template, w1.template_name, w1.win) == (
        "pad", "7-wonders", {"": "7 Wonders"}, "highest")
    assert [(s.name, s.score, s.rank, s.winner) for s in w1.seats] == [
        ("Ann", 39, 1, True), ("Bob", 33, 3, False), ("Cy", 39, 2, False)]  # coins 7 > 4
    assert w1.winners == ("Ann",)
    assert [(s.score, s.rank, s.winner) for s in w2.seats] == [
        (39, 1, True), (39, 1, True), (0, 3, False)]  # the same coins: shared
    assert w2.winners == ("Ann", "Bob") and w1.bgg_id == 68448


def test_history_lowest_coop_instant_eliminated(night: tuple[Journal, dict[str, int]]
                                                ) -> None:
    j, ids = night
    l2 = _line(j, ids["l2"])
    assert [(s.score, s.rank, s.winner) for s in l2.seats] == [
        (10, 3, False), (4, 1, True), (4, 1, True)]
    assert (_line(j, ids["c1"]).outcome, _line(j, ids["c2"]).outcome) == ("won", "lost")
    assert _line(j, ids["c1"]).winners == ("Ann", "Bob", "Cy")
    assert _line(j, ids["c2"]).winners == ()
    i1 = _line(j, ids["i1"])
    # an instant win overrides points: Ann wins with 10 against Bob's 20
    assert i1.instant and i1.winners == ("Ann",)
    assert [(s.score, s.rank, s.out) for s in i1.seats] == [
        (10, 1, None), (20, 2, None), (5, None, "eliminated")]
    still = _line(j, ids["open"])
    assert still.status == "unfinished" and still.winners == ()  # leaders, no winners yet
    listed = [line.id for line in history.games(j, kind="pad")]
    assert listed == [ids[k] for k in ("open", "i1", "c2", "c1", "l2", "l1", "w2", "w1")]


def test_log_shows_a_correction(night: tuple[Journal, dict[str, int]]) -> None:
    j, ids = night
    tr = Translator("en")
    told = [tr.message(d) for line in history.log(j, ids["l1"]) for d in line.details]
    assert "Round 1, Ann: 5 → 3" in told
    fr = [Translator("fr").message(d) for line in history.log(j, ids["l1"])
          for d in line.details]
    assert "Manche 1, Ann : 5 → 3" in fr


def test_statistics_per_template(night: tuple[Journal, dict[str, int]]) -> None:
    j, ids = night
    s = stats.statistics(j)
    ann, bob, cy = (s.player(ids[n]) for n in ("Ann", "Bob", "Cy"))
    w = "pad:7-wonders"
    assert [(p.by_kind[w].games, p.by_kind[w].wins, p.by_kind[w].best_score,
             p.by_kind[w].average_score) for p in (ann, bob, cy)] == [
        (2, 2, 39, 39.0), (2, 1, 39, 36.0), (2, 0, 39, 19.5)]
    assert ann.by_kind[w].win_rate == 1.0 and bob.by_kind[w].win_rate == 0.5
    ks = s.kinds[w]
    assert (ks.games, ks.shared_victories, ks.wins) == (2, 1, {ids["Ann"]: 2, ids["Bob"]: 1})
    assert ks.best_score == (39, (ids["Ann"], ids["Cy"], ids["Bob"]))
    # lowest wins: the best score is the lowest; the highest scorer never won
    low = "pad:rounds-lowest"
    assert [(p.by_kind[low].wins, p.by_kind[low].best_score, p.by_kind[low].average_score)
            for p in (ann, bob, cy)] == [(1, 3, 6.5), (1, 4, 6.5), (1, 4, 4.5)]
    assert s.kinds[low].best_score == (3, (ids["Ann"],))
    assert s.kinds[low].shared_victories == 1
    # co-op: the table's record, every player with it
    assert s.kinds["pad:coop"].coop == {"": (1, 1)}
    assert [p.by_kind["pad:coop"].coop for p in (ann, bob, cy)] == [{"": (1, 1)}] * 3
    assert s.kinds["pad:coop"].shared_victories == 0  # co-op wins are not ties
    assert s.kinds["pad:duel"].wins == {ids["Ann"]: 1}
    assert s.kinds["pad:rounds-highest"].unfinished == 1
    assert ann.overall.games == 7 and ann.overall.wins == 5
    bars = {b.name: (b.games, b.wins) for b in stats.bars(s, w)}
    assert bars == {"Ann": (2, 2), "Bob": (2, 1), "Cy": (2, 0)}


def test_score_lines(night: tuple[Journal, dict[str, int]]) -> None:
    j, ids = night
    lines = stats.score_lines(j, ids["l2"])
    assert lines.points == ((0, 6, 10), (0, 1, 4), (0, 3, 4))
    w1 = stats.score_lines(j, ids["w1"])
    # categories in the template's order; coins in points, the symbols none, science 13
    assert w1.points[0] == (0, 5, 7, 10, 20, 22, 26, 39)
    assert w1.points[0][-1] == _line(j, ids["w1"]).seats[0].score


def test_clock_beside_a_pad_game(tmp_path: Path) -> None:
    j = open_journal(tmp_path)
    a, b = (roster.add(j, n).id for n in ("Ann", "Bob"))
    game = pad(j, [a, b], "rounds-highest", rounds((3, 4)))
    session = clock(j, [b, a], [60000, 30000, 90000], pad_game=game, pause_ms=45000)
    timed = history.game(j, game)
    # the clock seated Bob first: Bob 60 s + 90 s in 2 turns, Ann 30 s in 1
    assert [(s.name, s.time_ms, s.turns, s.longest_ms, s.average_ms) for s in timed.seats] \
        == [("Ann", 30000, 1, 30000, 30000), ("Bob", 150000, 2, 90000, 75000)]
    assert timed.clock_ms == 180000 and timed.played_minutes == 3  # the pause left out
    assert timed.clock_game == session
    alone = history.game(j, session)
    assert alone.kind == "clock" and alone.pad_game == game and alone.winners == ()
    assert [line.id for line in history.games(j)] == [session, game]
    s = stats.statistics(j)
    assert "clock" not in s.kinds  # no winners: counted nowhere
    assert s.player(a).overall.games == 1


# -- property: lowest wins never counts the highest scorer; every tied winner counts ------
@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(["rounds-lowest", "rounds-highest"]),
                          st.integers(2, 5), st.lists(st.lists(st.integers(-3, 4),
                                                               min_size=5, max_size=5),
                                                      min_size=1, max_size=3)),
                min_size=1, max_size=6))
def test_winners_counted_lowest_aware(games: list[tuple[str, int, list[list[int]]]]) -> None:
    roster_ = [RosterPlayer(i, f"P{i}", "", False, 0.0) for i in range(5)]
    facts, links = [], {}
    expected_wins = [0] * 5
    for gid, (ident, n, rows) in enumerate(games):
        state = RULES.initial_state(pad_setup(ident, n))
        for r, row in enumerate(rows):
            for seat in range(n):
                state, _ = RULES.apply(state, pc.SetCell(seat, r, None, str(row[seat])))
        state, _ = RULES.apply(state, pc.End())
        totals = [sum(row[s] for row in rows) for s in range(n)]
        best = (min if ident == "rounds-lowest" else max)(totals)
        worst = (max if ident == "rounds-lowest" else min)(totals)
        winners = {s for s in range(n) if totals[s] == best}
        for s in winners:
            expected_wins[s] += 1
        summary = RULES.summary(state)
        f = night_facts.compute(gid, "pad", pad_setup(ident, n), summary, 0.0, 1.0, True,
                                False)
        assert set(f.winners) == winners  # every tied winner, and only they
        if worst != best:
            assert not {s for s in range(n) if totals[s] == worst} & set(f.winners)
        facts.append(f)
        links[gid] = {s: s for s in range(n)}
    result = stats.compute(facts, links, roster_)
    for pid in range(5):
        record = result.player(pid)
        assert record.overall.wins == expected_wins[pid]
        low = record.by_kind.get("pad:rounds-lowest")
        if low is not None:
            own = [sum(row[pid] for row in rows) for ident, n, rows in games
                   if ident == "rounds-lowest" and pid < n]
            assert low.best_score == min(own)
