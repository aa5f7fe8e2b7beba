"""Computed answers (rulesbot.compute): the parser, each intent in FR and EN, under-specified and non-computable
questions, and a property test that generated claims get the verdict the engine computes.
"""

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rulesbot.engine import canvas as engine

from rulesbot.compute import answer_computed
from rulesbot.compute.canvas import helpers
from rulesbot.compute.canvas.words import vocabulary
from rulesbot.compute.parse import parse
from rulesbot.knowledge import load_packs


@cache
def _pack():
    return load_packs()["canvas"]


def ask(question: str, lang: str):
    return answer_computed(None, question, lang, _pack())


def _values(text: str, kind: str, lang: str = "en") -> list:
    return [slot.value for slot in parse(text, lang, "canvas").all(kind)]


# ------------------------------------------------------------------------------------------- parser


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3 rubans", [3]),
        ("trois rubans verts", [3]),
        ("twelve ribbons", [12]),
        ("douze jetons", [12]),
        ("vingt-neuf points", [29]),
        ("twenty nine points", [29]),
        ("thirty-six", [36]),
        ("trente et un", [31]),
        ("a pair of green ribbons", [2]),
        ("une paire de rubans bleus", [2]),
        ("un ruban", []),  # "un" is also an article: only ribbon patterns read it as 1
    ],
)
def test_numbers_in_words_and_digits(text, expected):
    assert _values(text, "number") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("take the third card", 3), ("take the 3rd card", 3), ("prendre la troisième carte", 3), ("la 3e carte", 3),
     ("take the first", 1), ("prendre la première", 1), ("card 4", 4), ("carte n° 5", 5), ("la deuxième carte", 2),
     ("take the second one", 2), ("the card nearest the draw pile", 5), ("la dernière de la rangée", 5),
     ("the free one", 1), ("la plus éloignée de la pioche", 1), ("la plus proche de la pioche", 5),
     ("the card farthest from the deck", 1)],
)
def test_row_positions_in_words(text, expected):
    assert _values(text, "position") == [expected]


def test_card_names_case_insensitive_with_alias():
    assert [card.title for card in _values("CHOSEN, game and Improbable", "art_card")] == ["Chosen", "Game", "Impropable"]


def test_scoring_card_names_en_fr_accents_plurals_and_slips():
    found = [card.slug for card in _values("Variété, variete, Repetitions, Répétition, Symétrie, Space, symetry", "scoring_card")]
    assert found == ["variety", "variety", "repetition", "repetition", "symmetry", "space", "symmetry"]


def test_colours_en_fr():
    found = _values("red, rouges, green, verts, blue, bleue, purple, violettes", "colour")
    assert found == ["red", "red", "green", "green", "blue", "blue", "violet", "violet"]


def test_scenarios_levels_and_variants():
    assert [item.slug for item in _values("Spatial and First Time Playing", "scenario")] == ["spatial", "first-time-playing"]
    assert _values("a bonus ribbon", "scenario") == []  # "Bonus" is a scenario only next to the word "scenario"
    assert [item.slug for item in _values("le scénario Bonus", "scenario", "fr")] == ["bonus"]
    assert [item.slug for item in _values("en solo difficile", "level", "fr")] == ["hard"]
    assert _values("a hard choice", "level") == []
    assert [item.name for item in _values("in Solo Puzzle, what does the third card cost?", "variant")] == ["solo-puzzle"]


@pytest.mark.parametrize(
    ("text", "cue"),
    [("3 green ribbons are worth 9, innit?", "innit"), ("3 rubans verts valent 11, c'est ça ?", "c'est ca"),
     ("Is it true that 3 Variety ribbons give 13 points?", "is it true that"),
     ("My sister reckons 3 green ribbons are worth 9", "my sister reckons"),
     ("Mon cousin dit que trois rubans verts valent 11 points", "mon cousin dit que"),
     ("Emphasis can give 5 ribbons, yes?", "yes"), ("3 green ribbons make 11, ok?", "ok")],
)
def test_claim_cues_tags_and_reported_speech(text, cue):
    parsed = parse(text, "fr" if "rubans" in text else "en", "canvas")
    assert parsed.claim and parsed.claim_cue == cue


def test_a_question_is_parsed_once():
    first = parse("3 green ribbons: how many points?", "en", "canvas")
    assert parse("3 green ribbons: how many points?", "en", "canvas") is first


def test_colour_mapping_comes_from_the_engine_first_game():
    mapping = helpers.first_game_colours()
    assert list(mapping.values()) == list(engine.FIRST_GAME_CARDS)
    assert mapping["green"] == engine.scoring_card("Repetition").slug


# ------------------------------------------------------------------------------------------- intents, FR and EN


