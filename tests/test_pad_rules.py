"""The score pad's rules, a worked example per built-in template computed by hand, and
the bad input of issue 30 at the table."""

from __future__ import annotations

import pytest

from companion.games.pad import commands as c
from companion.games.pad import events as e
from companion.games.pad.instructions import headline
from companion.games.pad.rules import RULES, describe
from companion.games.pad.view import next_cell, preview, sheet_view, standings_view
from companion.i18n import Translator
from companion.messages import RuleError, msg
from tests.pad_helpers import play, setup, start, template


def rounds(*rows: tuple[str, ...]) -> list[c.SetCell]:
    return [c.SetCell(seat, r, None, text) for r, row in enumerate(rows)
            for seat, text in enumerate(row)]


def cats(values: dict[str, tuple[int, ...]]) -> list[c.SetCell]:
    return [c.SetCell(seat, None, ident, str(v)) for ident, row in values.items()
            for seat, v in enumerate(row)]


def refused(state, command, key):
    with pytest.raises(RuleError) as caught:
        RULES.apply(state, command)
    assert caught.value.message.key == key
    return caught.value.message


def en(message) -> str:
    return Translator("en").message(message)


def fr(message) -> str:
    return Translator("fr").message(message)


# -- worked examples, one per built-in ---------------------------------------------------
def test_rounds_highest_ranks_1_1_3_and_both_tied_winners_win():
    state = play(start("rounds-highest"), *rounds(("3+6+2", "5", "0"), ("-4", "7", "12")))
    # by hand: Ann 11 - 4 = 7, Bob 5 + 7 = 12, Cy 0 + 12 = 12
    summary = RULES.summary(state)
    assert summary["totals"] == [7, 12, 12]
    assert summary["ranks"] == [3, 1, 1]  # standard competition ranking: 1, 1, 3
    state, events = RULES.apply(state, c.End())
    assert events == [e.GameEnded(("Bob", "Cy"))]
    assert RULES.summary(state)["winners"] == ["Bob", "Cy"]
    assert RULES.summary(state)["finished"] and RULES.summary(state)["rounds"] == 2
    assert en(headline(state)) == "Bob, Cy share the win"
    assert fr(headline(state)) == "Bob, Cy partagent la victoire"


def test_rounds_lowest_never_ranks_the_highest_scorer_first():
    state = play(start("rounds-lowest"), *rounds(("10", "3", "25"), ("5", "9", "0")))
    # by hand: Ann 15, Bob 12, Cy 25: Bob first, Cy (the most points) last
    state = play(state, c.End())
    summary = RULES.summary(state)
    assert summary["totals"] == [15, 12, 25]
    assert summary["ranks"] == [2, 1, 3] and summary["winners"] == ["Bob"]


def test_first_to_100_offers_the_end_once_a_complete_round_reaches_it():
    state = play(start("first-to-100", 2), *rounds(("60", "40")), c.SetCell(0, 1, None, "45"))
    # Ann has 105 but round 2 is not complete: nothing is offered yet
    assert not sheet_view(state).end_offered
    assert en(headline(state)) == "Round 2: waiting for Bob"
    state = play(state, c.SetCell(1, 1, None, "70"))  # Bob 110
    assert sheet_view(state).end_offered
    assert en(headline(state)) == "100 reached by Ann, Bob: end the game?"
    assert en(standings_view(state).end) == "100 reached by Ann, Bob: the game may end."
    # offered, never forced: a third round may still start
    more = play(state, c.SetCell(0, 2, None, "1"))
    assert len(more.rounds) == 3
    state = play(state, c.End())
    assert RULES.summary(state)["winners"] == ["Bob"]


def test_skat_rounds_go_negative():
    state = play(start("skat"), *rounds(("24", "-48", "0"), ("-36", "60", "23")))
    # by hand: Ann 24 - 36 = -12, Bob -48 + 60 = 12, Cy 0 + 23 = 23
    assert RULES.summary(state)["totals"] == [-12, 12, 23]
    assert RULES.summary(state)["ranks"] == [3, 2, 1]


