"""Wave 2 of the take / Vincent / legality families: questions about why a rule is so or how / where a mechanism works
stay with retrieval (the runner's rule-question gate); positions said relative to the free card; tokens stated in
prose ("j'en avais 3", "je passe de 4 a 6"); Vincent's tokens and the chance of a face-up token. Oracles are the
engine's own functions (take_cost, apply_action, vincent_take_odds, the ruleset data), never the intents' code."""

import re

import pytest
from compute_helpers import ask
from rulesbot.engine import canvas as engine

BASE = engine.ruleset("base")
SOLO = engine.ruleset("solo-puzzle")
VINCENT = engine.ruleset("vincent")


# ------------------------------------------------------------------------------------ rule questions stay rules


@pytest.mark.parametrize(("question", "lang"), [
    ("how come skipping to the 4th card costs me 3 tokens?", "en"),
    ("pourquoi prendre la 2e carte me coûte un jeton ?", "fr"),
    ("when I grab the 4th card that has 2 tokens on it, do those tokens return to the box?", "en"),
    ("puzzle solo : une fois la 2e carte prise, comment la rangée se complète ?", "fr"),
    ("si je prends la 3e, les jetons que je paie je les mets où ?", "fr"),
    ("the 5 silver ribbons achievement, is that in one painting or across the whole game?", "en"),
    ("les 7 rubans argent du succès, faut les avoir dans une peinture ou sur toute la partie ?", "fr"),
])
def test_why_how_where_questions_about_a_mechanism_are_rule_questions(question, lang):
    answer = ask(question, lang)
    assert answer is None, answer and answer.answer


@pytest.mark.parametrize(("question", "lang", "cost"), [
    # A value asked beside the mechanism keeps the computation.
    ("Solo Puzzle, card 4 please: how much does it cost me, and where do the skipped ones end up?", "en", 3),
    ("combien coûte la 4e carte et comment ça marche pour les jetons ?", "fr", 3),
])
def test_a_value_asked_beside_a_mechanism_is_still_computed(question, lang, cost):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["cost"] == cost, answer and answer.answer


def tokens_after(held, position, on_cards=()):
    """What a player holds after taking `position` in the base game (engine.take_cost)."""
    cost, gain = engine.take_cost(position, list(on_cards) + [0] * (BASE.row_size - len(on_cards)))
    return held - cost + gain


# ------------------------------------------------------------------------------------ positions and tokens in prose


@pytest.mark.parametrize(("question", "lang", "position"), [
    ("empty row of tokens. the 3rd card counting from the free one, what's it cost me?", "en", 3),
    ("la 5e carte en comptant depuis la gratuite, elle coûte combien ?", "fr", 5),
    ("starting from the leftmost card, the second one costs how many tokens?", "en", 2),
    ("la 4e à partir de la carte gratuite ça me coûte combien de jetons ?", "fr", 4),
])
def test_where_counting_starts_is_not_a_second_card(question, lang, position):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["position"] == position, answer and answer.answer
    assert answer.engine["cost"] == engine.take_cost(position, [0] * BASE.row_size)[0]


@pytest.mark.parametrize(("question", "lang", "position"), [
    ("in solo puzzle grabbing card number 4 costs what, and the 3 I skip are gone?", "en", 4),
    ("puzzle solo je prends la 3e carte, combien ça coûte et les 2 que je saute partent où ?", "fr", 3),
    ("in solo puzzle what does it cost to take card 5, and what about the 4 cards I skipped?", "en", 5),
])
def test_the_count_of_cards_skipped_is_what_the_take_skips(question, lang, position):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["position"] == position, answer and answer.answer
    assert answer.engine["discarded"] == position - 1  # Solo Puzzle discards every skipped card


@pytest.mark.parametrize(("question", "lang", "verdict"), [
    ("la 2e carte porte 3 jetons ; j'en avais 2 au départ, je la prends et il m'en reste 4, c'est bien ça ?", "fr",
     tokens_after(2, 2, [0, 3]) == 4),
    ("the free card has 1 token on it, I take it so I go from 3 to 4 tokens, right?", "en", tokens_after(3, 1, [1]) == 4),
    ("je prends la 4e, je passe de 5 à 3 jetons c'est ça ?", "fr", tokens_after(5, 4) == 3),
    ("i had 4 tokens to start, took the 3rd card with nothing on it and now i'm left with 3, yeah?", "en",
     tokens_after(4, 3) == 3),
])
def test_tokens_held_before_and_after_said_in_prose(question, lang, verdict):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim" and answer.verdict is verdict, answer and answer.answer


