"""The sixth blind round's near-domain families, as mechanisms: a superlative then the pursuit it recommends (the
best Scoring Card to chase, le meilleur objectif à viser), buying a replacement component, a house rule said as a
verb ("house-rule it"), and whether a changed rule keeps the game balanced; each beside rules questions that
borrow the same words.

The questions are new phrasings (none from an eval set); the oracle is what each message asks: advice, a shop or a
home-made rule (no rulebook answers those), or a rule of Canvas (the row's new card, the goal of a solo level,
who wins Best In Show).
"""

import pytest

from rulesbot.scope import out_of_scope
from rulesbot.shorthand import normalise


def _reason(question: str, lang: str) -> str | None:
    # The front door's reading: borrowed words read as the game's own, then the scope cues (rulesbot.core).
    read = normalise(question, lang, "canvas").text
    found = out_of_scope(read, "Canvas", "canvas") or out_of_scope(question, "Canvas", "canvas")
    return found.reason if found else None


@pytest.mark.parametrize(
    ("question", "lang"),
    [
        ("Emphasis or Variety, which is the best one to go for?", "en"),
        ("which objective is the most rewarding to focus on early?", "en"),
        ("is Proximity the ideal goal card to chase with few tokens?", "en"),
        ("c'est laquelle la meilleure à viser, Emphase ou Variété ?", "fr"),
        ("quel objectif est le plus intéressant à cibler en solo ?", "fr"),
    ],
)
def test_the_best_thing_to_pursue_is_advice(question, lang):
    assert _reason(question, lang) == "opinion"


@pytest.mark.parametrize(
    ("question", "lang", "reason"),
    [
        ("I lost two tokens down the sofa, where could we order spare ones?", "en", "price"),
        ("one art card got bent, where would I buy a replacement?", "en", "price"),
        ("il me manque une carte, on peut commander des pièces de rechange ?", "fr", "price"),
        ("can we house-rule a hand of 6 cards?", "en", "house_rule"),
        ("we house-ruled that silver ribbons are worth 3, does it matter?", "en", "house_rule"),
        ("si on joue avec 4 peintures chacun, le jeu reste plus équilibré ?", "fr", "opinion"),
        ("would drawing 2 cards a turn be more balanced?", "en", "opinion"),
    ],
)
def test_buying_a_replacement_or_a_home_made_rule_is_near_domain(question, lang, reason):
    assert _reason(question, lang) == reason


@pytest.mark.parametrize(
    ("question", "lang"),
    [
        ("when I take a card from the row, where does its replacement go?", "en"),
        ("where do I get my tokens back from in Solo Puzzle?", "en"),
        ("what is the best score a single painting can reach?", "en"),
        ("does the player with the most points win Best In Show?", "en"),
        ("quel score faut-il viser pour battre le niveau difficile ?", "fr"),
        ("quel est le meilleur score possible avec une peinture ?", "fr"),
        ("what's the score to aim for in the Balanced scenario?", "en"),
    ],
)
def test_rules_questions_with_the_same_words_stay_in_scope(question, lang):
    assert _reason(question, lang) is None
