"""Fifth-round computed families (claims and what a number means in them): a Scoring Card's table or cap told and
checked, a claimed outcome not read as an input, the count asked after an example, no verdict for an open question,
paintings asked about one card or their silver, takes from the start of the game, legality with the hand stated.

Oracles come from the engine (points tables, caps, the painting scorer, take_cost, check_action, the rules' starting
tokens), never from the answer's own code path; every question is worded here, not copied from an eval set.
"""


import pytest
from compute_helpers import ask
from rulesbot.engine import canvas as engine

_BY_TITLE = {art_card.title.lower(): art_card for art_card in engine.ART_CARDS}


def _painting(titles, slugs=None):
    """The engine's score of a painting given bottom to top (the first-game cards by default)."""
    return engine.score_painting(engine.Painting.from_cards([_BY_TITLE[title] for title in titles]),
                                 slugs or engine.FIRST_GAME_CARDS)


def _table_holds(slug: str, pairs) -> bool:
    """Whether every (ribbons, points) pair is on the card's table (the engine's data)."""
    card = engine.scoring_card(slug)
    return all(ribbons <= card.max_ribbons and engine.points_for(slug, ribbons) == points for ribbons, points in pairs)


# ------------------------------------------------------------------------------------- a card's table told and checked


@pytest.mark.parametrize(("question", "lang", "slug", "pairs"), [
    ("my friend says Emphasis gives 2 points for 1 ribbon and 6 for 2, right?", "en", "emphasis", [(1, 2), (2, 6)]),
    ("we always played Style as 4 points for one ribbon, 10 for two and 18 for three. correct?", "en", "style",
     [(1, 4), (2, 10), (3, 18)]),
    ("Variety pays 5 pts for 4 ribbons, true?", "en", "variety", [(4, 5)]),
    ("ma sœur dit que Symétrie donne 1 point pour un ruban, 3 pour deux, 6 pour trois et 11 pour quatre, c'est ça ?",
     "fr", "symmetry", [(1, 1), (2, 3), (3, 6), (4, 11)]),
    ("la Cohérence rapporte 4 points avec 2 rubans, non ?", "fr", "consistency", [(2, 4)]),
    ("on m'a dit qu'une carte Proportion rapporte 3 points pour un seul ruban, c'est juste ?", "fr", "proportion",
     [(1, 3)]),
])
def test_a_points_table_claim_checks_every_pair(question, lang, slug, pairs):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim"
    assert answer.verdict is _table_holds(slug, pairs)
    card = engine.scoring_card(slug)
    assert str(card.points[-1]) in answer.answer and str(card.max_ribbons) in answer.answer


@pytest.mark.parametrize(("question", "lang", "slug", "claimed_cap"), [
    ("a guy at the club said Proximity caps at 3 ribbons, is that how it works?", "en", "proximity", 3),
    ("so Style caps at 3 ribbons, is that how it works?", "en", "style", 3),
    ("mon pote dit que la Répétition s'arrête à 3 rubans, c'est comme ça que ça marche ?", "fr", "repetition", 3),
    ("l'Emphase plafonne à 4 rubans, non ?", "fr", "emphasis", 4),
])
def test_a_cap_claim_is_checked_against_the_card(question, lang, slug, claimed_cap):
    answer = ask(question, lang)
    card = engine.scoring_card(slug)
    assert answer is not None and answer.kind == "claim"
    assert answer.verdict is (claimed_cap == card.max_ribbons)
    assert str(card.max_ribbons) in answer.answer and str(card.points[-1]) in answer.answer


# ------------------------------------------------------------------------------- a claimed outcome is not an input


@pytest.mark.parametrize(("question", "lang"), [
    ("4 tones in a row on Movement = 2 ribbons??", "en"),
    ("her painting shows 3 shapes, the scorer says that's 2 repetition ribbons?", "en"),
    ("ma peinture montre 4 textures, ça fait 2 rubans Style ?", "fr"),
])
def test_ribbons_claimed_for_counted_icons_are_not_priced(question, lang):
    answer = ask(question, lang)
    # The count of ribbons is the outcome claimed for the icons: pricing it as held ribbons answers another question.
    assert answer is None or (answer.engine or {}).get("intent") != "ribbon_points"


@pytest.mark.parametrize(("question", "lang", "slug", "asked"), [
    ("emphasis: 1 ribbon = 1 point, so 3 ribbons = how much?", "en", "emphasis", 3),
    ("Proximity, 1 ribbon is 2 pts, and 4 ribbons = ?", "en", "proximity", 4),
    ("Style : 1 ruban = 4 pts, et 2 rubans = ?", "fr", "style", 2),
    ("Hiérarchie : 1 ruban = 4, 3 rubans = combien ?", "fr", "hierarchy", 3),
])
def test_the_count_asked_after_an_example_is_the_one_priced(question, lang, slug, asked):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed" and answer.verdict is None
    assert answer.engine["ribbons"] == {slug: {"ribbons": asked, "points": engine.points_for(slug, asked)}}


