"""Game rules: taking cards, the hand limit, painting, turn order, variants and illegal-action codes (p. 2-5)."""

import pytest
from rulesbot.engine import canvas
from rulesbot.engine.canvas import (
    CompletePainting,
    TakeCard,
    apply_action,
    check_action,
    custom_game,
    new_game,
)

ROW = ["Precious", "Peaceful", "Heavy", "Fragile", "Chosen"]
DECK = ["Harmonious", "Melancholy", "Corrupted"]


def ids(*names):
    return tuple(canvas.card(name).id for name in names)


def test_setup_tokens_backgrounds_row():  # p. 2: 4 tokens, 3 backgrounds each; 5 cards face up
    state = new_game(4, seed=7)
    assert [player.tokens for player in state.players] == [4, 4, 4, 4]
    assert [state.backgrounds_left(index) for index in range(4)] == [3, 3, 3, 3]
    assert len([card_id for card_id in state.row if card_id]) == 5
    assert len(state.deck) == 55
    assert state.scoring == ("variety", "repetition", "emphasis", "composition")


def test_abby_then_charlotte():  # p. 3: Abby takes the 3rd card, Charlotte the 2nd
    state = custom_game(ROW, hands=[(), ()], deck=DECK)
    state = apply_action(state, TakeCard(0, 3))
    assert state.players[0].tokens == 2
    assert state.players[0].hand == ids("Heavy")
    assert state.row == ids("Precious", "Peaceful", "Fragile", "Chosen", "Harmonious")
    assert state.row_tokens == (1, 1, 0, 0, 0)
    state = apply_action(state, TakeCard(1, 2))
    assert state.players[1].tokens == 4  # paid 1, gained Abby's token on the card
    assert state.players[1].hand == ids("Peaceful")
    assert state.row == ids("Precious", "Fragile", "Chosen", "Harmonious", "Melancholy")
    assert state.row_tokens == (2, 0, 0, 0, 0)


def test_hand_limit_forces_painting():  # p. 3
    hand = ["Bait", "Beauty", "Nature", "Game", "Truth"]
    state = custom_game(ROW, hands=[hand, ()])
    assert check_action(state, TakeCard(0, 1)) == "action/hand_full"
    assert all(isinstance(action, CompletePainting) for action in canvas.legal_actions(state))
    with pytest.raises(canvas.IllegalAction) as caught:
        apply_action(state, TakeCard(0, 1))
    assert caught.value.code == "action/hand_full" and caught.value.page == 3


@pytest.mark.parametrize(
    ("hand", "tokens", "action", "code"),
    [
        ([], 0, TakeCard(0, 2), "action/not_enough_tokens"),
        ([], 4, TakeCard(0, 6), "action/no_such_position"),
        ([], 4, TakeCard(1, 1), "action/not_your_turn"),
        ([], 4, TakeCard(5, 1), "action/no_such_player"),
        (["Bait", "Beauty"], 4, CompletePainting(0, ids("Bait", "Beauty", "Nature")), "action/too_few_cards"),
        (
            ["Bait", "Beauty", "Nature"],
            4,
            CompletePainting(0, ids("Bait", "Beauty")),
            "action/wrong_card_count",
        ),
        (
            ["Bait", "Beauty", "Nature"],
            4,
            CompletePainting(0, ids("Bait", "Bait", "Nature")),
            "action/duplicate_card",
        ),
        (
            ["Bait", "Beauty", "Nature"],
            4,
            CompletePainting(0, ids("Bait", "Beauty", "Game")),
            "action/card_not_in_hand",
        ),
        ([], 4, TakeCard(0, 1), None),
    ],
)
def test_illegal_action_codes(hand, tokens, action, code):
    state = custom_game(ROW, hands=[hand, ()], tokens=[tokens, 4])
    assert check_action(state, action) == code


def test_painting_keeps_leftovers_and_skips_finished_players():  # p. 4 leftovers; p. 5 skipped turns
    hand = ["Bait", "Beauty", "Nature", "Game"]
    state = custom_game(ROW, hands=[hand, ()])
    state = apply_action(state, CompletePainting(0, ids("Bait", "Beauty", "Nature")))
    assert state.players[0].hand == ids("Game")
    assert state.backgrounds_left(0) == 2
    assert state.current == 1


def test_finished_player_is_skipped_and_refused():
    state = new_game(2, seed=1)
    final, _ = canvas.play_game(state, [canvas.greedy_bot, canvas.random_bot], seed=2)
    assert final.game_over
    assert all(len(player.paintings) == 3 for player in final.players)
    assert check_action(final, TakeCard(0, 1)) == "action/game_over"