@pytest.mark.parametrize(
    ("question", "lang", "fact"),
    [
        ("2 red, 3 green, 1 blue, 2 violet and 3 silver ribbons: how many points?", "en", "29"),
        ("2 rubans rouges, 3 verts, 1 bleu, 2 violets et 3 rubans argent : combien de points ?", "fr", "29"),
        ("What does the painting Chosen, Game, Truth score?", "en", "Chosen Truth"),
        ("Que marque la peinture Truth sous Game sous Chosen ?", "fr", "Chosen Game"),
        ("How many tokens does it cost to take the third card?", "en", "2 tokens"),
        ("Combien coûte la troisième carte ?", "fr", "2 jetons"),
        ("Can I take a card with five cards in hand?", "en", "action/hand_full"),
        ("Puis-je prendre une sixième carte ?", "fr", "action/hand_full"),
        ("Did I pass Spatial with 36?", "en", "37"),
        ("36 points en solo difficile, j'ai gagné ?", "fr", "35"),
        ("I hold Chosen, Game, Truth, Mess and Dreams: what should I paint for First Time Playing?", "en", "11 points"),
        ("J'ai en main Chosen, Game, Truth, Mess et Dreams : quelle est la meilleure peinture pour First Time Playing ?",
         "fr", "11 points"),
        ("Combien de jetons au départ ?", "fr", "4"),
        ("How many Art Cards are there in the box?", "en", "60"),
        ("Combien y a-t-il de scénarios ?", "fr", "9"),
    ],
)
def test_each_intent_is_computed(question, lang, fact):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed" and answer.verdict is None
    assert answer.lang == lang and fact in answer.answer and answer.citations


def test_painting_engine_object_for_the_widget():
    answer = ask("What does the painting Chosen, Game, Truth score?", "en")
    painting = answer.engine
    assert len(painting["visible"]) == 5 and painting["title"] == "Chosen Truth"
    assert set(painting) >= {"visible", "title", "shown_by", "ribbons", "bonus", "points"}
    expected = engine.score_painting(engine.Painting.from_cards(["Chosen", "Game", "Truth"]), engine.FIRST_GAME_CARDS)
    assert painting["points"] == expected.points()


@pytest.mark.parametrize(
    ("question", "lang", "verdict"),
    [
        ("3 green ribbons are worth 9, right?", "en", False),
        ("Est-ce vrai que trois rubans verts valent 11 points ?", "fr", True),
        ("Is it true that I can take a sixth card?", "en", False),
        ("Est-ce vrai qu'on peut utiliser deux fois la même carte dans une peinture ?", "fr", False),
        ("Taking the 5th card costs 4 tokens, right?", "en", True),
    ],
)
def test_claims(question, lang, verdict):
    answer = ask(question, lang)
    assert answer.kind == "claim" and answer.verdict is verdict


def test_assumptions_are_stated():
    assert "first-game" in ask("3 green ribbons: how many points?", "en").answer
    assert "première partie" in ask("Que rapporte la peinture Mess, Truth, Chosen ?", "fr").answer


@pytest.mark.parametrize(
    ("question", "lang", "asks"),
    [
        ("How many points are 3 ribbons worth?", "en", "Which Scoring Card"),
        ("Combien valent 2 rubans ?", "fr", "quelle carte de score"),
        ("What does the painting Chosen, Game score?", "en", "exactly 3"),
        ("J'ai 29 points en solo, j'ai gagné ?", "fr", "Quel niveau"),
        ("What does Chosen, Game, Truth score in Chill Mode?", "en", "random"),
    ],
)
def test_under_specified_questions_ask_for_the_missing_piece(question, lang, asks):
    answer = ask(question, lang)
    assert answer.kind == "computed" and answer.verdict is None
    assert asks.lower() in answer.answer.lower()


@pytest.mark.parametrize(
    ("question", "lang"),
    [
        ("How many cards can I hold?", "en"),
        ("Combien de cartes Art peut-on avoir en main ?", "fr"),
        ("How does the game end?", "en"),
        ("Does the game end when one player finishes?", "en"),
        ("How much is a silver ribbon worth?", "en"),
        ("Combien rapportent les rubans bonus ?", "fr"),
        ("Can I look at the deck?", "en"),
        ("How many tokens do I need to take a card further down the row?", "en"),
        ("Peut-on prendre plus de rubans que la carte n'en montre ?", "fr"),
        ("Quelles cartes de score utiliser pour une première partie ?", "fr"),
        ("What is the purpose of Inspiration Tokens?", "en"),
        ("Les icônes cachées par une autre carte comptent-elles ?", "fr"),
        ("What are the solo difficulty levels?", "en"),
        ("Can a painting score Movement twice?", "en"),
        ("My PER Shape icon got covered by my third card; do I still get grey ribbons for it?", "en"),
        ("Avec des Formes sur 3 zones d'affilée et des Tons sur 3 autres, Mouvement rapporte-t-il 2 rubans ?", "fr"),
    ],
)
def test_rule_questions_are_left_to_retrieval(question, lang):
    assert ask(question, lang) is None