def test_coop_wins_or_loses_together_with_optional_scores():
    state = start("coop", 4)
    refused(state, c.End(), "pad.error.coop_outcome")
    state, events = RULES.apply(state, c.CoopOutcome(True))
    assert events == [e.CoopEnded(True)]
    summary = RULES.summary(state)
    assert summary["coop_won"] is True and summary["winners"] == ["Ann", "Bob", "Cy", "Dee"]
    assert summary["ranks"] == [1, 1, 1, 1] and summary["finished"]
    lost = play(start("coop", 2), c.SetCell(0, 0, None, "3"), c.CoopOutcome(False))
    assert RULES.summary(lost)["winners"] == [] and RULES.summary(lost)["ranks"] == [None, None]
    assert en(headline(lost)) == "The table loses together."


SEVEN = {  # Ann, Bob, Cy
    "military": (5, 3, -2), "coins": (7, 9, 4), "wonder": (10, 5, 0),
    "civilian": (12, 20, 8), "commerce": (3, 0, 5), "guilds": (0, 7, 4),
    "gear": (2, 1, 0), "tablet": (1, 1, 3), "compass": (1, 1, 0),
}


def test_7_wonders_coins_per_3_and_science_sets():
    state = play(start("7-wonders"), *cats(SEVEN))
    # by hand, Ann: 5 + 7//3=2 + 10 + 12 + 3 + 0 + science 2²+1²+1² + 7×1 = 13 -> 45
    #          Bob: 3 + 3 + 5 + 20 + 0 + 7 + (1+1+1 + 7) = 48
    #          Cy: -2 + 1 + 0 + 8 + 5 + 4 + (0+9+0 + 0) = 25
    assert RULES.summary(state)["totals"] == [45, 48, 25]
    sheet = sheet_view(state)
    science = next(row for row in sheet.rows if row.category == "science")
    assert science.computed and [cell.value for cell in science.cells] == [13, 10, 9]
    coins = next(row for row in sheet.rows if row.category == "coins")
    assert [(cell.entered, cell.value) for cell in coins.cells] == [(7, 2), (9, 3), (4, 1)]
    gear = next(row for row in sheet.rows if row.category == "gear")
    assert not gear.points
    refused(state, c.SetCell(0, None, "science", "5"), "pad.error.computed")
    state = play(state, c.End())
    assert RULES.summary(state)["ranks"] == [2, 1, 3]


def test_7_wonders_tie_goes_to_the_most_coins_then_is_shared():
    values = dict(SEVEN, civilian=(15, 20, 8))  # Ann 48, as Bob
    state = play(start("7-wonders"), *cats(values))
    assert RULES.summary(state)["totals"][:2] == [48, 48]
    assert RULES.summary(state)["ranks"] == [2, 1, 3]  # Bob 9 coins, Ann 7
    values = dict(values, coins=(9, 9, 4))  # Ann 49 now: one coin point more
    values = dict(values, civilian=(14, 20, 8))  # back to 48 each, 9 coins each
    state = play(start("7-wonders"), *cats(values))
    assert RULES.summary(state)["ranks"] == [1, 1, 3]  # shared after every tie-breaker


WINGSPAN = {"birds": (40, 38), "bonus": (7, 9), "goals": (10, 10), "eggs": (12, 14),
            "food": (4, 2), "tucked": (6, 6)}


def test_wingspan_tie_asks_for_leftover_food_only_when_tied():
    # by hand: Ann 40+7+10+12+4+6 = 79, Bob 38+9+10+14+2+6 = 79
    state = play(start("wingspan", 2), *cats(WINGSPAN))
    assert RULES.summary(state)["totals"] == [79, 79]
    ties = standings_view(state).ties
    assert [(t.names, t.key) for t in ties] == [(("Ann", "Bob"), "leftover_food")]
    state = play(state, c.End())
    assert en(headline(state)) == "Tie between Ann, Bob: Unused food tokens?"
    assert fr(headline(state)) == "Égalité entre Ann, Bob : Jetons nourriture restants ?"
    state, events = RULES.apply(state, c.SetTieInput(1, "leftover_food", "3"))
    assert [en(m) for m in describe(events)] == ["Bob, Unused food tokens: 3"]
    state = play(state, c.SetTieInput(0, "leftover_food", "1"))
    assert RULES.summary(state)["winners"] == ["Bob"]
    assert RULES.summary(state)["ranks"] == [2, 1]
    # no tie, nothing asked
    untied = play(start("wingspan", 2), *cats(dict(WINGSPAN, birds=(41, 38))))
    assert standings_view(untied).ties == ()