@pytest.mark.parametrize(("question", "lang", "held", "position", "on_cards"), [
    ("j'ai 2 jetons. la carte gratuite a rien, la 3e en a 2. si je prends la 3e j'en aurai combien ?", "fr", 2, 3, [0, 0, 2]),
    ("I have 1 token; the free one has nothing, the 2nd has 2. taking the 2nd, how many do I end with?", "en", 1, 2, [0, 2]),
    ("4 jetons pour moi, la plus proche de la pioche en a 1. je prends la 5e, il m'en reste combien ?", "fr", 4, 5,
     [0, 0, 0, 0, 1]),
])
def test_cards_described_by_their_tokens_are_not_the_card_taken(question, lang, held, position, on_cards):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["position"] == position, answer and answer.answer
    assert answer.engine["tokens_after"] == tokens_after(held, position, on_cards)


# ------------------------------------------------------------------------------------ Vincent


def _binomial(tokens, face_up):
    """P(exactly `face_up` of `tokens` land face up), from the ruleset's chance of one token (an independent oracle)."""
    import math

    up = VINCENT.vincent_face_up_probability
    return math.comb(tokens, face_up) * up**face_up * (1 - up) ** (tokens - face_up)


@pytest.mark.parametrize(("question", "lang", "tokens", "event"), [
    ("Vincent lance 3 jetons : quelles chances d'en voir au moins un face visible ?", "fr", 3, ("at_least", 1)),
    ("what's the chance none of vincent's 2 tokens land face up?", "en", 2, ("exactly", 0)),
    ("vincent has 4 tokens: odds that exactly 2 of them come up face up?", "en", 4, ("exactly", 2)),
    ("avec 5 jetons, quelle chance que vincent en ait au moins 2 face visible ?", "fr", 5, ("at_least", 2)),
])
def test_the_chance_of_face_up_tokens_is_the_toss_law(question, lang, tokens, event):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["intent"] == "vincent_face_up", answer and answer.answer
    kind, count = event
    expected = (sum(_binomial(tokens, up) for up in range(count, tokens + 1)) if kind == "at_least"
                else _binomial(tokens, count))
    assert answer.engine["tokens"] == tokens and answer.engine["probability"] == str(expected)


@pytest.mark.parametrize(("question", "lang", "tokens"), [
    ("bon, vincent il lui reste que 3 jetons : proba de choisir la 2e carte ?", "fr", 3),
    ("how likely is it he picks the free card now that vincent's got 2 tokens", "en", 2),
    ("vincent is down to 1 token, what's the probability he takes the 2nd card?", "en", 1),
])
def test_vincent_tokens_said_in_chat(question, lang, tokens):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["intent"] == "vincent_odds", answer and answer.answer
    assert answer.engine["tokens"] == tokens
    odds = dict(engine.vincent_take_odds(vincent_tokens=tokens))
    assert answer.engine["probability"] == str(odds[answer.engine["position"]])


@pytest.mark.parametrize(("follow_up", "lang", "previous", "tokens"), [
    ("et avec 2 ?", "fr", "vincent a 4 jetons, quelle proba qu'il prenne la 3e carte ?", 2),
    ("and if he has only 1?", "en", "vincent has 3 tokens, odds he takes the 2nd card?", 1),
    ("and with 5?", "en", "vincent's got 4 tokens, chance he takes the free card?", 5),
])
def test_a_follow_up_restating_vincent_tokens(follow_up, lang, previous, tokens):
    answer = ask(follow_up, lang, context=[previous])
    assert answer is not None and answer.engine["tokens"] == tokens, answer and answer.answer
    odds = dict(engine.vincent_take_odds(vincent_tokens=tokens))
    assert answer.engine["probability"] == str(odds[answer.engine["position"]])