# ------------------------------------------------------------------------------- no verdict for an open question


@pytest.mark.parametrize(("question", "lang", "titles", "slug"), [
    ("Truth en dessous, Chosen, Masked au-dessus : cb de rubans Répétition ?", "fr", ("truth", "chosen", "masked"), "repetition"),
    ("Chosen, Masked, Truth bottom to top. Repetition?", "en", ("chosen", "masked", "truth"), "repetition"),
    ("Chosen, Masked, Truth bottom to top. and Symmetry?", "en", ("chosen", "masked", "truth"), "symmetry"),
    ("Bait tout en bas puis Deep puis Dreams. et la Composition ?", "fr", ("bait", "deep", "dreams"), "composition"),
])
def test_one_card_asked_of_a_painting_is_computed_without_a_verdict(question, lang, titles, slug):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed" and answer.verdict is None
    count = _painting(titles, [slug]).ribbons[slug]
    assert answer.engine["ribbons"][slug] == count
    assert answer.answer.split(".")[0].count(str(count)) >= 1  # the asked count leads


def test_a_slang_how_many_about_a_take_is_computed_with_the_tokens_after():
    answer = ask("y a 2 jetons sur la 3e carte, si je la prends j'ai cb ? j'en avais 3", "fr")
    assert answer is not None and answer.kind == "computed" and answer.verdict is None
    cost, gained = engine.take_cost(3, [0, 0, 2, 0, 0])
    assert f"{3 - cost + gained} jetons" in answer.answer


# ------------------------------------------------------------------------------------------- silver claimed of a painting


@pytest.mark.parametrize(("question", "lang", "titles", "claimed"), [
    ("Precious, Sudden, Purpose bottom to top: 2 silver right?", "en", ("precious", "sudden", "purpose"), 2),
    ("Precious, Sudden, Purpose de bas en haut, ça me donne 3 argents ?", "fr", ("precious", "sudden", "purpose"), 3),
    ("Precious en bas, Sudden, Purpose en haut : ça me donne un argent ?", "fr", ("precious", "sudden", "purpose"), 1),
    ("Moment on the bottom, Innocent next, Game last: that bonus icon earns me one silver, no?", "en",
     ("moment", "innocent", "game"), 1),
])
def test_silver_claimed_of_a_painting_is_checked_against_its_bonus(question, lang, titles, claimed):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim"
    assert answer.verdict is (_painting(titles).bonus == claimed)


# ------------------------------------------------------------------------------------------- takes from the start


@pytest.mark.parametrize(("question", "lang", "position", "on_cards"), [
    ("start of the game, I take the 4th card. how many tokens left?", "en", 4, {}),
    ("en début de partie je prends la 3e carte, il me reste combien de jetons ?", "fr", 3, {}),
    ("at the beginning of the game I grab the 5th card, it has 1 token on it. tokens left?", "en", 5, {5: 1}),
])
def test_a_take_at_the_start_uses_the_starting_tokens(question, lang, position, on_cards):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed"
    row = [on_cards.get(index, 0) for index in range(1, engine.ruleset("base").row_size + 1)]
    cost, gained = engine.take_cost(position, row)
    after = engine.ruleset("base").starting_tokens - cost + gained
    assert answer.engine["tokens_after"] == after


def test_a_take_claim_about_tokens_still_held_reads_the_result():
    answer = ask("début de partie, je prends la carte 2 : j'ai encore 3 jetons ?", "fr")
    cost, gained = engine.take_cost(2, [0] * engine.ruleset("base").row_size)
    assert answer is not None and answer.kind == "claim"
    assert answer.verdict is (engine.ruleset("base").starting_tokens - cost + gained == 3)


# ------------------------------------------------------------------------------------------- legality, hand stated


def _legal(kind: str, **arguments) -> bool:
    from rulesbot.compute.canvas import helpers

    return helpers.legality(kind, **arguments)[0] is None