# -- the sheet ---------------------------------------------------------------------------
def test_a_blank_is_never_a_zero_and_the_sheet_shows_who_is_missing():
    state = play(start("rounds-highest"), c.SetCell(0, 0, None, "4"), c.SetCell(2, 0, None, "0"))
    view = sheet_view(state)
    assert view.missing == (1,) and view.current == (0, None) and view.current_seat == 1
    assert [cell.missing for cell in view.rows[0].cells] == [False, True, False]
    message = refused(state, c.SetCell(0, 1, None, "1"), "pad.error.round_incomplete")
    assert "Bob" in en(message) and "Bob" in fr(message)
    refused(state, c.End(), "pad.error.round_incomplete")
    state = play(state, c.SetCell(1, 0, None, "0"))  # an explicit zero completes it
    assert sheet_view(state).can_open_round and sheet_view(state).current == (1, None)


def test_an_earlier_round_is_corrected_any_time_and_the_log_shows_old_to_new():
    state = play(start("rounds-highest", 2), *rounds(*[("1", "2")] * 5))
    state, events = RULES.apply(state, c.SetCell(0, 1, None, "5+2"))
    assert RULES.summary(state)["totals"] == [11, 10]
    assert [en(m) for m in describe(events)] == ["Round 2, Ann: 1 → 7"]
    assert [fr(m) for m in describe(events)] == ["Manche 2, Ann : 1 → 7"]
    _, entered = RULES.apply(state, c.SetCell(0, 5, None, "3+6+2"))
    assert [en(m) for m in describe(entered)] == ["Round 6 begins", "Round 6, Ann: 3+6+2 = 11"]
    refused(state, c.SetCell(0, 1, None, "5+2"), "pad.error.unchanged")


def test_every_log_line_starts_with_a_capital_in_both_languages():
    """Issue 29: "lower-case starts in prompts and log lines". A round's cell entered,
    added up, corrected and cleared, a round opened and emptied, a player leaving, a
    category out of its range, the end: each line the log shows starts with a capital,
    in English and in French."""
    lines: list[str] = []

    def run(state, *commands):
        for command in commands:
            state, events = RULES.apply(state, command)
            lines.extend(say(m) for m in describe(events) for say in (en, fr))
        return state

    run(start("rounds-highest"), *rounds(("3+6+2", "5", "0")),
            c.SetCell(0, 1, None, "4"), c.SetCell(0, 0, None, "7"),
            c.ClearCell(0, 1, None), c.Leave(2), c.SetCell(0, 1, None, "1"),
            c.SetCell(1, 1, None, "2"), c.End())
    run(start("7-wonders"), c.SetCell(0, None, "military", "30"),
        c.SetCell(1, None, "military", "3"))
    assert len(lines) >= 2 * 12
    lower = [line for line in lines if not line[:1].isupper()]
    assert lower == []


def test_clearing_a_cell_and_closing_an_empty_last_round():
    state = play(start("rounds-highest", 2), *rounds(("1", "2")), c.SetCell(0, 1, None, "4"))
    state, events = RULES.apply(state, c.ClearCell(0, 1, None))
    assert len(state.rounds) == 1 and isinstance(events[-1], e.RoundClosed)
    state = play(state, c.ClearCell(1, 0, None))
    assert state.rounds[0][1] is None and sheet_view(state).missing == (1,)
    refused(state, c.ClearCell(1, 0, None), "pad.error.blank")


def test_enter_moves_to_the_next_player_in_seat_order():
    state = play(start("rounds-highest"), *rounds(("1", "2", "3")))
    assert next_cell(state, 0, 0, None) == (1, 0, None)
    assert next_cell(state, 2, 0, None) == (0, 1, None)
    state7 = start("7-wonders", 2)
    assert next_cell(state7, 1, None, "military") == (0, None, "coins")
    assert next_cell(state7, 1, None, "compass") is None  # science is computed


