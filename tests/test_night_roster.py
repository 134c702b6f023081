"""Roster rules: names unique (trimmed, case-insensitive), not empty; rename and retire
keep history; picking players for a setup; linking games."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.messages import RuleError
from companion.night import history, roster, stats
from tests.test_night_support import castor, open_journal, sheet, start


def _key(excinfo: pytest.ExceptionInfo[RuleError]) -> str:
    return excinfo.value.message.key


def test_add_and_list_sorted_by_name(tmp_path: Path) -> None:
    j = open_journal(tmp_path)
    roster.add(j, "  zoé  ", "#AABBCC")
    roster.add(j, "Ann")
    listed = roster.players(j)
    assert [p.name for p in listed] == ["Ann", "zoé"]
    assert listed[1].colour == "#aabbcc"


@pytest.mark.parametrize("name", ["ann", " ANN ", "Ann", "a n n"])
def test_duplicate_names_refused(tmp_path: Path, name: str) -> None:
    j = open_journal(tmp_path)
    roster.add(j, "Ann")
    if name == "a n n":  # inner spaces make a different name
        roster.add(j, name)
        return
    with pytest.raises(RuleError) as exc:
        roster.add(j, name)
    assert _key(exc) == "night.error.name_taken"
    assert len(roster.players(j)) == 1


@pytest.mark.parametrize("name", ["", "   ", None, "\t\n"])
def test_empty_names_refused(tmp_path: Path, name: object) -> None:
    j = open_journal(tmp_path)
    with pytest.raises(RuleError) as exc:
        roster.add(j, name)
    assert _key(exc) == "core.error.empty_name"
    assert roster.players(j, include_retired=True) == []


def test_bad_colour_refused(tmp_path: Path) -> None:
    j = open_journal(tmp_path)
    with pytest.raises(RuleError) as exc:
        roster.add(j, "Ann", "red")
    assert _key(exc) == "night.error.colour"
    pid = roster.add(j, "Ann").id
    with pytest.raises(RuleError):
        roster.recolour(j, pid, "#12345")
    assert roster.recolour(j, pid, "#123456").colour == "#123456"


def test_rename_refuses_another_players_name_but_allows_own(tmp_path: Path) -> None:
    j = open_journal(tmp_path)
    ann = roster.add(j, "Ann").id
    roster.add(j, "Bob")
    with pytest.raises(RuleError):
        roster.rename(j, ann, "bob")
    with pytest.raises(RuleError):
        roster.rename(j, ann, "  ")
    assert roster.rename(j, ann, "ANN").name == "ANN"


def test_rename_keeps_history_and_shows_current_name(tmp_path: Path) -> None:
    j = open_journal(tmp_path)
    ann, bob = roster.add(j, "Ann").id, roster.add(j, "Bob").id
    two_wins = [sheet([10, 5], [1, 2], [0, 3])] * 2
    gid = castor(j, [ann, bob], two_wins)
    roster.rename(j, ann, "Annie")
    line = history.game(j, gid)
    assert (line.seats[0].name_then, line.seats[0].name) == ("Ann", "Annie")
    assert j.game(gid).setup["players"][0]["name"] == "Ann"  # the setup keeps the name
    assert stats.statistics(j).player(ann).overall.wins == 1


def test_retire_hides_from_setup_keeps_history(tmp_path: Path) -> None:
    j = open_journal(tmp_path)
    ann, bob = roster.add(j, "Ann").id, roster.add(j, "Bob").id
    castor(j, [ann, bob], [sheet([10, 5], [1, 2], [0, 3])] * 2)
    roster.retire(j, bob)
    assert [p.name for p in roster.players(j)] == ["Ann"]
    assert [p.name for p in roster.players(j, include_retired=True)] == ["Ann", "Bob"]
    with pytest.raises(RuleError) as exc:
        roster.setup_players(j, [ann, bob])
    assert _key(exc) == "night.error.retired"
    with pytest.raises(RuleError) as exc:
        roster.add(j, "bob")
    assert _key(exc) == "night.error.name_retired"
    assert stats.statistics(j).player(bob).overall.games == 1
    assert stats.statistics(j, include_retired=False).players[0].player.id == ann
    roster.unretire(j, bob)
    assert len(roster.setup_players(j, [ann, bob])) == 2


def test_setup_players_builds_the_setup_list(tmp_path: Path) -> None:
    j = open_journal(tmp_path)
    ann, bob = roster.add(j, "Ann").id, roster.add(j, "Bob").id
    out = roster.setup_players(j, [bob, ann], [{"agent": "martha"}, {}])
    assert out == [{"agent": "martha", "name": "Bob", "roster_id": bob},
                   {"name": "Ann", "roster_id": ann}]
    for bad, key in (([ann, ann], "core.error.duplicate_name"),
                     ([ann, 99], "night.error.no_such_player")):
        with pytest.raises(RuleError) as exc:
            roster.setup_players(j, bad)
        assert _key(exc) == key
    with pytest.raises(RuleError):
        roster.setup_players(j, [ann], [{}, {}])


def test_link_game_records_seats(tmp_path: Path) -> None:
    j = open_journal(tmp_path)
    ann, bob = roster.add(j, "Ann").id, roster.add(j, "Bob").id
    session = start(j, "bond", [bob, ann])
    assert j.read("SELECT seat, player_id FROM game_players WHERE game_id = ? ORDER BY seat",
                  (session.game_id,)) == [(0, bob), (1, ann)]


def test_games_started_without_roster_are_linked_by_name(tmp_path: Path) -> None:
    from companion.games import rules_for
    from companion.session import Session
    from tests.test_night_support import params

    j = open_journal(tmp_path)
    ann = roster.add(j, "Ann").id
    setup = {"params": params("bond"), "players": [{"name": " ann "}, {"name": "Cy"}]}
    gid = Session.start(rules_for("bond"), j, setup).game_id
    assert roster.link_missing(j) == 1
    cy = next(p for p in roster.players(j) if p.name == "Cy")
    assert j.read("SELECT seat, player_id FROM game_players WHERE game_id = ? ORDER BY seat",
                  (gid,)) == [(0, ann), (1, cy.id)]
    assert roster.link_missing(j) == 0


def test_a_name_typed_at_set_up_joins_the_roster_when_the_game_starts(tmp_path: Path) -> None:
    """Issue 29: names reached the roster only once Statistics had been opened."""
    from companion.games import rules_for
    from companion.session import Session
    from tests.test_night_support import params

    j = open_journal(tmp_path)
    ann = roster.add(j, "Ann").id
    setup = {"params": params("bond"), "players": [
        {"name": "Ann", "roster_id": ann}, {"name": "Zoé"}, {"name": "Player 3"},
        {"name": "joueur 4"}]}
    session = Session.start(rules_for("bond"), j, setup)
    roster.link_game(j, session.game_id)
    names = {p.name: p.id for p in roster.players(j)}
    assert sorted(names) == ["Ann", "Zoé"]  # the guests stay guests
    links = dict(((seat, pid) for _gid, seat, pid in j.read(
        "SELECT game_id, seat, player_id FROM game_players")))
    assert links == {0: ann, 1: names["Zoé"]}
    # the same name typed again is the same roster player, whatever its case
    again = Session.start(rules_for("bond"), j, {**setup, "players": [
        {"name": "zoé"}, {"name": "Player 2"}]})
    roster.link_game(j, again.game_id)
    assert sorted(p.name for p in roster.players(j)) == ["Ann", "Zoé"]
    assert j.read("SELECT player_id FROM game_players WHERE game_id = ? AND seat = 0",
                  (again.game_id,)) == [(names["Zoé"],)]
