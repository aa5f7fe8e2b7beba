"""Take cost, row tokens, legality, Vincent and Solo Puzzle questions in chat phrasing, and the runner's verification
step (a computation that leaves a stated number or thing unexplained is discarded). Oracles are the engine's own
functions (take_cost, apply_action, check_action, vincent_take_odds) called directly here, never the intents' code."""

from fractions import Fraction

import pytest
from compute_helpers import ask
from rulesbot.engine import canvas as engine

from rulesbot.compute.registry import Computation, Intent, run, unexplained
from rulesbot.parsed import Parsed, Slot

BASE = engine.ruleset("base")
SOLO = engine.ruleset("solo-puzzle")


def tokens_after(held, position, on_cards=()):
    """What a player holds after taking `position` in the base game (engine.take_cost)."""
    cost, gain = engine.take_cost(position, list(on_cards) + [0] * (BASE.row_size - len(on_cards)))
    return held - cost + gain


def _state(rules, tokens, supply=None):
    row = [card.id for card in engine.ART_CARDS[: rules.row_size]]
    return engine.custom_game(row=row, hands=((),), tokens=(tokens,), ruleset_name=rules.name, supply=supply)


# ------------------------------------------------------------------------------------ tokens said in prose


@pytest.mark.parametrize(("question", "lang", "verdict"), [
    ("got 2 tokens, and there's 1 lying on the third card. if I take the third I end up with 1, yeah?", "en",
     tokens_after(2, 3, [0, 0, 1]) == 1),
    ("j'ai 3 jetons et il y en a 2 sur la 2e carte ; si je prends la 2e je finis avec 4 jetons", "fr",
     tokens_after(3, 2, [0, 2]) == 4),
    ("5 tokens, with 1 on card 4: taking card 4 leaves me with 2?", "en", tokens_after(5, 4, [0, 0, 0, 1]) == 2),
])
def test_a_stated_result_of_a_take_is_checked_against_the_tokens_after(question, lang, verdict):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim" and answer.verdict is verdict, answer and answer.answer


@pytest.mark.parametrize(("question", "lang", "held", "on_free"), [
    ("il y a 3 jetons sur la carte gratuite, moi j'en ai 1 : après l'avoir prise, combien j'en ai ?", "fr", 1, 3),
    ("I hold 2 tokens and 2 tokens are sitting on the free card. taking it, what have I got after?", "en", 2, 2),
])
def test_tokens_on_a_card_named_in_words_are_gained(question, lang, held, on_free):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["tokens_after"] == tokens_after(held, 1, [on_free]), answer and answer.answer


# ------------------------------------------------------------------------------------ positions in words


@pytest.mark.parametrize(("question", "lang", "position"), [
    ("how much does the second-to-last card cost?", "en", BASE.row_size - 1),
    ("combien coûte l'avant-dernière carte ?", "fr", BASE.row_size - 1),
    ("how much does the card right by the deck cost?", "en", BASE.row_size),
    ("combien coûte la carte trois cartes après la gratuite ?", "fr", 4),
    ("combien coûte la carte de gauche ?", "fr", 1),
])
def test_positions_said_in_words(question, lang, position):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["position"] == position, answer and answer.answer
    assert answer.engine["cost"] == engine.take_cost(position, [0] * BASE.row_size)[0]


@pytest.mark.parametrize(("question", "lang", "held", "position"), [
    ("with only 2 tokens, could I take the second-to-last one?", "en", 2, BASE.row_size - 1),
    ("je peux prendre l'avant-dernière carte avec 3 jetons ?", "fr", 3, BASE.row_size - 1),
    ("with my 2 tokens I could pick the card beside the deck, right?", "en", 2, BASE.row_size),
])
def test_affordability_of_a_card_named_in_words(question, lang, held, position):
    answer = ask(question, lang)
    allowed = engine.check_action(_state(BASE, held), engine.TakeCard(player=0, position=position)) is None
    assert answer is not None and answer.engine["allowed"] is allowed, answer and answer.answer


# ------------------------------------------------------------------------------------ legality