def test_preview_shows_the_new_total_or_the_entry_error():
    state = play(start("rounds-highest", 2), *rounds(("10", "2")))
    shown = preview(state, 0, 1, None, "3+6+2")
    assert (shown.value, shown.total, shown.error) == (11, 21, None)
    assert state.rounds == play(start("rounds-highest", 2), *rounds(("10", "2"))).rounds
    bad = preview(state, 0, 1, None, "3+")
    assert bad.error == msg("pad.error.entry.trailing", text="3+") and bad.total is None
    coins = preview(start("7-wonders", 2), 0, None, "coins", "8")
    assert (coins.value, coins.points, coins.total) == (8, 2, 2)


def test_a_fixed_count_of_rounds_stops_new_rounds():
    data = dict(template("rounds-highest"), rounds={"count": 2, "start": 10})
    state = play(start(data, 2), *rounds(("1", "2"), ("3", "4")))
    assert RULES.summary(state)["totals"] == [14, 16]  # the start score counts
    assert sheet_view(state).end_offered and not sheet_view(state).can_open_round
    refused(state, c.SetCell(0, 2, None, "1"), "pad.error.rounds_count")
    assert en(headline(state)) == "All 2 rounds played: end the game?"


# -- bad input at the table --------------------------------------------------------------
@pytest.mark.parametrize(("text", "key"), [
    ("abc", "pad.error.entry.character"), ("-", "pad.error.entry.lone_sign"),
    ("--3", "pad.error.entry.double_sign"), ("3+", "pad.error.entry.trailing"),
    ("9" * 65, "pad.error.entry.too_long"), ("2000000", "pad.error.entry.bounds"),
    ("2.5", "pad.error.entry.decimal"),
])
def test_bad_entries_change_nothing(text, key):
    state = play(start("rounds-highest", 2), *rounds(("1", "2")))
    refused(state, c.SetCell(0, 0, None, text), key)
    assert state.rounds[0][0].value == 1


def test_a_value_outside_a_category_range_is_accepted_with_a_check_note():
    state, events = RULES.apply(start("7-wonders", 2), c.SetCell(0, None, "military", "25"))
    assert events[0].note == "range" and state.categories[0][0].value == 25
    assert [en(m) for m in describe(events)][1] == (
        "Military, Ann: outside the template's range, check against your box")
    row = sheet_view(state).rows[0]
    assert row.cells[0].note == "check" and row.cells[0].value == 25


def test_a_player_count_outside_the_template_is_warned_then_allowed_when_confirmed():
    with pytest.raises(RuleError) as caught:
        RULES.initial_state(setup("skat", 2))
    assert caught.value.message.key == "pad.error.players_count"
    assert en(caught.value.message) == (
        "This template is for 3 to 4 players; 2 players are set. Confirm to play anyway.")
    state = RULES.initial_state(setup("skat", 2, confirmed_count=True))
    assert state.confirmed_count and len(state.players) == 2


def test_duplicate_names_are_refused():
    data = setup("rounds-highest", 2)
    data["players"] = [{"name": "Ann"}, {"name": " ann "}]
    with pytest.raises(RuleError) as caught:
        RULES.initial_state(data)
    assert caught.value.message.key == "core.error.duplicate_name"


def test_a_player_who_leaves_mid_game_stays_visible_and_leaves_the_ranking():
    state = play(start("rounds-highest"), *rounds(("5", "1", "2")), c.SetCell(0, 1, None, "3"))
    state, events = RULES.apply(state, c.Leave(1))  # Bob leaves during round 2
    assert [en(m) for m in describe(events)] == ["Bob leaves the game"]
    assert sheet_view(state).missing == (2,)  # no cell owed by Bob any more
    refused(state, c.SetCell(1, 1, None, "4"), "pad.error.player_out")
    state = play(state, c.SetCell(1, 0, None, "9"))  # an earlier round: still corrected
    state = play(state, c.SetCell(2, 1, None, "1"), c.End())
    summary = RULES.summary(state)
    assert summary["ranks"] == [1, None, 2] and summary["winners"] == ["Ann"]
    assert summary["out"] == [None, "left", None]
    assert [col.out for col in sheet_view(state).columns] == [None, "left", None]
    entries = standings_view(state).entries
    assert [en_.name for en_ in entries] == ["Ann", "Cy", "Bob"]  # out last
    refused(start("rounds-highest", 1), c.Leave(0), "pad.error.last_player")


