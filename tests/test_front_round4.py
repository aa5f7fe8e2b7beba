"""The fourth blind round's front-door families, as mechanisms: another game or a video game named beside a
question about this game (compared, told as a statement of its own, or next to a clause that points here),
questions to the assistant about itself, future editions, intensifiers inside an advice cue, ways of playing
the rulebook has no section for (teams, co-op), and the answer language of a message mixing French and English.

The questions are new phrasings (none from an eval set). The oracles are what each question is about, read by a
person: whether it asks about Canvas or about the other game, whether it asks the rules or the assistant, and
which language its grammar (its function words) is written in; not the code's output.
"""

import pytest

from rulesbot.lang import detect_lang
from rulesbot.scope import out_of_scope


def _reason(question: str) -> str | None:
    found = out_of_scope(question, "Canvas", "canvas")
    return found.reason if found else None


@pytest.mark.parametrize(
    "question",
    [
        # The other game is told in a statement of its own; the sentence that asks is about Canvas.
        "In Carcassonne you draw a tile every turn. Do I have to take an Art Card every turn here?",
        "Au Scrabble on repioche pour compléter sa main. Dans Canvas, la rangée se remplit comment ?",
        # A clause of its own points at Canvas ("ici", "in Canvas").
        "à Dominion on défausse sa main en fin de tour, ici on garde ses cartes d'un tour à l'autre ?",
        "Jaipur caps your hand at seven cards, in Canvas what is the hand limit?",
        # ... or names one of Canvas's own components or cards.
        "Dans Wingspan les œufs valent un point chacun, les rubans argent valent combien ?",
        "in Splendor gems are the currency, what do inspiration tokens pay for?",
        # The other game's name is compared, a few words after the marker.
        "are the ribbons a bit like the victory points in Agricola, only counted at the very end?",
        "les rubans argent, ça marche comme les bonus de Cascadia, on les compte à la fin de la partie ?",
    ],
)
def test_another_game_named_beside_a_canvas_question_is_answered(question):
    assert _reason(question) is None


@pytest.mark.parametrize(
    "question",
    [
        "in Dominion how many cards do you draw at the end of your turn?",
        "à Jaipur, combien de cartes peut-on avoir en main ?",
        # The sentence naming the other game is itself a question about it.
        "In Carcassonne how do farmers score? Is that close to how ribbons work?",
        # Canvas is only the thing compared to.
        "Jaipur tokens are worth more than Canvas tokens, right?",
        "le score de Cascadia, c'est pareil que celui de Canvas ?",
    ],
)
def test_a_question_about_the_other_game_itself_is_still_refused(question):
    assert _reason(question) == "other_game"


@pytest.mark.parametrize(
    "question",
    [
        "Like picking a save slot in a video game: can a finished painting still be changed later?",
        "Comme dans un jeu vidéo où on choisit son niveau : en solo, le niveau Master demande combien de points ?",
        "I usually play on Board Game Arena. With the physical box, who takes the first turn?",
        "sur BGA le jeu compte tout seul. Sur table, on compte les rubans à quel moment ?",
    ],
)
def test_a_digital_version_named_as_a_comparison_is_answered(question):
    assert _reason(question) is None


@pytest.mark.parametrize(
    "question",
    [
        "on Board Game Arena, does the solo mode have the same levels?",
        "sur l'appli mobile, on peut jouer contre Vincent ?",
        "is the video game version different from the box?",
    ],
)
def test_a_question_about_the_digital_version_is_still_refused(question):
    assert _reason(question) == "digital"


@pytest.mark.parametrize(
    ("question", "reason"),
    [
        # The assistant asked about itself.
        ("are you a real person or a program?", "chat"),
        ("tu es une IA ou quoi ?", "chat"),
        ("who made you?", "chat"),
        ("qui t'a programmé ?", "chat"),
        # A release to come: no rulebook says.
        ("will a third edition ever come out?", "expansion"),
        ("une 3e édition est prévue ?", "expansion"),
        ("le jeu va sortir en version allemande un jour ?", "expansion"),
        # An advice cue with an intensifier inside it.
        ("would you really recommend going for Proximity?", "opinion"),
        ("would you ever recommend hoarding tokens?", "opinion"),
        ("est-ce que ça vaut franchement la peine de payer 4 jetons ?", "opinion"),
        # Ways of playing the rulebook has no section for.
        ("is there an official co-op mode?", "variant"),
        ("can four of us play as two teams of two?", "variant"),
        ("on peut jouer à quatre en équipes de deux ?", "variant"),
    ],
)
def test_chit_chat_future_editions_advice_and_missing_variants_are_near_domain(question, reason):
    assert _reason(question) == reason


@pytest.mark.parametrize(
    "question",
    [
        "are you allowed to take two cards in one turn?",
        "tu es obligé de prendre une carte à chaque tour ?",
        "Vincent, c'est un robot qui joue contre moi ?",
        "la carte qui va sortir de la rangée, elle va où ?",
        "is it really the end of the game after three paintings?",
    ],
)
def test_rules_questions_near_the_new_cues_stay_in_scope(question):
    assert _reason(question) is None


@pytest.mark.parametrize(
    ("question", "lang"),
    [
        # English grammar, French game words.
        ("then another tour for all joueurs?", "en"),
        ("only one carte per tour, right?", "en"),
        ("so every joueur has one main?", "en"),
        ("just one ruban per carte?", "en"),
        # French grammar (unaccented "ca", "moi", "va", "ensuite"), English game words.
        ("moi j'ai three paintings, ca finish the game ?", "fr"),
        ("vincent va toujours take the free card ?", "fr"),
        ("ensuite ca repart avec the first player ?", "fr"),
        ("ca se score comment, the hierarchy ribbons", "fr"),
    ],
)
def test_a_mixed_message_is_answered_in_the_language_of_its_grammar(question, lang):
    assert detect_lang(question) == lang
