"""Near-domain questions (opinion, price, expansions, other games) abstain and say why; rules questions don't."""

import pytest

from rulesbot.scope import out_of_scope, scope_message


@pytest.mark.parametrize(
    ("question", "reason"),
    [
        ("whats the best card to take first?", "opinion"),
        ("des astuces pour gagner en solo ?", "opinion"),
        ("how much does Canvas cost?", "price"),
        ("combien coûte le jeu en boutique ?", "price"),
        ("where can i buy it in canada", "price"),
        ("how do mirror cards work in Reflections?", "expansion"),
        ("il existe une extension pour 6 joueurs ?", "expansion"),
        ("hand limit in Ticket to Ride?", "other_game"),
        ("Comment roquer aux échecs ?", "other_game"),
    ],
)
def test_near_domain_questions_are_recognised_with_their_reason(question, reason):
    found = out_of_scope(question, "Canvas", "canvas")
    assert found is not None and found.reason == reason


@pytest.mark.parametrize(
    "question",
    [
        "How much does it cost to take the fourth card?",  # a token cost, not a price
        "Combien coûte la troisième carte ?",
        "What's the designers' best score in the achievements?",
        "Which Scoring Cards does the rulebook suggest for a first game?",
        "on joue avec les 4 cartes que le livret conseille, ça fait combien 3 rubans Répétition ?",
        "Ça coûte combien de prendre la carte d'à côté ?",
        "How do I win?",
        "Quand est-ce que de nouvelles cartes arrivent dans la rangée ?",
    ],
)
def test_rules_questions_with_lookalike_words_are_not_near_domain(question):
    assert out_of_scope(question, "Canvas", "canvas") is None


@pytest.mark.parametrize(
    ("question", "reason"),
    [
        ("t'en penses quoi de la carte Variété, elle est forte ?", "opinion"),
        ("vous recommandez quoi comme premier coup ?", "opinion"),
        ("il vaut mieux prendre la carte gratuite ou pas ?", "opinion"),
        ("what do you think of Hierarchy?", "opinion"),
        ("le jeu est dispo sur amazon à quel prix ?", "price"),
        ("is there a deluxe edition with new art?", "expansion"),
    ],
)
def test_chat_phrasings_of_opinions_prices_and_expansions(question, reason):
    found = out_of_scope(question, "Canvas", "canvas")
    assert found is not None and found.reason == reason


def test_cues_match_whole_words_only():
    assert out_of_scope("is the unoriginal title scored?", "Canvas", "canvas") is None
    assert out_of_scope("is it played like uno?", "Canvas", "canvas").reason == "other_game"


def test_ask_abstains_with_the_reason_in_the_askers_language(hash_bot):
    english = hash_bot.ask("any tips to beat the Master level solo?")
    assert english.kind == "unknown" and english.citations == []
    assert english.answer == scope_message("opinion", "en", "Canvas")
    french = hash_bot.ask("Comment roquer aux échecs ?")
    assert french.kind == "unknown" and french.lang == "fr"
    assert french.answer == "Cela concerne un autre jeu : je ne connais que les règles de Canvas."


def test_every_reason_has_a_message_in_both_languages():
    from rulesbot.scope import scope_data

    data = scope_data()
    for rule in data["rules"]:
        assert {"en", "fr"} <= set(data["messages"][rule["reason"]])


def test_one_games_expansion_names_are_plain_words_in_another_game():
    # Canvas's golden ribbons come with an expansion; a site's own game may well have golden boats.
    assert out_of_scope("Un ruban doré rapporte combien ?", "Canvas", "canvas").reason == "expansion"
    assert out_of_scope("Un bateau doré rapporte combien de points ?", "Beacon Bay", "beacon-bay") is None
    # Expansions in general are outside any pack's rulebook.
    assert out_of_scope("are there pirates in the expansion?", "Beacon Bay", "beacon-bay").reason == "expansion"


def test_a_pack_is_never_another_game_to_itself():
    assert out_of_scope("how do you win at catan?", "Catan", "catan") is None
    assert out_of_scope("is this like catan?", "Canvas", "canvas").reason == "other_game"