def test_elimination_only_where_the_template_allows_it():
    refused(start("rounds-highest"), c.Eliminate(0), "pad.error.no_elimination")
    data = dict(template("rounds-highest"), eliminate=True)
    state = play(start(data), c.Eliminate(2))
    assert RULES.summary(state)["out"] == [None, None, "eliminated"]
    refused(state, c.Eliminate(2), "pad.error.already_out")


def test_every_player_tied_through_every_tie_breaker():
    state = play(start("wingspan", 3), *cats({k: (v[0],) * 3 for k, v in WINGSPAN.items()}),
                 c.End(), *[c.SetTieInput(s, "leftover_food", "2") for s in range(3)])
    assert RULES.summary(state)["ranks"] == [1, 1, 1]  # shared
    assert RULES.summary(state)["winners"] == ["Ann", "Bob", "Cy"]
    assert standings_view(state).ties == ()
    chosen = dict(template("wingspan"), ties="chosen")
    state = play(start(chosen, 3), *cats({k: (v[0],) * 3 for k, v in WINGSPAN.items()}),
                 c.End(), *[c.SetTieInput(s, "leftover_food", "2") for s in range(3)])
    assert en(headline(state)) == "Tie between Ann, Bob, Cy: the table chooses the winner"
    assert standings_view(state).ties[-1].choose
    refused(state, c.SettleTie((0, 1, 2)), "pad.error.settle")
    state, events = RULES.apply(state, c.SettleTie((1,)))
    assert events == [e.TieSettled(("Bob",))]
    assert RULES.summary(state)["ranks"] == [2, 1, 2]
    assert RULES.summary(state)["winners"] == ["Bob"]


def test_instant_win_overrides_points():
    refused(start("rounds-highest"), c.InstantWin((0,), ""), "pad.error.no_instant_win")
    data = dict(template("rounds-highest"), instant_win=True)
    state = play(start(data), *rounds(("10", "20", "30")))
    state, events = RULES.apply(state, c.InstantWin((0,), "science supremacy"))
    summary = RULES.summary(state)
    assert summary["finished"] and summary["winners"] == ["Ann"]
    assert summary["ranks"] == [1, 3, 2] and summary["instant_win"] == ["Ann"]
    assert [en(m) for m in describe(events)] == ["Instant win: Ann",
                                                 "Reason: science supremacy"]


def test_places_only():
    data = dict(template("rounds-highest"), win="places")
    state = start(data, 4)
    refused(state, c.End(), "pad.error.places_needed")
    refused(state, c.SetPlaces(((0,), (1,))), "pad.error.places")
    state = play(state, c.SetPlaces(((2,), (0, 3), (1,))))
    summary = RULES.summary(state)
    assert summary["ranks"] == [2, 4, 1, 2] and summary["winners"] == ["Cy"]


def test_teams_sum_or_own():
    data = dict(template("rounds-highest"))
    state = play(start(data, 4, teams=[[0, 2], [1, 3]]), *rounds(("5", "4", "1", "3")))
    # by hand: team Ann+Cy 6, team Bob+Dee 7
    summary = RULES.summary(state)
    assert summary["ranks"] == [2, 1, 2, 1] and summary["teams"] == [["Ann", "Cy"],
                                                                      ["Bob", "Dee"]]
    own = dict(template("rounds-highest"), teams={"score": "own"})
    state = start(own, 4, teams=[[0, 2], [1, 3]])
    assert sheet_view(state).current_seat == 0
    state = play(state, c.SetCell(0, 0, None, "8"), c.SetCell(1, 0, None, "9"))
    assert sheet_view(state).missing == () and sheet_view(state).can_open_round
    assert RULES.summary(state)["ranks"] == [2, 1, 2, 1]
    assert [col.total for col in sheet_view(state).columns] == [8, 9, 8, 9]
    with pytest.raises(RuleError):
        RULES.initial_state(setup("rounds-highest", 4, teams=[[0, 1], [1, 2, 3]]))


