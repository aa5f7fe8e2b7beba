"""Fourth-round computed families: take claims stating several values, paintings read in more layouts, claims counting
one Scoring Card's ribbons in words, best paintings of larger hands, and totals over several paintings.

Oracles come from the engine (take_cost, the painting scorer, points tables, game_score) or from the rule as the
rulebook states it, never from the answer's own code path; every question is worded here, not copied from an eval set.
"""


import pytest
from compute_helpers import ask
from rulesbot.engine import canvas as engine

_BY_TITLE = {art_card.title.lower(): art_card for art_card in engine.ART_CARDS}


def _painting(titles, slugs):
    """The engine's score of a painting given bottom to top."""
    return engine.score_painting(engine.Painting.from_cards([_BY_TITLE[title] for title in titles]), slugs)


def _held_after(held: int, position: int, on_cards: dict[int, int]) -> int:
    """Tokens held after taking the card at `position` (the engine's cost and the tokens on that card)."""
    row = [on_cards.get(index, 0) for index in range(1, engine.ruleset("base").row_size + 1)]
    cost, gained = engine.take_cost(position, row)
    return held - cost + gained


def _cost_gain(position: int, on_cards: dict[int, int]) -> tuple[int, int]:
    row = [on_cards.get(index, 0) for index in range(1, engine.ruleset("base").row_size + 1)]
    return engine.take_cost(position, row)


# ------------------------------------------------------------------------------------------- take claims, several values


@pytest.mark.parametrize(("question", "lang", "held", "position", "on_cards", "claimed_after"), [
    ("me with 5 tokens: grabbing the 2nd card, which has 3 tokens sitting on it, puts me back at 7 yeah?", "en",
     5, 2, {2: 3}, 7),
    ("Lea had 2 tokens and picked the third card with Tom's token on it, so she has 2 now. correct?", "en",
     2, 3, {3: 1}, 2),
    ("Lea had 3 tokens and picked the fourth card with Tom's token on it, so she has 2 now. correct?", "en",
     3, 4, {4: 1}, 2),
    ("j'ai 3 jetons, la 4e carte porte 2 jetons. je la prends et du coup je suis à 2, c'est ça ?", "fr", 3, 4, {4: 2}, 2),
    ("avec 4 jetons je prends la 2e carte, avec le jeton de Marc dessus : donc j'ai 5 maintenant, vrai ?", "fr",
     4, 2, {2: 1}, 5),
])
def test_a_take_claim_about_the_tokens_held_after(question, lang, held, position, on_cards, claimed_after):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim"
    after = _held_after(held, position, on_cards)
    assert answer.verdict is (after == claimed_after)
    assert str(after) in answer.answer


@pytest.mark.parametrize(("question", "lang", "position", "on_cards", "held", "stated"), [
    # (cost, gain, held after) as the claim states them; None where it states nothing.
    ("2 jetons sur la 2e carte. mon pote dit que la prendre me coûte 1 jeton et m'en rend 2, donc je passe de 3 à 4. vrai ?",
     "fr", 2, {2: 2}, 3, (1, 2, 4)),
    ("il y a 3 jetons sur la 4e carte : la prendre coûte 3 jetons et en rapporte 2, c'est bien ça ?", "fr",
     4, {4: 3}, None, (3, 2, None)),
    ("the 5th card has 1 token on it. taking it I pay 4 and get 1 back, so I go from 6 to 3, right?", "en",
     5, {5: 1}, 6, (4, 1, 3)),
    ("there's 2 tokens on the 3rd card. it costs me 2 and I get 2 back, so from 2 to 2, right?", "en",
     3, {3: 2}, 2, (2, 2, 2)),
])
def test_a_take_claim_stating_cost_gain_and_result_checks_each(question, lang, position, on_cards, held, stated):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim"
    cost, gain = _cost_gain(position, on_cards)
    actual = (cost, gain, None if held is None else held - cost + gain)
    right = all(said is None or said == real for said, real in zip(stated, actual, strict=True))
    assert answer.verdict is right