def _hand_full_code():
    hand = [card.id for card in engine.ART_CARDS[BASE.row_size: BASE.row_size + BASE.hand_limit]]
    row = [card.id for card in engine.ART_CARDS[: BASE.row_size]]
    state = engine.custom_game(row=row, hands=(hand,), tokens=(BASE.starting_tokens,))
    return engine.check_action(state, engine.TakeCard(player=0, position=1))


@pytest.mark.parametrize(("question", "lang"), [
    ("my hand is full, can I still grab the free card?", "en"),
    ("j'ai la main pleine, je peux prendre la carte gratuite ?", "fr"),
    ("ma main est pleine (5 cartes), je peux piocher la gratuite ?", "fr"),
])
def test_a_full_hand_cannot_take_even_the_free_card(question, lang):
    answer = ask(question, lang)
    assert _hand_full_code() is not None
    assert answer is not None and answer.engine["intent"] == "legality", answer and answer.answer
    assert answer.engine["reason"] == _hand_full_code() and answer.engine["allowed"] is False


def test_a_claim_with_a_full_hand_is_false_despite_a_negative_aside():
    answer = ask("with a full hand I may still pick up the free card as it isn't costing me anything, true?")
    assert answer.kind == "claim" and answer.verdict is (_hand_full_code() is None), answer.answer


def _paint_code(count):
    hand = [card.id for card in engine.ART_CARDS[BASE.row_size: BASE.row_size + count]]
    row = [card.id for card in engine.ART_CARDS[: BASE.row_size]]
    state = engine.custom_game(row=row, hands=(hand,), tokens=(BASE.starting_tokens,))
    return engine.check_action(state, engine.CompletePainting(player=0, cards=tuple(hand)))


@pytest.mark.parametrize(("question", "lang", "count"), [
    ("on peut faire une peinture avec juste 2 cartes ?", "fr", 2),
    ("c possible de peindre avec 4 cartes ?", "fr", 4),
    ("am I allowed to finish a painting from just 2 cards?", "en", 2),
])
def test_painting_with_the_wrong_number_of_cards(question, lang, count):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["allowed"] is (_paint_code(count) is None), answer and answer.answer


@pytest.mark.parametrize(("question", "lang", "verdict"), [
    ("can I complete a painting with 2 cards? my cousin says yes", "en", _paint_code(2) is None),
    ("can I complete a painting with 2 cards? my cousin says no", "en", _paint_code(2) is not None),
    ("on peut peindre avec 4 cartes ? mon pote dit que oui", "fr", _paint_code(4) is None),
])
def test_a_reported_answer_makes_the_question_a_claim(question, lang, verdict):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim" and answer.verdict is verdict, answer and answer.answer


# ------------------------------------------------------------------------------------ Vincent


@pytest.mark.parametrize(("question", "lang", "tokens", "position"), [
    ("Vincent has collected 5 tokens, odds he takes the card next to the deck?", "en", 5, BASE.row_size),
    ("vincent a accumulé 7 jetons : quelle probabilité qu'il prenne la 4e carte ?", "fr", 7, 4),
    ("6 jetons pour Vincent maintenant : quelle chance qu'il prenne la carte du milieu ?", "fr", 6, 3),
])
def test_vincent_with_more_tokens_than_he_starts_with(question, lang, tokens, position):
    answer = ask(question, lang)
    expected = dict(engine.vincent_take_odds(vincent_tokens=tokens))[position]
    assert answer is not None and answer.engine["tokens"] == tokens, answer and answer.answer
    assert Fraction(answer.engine["probability"]) == expected


@pytest.mark.parametrize(("question", "lang"), [
    ("Vincent has no tokens left, which card does he take?", "en"),
    ("si vincent est à court de jetons, il prend quelle carte ?", "fr"),
    ("he's out of tokens - which card does vincent take?", "en"),
])
def test_vincent_without_tokens_takes_the_one_certain_card(question, lang):
    odds = dict(engine.vincent_take_odds(vincent_tokens=0))
    certain = [where for where, chance in odds.items() if chance == 1]
    answer = ask(question, lang)
    assert answer is not None and answer.engine["most_likely"] == certain[0], answer and answer.answer


def _likeliest(tokens):
    odds = dict(engine.vincent_take_odds(vincent_tokens=tokens))
    return max(odds, key=odds.get)