def test_the_game_keeps_its_own_copy_of_the_template():
    data = template("first-to-100")
    state = start(data, 2)
    data["rounds"]["end"]["reach"] = 5  # an edit of the template after the start
    assert state.template.reach == 100


def test_after_the_end_only_corrections():
    state = play(start("rounds-highest", 2), *rounds(("1", "2")), c.End())
    refused(state, c.SetCell(0, 1, None, "1"), "pad.error.finished")
    refused(state, c.End(), "pad.error.finished")
    state = play(state, c.SetCell(0, 0, None, "5"))  # a correction still follows
    assert RULES.summary(state)["winners"] == ["Ann"]


def test_end_refusals_name_what_is_missing():
    refused(start("rounds-highest"), c.End(), "pad.error.nothing_entered")
    state = play(start("7-wonders", 2), c.SetCell(0, None, "military", "1"))
    message = refused(state, c.End(), "pad.error.category_incomplete")
    assert en(message).startswith("Category Military is not filled in; nothing yet for Bob")
    assert fr(message).startswith("La catégorie Militaire n’est pas remplie")


def test_every_text_of_the_log_is_translated_in_both_languages():
    state = play(start("rounds-highest", 2), *rounds(("1", "2")))
    state, events = RULES.apply(state, c.SetCell(0, 0, None, "3"))
    lines = describe(events)
    for language in ("en", "fr"):
        for line in lines:
            said = Translator(language).message(line)
            assert not said.startswith("pad.") and "{" not in said


def test_decimals_where_the_template_allows_them():
    from companion.snapshot import decode, encode

    data = dict(template("rounds-highest"), whole=False)
    state = play(start(data, 2), *rounds(("1.5+0.25", "0.1"), ("0.2", "2,5")))
    # by hand: Ann 1.75 + 0.2 = 1.95, Bob 0.1 + 2.5 = 2.6
    assert RULES.summary(state)["totals"] == [1.95, 2.6]
    assert RULES.summary(state)["ranks"] == [2, 1]
    assert sheet_view(state).rows[0].cells[0].value == 1.75
    assert decode(RULES.state_type, encode(state)) == state
    refused(start("rounds-highest", 2), c.SetCell(0, 0, None, "1.5"), "pad.error.entry.decimal")


DUEL = {"civilian": (12, 15), "science": (6, 2), "commerce": (3, 4), "guilds": (0, 6),
        "wonders": (9, 7), "progress": (4, 0), "coins": (11, 6), "military": (2, 0)}


def test_7_wonders_duel_points_then_civilian_tie_break_or_an_instant_win():
    state = play(start("7-wonders-duel", 2), *cats(DUEL))
    # by hand: Ann 12+6+3+0+9+4 + 11//3=3 + 2 = 39; Bob 15+2+4+6+7+0 + 6//3=2 + 0 = 36
    assert RULES.summary(state)["totals"] == [39, 36]
    tied = play(start("7-wonders-duel", 2), *cats(dict(DUEL, guilds=(0, 9))))  # Bob 39
    assert RULES.summary(tied)["ranks"] == [2, 1]  # Bob has more civilian points
    # military supremacy: Bob wins outright although Ann leads on points
    won = play(start("7-wonders-duel", 2), c.SetCell(0, None, "civilian", "12"),
               c.InstantWin((1,), "military supremacy"))
    summary = RULES.summary(won)
    assert summary["finished"] and summary["winners"] == ["Bob"] and summary["ranks"] == [2, 1]
    assert fr(headline(won)) == "Victoire immédiate : Bob"