def _most_spent(tokens):
    """The most Vincent spends in a turn: one skip cost per card before the farthest card he can select (engine odds)."""
    farthest = max(where for where, chance in engine.vincent_take_odds(vincent_tokens=tokens) if chance > 0)
    return (farthest - 1) * VINCENT.skip_cost_per_card


@pytest.mark.parametrize(("question", "lang", "tokens", "stated"), [
    ("vincent has 5 tokens, my sister says he can spend all 5 in one go", "en", 5, 5),
    ("vincent a 3 jetons, il peut dépenser 3 jetons d'un coup, non ?", "fr", 3, 3),
    ("vincent's got 2 tokens, he can use all 2 of them right?", "en", 2, 2),
    ("vincent a 6 jetons et mon pote dit qu'il peut tous les poser, donc utiliser 6 jetons", "fr", 6, 6),
])
def test_what_vincent_can_spend_in_a_turn(question, lang, tokens, stated):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim", answer and answer.answer
    assert answer.engine["tokens"] == tokens and answer.engine["most_spent"] == _most_spent(tokens)
    assert answer.verdict is (stated <= _most_spent(tokens))


# ------------------------------------------------------------------------------------ legality said as claims


@pytest.mark.parametrize(("question", "lang", "held"), [
    ("five cards in hand, so painting is forced on my next turn, yeah?", "en", 5),
    ("avec 4 cartes en main je suis obligé de peindre, c'est ça ?", "fr", 4),
    ("j'ai 5 cartes en main donc mon tour doit être une peinture, non ?", "fr", 5),
    ("my mate says holding 3 cards in hand you're forced to paint", "en", 3),
])
def test_an_obligation_to_paint_is_checked_against_the_hand_limit(question, lang, held):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim", answer and answer.answer
    assert answer.verdict is (held >= BASE.hand_limit)  # taking is refused only at the hand limit (ruleset data)


@pytest.mark.parametrize(("question", "lang", "done"), [
    ("my sister reckons after your 3rd painting you can still take cards to block others", "en", 3),
    ("mon pote dit qu'une fois ta peinture 3 finie tu peux encore prendre des cartes", "fr", 3),
    ("once you've finished painting 2 you can still take cards, right?", "en", 2),
])
def test_taking_after_the_last_painting_is_refused(question, lang, done):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim", answer and answer.answer
    assert answer.verdict is (done < BASE.paintings)


# ------------------------------------------------------------------------------------ the row after a take


def _row_after(takes, row_tokens=()):
    """Row tokens after applying `takes` (row positions, one player each in turn) in the engine, from plenty of tokens."""
    row = [card.id for card in engine.ART_CARDS[: BASE.row_size]]
    players = len(takes)
    state = engine.custom_game(row=row, hands=((),) * max(players, 2), tokens=(20,) * max(players, 2),
                               row_tokens=list(row_tokens))
    nets = []
    for player, position in enumerate(takes):
        before = state.players[player].tokens
        state = engine.apply_action(state, engine.TakeCard(player=player, position=position))
        nets.append(state.players[player].tokens - before)
    return list(state.row_tokens), nets


@pytest.mark.parametrize(("question", "lang", "take", "on_cards", "asked"), [
    ("there's 1 token on the 2nd card. i take the 4th. how many tokens are on the second card after that?", "en", 4,
     [0, 1], 2),
    ("je prends la 3e carte, combien de jetons sur la 1re après ?", "fr", 3, [], 1),
    ("la 2e carte a 2 jetons, je prends la 5e : combien de jetons restent sur la 2e ensuite ?", "fr", 5, [0, 2], 2),
])
def test_the_tokens_left_on_a_card_after_a_take(question, lang, take, on_cards, asked):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["position"] == take, answer and answer.answer
    row, _nets = _row_after([take], on_cards)
    assert answer.engine["row_tokens_after"] == row
    # The sentence names the asked card, then its tokens after.
    assert re.search(rf"\b{asked}\b[^.]*\b{row[asked - 1]} (?:tokens?|jetons?)\b", answer.answer), answer.answer


