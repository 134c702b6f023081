"""The read-only views the Castor screens lay out: the scoreboard and the trick in progress."""

from __future__ import annotations

from typing import Any

from companion import config
from companion.games.castor import RULES, playable_values, scoreboard, trick_view
from companion.games.castor import commands as c
from companion.games.castor.state import CastorState, Sheet
from companion.games.castor.view import Cell, PlayedCard

PARAMS = config.load(use_default_user_file=False).data["games"]["castor"]
PLAYERS = [{"name": "Ann", "agent": "martha"}, {"name": "Bob", "agent": "belton"},
           {"name": "Cid"}]


def run(*commands: Any, state: CastorState | None = None) -> CastorState:
    state = state or RULES.initial_state({"params": PARAMS, "players": PLAYERS})
    for command in commands:
        state, _ = RULES.apply(state, command)
    return state


def test_the_scoreboard_lists_players_by_rounds_with_totals_and_medals():
    state = run(c.EnterSheet(1, (10, 6, 4), (1, 2, 0), (3, 0, 1)),
                c.EnterSheet(2, (5, 9, 9), (0, 1, 1), (0, 2, 2)))
    board = scoreboard(state)
    assert [row.name for row in board.players] == ["Ann", "Bob", "Cid"]
    assert [row.agent_name for row in board.players] == ["Martha", "Henry B. Belton", None]
    assert board.cell(0, 1) == Cell(10, 1, 3, 0, 8, 2, False)
    assert board.cell(2, 1) == Cell(4, 0, 1, 8, 0, 12, True)
    assert [cell.total for cell in board.rounds[1].cells] == [13, 1, 1]
    assert board.rounds[1].winners == ("Ann",)
    assert [row.medals for row in board.players] == [1, 0, 1]
    assert not board.finished and board.winners == ()
    assert board.next_round == 3 and board.next_leader == "Ann"
    assert board.medals_to_win == 2
    assert [col.source for col in board.rounds] == ["sheet", "sheet"]


def test_the_scoreboard_shows_the_shared_victory_and_rounds_after_the_end():
    state = run(c.EnterSheet(1, (9, 9, 1), (0, 0, 1), (0, 0, 1)),  # Ann and Bob
                c.EnterSheet(2, (1, 1, 9), (1, 1, 0), (1, 1, 0)),  # Cid
                c.EnterSheet(3, (1, 1, 9), (1, 1, 0), (1, 1, 0)))  # Cid: wins alone
    board = scoreboard(state)
    assert board.finished and board.winners == ("Cid",) and board.decided_round == 3
    assert board.next_round is None and board.next_leader is None
    state = run(c.EnterSheet(2, (9, 9, 1), (0, 0, 1), (0, 0, 1)), state=state)  # Ann and Bob
    board = scoreboard(state)
    assert board.winners == ("Ann", "Bob") and board.decided_round == 2
    assert [row.winner for row in board.players] == [True, True, False]
    assert [col.counts for col in board.rounds] == [True, True, False]
    assert [row.medals for row in board.players] == [2, 2, 0]


def test_the_trick_view_before_anything_names_the_leader():
    view = trick_view(run())
    assert view.round == 1 and view.trick == 1 and not view.started
    assert view.leader == "Ann" and view.next_player == "Ann"
    assert view.to_play == ("Ann", "Bob", "Cid")
    assert view.trumps == ("mauve",) and not view.trumps_overridden
    assert view.winning is None and not view.complete
    assert view.so_far == Sheet((0, 0, 0), (0, 0, 0), (0, 0, 0))


def test_the_trick_view_follows_the_cards_and_the_current_winner():
    state = run(c.DrawPower("martha"), c.DrawPower("belton"))
    view = trick_view(state)
    assert [p.player for p in view.powers] == ["Ann", "Bob"]
    assert view.choosing == "Bob" and view.next_player is None
    state = run(c.ChooseLeader("Cid"), c.PlayCard("Cid", "blue", 4), state=state)
    view = trick_view(state)
    assert view.started and view.leader == "Cid"
    assert view.to_play == ("Ann", "Bob") and view.next_player == "Ann"
    assert view.winning == "Cid" and view.winning_card == PlayedCard("Cid", "blue", 4)
    state = run(c.PlayCard("Ann", "mauve", 2), c.PlayCard("Bob", "blue", 9), state=state)
    view = trick_view(state)
    assert view.complete and view.winning == "Ann" and view.extra_plan
    assert view.cards[1] == PlayedCard("Ann", "mauve", 2)
    state = run(c.TakeTrick(3, extra_plan=4), state=state)
    view = trick_view(state)
    assert view.trick == 2 and view.leader == "Ann" and view.powers == ()
    assert view.so_far == Sheet((7, 0, 0), (0, 0, 0), (0, 0, 0))


def test_playable_values_leave_out_the_cards_already_played_this_round():
    state = run(c.PlayCard("Ann", "mauve", 2), c.PlayCard("Bob", "mauve", 5))
    assert playable_values(state, "mauve") == (1, 3, 4, 6, 7, 8, 9, 10)
    assert playable_values(state, "blue") == tuple(range(1, 19))
    assert playable_values(state, "red") == ()


def test_no_trick_to_show_once_the_game_is_won():
    state = run(c.EnterSheet(1, (9, 1, 1), (0, 1, 1), (0, 0, 0)),
                c.EnterSheet(2, (9, 1, 1), (0, 1, 1), (0, 0, 0)))
    assert trick_view(state) is None