def test_the_tables_choice_holds_for_the_tie_it_settled_only():
    chosen = dict(template("rounds-highest"), ties="chosen")
    state = play(start(chosen), *rounds(("5", "5", "1")), c.End(), c.SettleTie((0,)))
    assert RULES.summary(state)["winners"] == ["Ann"]
    # a correction makes another tie for the win (Bob and Cy): the table is asked again
    state = play(state, c.SetCell(0, 0, None, "1"), c.SetCell(2, 0, None, "5"))
    assert outcome_of(state).undecided == (1, 2)
    assert RULES.summary(state)["ranks"] == [3, 1, 1]
    refused(state, c.SettleTie((0,)), "pad.error.settle")  # Ann is not among them
    state = play(state, c.SettleTie((2,)))
    assert RULES.summary(state)["winners"] == ["Cy"]
    # back to the first tie: the first choice holds again only if it is that tie
    state = play(state, c.SetCell(0, 0, None, "5"), c.SetCell(2, 0, None, "1"))
    assert outcome_of(state).undecided == (0, 1)


def outcome_of(state):
    from companion.games.pad.outcome import outcome

    return outcome(state)


def test_a_blank_in_an_earlier_round_blocks_the_end_and_is_listed():
    """Issue 46, item 10: "A blank in an earlier round counts as 0 and the game can
    still end: clear one cell of round 1 after three complete rounds; End is accepted,
    the winner changes, a new round can be opened and the missing list is empty." A
    blank is never a zero: every blank of every round is listed and blocks the end; a
    new round may still be opened (the table plays on and fills it in later)."""
    state = play(start("rounds-highest"), *rounds(("9", "1", "1"), ("1", "2", "2"),
                                                  ("1", "2", "2")))
    state = play(state, c.ClearCell(0, 0, None))  # Ann's 9 of round 1
    view = sheet_view(state)
    assert view.blanks == ((0, (0,)),)
    assert view.rows[0].cells[0].missing
    message = refused(state, c.End(), "pad.error.round_incomplete")
    assert en(message) == ("Round 1 is not complete; no score yet for Ann (a blank is not "
                           "a zero).")
    assert en(headline(state)) == "No score yet in round 1: Ann (a blank is not a zero)"
    assert fr(headline(state)) == ("Pas encore de score en manche 1 : Ann (une case vide "
                                   "n’est pas un zéro)")
    # the table plays on: round 4 opens, and another blank in round 2 is listed too
    assert view.can_open_round and view.current == (3, None)
    state = play(state, *[c.SetCell(s, 3, None, "1") for s in range(3)],
                 c.ClearCell(2, 1, None))
    assert sheet_view(state).blanks == ((0, (0,)), (1, (2,)))
    message = refused(state, c.End(), "pad.error.blanks")
    assert en(message) == ("No score yet in round 1: Ann; round 2: Cy (a blank is not a "
                           "zero).")
    assert fr(message) == ("Pas encore de score en manche 1 : Ann ; manche 2 : Cy (une "
                           "case vide n’est pas un zéro).")
    # with the rounds counted out, the keypad goes to the first blank and no end is offered
    counted = dict(template("rounds-highest"), rounds={"count": 3})
    state = play(start(counted), *rounds(("9", "1", "1"), ("1", "2", "2"), ("1", "2", "2")),
                 c.ClearCell(1, 1, None))
    assert not outcome_of(state).end_offered
    assert sheet_view(state).current == (1, None) and sheet_view(state).current_seat == 1
    state = play(state, c.SetCell(1, 1, None, "2"))
    assert outcome_of(state).end_offered
    assert RULES.summary(play(state, c.End()))["winners"] == ["Ann"]


# -- issue 46, item 9: what the table typed, and why a tie went the way it did ---------
TIED_51 = {"military": (5, 3), "coins": (9, 11), "wonder": (10, 5), "civilian": (20, 23),
           "commerce": (3, 0), "guilds": (0, 7), "gear": (1, 1), "tablet": (1, 1),
           "compass": (1, 1)}