# ------------------------------------------------------------------------------------------- property test

_EN_WORDS = {value: word for word, value in vocabulary()["numbers"].items() if word.isascii() and word in (
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")}
_FR_WORDS = {value: word for word, value in vocabulary()["numbers"].items() if word in (
    "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix", "onze", "douze")}
_EN_ORDINALS = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}
_FR_ORDINALS = {1: "première", 2: "deuxième", 3: "troisième", 4: "quatrième", 5: "cinquième"}
_FR_COLOURS = {"red": "rouges", "green": "verts", "blue": "bleus", "violet": "violets"}


def _count(value: int, lang: str, in_words: bool) -> str:
    table = _FR_WORDS if lang == "fr" else _EN_WORDS
    return table[value] if in_words and value in table else str(value)


@settings(max_examples=150, deadline=None)
@given(
    slug=st.sampled_from(engine.SCORING_SLUGS),
    count=st.integers(min_value=2, max_value=5),
    delta=st.sampled_from([0, 0, 1, -1, 3]),
    lang=st.sampled_from(["en", "fr"]),
    in_words=st.booleans(),
)
def test_property_ribbon_claims_per_card(slug, count, delta, lang, in_words):
    truth = engine.points_for(slug, count)
    claimed = max(truth + delta, 0)
    card = engine.scoring_card(slug)
    number = _count(count, lang, in_words)
    if lang == "en":
        question = f"Is it true that {number} {card.name_en} ribbons are worth {claimed} points?"
    else:
        question = f"Est-ce vrai que {number} rubans {card.name_fr} valent {claimed} points ?"
    answer = ask(question, lang)
    assert answer.kind == "claim" and answer.verdict is (claimed == truth), answer.answer


@settings(max_examples=80, deadline=None)
@given(
    slot=st.sampled_from(["red", "green", "blue", "violet"]),
    count=st.integers(min_value=2, max_value=4),
    delta=st.sampled_from([0, 2, -1]),
    lang=st.sampled_from(["en", "fr"]),
)
def test_property_ribbon_claims_per_colour(slot, count, delta, lang):
    truth = engine.points_for(helpers.first_game_colours()[slot], count)
    claimed = max(truth + delta, 0)
    if lang == "en":
        question = f"{count} {slot} ribbons are worth {claimed} points, right?"
    else:
        question = f"{count} rubans {_FR_COLOURS[slot]} valent {claimed} points, c'est ça ?"
    answer = ask(question, lang)
    assert answer.kind == "claim" and answer.verdict is (claimed == truth), answer.answer


@settings(max_examples=120, deadline=None)
@given(
    cards=st.lists(st.sampled_from(engine.ART_CARDS), min_size=3, max_size=3, unique_by=lambda art_card: art_card.id),
    delta=st.sampled_from([0, 0, 1, -2]),
    lang=st.sampled_from(["en", "fr"]),
)
def test_property_painting_claims(cards, delta, lang):
    titles = [art_card.title for art_card in cards]
    truth = engine.score_painting(engine.Painting.from_cards(titles), engine.FIRST_GAME_CARDS).points()
    claimed = max(truth + delta, 0)
    if lang == "en":
        question = f"The painting {', '.join(titles)} scores {claimed} points, right?"
    else:
        question = f"La peinture {', '.join(titles)} vaut {claimed} points, c'est ça ?"
    answer = ask(question, lang)
    assert answer.kind == "claim" and answer.verdict is (claimed == truth), answer.answer
    assert answer.engine["visible"] == [list(icons) for icons in engine.Painting.from_cards(titles).visible]


@settings(max_examples=60, deadline=None)
@given(
    position=st.integers(min_value=1, max_value=5),
    claimed=st.integers(min_value=0, max_value=5),
    lang=st.sampled_from(["en", "fr"]),
)
def test_property_row_cost_claims(position, claimed, lang):
    cost, _gain = engine.take_cost(position)
    if lang == "en":
        question = f"Taking the {_EN_ORDINALS[position]} card costs {claimed} tokens, right?"
    else:
        question = f"Prendre la {_FR_ORDINALS[position]} carte coûte {claimed} jetons, c'est ça ?"
    answer = ask(question, lang)
    assert answer.kind == "claim" and answer.verdict is (claimed == cost), answer.answer