@pytest.mark.parametrize(("question", "lang", "tokens", "position"), [
    ("with 6 tokens vincent most likely takes the card next to the deck", "en", 6, BASE.row_size),
    ("avec 2 jetons, Vincent prend le plus probablement la 2e carte", "fr", 2, 2),
    ("vincent's most likely pick with all 4 of his tokens is the 4th card", "en", 4, 4),
])
def test_claims_about_vincents_most_likely_pick(question, lang, tokens, position):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim", answer and answer.answer
    assert answer.verdict is (_likeliest(tokens) == position), answer.answer


def test_a_tie_has_no_most_likely_pick():
    odds = dict(engine.vincent_take_odds(vincent_tokens=3))
    assert list(odds.values()).count(max(odds.values())) > 1  # the oracle: 3 tokens tie
    assert ask("with 3 tokens, which card is Vincent most likely to take?") is None


def _farthest(tokens):
    return max(where for where, chance in engine.vincent_take_odds(vincent_tokens=tokens) if chance > 0)


@pytest.mark.parametrize(("question", "lang", "verdict"), [
    ("with 1 token Vincent can't go beyond the 2nd card", "en", _farthest(1) <= 2),
    ("avec trois jetons, Vincent atteint des cartes au-delà de la 3e carte", "fr", _farthest(3) > 3),
    ("quand il a 4 jetons, Vincent ne dépasse jamais la 3e carte, je crois", "fr", _farthest(4) <= 3),
])
def test_claims_about_how_far_vincent_can_go(question, lang, verdict):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim" and answer.verdict is verdict, answer and answer.answer


@pytest.mark.parametrize(("question", "lang", "tokens", "face_up", "on_cards"), [
    ("only 1 of Vincent's 3 tokens comes up face up and the second card holds 2 tokens: he finishes on 4 tokens, correct?",
     "en", 3, 1, {2: 2}),
    ("vincent lance ses 4 jetons, 3 tombent face visible ; il finit avec 1 jeton", "fr", 4, 3, {}),
])
def test_a_stated_result_of_vincents_turn_is_checked(question, lang, tokens, face_up, on_cards):
    rules = engine.ruleset("vincent")
    row = [card.id for card in engine.ART_CARDS[: rules.row_size]]
    row_tokens = [on_cards.get(index, 0) for index in range(1, rules.row_size + 1)]
    state = engine.custom_game(row=row, hands=((),), row_tokens=row_tokens, ruleset_name=rules.name, vincent_tokens=tokens)
    after = engine.vincent_turn(state, face_up).vincent_tokens
    stated = int([word for word in question.split() if word.isdigit()][-1])
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim" and answer.verdict is (after == stated), answer and answer.answer


# ------------------------------------------------------------------------------------ Solo Puzzle


def _sequence(positions, tokens):
    state = _state(SOLO, tokens)
    for position in positions:
        state = engine.apply_action(state, engine.TakeCard(player=0, position=position))
    return state.players[0].tokens, state.supply


@pytest.mark.parametrize(("question", "lang", "positions", "tokens"), [
    ("solo puzzle: I hold 4 tokens, I take the 2nd card and then the free one next turn. how many tokens do I have?", "en",
     [2, 1], 4),
    ("en puzzle solo, avec 4 jetons je prends la 4e puis ensuite la 2e : combien de jetons il me reste ?", "fr", [4, 2], 4),
    ("puzzle solo, j'ai 3 jetons : je prends la gratuite puis au tour suivant la 3e, il me reste combien ?", "fr", [1, 3], 3),
])
def test_two_takes_in_a_row_in_solo_puzzle(question, lang, positions, tokens):
    answer = ask(question, lang)
    held, supply = _sequence(positions, tokens)
    assert answer is not None and answer.engine["tokens_after"] == held, answer and answer.answer
    assert answer.engine["supply_after"] == supply


def test_solo_puzzle_where_does_a_take_leave_me():
    answer = ask("Solo Puzzle, the supply has 2 and I've got 3 tokens. I take the 3rd card, where does that leave me?")
    state = engine.apply_action(_state(SOLO, 3, supply=2), engine.TakeCard(player=0, position=3))
    assert answer is not None and answer.engine["tokens_after"] == state.players[0].tokens, answer and answer.answer
    assert answer.engine["supply_after"] == state.supply