@pytest.mark.parametrize(("question", "lang", "position", "on_cards", "net"), [
    ("ok so there's one token on the second card, I take it: net zero for me, right?", "en", 2, {2: 1}, 0),
    ("the 5th card has 2 tokens on it: taking it I'm down 1 overall, correct?", "en", 5, {5: 2}, -1),
    ("il y a 3 jetons sur la 2e carte, si je la prends mon bilan est de +2, c'est ça ?", "fr", 2, {2: 3}, 2),
    ("la 4e carte a 1 jeton dessus : en la prenant je perds 1 au final, vrai ?", "fr", 4, {4: 1}, -1),
])
def test_a_take_claim_about_the_net_change(question, lang, position, on_cards, net):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim"
    cost, gain = _cost_gain(position, on_cards)
    assert answer.verdict is (gain - cost == net)


@pytest.mark.parametrize(("question", "lang", "held", "position", "on_cards", "claimed_after"), [
    ("I'm on 3 tokens. the 4th card already has 2 on it. if I grab it I end up with 2, yeah?", "en", 3, 4, {4: 2}, 2),
    ("I'm on 5 tokens and the 3rd card already has 1 on it: taking it I end up with 3, yeah?", "en", 5, 3, {3: 1}, 3),
])
def test_tokens_said_without_the_token_word(question, lang, held, position, on_cards, claimed_after):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim"
    assert answer.verdict is (_held_after(held, position, on_cards) == claimed_after)


@pytest.mark.parametrize(("question", "lang", "position", "claimed"), [
    ("prendre la 4e carte = 3 jetons, c'est ça ?", "fr", 4, 3),
    ("the 2nd card = 2 tokens, right?", "en", 2, 2),
])
def test_a_card_said_equal_to_a_cost_is_a_cost_claim(question, lang, position, claimed):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim"
    assert answer.verdict is (_cost_gain(position, {})[0] == claimed)


@pytest.mark.parametrize(("question", "lang", "position", "on_cards"), [
    ("the row: first card 1 token, the second (the one after it) has 2 tokens, third has none. i want the third. what do i "
     "pay and what do i collect?", "en", 3, {1: 1, 2: 2}),
    ("dans la rangée la 1re carte (la gratuite) a 1 jeton, la 2e rien. je vise la 2e : je paie combien et je récupère "
     "combien ?", "fr", 2, {1: 1}),
    ("je veux la 4e carte, elle a 2 jetons dessus : combien je pose ?", "fr", 4, {4: 2}),
])
def test_a_row_described_card_by_card(question, lang, position, on_cards):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed"
    cost, gain = _cost_gain(position, on_cards)
    assert answer.engine["position"] == position
    assert (answer.engine["cost"], answer.engine["gain"]) == (cost, gain)


# ------------------------------------------------------------------------------------------- paintings, read in more layouts

_FOUR = ["emphasis", "hierarchy", "style", "movement"]


@pytest.mark.parametrize(("question", "lang", "titles"), [
    ("top Trap, middle Chosen, bottom Fragile. how many points with the first-game cards?", "en",
     ("fragile", "chosen", "trap")),
    ("en bas : Trap, au milieu Chosen, en haut Fragile. ça fait combien de points ?", "fr", ("trap", "chosen", "fragile")),
    ("Divine/View/Truth (bottom -> top), points?", "en", ("divine", "view", "truth")),
    ("Truth > View > Divine (haut->bas) : combien de points ?", "fr", ("divine", "view", "truth")),
    # (The order said before the list is no layer label of its first card.)
    ("my painting, from bottom to top: Trap, then Chosen, then Fragile on top. score?", "en", ("trap", "chosen", "fragile")),
    ("bottom: Divine, middle: Truth, top: View. points with the starter cards?", "en", ("divine", "truth", "view")),
])
def test_a_painting_with_its_layers_said_first_or_by_an_arrow(question, lang, titles):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed"
    assert [title.lower() for title in answer.engine["cards"]] == list(titles)
    assert answer.engine["points"] == _painting(titles, list(engine.FIRST_GAME_CARDS)).points()