def test_7_wonders_treasury_shows_the_coins_typed_and_what_they_score():
    """7 Wonders' rules, Treasury: "1 victory point per full 3 coins". 9 coins and 11
    coins both score 3: the cell says what was typed ("11 coins → 3"), so that a
    correction types coins, never points."""
    state = play(start("7-wonders", 2), *cats(TIED_51))
    coins = next(row for row in sheet_view(state).rows if row.category == "coins")
    assert [en(cell.said) for cell in coins.cells] == ["9 coins → 3", "11 coins → 3"]
    assert [fr(cell.said) for cell in coins.cells] == ["9 pièces → 3", "11 pièces → 3"]
    assert [cell.value for cell in coins.cells] == [3, 3]
    seen = preview(state, 0, None, "coins", "1")
    assert en(seen.said) == "1 coin → 0" and fr(seen.said) == "1 pièce → 0"
    assert seen.total == 48


def test_7_wonders_a_tie_won_on_coins_is_said_on_the_standings_and_in_the_log():
    """7 Wonders' rules: "In case of a tie, the player with the most coins in his or
    her treasury is the winner." Ann and Bob tie at 51; Bob has 11 coins, Ann 9."""
    # by hand: Ann 5 + 9//3=3 + 10 + 20 + 3 + 0 + (1+1+1 + 7) = 51
    #          Bob 3 + 11//3=3 + 5 + 23 + 0 + 7 + (1+1+1 + 7) = 51
    state = play(start("7-wonders", 2), *cats(TIED_51))
    assert RULES.summary(state)["totals"] == [51, 51]
    assert RULES.summary(state)["ranks"] == [2, 1]
    assert en(standings_view(state).tie) == "Bob is ahead on coins, 11 to 9"
    state, events = RULES.apply(state, c.End())
    assert [en(m) for m in describe(events)] == ["Bob wins", "Bob wins the tie on coins, 11 to 9"]
    assert [fr(m) for m in describe(events)] == [
        "Bob gagne", "Bob remporte l’égalité (pièces, 11 à 9)"]
    assert en(standings_view(state).tie) == "Bob wins the tie on coins, 11 to 9"
    # the same coins: "then the victory is shared", and said so
    same = play(start("7-wonders", 2), *cats(dict(TIED_51, coins=(11, 11))))
    same, events = RULES.apply(same, c.End())
    assert [en(m) for m in describe(events)] == ["Ann, Bob share the win",
                                                 "Still tied on coins (11 each)"]
    assert fr(standings_view(same).tie) == "Toujours à égalité (pièces, 11 chacun)"


def test_wingspan_a_shared_win_is_logged_only_once_the_food_is_asked():
    """Wingspan's rules: "In case of a tie, the player with the most unused food tokens
    wins. If still tied, the players share the victory." Issue 46: "a tied Wingspan
    game is logged as a shared win before the food is asked"."""
    state = play(start("wingspan", 2), *cats(WINGSPAN))  # 79 each, by hand above
    state, events = RULES.apply(state, c.End())
    assert [en(m) for m in describe(events)] == ["Tie between Ann, Bob: Unused food tokens?"]
    assert RULES.summary(state)["finished"] and RULES.summary(state)["winners"] == []
    asked, events = RULES.apply(state, c.SetTieInput(0, "leftover_food", "2"))
    assert [en(m) for m in describe(events)] == ["Ann, Unused food tokens: 2"]
    won, events = RULES.apply(asked, c.SetTieInput(1, "leftover_food", "4"))
    assert [en(m) for m in describe(events)] == [
        "Bob, Unused food tokens: 4", "Bob wins",
        "Bob wins the tie on unused food tokens, 4 to 2"]
    assert fr(standings_view(won).tie) == \
        "Bob remporte l’égalité (jetons nourriture restants, 4 à 2)"
    assert RULES.summary(won)["winners"] == ["Bob"]
    shared, events = RULES.apply(asked, c.SetTieInput(1, "leftover_food", "2"))
    assert [en(m) for m in describe(events)][1:] == [
        "Ann, Bob share the win", "Still tied on unused food tokens (2 each)"]
    assert RULES.summary(shared)["winners"] == ["Ann", "Bob"]
    # a correction that changes the winner says the new one
    _, events = RULES.apply(won, c.SetTieInput(0, "leftover_food", "5"))
    assert [en(m) for m in describe(events)][1:] == [
        "Ann wins", "Ann wins the tie on unused food tokens, 5 to 4"]