@pytest.mark.parametrize(("question", "lang", "claimed"), [
    ("puzzle solo : prendre la carte de gauche me rapporte 1 jeton, c'est ça ?", "fr", 1),
    ("in solo puzzle taking the leftmost card gains me 2 tokens, right?", "en", 2),
    ("en prenant la plus à gauche en puzzle solo, on gagne 3 jetons", "fr", 3),
])
def test_solo_puzzle_gain_for_the_free_card(question, lang, claimed):
    before = _state(SOLO, 0)
    gain = engine.apply_action(before, engine.TakeCard(player=0, position=1)).players[0].tokens - before.players[0].tokens
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim" and answer.verdict is (gain == claimed), answer and answer.answer


# ------------------------------------------------------------------------------------ rule questions stay rules


@pytest.mark.parametrize(("question", "lang"), [
    ("if I take the 4th card, what happens to the 3 tokens I left on the 1st, 2nd and 3rd?", "en"),
    ("j'ai 5 cartes, j'en peins 3, les 2 autres je les garde ?", "fr"),
    ("si je prends la 2e carte, le jeton que j'ai mis sur la 1re je le récupère ?", "fr"),
    ("I have 4 cards and paint 3 of them, is the 4th discarded?", "en"),
    ("je prends la 3e carte, les 2 jetons posés sur les autres vont où ?", "fr"),
])
def test_rule_questions_with_numbers_are_not_hijacked_by_a_take_or_legality(question, lang):
    answer = ask(question, lang)
    assert answer is None, answer.answer


# ------------------------------------------------------------------------------------ the verification step


def _parsed(*slots):
    return Parsed(text="q", folded="x" * 40, lang="en", game="toy", slots=tuple(slots))


def _intent(explains, computation):
    return Intent(name="toy", compute=lambda parsed: computation, explains=explains)


def test_a_computation_leaving_a_stated_number_unexplained_is_discarded():
    computation = Computation(intent="toy", sentences=["x"])
    parsed = _parsed(Slot("position", 3, 0, 5), Slot("number", 3, 3, 4), Slot("number", 6, 10, 11))
    verified = _intent(frozenset({"position"}), computation)
    assert [slot.value for slot in unexplained(parsed, verified, computation)] == [6]
    assert run(parsed, [verified]) is None
    # Not verified: the runner keeps the old behaviour.
    assert run(parsed, [_intent(None, computation)]) is computation


def test_a_span_the_computation_read_itself_is_explained():
    computation = Computation(intent="toy", sentences=["x"], explained=[(10, 11)])
    parsed = _parsed(Slot("position", 3, 0, 5), Slot("number", 6, 10, 11))
    assert run(parsed, [_intent(frozenset({"position"}), computation)]) is computation


def test_a_slot_of_a_kind_the_intent_ignores_is_unexplained_and_the_next_intent_answers():
    first = Computation(intent="first", sentences=["x"])
    second = Computation(intent="second", sentences=["y"])
    parsed = _parsed(Slot("position", 1, 0, 5), Slot("hand_size", 5, 10, 15), Slot("number", 5, 10, 11))
    intents = [Intent(name="a", compute=lambda p: first, requires=("position",), explains=frozenset({"position"})),
               Intent(name="b", compute=lambda p: second, explains=frozenset({"position", "hand_size"}))]
    assert run(parsed, intents) is second


def test_inherited_slots_are_not_checked():
    computation = Computation(intent="toy", sentences=["x"])
    parsed = _parsed(Slot("position", 2, 0, 5), Slot("hand_size", 5, 0, 0, inherited=True))
    assert run(parsed, [_intent(frozenset({"position"}), computation)]) is computation


def test_the_default_is_not_used_when_the_question_states_vincents_tokens():
    # "amassed 6": before the fix the 6 was not read and the default 4 tokens answered another question.
    answer = ask("if Vincent has amassed 6 tokens, how likely is it that the free card is his pick?")
    assert answer is not None and answer.engine["tokens"] == 6, answer and answer.answer


# ------------------------------------------------------------------------------------ reach, none left, empty supply