def test_vincent_example():  # p. 5: 1 token face up, first card gets it, second card discarded with its token
    state = custom_game(ROW, hands=[()], ruleset_name="vincent", row_tokens=[0, 1], deck=DECK)
    after = canvas.vincent_turn(state, face_up=1)
    assert after.discards == ids("Peaceful")
    assert after.vincent_tokens == 4  # 4 - 1 spent + 1 gained
    assert after.row == ids("Precious", "Heavy", "Fragile", "Chosen", "Harmonious")
    assert after.row_tokens == (1, 0, 0, 0, 0)


def test_vincent_zero_face_up_discards_free_card():  # ruling 8.6
    state = custom_game(ROW, hands=[()], ruleset_name="vincent", deck=DECK)
    assert canvas.vincent_turn(state, face_up=0).discards == ids("Precious")


def test_vincent_plays_after_a_painting_in_solo():  # p. 5: Vincent still gets a turn if you paint
    state = custom_game(ROW, hands=[["Bait", "Beauty", "Nature"]], ruleset_name="vincent", deck=DECK)
    after = apply_action(state, CompletePainting(0, ids("Bait", "Beauty", "Nature")))
    assert canvas.is_chance_node(after) and after.discards == ()
    resolved = canvas.resolve_chance(after)
    assert len(resolved.discards) == 1 and not canvas.is_chance_node(resolved)
    assert resolved.events[-1].startswith("Vincent")


def test_vincent_toss_outcomes_sum_to_one():
    outcomes = canvas.vincent_toss_outcomes(5)
    assert sum(probability for _, probability in outcomes) == 1
    assert max(face_up for face_up, _ in outcomes) == 4  # at most 4 are spent


def test_solo_puzzle_example():  # p. 5: pay 2 to the supply, first two discarded, take the third
    state = custom_game(ROW, hands=[()], ruleset_name="solo-puzzle", deck=DECK)
    after = apply_action(state, TakeCard(0, 3))
    assert after.players[0].tokens == 2 and after.supply == 6
    assert after.discards == ids("Precious", "Peaceful")
    assert after.players[0].hand == ids("Heavy")
    assert after.row == ids("Fragile", "Chosen", "Harmonious", "Melancholy", "Corrupted")


def test_solo_puzzle_gains():  # p. 5: +1 from the supply for the leftmost card and for a painting
    state = custom_game(ROW, hands=[["Bait", "Beauty", "Nature"]], ruleset_name="solo-puzzle", deck=DECK)
    after = apply_action(state, TakeCard(0, 1))
    assert after.players[0].tokens == 5 and after.supply == 3
    painted = apply_action(state, CompletePainting(0, ids("Bait", "Beauty", "Nature")))
    assert painted.players[0].tokens == 5 and painted.supply == 3
    empty = custom_game(ROW, hands=[()], ruleset_name="solo-puzzle", supply=0)
    assert apply_action(empty, TakeCard(0, 1)).players[0].tokens == 4  # empty supply: no gain


def test_ribbon_cap():  # p. 4: never more ribbons than the card shows
    state = custom_game(ROW[:4], hands=[["Chosen", "Game", "Truth"], ()], scoring=["repetition"])
    state = canvas.GameState.from_dict(
        {
            **state.to_dict(),
            "players": [{**state.to_dict()["players"][0], "ribbons": [3]}, state.to_dict()["players"][1]],
        }
    )
    after = apply_action(state, CompletePainting(0, ids("Chosen", "Game", "Truth")))
    assert after.players[0].paintings[0].ribbons == (2,)
    assert after.players[0].ribbons == (4,)


def test_chill_mode_draws_three_seeded_cards():
    first = new_game(2, scoring="chill-mode", seed=11)
    assert len(first.scoring) == 3 and first.scoring == new_game(2, scoring="chill-mode", seed=11).scoring


def test_tie_break():  # p. 5: most tokens wins; still tied -> both reported
    assert canvas.winners([29, 29], [3, 1]) == (0,)
    assert canvas.winners([29, 29], [2, 2]) == (0, 1)
    assert canvas.winners([30, 29], [0, 4]) == (0,)


def test_from_dict_errors():
    data = new_game(2).to_dict()
    with pytest.raises(ValueError, match="expected int, got str"):
        canvas.GameState.from_dict({**data, "seed": "x"})
    with pytest.raises(ValueError, match="exactly once"):
        canvas.GameState.from_dict({**data, "deck": data["deck"][1:]})
    with pytest.raises(ValueError, match="expected 'take' or 'paint'"):
        canvas.action_from_dict({"type": "jump"})