@pytest.mark.parametrize(("question", "lang", "kind", "arguments"), [
    ("have 4 cards, can I paint with all 4 of them?", "en", "paint", {"hand": 4, "paint_cards": 4}),
    ("j'ai 4 cartes, je peux peindre avec les 4 ?", "fr", "paint", {"hand": 4, "paint_cards": 4}),
    ("I've got 5 cards and 3 tokens, can I grab the second card?", "en", "take", {"hand": 5, "position": 2}),
    ("avec 4 cartes en main et plus que 2 jetons, puis-je récupérer la 2e carte ?", "fr", "take", {"hand": 4, "position": 2}),
])
def test_legality_with_the_hand_stated_asks_the_engine(question, lang, kind, arguments):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed"
    assert answer.engine["allowed"] is _legal(kind, **arguments)


# ------------------------------------------------------------------------------------------- more words, same readings


@pytest.mark.parametrize(("question", "lang", "slug", "held", "met"), [
    ("I already have 4 repetition ribbons and this painting shows 2 more pairs of Shape. how many more repetition "
     "ribbons do I take?", "en", "repetition", 4, 2),
    ("I already have 2 Repetition ribbons, my painting has 2 pairs of Shapes: how many ribbons do I take?", "en",
     "repetition", 2, 2),
    ("j'ai déjà 2 rubans Style, ma peinture fait 2 ensembles de Textures, j'en gagne combien ?", "fr", "style", 2, 2),
])
def test_ribbons_taken_with_some_held_counts_the_condition_in_its_units(question, lang, slug, held, met):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed"
    assert answer.engine["taken"] == engine.ribbons_taken(slug, met, held)


@pytest.mark.parametrize(("question", "lang", "position"), [
    ("the row has its 5 cards in the row as always; what do I pay for the middle one?", "en", 3),
    ("with 5 cards in the row, what does the 4th card cost?", "en", 4),
])
def test_the_row_size_restated_is_no_value_of_the_take(question, lang, position):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed"
    assert answer.engine["cost"] == engine.take_cost(position, [0] * engine.ruleset("base").row_size)[0]


@pytest.mark.parametrize(("question", "lang", "held", "position"), [
    ("wesh il me reste 1 jeton, je peux choper la 4e ? fr", "fr", 1, 4),
    ("i have 1 token, i can take the 3rd card fr", "en", 1, 3),
    ("got 3 tokens so I can grab the 5th card for real?", "en", 3, 5),
])
def test_a_slang_tag_makes_an_affordability_claim(question, lang, held, position):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim"
    cost = engine.take_cost(position, [0] * engine.ruleset("base").row_size)[0]
    assert answer.verdict is (held >= cost)


@pytest.mark.parametrize(("question", "lang", "hand"), [
    ("chui à 4 cartes, je peux encore en prendre une ?", "fr", 4),
    ("with 3 cards in hand can I still take one?", "en", 3),
])
def test_a_take_allowed_with_the_hand_says_how_far_the_hand_goes(question, lang, hand):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed" and answer.engine["allowed"] is _legal("take", hand=hand)
    assert str(engine.ruleset("base").hand_limit) in answer.answer


@pytest.mark.parametrize(("question", "lang"), [
    ("après ma 3e peinture je peux encore prendre des cartes, nan ?", "fr"),
    ("j'ai 5 cartes en main, je peux en prendre une autre nan ?", "fr"),
])
def test_nan_is_a_tag_that_makes_a_claim(question, lang):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim" and answer.verdict is False


@pytest.mark.parametrize(("question", "lang"), [
    ("in solo puzzle you put a token on each card you skip, like normal. is that how it works?", "en"),
    ("on pose un jeton sur chaque carte sautée, c'est comme ça que ça marche ?", "fr"),
])
def test_is_that_how_it_works_said_of_a_rule_without_a_value_is_no_claim(question, lang):
    from rulesbot.compute.parse import parse

    assert not parse(question, lang, "canvas").claim


def test_sorry_for_caps_is_no_ribbon_limit():
    answer = ask("SYMMETRY. two ribbons. how much? (sorry for caps)")
    assert answer is not None and answer.engine["ribbons"]["symmetry"]["points"] == engine.points_for("symmetry", 2)


def test_slang_how_many_asks_a_value():
    symmetry = ask("4 rubans symétrie ça fait koi ?", "fr")
    assert symmetry is not None and symmetry.kind == "computed"
    assert symmetry.engine["points"] == engine.points_for("symmetry", 4)
    painting = ask("Chosen en bas, Masked, Truth en haut. cb de pts ?", "fr")
    assert painting is not None and painting.kind == "computed" and painting.verdict is None
    assert painting.engine["points"] == _painting(("chosen", "masked", "truth")).points()
    take = ask("la 3e carte cb de jetons ?", "fr")
    assert take is not None and take.kind == "computed"
    assert take.engine["cost"] == engine.take_cost(3, [0] * engine.ruleset("base").row_size)[0]