def _farthest_affordable(tokens):
    state = _state(BASE, tokens)
    return max(position for position in range(1, BASE.row_size + 1)
               if engine.check_action(state, engine.TakeCard(player=0, position=position)) is None)


@pytest.mark.parametrize(("question", "lang", "tokens"), [
    ("with 3 tokens what's the farthest card I can take?", "en", 3),
    ("j'ai 2 jetons, jusqu'à quelle carte je peux aller ?", "fr", 2),
    ("I have 1 token: how far down the row can I go?", "en", 1),
])
def test_the_farthest_card_a_player_can_afford(question, lang, tokens):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["position"] == _farthest_affordable(tokens), answer and answer.answer


@pytest.mark.parametrize(("question", "lang", "tokens", "position"), [
    ("with 2 tokens can Vincent take the 4th card?", "en", 2, 4),
    ("Vincent has 3 tokens. Is he able to reach the last card?", "en", 3, BASE.row_size),
    ("vincent a 1 jeton, il peut prendre la 2e carte ?", "fr", 1, 2),
])
def test_whether_vincent_can_reach_a_card_with_the_tokens_stated(question, lang, tokens, position):
    answer = ask(question, lang)
    possible = dict(engine.vincent_take_odds(vincent_tokens=tokens))[position] > 0
    assert answer is not None and answer.engine["possible"] is possible, answer and answer.answer


def test_whether_vincent_can_take_a_card_without_his_tokens_stays_a_rule():
    assert ask("can Vincent take the first card?") is None


@pytest.mark.parametrize(("question", "lang"), [
    ("I've got no tokens left, can I take the 2nd card?", "en"),
    ("je n'ai plus de jetons, je peux prendre la 2e carte ?", "fr"),
    ("i'm out of tokens (0), is taking the 3rd card possible?", "en"),
])
def test_a_player_without_tokens(question, lang):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["player_tokens"] == 0, answer and answer.answer


@pytest.mark.parametrize(("question", "lang"), [
    ("en puzzle solo il n'y a plus de jetons dans la réserve, si je prends la carte gratuite je gagne combien ?", "fr"),
    ("solo puzzle with no tokens left in the supply: what do I gain taking the free card?", "en"),
])
def test_an_empty_supply_said_in_words_changes_the_gain(question, lang):
    before = _state(SOLO, 0, supply=0)
    gain = engine.apply_action(before, engine.TakeCard(player=0, position=1)).players[0].tokens
    answer = ask(question, lang)
    assert answer is not None and answer.engine["gain"] == gain, answer and answer.answer


@pytest.mark.parametrize(("question", "lang"), [
    ("si je prends la 4e carte, les jetons posés sur les 3 premières je les perds ?", "fr"),
    ("taking the 5th card, the tokens I put on the 4 others are gone?", "en"),
])
def test_a_count_of_cards_is_not_a_claimed_cost(question, lang):
    assert ask(question, lang) is None


@pytest.mark.parametrize(("question", "lang"), [
    ("avec 2 jetons, vincent peut aller jusqu'à quelle carte ?", "fr"),
    ("up to which card can Vincent go with 1 token?", "en"),
])
def test_up_to_which_card_is_not_the_player_count(question, lang):
    answer = ask(question, lang)
    assert answer is None or answer.engine["intent"] != "components", answer.answer


@pytest.mark.parametrize(("question", "lang"), [
    ("can I take the 2nd card and then paint on the same turn?", "en"),
    ("je prends la 2e puis je peins dans le même tour, c'est possible ?", "fr"),
    ("I take the 3rd card then paint, is that allowed?", "en"),
])
def test_a_take_and_a_painting_in_one_turn_is_a_rule_question(question, lang):
    answer = ask(question, lang)
    assert answer is None, answer.answer