@pytest.mark.parametrize(("context", "question", "lang", "titles"), [
    ("scoring cards emphasis, hierarchy, style and movement. painting bottom to top: Fragile, Chosen, Trap. points?",
     "and the other way round, with Trap at the bottom and Fragile on top?", "en", ("trap", "chosen", "fragile")),
    ("cartes de score : emphase, hiérarchie, style, mouvement. ma peinture de bas en haut : Heavy, Perspective, Purpose. "
     "combien ?", "et si je mets Purpose en bas, Perspective au milieu et Heavy en haut ?", "fr",
     ("purpose", "perspective", "heavy")),
])
def test_a_reordered_follow_up_keeps_the_scoring_cards_of_the_context(context, question, lang, titles):
    answer = ask(question, lang, context=[context])
    assert answer is not None and answer.kind == "computed"
    assert sorted(answer.engine["scoring"]) == sorted(_FOUR)
    assert answer.engine["points"] == _painting(titles, _FOUR).points()


@pytest.mark.parametrize(("question", "lang", "titles", "slug", "claimed"), [
    ("Divine, View, Truth bottom to top: 4 shapes showing, but only one pair counts for Repetition. right?", "en",
     ("divine", "view", "truth"), "repetition", 1),
    ("Chosen, Game, Truth bottom to top: Repetition is met just once there, correct?", "en",
     ("chosen", "game", "truth"), "repetition", 1),
    ("Divine en bas, View, Truth en haut : ça fait une seule paire pour la Répétition, non ?", "fr",
     ("divine", "view", "truth"), "repetition", 1),
    ("peinture Chosen, Game, Truth de bas en haut : la Répétition compte deux fois, c'est ça ?", "fr",
     ("chosen", "game", "truth"), "repetition", 2),
])
def test_a_claim_counting_one_cards_ribbons_in_words(question, lang, titles, slug, claimed):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim"
    ribbons = _painting(titles, list(engine.FIRST_GAME_CARDS)).ribbons[slug]
    assert answer.verdict is (ribbons == claimed)
    if ribbons != claimed:
        assert str(ribbons) in answer.answer.split(".")[0].split(";")[0]  # "False: it is 2 ribbons, not 1"


@pytest.mark.parametrize(("question", "lang", "titles"), [
    ("Trap/Chosen/Fragile (bottom first) shows 2 shapes so no Emphasis because shape has to be way ahead. no?", "en",
     ("trap", "chosen", "fragile")),
    ("Trap, Chosen, Fragile de bas en haut : 2 formes donc aucune Emphase car ça doit être plus que le reste. vrai ?", "fr",
     ("trap", "chosen", "fragile")),
])
def test_a_tag_after_a_full_stop_makes_a_claim(question, lang, titles):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim"
    assert [title.lower() for title in answer.engine["cards"]] == list(titles)
    earned = _painting(titles, list(engine.FIRST_GAME_CARDS)).ribbons["emphasis"] > 0
    assert answer.verdict is (not earned)


# ------------------------------------------------------------------------------------------- best painting of a hand


@pytest.mark.parametrize(("question", "lang", "hand", "slugs"), [
    ("first game. in hand: Fragile, Chosen, Obstacle, Game. how many points can I get out of that?", "en",
     ("fragile", "chosen", "obstacle", "game"), list(engine.FIRST_GAME_CARDS)),
    ("j'ai en main Divine, View, Truth, Trap et Heavy, combien de points je peux marquer avec ?", "fr",
     ("divine", "view", "truth", "trap", "heavy"), list(engine.FIRST_GAME_CARDS)),
    ("scénario Bonus, dans ma main Sudden, Expanse, Childhood et Vast : je fais quoi pour max les points ?", "fr",
     ("sudden", "expanse", "childhood", "vast"), list(engine.scenario("bonus").cards)),
])
def test_a_hand_of_more_than_three_cards_asks_its_best_painting(question, lang, hand, slugs):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed"
    best = engine.best_painting([_BY_TITLE[title] for title in hand], slugs)
    assert answer.engine["points"] == best.points


