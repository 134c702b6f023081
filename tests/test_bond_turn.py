"""Mr. Bond's turn as the app follows it (issue 29): whose turn it is and its step, for
the play screen's headline. Each test quotes the rulebook's sentence it checks
(/work/shared/seeds/mr-bond.fr.txt, "TOUR D'UN JOUEUR" and "PREPARATION")."""

from __future__ import annotations

import pytest

from companion.games.bond import RULES, view
from companion.games.bond import commands as c
from companion.games.bond import events as e
from companion.games.bond.instructions import headline, instructions, turn_hint
from companion.i18n import Translator
from companion.messages import RuleError
from tests.helpers.checked import load
from tests.test_bond_rules import new_state, play, with_lair


def step(state) -> tuple[int, str]:
    now = view.turn(state)
    assert now is not None
    return now.player, now.step


def test_the_first_seat_begins_by_drawing():
    # "Le joueur à la gauche du donneur commence la partie": the setup lists the players
    # from the dealer's left, clockwise
    # "Premièrement, le joueur tire une carte de la pioche."
    state = new_state(3)
    assert step(state) == (0, "draw")
    assert view.next_moves(state).next_turn


def test_a_lair_card_is_the_second_step_then_spies_if_they_wish():
    # "Deuxièmement, le joueur peut joueur une carte Lair face visible devant lui."
    # "Troisièmement, le joueur peut jouer un espion sur n'importe quel repaire"
    state, events = play(new_state(3), c.AddLairCard(0, 2))
    assert step(state) == (0, "spies")
    assert not any(isinstance(ev, e.TurnBegan) for ev in events)


def test_next_player_passes_the_turn_clockwise_even_when_nothing_was_played():
    # "puis le jeu se poursuit dans le sens horaire"; the lair card and the spies are
    # optional ("peut"), so a player may do nothing but draw
    state, events = play(new_state(3), c.NextTurn())
    assert events == [e.TurnBegan(1)] and step(state) == (1, "draw")
    state, events = play(state, c.NextTurn(), c.NextTurn())
    assert events == [e.TurnBegan(2), e.TurnBegan(0)] and step(state) == (0, "draw")


def test_spies_dealt_with_end_the_turn():
    # "Troisièmement, le joueur peut jouer un espion" is the turn's last step: once the
    # spy is killed the next player draws
    state = with_lair(new_state(3), 1, 3)  # Bob's lair card, in Bob's turn
    assert step(state) == (1, "spies")
    state, events = play(state, c.Attack(1, (2,), by=1))
    # "Quand on capture un espion [...] on doit s'en occuper immédiatement": the owner
    assert step(state) == (1, "capture") and view.turn(state).value == 2
    state, events = play(state, c.Kill())
    assert events[-1] == e.TurnBegan(2) and step(state) == (2, "draw")


def test_an_escape_ends_the_attacker_s_turn_not_the_lair_owner_s():
    # "Si sa puissance est supérieure, l'espion s'échappe": the attack is over at once
    state = with_lair(new_state(3), 2, 1)
    state, _ = play(state, c.NextTurn())  # the lair card made it Cid's turn: now Ann's
    assert step(state) == (0, "draw")
    state, events = play(state, c.Attack(2, (4,), by=0))
    assert isinstance(events[-1], e.TurnBegan) and step(state) == (1, "draw")


def test_a_ridicule_answered_ends_the_turn_too():
    # "Si un joueur possède l'autre carte Doubler [...] l'espion s'échappe"
    state = with_lair(new_state(3), 1, 4)
    state, _ = play(state, c.NextTurn(), c.NextTurn())  # from Bob's turn: Cid, Ann
    state, _ = play(state, c.Attack(1, (2,), by=0), c.Ridicule("A"))
    assert step(state) == (1, "capture")  # the owner still deals with it
    state, events = play(state, c.Answered())
    assert events[-1] == e.TurnBegan(1) and step(state) == (1, "draw")


def test_the_app_follows_the_table_rather_than_refusing_out_of_turn_play():
    # The rulebook does not say what the app should do with a card recorded out of turn:
    # it is accepted and the turn becomes that player's
    state, _ = play(new_state(4), c.AddLairCard(2, 3))
    assert step(state) == (2, "spies")
    state, _ = play(state, c.AddLairCard(3, 1), c.Attack(2, (5,), by=3))
    assert step(state) == (0, "draw")  # Dee's spies escaped: Ann's turn (clockwise)