@pytest.mark.parametrize(("question", "lang", "tokens", "face_up"), [
    ("vincent lance ses 4 jetons et 2 tombent face visible, il prend quelle carte ?", "fr", 4, 2),
    ("Vincent tosses 4 tokens and 3 land face up: which card does he take?", "en", 4, 3),
])
def test_the_card_vincent_takes_for_a_face_up_count(question, lang, tokens, face_up):
    rules = engine.ruleset("vincent")
    row = [card.id for card in engine.ART_CARDS[: rules.row_size]]
    state = engine.custom_game(row=row, hands=((),), ruleset_name=rules.name, vincent_tokens=tokens)
    after = engine.vincent_turn(state, face_up)
    taken = [position for position, card_id in enumerate(state.row, start=1) if card_id in after.discards]
    answer = ask(question, lang)
    assert answer is not None and [answer.engine["position"]] == taken, answer and answer.answer


def test_the_same_card_taken_twice_is_two_takes():
    answer = ask("solo puzzle, I take the free card twice in a row with 2 tokens, how many do I have?")
    assert answer is not None and answer.engine["tokens_after"] == _sequence([1, 1], 2)[0], answer and answer.answer


def test_an_odds_claim_without_a_probability_is_not_answered_as_a_number():
    answer = ask("Vincent's best chance with 2 tokens is the 2nd card, right?")
    assert answer is not None and answer.kind == "claim", answer and answer.answer
    assert answer.verdict is (_likeliest(2) == 2)


@pytest.mark.parametrize(("question", "lang"), [
    ("5 cartes en main, je peux encore prendre la gratuite ?", "fr"),
    ("full hand, 5 cards. can I pick up the free card?", "en"),
    ("I'm holding 5 cards, can I still draw from the row?", "en"),
])
def test_a_hand_size_said_on_its_own(question, lang):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["reason"] == _hand_full_code(), answer and answer.answer


@pytest.mark.parametrize(("question", "lang"), [
    ("is painting mandatory as soon as I hold 3 cards?", "en"),
    ("with 3 cards in hand, is it compulsory to paint?", "en"),
    ("avec 3 cartes en main, est-on obligé de peindre ?", "fr"),
])
def test_an_obligation_is_not_a_legality_check(question, lang):
    answer = ask(question, lang)
    assert answer is None, answer.answer


@pytest.mark.parametrize(("question", "lang"), [
    ("quelles cartes de score donnent jusqu'à 4 rubans ?", "fr"),
    ("which scoring cards give up to 3 ribbons?", "en"),
])
def test_up_to_a_count_of_ribbons_is_not_the_player_count(question, lang):
    answer = ask(question, lang)
    assert answer is None or "max_players" not in str(answer.engine), answer.answer


@pytest.mark.parametrize(("question", "lang"), [
    ("puzzle solo, plus rien dans la réserve, je prends la carte de gauche : je gagne quoi ?", "fr"),
    ("solo puzzle with an empty supply, what do I gain by taking the leftmost card?", "en"),
])
def test_an_empty_supply_gain_says_nothing_is_gained(question, lang):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["gain"] == 0, answer and answer.answer
    assert ("aucun" if lang == "fr" else "nothing") in answer.answer


@pytest.mark.parametrize(("question", "lang"), [
    ("I hold five cards already, can I take one more and discard one?", "en"),
    ("j'ai 5 cartes en main, je peux en prendre une sixième ?", "fr"),
    ("with 5 cards in hand can I grab another one?", "en"),
])
def test_the_card_a_move_is_about_is_not_an_unexplained_count(question, lang):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["reason"] == _hand_full_code(), answer and answer.answer


@pytest.mark.parametrize(("question", "lang", "position", "claimed"), [
    ("does grabbing the 3rd card cost 1 token?", "en", 3, 1),
    ("est-ce que prendre la 2e carte coûte 1 jeton ?", "fr", 2, 1),
])
def test_a_yes_no_question_stating_a_cost_stays_a_claim(question, lang, position, claimed):
    answer = ask(question, lang)
    cost, _gain = engine.take_cost(position, [0] * BASE.row_size)
    assert answer is not None and answer.kind == "claim" and answer.verdict is (cost == claimed), answer and answer.answer


def test_a_statement_asking_what_follows_is_not_a_claim():
    answer = ask("solo puzzle: 3 tokens, I take the 4th. Supply after?")
    state = engine.apply_action(_state(SOLO, 3), engine.TakeCard(player=0, position=4))
    assert answer is not None and answer.kind == "computed" and answer.engine["supply_after"] == state.supply