@pytest.mark.parametrize(("question", "lang", "hand", "claimed"), [
    ("I'm holding Divine, View, Truth and Trap; my mate reckons 8 points is my ceiling. true?", "en",
     ("divine", "view", "truth", "trap"), 8),
    ("main : Fragile, Chosen, Obstacle, Game, Trap. ma cousine dit que je plafonne à 12 points. vrai ?", "fr",
     ("fragile", "chosen", "obstacle", "game", "trap"), 12),
])
def test_a_claim_about_the_most_a_hand_can_score(question, lang, hand, claimed):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim"
    best = engine.best_painting([_BY_TITLE[title] for title in hand], list(engine.FIRST_GAME_CARDS))
    assert answer.verdict is (best.points == claimed)


# ------------------------------------------------------------------------------------------- several paintings


def _game_total(paintings, slugs) -> int:
    """Ribbons summed over the paintings, each card's capped at its maximum (p. 4), plus 2 points a silver ribbon."""
    held = dict.fromkeys(slugs, 0)
    silver = 0
    for titles in paintings:
        score = _painting(titles, slugs)
        for slug in slugs:
            held[slug] = min(engine.scoring_card(slug).max_ribbons, held[slug] + score.ribbons[slug])
        silver += score.bonus
    return sum(engine.points_for(slug, count) for slug, count in held.items()) + engine.SILVER_POINTS * silver


@pytest.mark.parametrize(("question", "lang", "paintings", "scenario"), [
    ("Spatial scenario. my paintings bottom to top: Heavy/Perspective/Purpose, Sudden/Expanse/Childhood, "
     "Divine/View/Truth. total and is that a pass?", "en",
     (("heavy", "perspective", "purpose"), ("sudden", "expanse", "childhood"), ("divine", "view", "truth")), "spatial"),
    ("scénario Bonus, mes 2 peintures (de bas en haut) : Sudden, Expanse, Childhood puis Heavy, Perspective, Purpose. "
     "score final ?", "fr", (("sudden", "expanse", "childhood"), ("heavy", "perspective", "purpose")), "bonus"),
    ("first game, my three paintings from the bottom: Fragile-Chosen-Trap, Divine-View-Truth, "
     "Game-Obstacle-Escape. what's my final score?", "en",
     (("fragile", "chosen", "trap"), ("divine", "view", "truth"), ("game", "obstacle", "escape")), None),
])
def test_several_paintings_add_up_with_each_cards_cap(question, lang, paintings, scenario):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed"
    slugs = list(engine.scenario(scenario).cards) if scenario else list(engine.FIRST_GAME_CARDS)
    total = _game_total(paintings, slugs)
    assert answer.engine["points"] == total
    if scenario:
        assert answer.engine["passed"] is (total >= engine.scenario(scenario).goal)


# ------------------------------------------------------------------------------------------- takes said by what is skipped


@pytest.mark.parametrize(("context", "question", "lang", "position"), [
    ("if I skip 1 card, how many tokens does that cost me?", "and if I skip all three?", "en", 4),
    ("si je saute une carte, combien de jetons je pose ?", "et si je saute les quatre ?", "fr", 5),
    ("si je skip une carte, combien de tokens je pose ?", "et pour la toute dernière, celle collée au deck ?", "fr", 5),
])
def test_a_follow_up_naming_the_skipped_cards_or_the_last_one(context, question, lang, position):
    answer = ask(question, lang, context=[context])
    assert answer is not None and answer.kind == "computed"
    assert answer.engine["position"] == position
    assert answer.engine["cost"] == _cost_gain(position, {})[0]


@pytest.mark.parametrize(("question", "lang", "position"), [
    ("solo puzzle, I'm going for the 3rd card. what do I pay, and what happens to the first two?", "en", 3),
    ("en puzzle solo je vise la 4e carte : je paye combien ?", "fr", 4),
])
def test_a_solo_puzzle_take_is_no_solo_level_question(question, lang, position):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed" and answer.engine["intent"] == "take_cost"
    rules = engine.ruleset("solo-puzzle")
    state = engine.custom_game(row=[art_card.id for art_card in engine.ART_CARDS[: rules.row_size]], hands=((),),
                               tokens=(10,), ruleset_name=rules.name)
    after = engine.apply_action(state, engine.TakeCard(player=0, position=position))
    assert answer.engine["cost"] == state.players[0].tokens - after.players[0].tokens + answer.engine["gain"]


