"""Words borrowed from other games, and vague references, read as the game's own things at the front door
(rulesbot/game_words.json through rulesbot.shorthand.normalise with a game), each beside its false friend.

The questions are new phrasings (none from an eval set). The oracles are independent of the code: how a person
reads each message ("coins" in Canvas are its Inspiration Tokens, "a coin flip" is a chance, "sous la carte" is
"under the card"), the engine's own data (a Scoring Card's points table, the take cost of a row position) and
the rules as the rulebook states them (each player starts with 4 Inspiration Tokens; the new card of the row
goes next to the deck; a painting is exactly 3 Art Cards).
"""

import pytest
from rulesbot.engine.canvas import data
from rulesbot.engine.canvas.api import take_cost

from rulesbot.shorthand import normalise

# Family: borrowed words, read as the game's own (the oracle: the game's word for the thing).


@pytest.mark.parametrize(
    ("question", "lang", "read"),
    [
        ("how many coins do we get at the start?", "en", "how many tokens do we get at the start?"),
        ("do I pay chips to skip a tile in the market?", "en", "do I pay tokens to skip a Art Card in the row?"),
        ("are the see-through cards shuffled?", "en", "are the see-through Art Cards shuffled?"),
        ("the sheets I skip, do they stay in the river?", "en", "the Art Cards I skip, do they stay in the row?"),
        ("how many goal cards are on the board?", "en", "how many Scoring Cards are on the Canvas Mat?"),
        ("can emphasis objective give 4 medals?", "en", "can emphasis give 4 ribbons?"),
        ("do I put one of the little round things on each card?", "en", "do I put one of the tokens on each card?"),
        ("what does the bonus thingy do?", "en", "what does the bonus icon do?"),
        ("combien de pièces au départ ?", "fr", "combien de jetons au départ ?"),
        ("celui qui a le plus de sous gagne ?", "fr", "celui qui a le plus de jetons gagne ?"),
        ("je peux prendre deux transparents d'un coup ?", "fr", "je peux prendre deux cartes Art d'un coup ?"),
        ("les cartes objectifs vont où ?", "fr", "les cartes de score vont où ?"),
        ("trois médailles sur Emphase ça fait combien ?", "fr", "trois rubans sur Emphase ça fait combien ?"),
        ("la tuile que je prends dans la rivière", "fr", "la carte Art que je prends dans la rangée"),
        ("pour l'objectif Proportion il faut quoi ?", "fr", "pour la carte de score Proportion il faut quoi ?"),
    ],
)
def test_a_borrowed_word_reads_as_the_games_own(question, lang, read):
    assert normalise(question, lang, "canvas").text == read


# Family: each mapping's false friend, left as typed (the oracle: what the words mean there).


@pytest.mark.parametrize(
    ("question", "lang"),
    [
        ("is it a coin flip whether Vincent takes the free card?", "en"),  # a chance, not a token
        ("do we need a score sheet or pen?", "en"),  # paper, not an Art Card
        ("is Canvas a good board game for kids?", "en"),  # the kind of game, not the mat
        ("is the game still on the market?", "en"),  # for sale, not the row
        ("what is the objective of the game?", "en"),  # the goal, not a Scoring Card
        ("are the Art Cards transparent?", "en"),  # the property itself
        ("je glisse quoi sous la carte Fond ?", "fr"),  # under, not money
        ("il manque des pièces du jeu dans ma boîte", "fr"),  # components, not coins
        ("le scénario Balanced c'est quoi l'objectif ?", "fr"),  # the goal in points
        ("l'objectif de 28 points, c'est dur ?", "fr"),
        ("on peut imprimer une feuille de score ?", "fr"),  # paper
        ("c'est un jeu de plateau pour la famille ?", "fr"),  # the kind of game
    ],
)
def test_a_false_friend_is_left_as_typed(question, lang):
    assert normalise(question, lang, "canvas").text == question


def test_without_a_game_or_for_another_game_nothing_is_borrowed():
    # Another game's coins are its own coins: the table is the game's.
    assert normalise("how many coins at the start?", "en").text == "how many coins at the start?"
    assert normalise("how many coins at the start?", "en", "some-other-game").text == "how many coins at the start?"


def test_the_read_text_points_back_at_the_words_asked():
    read = normalise("bro how many chips for the 3rd tile?", "en", "canvas")
    assert read.text == "how many tokens for the 3rd Art Card?"
    start = read.text.index("tokens")
    assert read.original[slice(*read.original_span(start, start + len("tokens")))] == "chips"
    start = read.text.index("Art Card")
    assert read.original[slice(*read.original_span(start, start + len("Art Card")))] == "tile"


def test_reading_twice_changes_nothing_more():
    for question, lang in (("les médailles des transparents", "fr"), ("the coins on the tiles", "en")):
        once = normalise(question, lang, "canvas").text
        assert normalise(once, lang, "canvas").text == once


# Through the bot: a borrowed-word question gets what the game's own words get.


def _points(name: str, ribbons: int) -> int:
    return data.scoring_card(name).points[ribbons - 1]


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("2 medals on Hierarchy at the end, how many points is that?", _points("Hierarchy", 2)),
        ("three badges from Variety, what are they worth?", _points("Variety", 3)),
        ("j'ai 2 médailles sur Proportion, ça rapporte combien ?", _points("Proportion", 2)),
        ("combien de pièces pour prendre le 3e transparent de la rivière ?", take_cost(3)[0]),
        ("how many chips to grab the third tile of the market if none has chips on it?", take_cost(3)[0]),
    ],
)
def test_a_computed_question_in_borrowed_words_is_computed(real_bot, question, value):
    answer = real_bot.ask(question)
    assert answer.kind == "computed"
    assert str(value) in answer.answer
    assert answer.question == question


@pytest.mark.parametrize(
    ("question", "fact"),
    [
        ("how many coins does each of us begin with?", "4"),
        ("on commence avec combien de pièces chacun ?", "4"),
        ("once I grab a tile from the market, where does the replacement go?", "deck"),
        ("quand je prends un transparent dans la rivière, le nouveau va où ?", "pioche"),
        ("my painting, how many sheets exactly?", "3"),
    ],
)
def test_a_rules_question_in_borrowed_words_gets_the_rule(real_bot, question, fact):
    answer = real_bot.ask(question)
    assert answer.kind != "unknown" and fact in answer.answer