def test_an_attack_without_its_sender_is_the_current_player_s():
    state = with_lair(new_state(3), 0, 3)
    state, _ = play(state, c.Attack(0, (4,)))
    assert step(state) == (1, "draw")


def test_when_the_settings_let_a_turn_go_on_after_spies():
    # The rulebook does not say whether spies may be sent twice in a turn:
    # `turn_ends_after_spies: false` lets them, Next player ends the turn
    state = with_lair(new_state(3, turn_ends_after_spies=False), 0, 2)
    state, events = play(state, c.Attack(0, (4,), by=0))
    assert not any(isinstance(ev, e.TurnBegan) for ev in events)
    assert step(state) == (0, "more_spies")
    state, _ = play(state, c.NextTurn())
    assert step(state) == (1, "draw")


def test_no_turn_after_the_end_and_next_player_refused_during_a_capture():
    state = with_lair(new_state(2), 1, 3)
    state, _ = play(state, c.Attack(1, (2,), by=0))
    with pytest.raises(RuleError):
        RULES.apply(state, c.NextTurn())
    assert not view.next_moves(state).next_turn
    state, _ = play(state, c.Kill(), c.EndGame())
    assert view.turn(state) is None and headline(state) is None
    assert not view.next_moves(state).next_turn


def test_undone_next_player_gives_the_turn_back():
    from companion.journal import Journal
    from companion.session import Session
    from tests.test_bond_rules import setup

    session = Session.start(RULES, Journal(":memory:"), setup(3))
    session.dispatch(c.NextTurn())
    assert step(session.state) == (1, "draw")
    session.undo()
    assert step(session.state) == (0, "draw")


@pytest.mark.parametrize(("language", "lines"), [
    ("en", ["Ann: draw a card", "Then, if you wish, a lair card and spies",
            "Ann: spies, if you wish", "On any lair, or tap Next player",
            "Bob: kill or ridicule the spy", "The captured spy is worth 2 points",
            "Cid's turn."]),
    ("fr", ["Ann : piochez une carte", "Puis, au choix, une carte repaire et des espions",
            "Ann : des espions, au choix", "Sur tout repaire, ou touchez Joueur suivant",
            "Bob : tuez ou ridiculisez", "L'espion capturé vaut 2 points",
            "À Cid de jouer."]),
])
def test_the_headline_and_its_line_in_both_languages(language, lines):
    say = Translator(language).message
    state = new_state(3)
    shown = [say(headline(state)), say(turn_hint(state))]
    state, _ = play(state, c.AddLairCard(0, 3))
    shown += [say(headline(state)), say(turn_hint(state))]
    state, _ = play(state, c.AddLairCard(1, 3), c.Attack(1, (2,), by=0))
    shown += [say(headline(state)), say(turn_hint(state))]
    state, events = play(state, c.Kill())
    assert len(instructions(events, state)) == 1  # the kill: the headline has the turn
    state, events = play(state, c.NextTurn())
    shown += [say(m) for m in instructions(events, state)]
    assert shown == lines


def test_the_turn_setting_is_read_and_a_game_set_up_before_it_keeps_the_rulebook_turn():
    from companion.games.bond.params import BondParams
    from tests.test_bond_rules import default_params

    section = default_params()
    assert section["turn_ends_after_spies"] is True  # the shipped default: the rulebook
    assert BondParams.from_config(section).to_config() == section
    section["turn_ends_after_spies"] = False
    assert BondParams.from_config(section).turn_ends_after_spies is False
    del section["turn_ends_after_spies"]  # a journal's setup from before the setting
    assert BondParams.from_config(section).turn_ends_after_spies is True
    state = RULES.initial_state({"params": section, "players": [{"name": "A"}, {"name": "B"}]})
    assert state.params.turn_ends_after_spies and step(state) == (0, "draw")


def test_the_turn_setting_must_be_true_or_false(tmp_path):
    from companion import config

    user = tmp_path / "config.yaml"
    user.write_text("games:\n  bond:\n    turn_ends_after_spies: sometimes\n")
    with pytest.raises(config.ConfigError) as caught:
        load(user)
    assert [p.key for p in caught.value.problems] == ["games.bond.turn_ends_after_spies"]
    user.write_text("games:\n  bond:\n    turn_ends_after_spies: false\n")
    assert load(user).get("games.bond")["turn_ends_after_spies"] is False