@pytest.mark.parametrize(("question", "lang", "takes", "asked"), [
    ("sam took the 4th card, then alex takes the 3rd. how many tokens does alex gain or lose?", "en", [4, 3], 1),
    ("léa a pris la 3e carte, ensuite tom prend la 1re : combien de jetons gagne tom ?", "fr", [3, 1], 1),
    ("jo takes the 2nd card and then max takes the 2nd too. what's jo's net on tokens?", "en", [2, 2], 0),
])
def test_two_players_take_one_after_the_other(question, lang, takes, asked):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["intent"] == "take_players", answer and answer.answer
    row, nets = _row_after(takes)
    assert answer.engine["nets"] == nets and answer.engine["asked"] == asked
    assert answer.engine["row_tokens_after"] == row


def test_a_follow_up_asks_the_row_after_the_previous_takes():
    previous = "sam took the 4th card, then alex takes the 3rd. how many tokens does alex gain or lose?"
    answer = ask("and then how many tokens end up on the 1st card afterwards?", "en", context=[previous])
    row, _nets = _row_after([4, 3])
    assert answer is not None and answer.engine["row_tokens_after"] == row, answer and answer.answer


def _vincent_selects(face_up, tokens=VINCENT.vincent_tokens):
    """The row position of the card Vincent's turn removes for a face-up count (engine.vincent_turn)."""
    row = [card.id for card in engine.ART_CARDS[: VINCENT.row_size]]
    state = engine.custom_game(row=row, hands=((),), ruleset_name="vincent", vincent_tokens=tokens)
    after = engine.vincent_turn(state, face_up)
    (gone,) = [card_id for card_id in row if card_id not in after.row]
    return row.index(gone) + 1


@pytest.mark.parametrize(("question", "lang", "face_up", "claimed"), [
    ("vincent : un seul jeton tombe face visible, donc il défausse la 2e carte et pose ce jeton sur la 1re, non ?", "fr",
     1, 2),
    ("vincent tosses, 2 land face up, so he puts them on the 1st and 2nd and discards the 4th, right?", "en", 2, 4),
    ("vincent lance, 3 tombent face visible donc il vire la 4e carte, non ?", "fr", 3, 4),
])
def test_a_claim_about_the_card_vincent_discards(question, lang, face_up, claimed):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim", answer and answer.answer
    assert answer.verdict is (_vincent_selects(face_up) == claimed)


# ------------------------------------------------------------------------------------ Solo Puzzle: the state after


def _solo_after(held, supply, position):
    """(tokens held, supply) after a Solo Puzzle take (engine.apply_action)."""
    row = [card.id for card in engine.ART_CARDS[: SOLO.row_size]]
    state = engine.custom_game(row=row, hands=((),), tokens=(held,), ruleset_name="solo-puzzle", supply=supply)
    after = engine.apply_action(state, engine.TakeCard(player=0, position=position))
    return after.players[0].tokens, after.supply


@pytest.mark.parametrize(("question", "lang", "held", "supply", "position", "said"), [
    ("en puzzle solo avec 3 jetons et la réserve a 2, je pioche la 1re carte : la réserve est à 1 et j'ai 4, c'est ça ?", "fr",
     3, 2, 1, (4, 1)),
    ("solo puzzle, 4 tokens and the supply has 3. I take the 2nd card so I'm on 3 and the supply is at 4, right?", "en",
     4, 3, 2, (3, 4)),
    ("puzzle solo : j'ai 2 jetons, la réserve a 0, je prends la carte gratuite, la réserve reste à 1 non ?", "fr",
     2, 0, 1, (None, 1)),
])
def test_a_claimed_state_after_a_solo_puzzle_take(question, lang, held, supply, position, said):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim", answer and answer.answer
    tokens, left = _solo_after(held, supply, position)
    claimed_tokens, claimed_supply = said
    assert answer.verdict is (claimed_supply == left and claimed_tokens in (None, tokens))


@pytest.mark.parametrize(("question", "lang"), [
    ("grabbing card 3 with a couple of tokens on top, do those go to the box or what?", "en"),
    ("je prends la 4e, les jetons dessus partent dans la boîte ?", "fr"),
    ("the 2 tokens I put on the skipped cards, do they stay there after my turn?", "en"),
])
def test_where_tokens_go_is_a_rule_question(question, lang):
    answer = ask(question, lang)
    assert answer is None, answer and answer.answer