# ------------------------------------------------------------------------------------------- ribbon rules left to the rulebook


@pytest.mark.parametrize(("question", "lang"), [
    ("rulebook: take a ribbon each time the painting meets a condition. so meeting it twice = 2 ribbons?", "en"),
    ("on prend un ruban à chaque condition remplie, du coup validée 3 fois = 3 rubans ?", "fr"),
    ("page 5 says a bonus icon gives 1 silver ribbon per matching element: does the icon count as an element itself?",
     "en"),
    ("silver ribbons: 2 points each or for the whole stack?", "en"),
    ("les rubans argent c'est 2 points par ruban ou pour tout le tas ?", "fr"),
])
def test_a_ribbon_rule_question_is_left_to_the_rulebook(question, lang):
    assert ask(question, lang) is None


@pytest.mark.parametrize(("question", "lang", "slug", "count", "claimed"), [
    ("2 variety ribbons: 4+4 = 8 points, right?", "en", "variety", 2, 8),
    ("3 rubans Emphase, 2+2+2 ça fait 6 points non ?", "fr", "emphasis", 3, 6),
])
def test_a_total_added_ribbon_by_ribbon_is_read_once_on_the_table(question, lang, slug, count, claimed):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim"
    assert answer.verdict is (engine.points_for(slug, count) == claimed)
    assert ("set" if lang == "en" else "ensemble") in answer.answer  # the rule the claim misses (p. 4)


# ------------------------------------------------------------------------------------------- ribbons taken with some held


@pytest.mark.parametrize(("question", "lang", "slug", "held", "met"), [
    ("I already hold 3 Repetition ribbons and my new painting meets Repetition twice. how many do I take?", "en",
     "repetition", 3, 2),
    ("j'ai déjà 1 ruban Symétrie, ma peinture remplit la condition 3 fois : combien de rubans Symétrie je prends ?", "fr",
     "symmetry", 1, 3),
    ("already got 2 Emphasis ribbons; this painting meets Emphasis once, how many ribbons do I get?", "en",
     "emphasis", 2, 1),
    ("j'ai déjà 3 rubans Emphase et ma peinture remplit l'Emphase 2 fois : j'en prends combien ?", "fr", "emphasis", 3, 2),
])
def test_ribbons_taken_stop_at_the_cards_maximum(question, lang, slug, held, met):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed"
    # The rule (p. 4): a player never holds more ribbons of a card than it shows.
    expected = min(held + met, engine.scoring_card(slug).max_ribbons) - held
    assert answer.engine["taken"] == expected


@pytest.mark.parametrize(("question", "lang", "held", "position"), [
    ("avec 3 jetons, prendre la 5e carte c'est impossible, non ?", "fr", 3, 5),
    ("with 2 tokens taking the 4th card is illegal, right?", "en", 2, 4),
    ("with 4 tokens taking the 4th card is impossible, right?", "en", 4, 4),
])
def test_a_take_claimed_impossible(question, lang, held, position):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim"
    rules = engine.ruleset("base")
    state = engine.custom_game(row=[art_card.id for art_card in engine.ART_CARDS[: rules.row_size]], hands=((),),
                               tokens=(held,))
    refused = engine.check_action(state, engine.TakeCard(player=0, position=position)) is not None
    assert answer.verdict is refused


@pytest.mark.parametrize(("question", "lang"), [
    ("Chosen, Game, Truth and Divine, View, Trap: which is better?", "en"),
    ("Fragile/Chosen/Trap ou bien Divine/View/Truth, laquelle je fais ?", "fr"),
])
def test_two_paintings_compared_are_no_total(question, lang):
    answer = ask(question, lang)
    assert answer is None or (answer.engine or {}).get("intent") != "paintings_total"
