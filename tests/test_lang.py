"""FR/EN detection on short rules questions (the hard case: a few words, no context)."""

import pytest

from rulesbot.lang import detect_lang

FRENCH = [
    "main max ?",
    "Combien de jetons ?",
    "Combien de cartes en main ?",
    "Qui commence ?",
    "fin de partie",
    "égalité",
    "Que se passe-t-il quand la pioche est vide ?",
    "Peut-on passer son tour ?",
    "quel temps fait-il ?",
    "points du ruban argent",
    "Comment gagner ?",
    "limite de main",
    "C'est quoi un tableau ?",
    "Les jetons inspiration servent à quoi ?",
    "Je peux prendre deux cartes ?",
    "rubans argent",
    "Est-ce que les bonus comptent ?",
    "mise en place",
    "Combien de joueurs ?",
    "à quoi sert le fond ?",
    "l'ordre des cartes compte ?",
    "On joue dans quel sens ?",
]
ENGLISH = [
    "tie break?",
    "hand limit",
    "How many cards can I hold?",
    "Who starts?",
    "game end",
    "silver ribbon points",
    "What's the hand limit",
    "Can I skip a card?",
    "how do I castle in chess?",
    "When does the game end?",
    "Do bonus icons count?",
    "setup",
    "How many players?",
    "What happens when the deck runs out?",
    "Is card order important?",
    "scoring cards",
    "Can I pass?",
    "What does a background do?",
    "who wins a tie",
    "inspiration tokens",
    "max hand size",
    "Does the game stop when someone finishes?",
]


@pytest.mark.parametrize("question", FRENCH)
def test_french(question):
    assert detect_lang(question) == "fr"


@pytest.mark.parametrize("question", ENGLISH)
def test_english(question):
    assert detect_lang(question) == "en"


def test_even_evidence_falls_back_to_the_default():
    assert detect_lang("Canvas ?", default="fr") == "fr"
    assert detect_lang("Canvas?", default="en") == "en"
    assert detect_lang("1234") == "en"


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("score final 1 rouge 4 verts 2 bleus 1 gris", "fr"),  # a score list whose only French words are colours
        ("final score 1 red 4 green 2 blue 1 silver", "en"),
    ],
)
def test_a_score_list_of_colours_is_read_in_its_language(text, lang):
    assert detect_lang(text, default="en" if lang == "fr" else "fr") == lang
