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


@pytest.mark.parametrize(
    ("question", "reason"),
    [
        # strategy and taste, in chat phrasing
        ("how do i get better at this game", "opinion"),
        ("which Scoring Card is the strongest, honestly?", "opinion"),
        ("is it a good idea to hoard tokens early on", "opinion"),
        ("comment progresser à Canvas ?", "opinion"),
        ("tu prendrais quoi toi, la carte gratuite ou celle d'à côté ?", "opinion"),
        ("c'est quoi la tactique la plus rentable en solo ?", "opinion"),
        ("il est fun ce jeu à 2 ?", "opinion"),
        # price, shops, accessories
        ("is it sold out everywhere?", "price"),
        ("do they ship to belgium", "price"),
        ("on peut le commander où, avec livraison ?", "price"),
        ("il manque une carte dans ma boîte, je contacte le SAV ?", "price"),
        ("Canvas est moins cher sur leboncoin ?", "price"),
        # expansions and editions
        ("what were the stretch goals?", "expansion"),
        ("is there a second edition with changes?", "expansion"),
        ("l'édition collector a des règles en plus ?", "expansion"),
        ("y a du contenu additionnel pour Canvas ?", "expansion"),
        # digital versions
        ("can I play it on board game arena?", "digital"),
        ("is there an app for canvas on ios", "digital"),
        ("on peut jouer en ligne contre des amis ?", "digital"),
        ("y a-t-il une appli pour compter les points ?", "digital"),
        ("la version numérique suit les mêmes règles ?", "digital"),
        # house rules
        ("we use a house rule with 6 cards in hand, ok?", "house_rule"),
        ("notre règle maison : on pioche 2 cartes, c'est bon ?", "house_rule"),
        ("on a inventé une variante avec 4 peintures, tu valides ?", "house_rule"),
        # other games
        ("in Sagrada can you place two dice of one colour together?", "other_game"),
        ("aux loups-garous la voyante parle quand ?", "other_game"),
        ("dans un autre jeu on pouvait défausser, c'est le cas au Scrabble ?", "other_game"),
    ],
)
def test_wider_near_domain_phrasings_in_both_languages(question, reason):
    found = out_of_scope(question, "Canvas", "canvas")
    assert found is not None and found.reason == reason, found


@pytest.mark.parametrize(
    "question",
    [
        "Where does the new card go after I take one?",  # "new" is not an edition
        "Comment gagner plus de jetons Inspiration ?",  # gaining tokens is a rule, not a tip
        "Which card is the cheapest to take from the row?",  # a token cost, not a price
        "La pile de rubans est épuisée, on fait comment ?",  # a supply running out, not a shop
        "Can I insert the 3 cards into the sleeve in any order?",  # the game's own sleeves
        "is it good to have exactly 6 elements for Consistency?".replace("is it good to", "do I need"),
        "quelle application de la règle de Symétrie pour la zone verte ?",  # "application" is not an app
    ],
)
def test_rules_questions_that_share_words_with_the_new_cues_stay_in_scope(question):
    assert out_of_scope(question, "Canvas", "canvas") is None


def test_no_phrasing_of_a_shipped_rules_question_is_refused():
    # Every FAQ question and paraphrase of the pack is a rules question: none may abstain as near-domain.
    from rulesbot.knowledge import load_packs

    pack = load_packs()["canvas"]
    refused = [
        (text, found.reason, found.cue)
        for entry in pack.entries
        for text in [entry.question, *entry.paraphrases]
        if text and (found := out_of_scope(text, "Canvas", "canvas")) is not None
    ]
    assert refused == []


@pytest.mark.parametrize("reason", ["digital", "house_rule"])
def test_new_reasons_have_a_message_in_both_languages(reason):
    english, french = scope_message(reason, "en", "Canvas"), scope_message(reason, "fr", "Canvas")
    assert "Canvas" in english and "Canvas" in french and english != french


@pytest.mark.parametrize(
    "question",
    [
        "is it worth keeping tokens until the end?",
        "ça vaut le coup de garder mes jetons jusqu'à la fin ?",
        "what scoring cards would you recommend for our first game?",
        "vous conseillez quelles cartes de score pour une première partie ?",
    ],
)
def test_a_rule_unless_phrase_keeps_a_rules_question_in_scope(question):
    assert out_of_scope(question, "Canvas", "canvas") is None


def test_an_unless_phrase_only_cancels_its_own_rule():
    assert out_of_scope("is it worth keeping tokens? also, is there an app for ios", "Canvas", "canvas").reason == "digital"


@pytest.mark.parametrize(
    ("question", "reason"),
    [
        # Player-count comparisons are opinions, whatever the counts.
        ("does canvas play better at three or at two?", "opinion"),
        ("honnêtement c'est plus sympa à 4 joueurs ou en solo ?", "opinion"),
        ("Is Canvas more fun with 2 people or with 5?", "opinion"),
        # Which Scoring Card is strongest.
        ("which is the best scoring card for a solo run?", "opinion"),
        ("c'est quoi la meilleure carte de score à 2 ?", "opinion"),
        ("what's the strongest scoring card to aim for", "opinion"),
        # Whether a change keeps the game balanced.
        ("if we reveal six cards in the row would that break the game?", "opinion"),
        ("on joue avec une main de 6, ça reste équilibré ?", "opinion"),
        ("does starting with 6 tokens make it unbalanced?", "opinion"),
        # Drafting is not in the rules: a house rule.
        ("can we draft the scoring cards before the game?", "house_rule"),
        ("on aimerait drafter les cartes art, c'est jouable ?", "house_rule"),
        ("what if we drafted our starting hands?", "house_rule"),
        # Gold ribbons belong to an expansion the pack does not cover.
        ("what do gold ribbons score?", "expansion"),
        ("un ruban d'or compte combien de points ?", "expansion"),
        ("golden ribbon vs silver ribbon, which is worth more?", "expansion"),
        # Sleeve sizes, for buying more: not rules.
        ("which sleeve size fits the art cards?", "price"),
        ("les pochettes font quelle taille, en mm ?", "price"),
        ("what are the dimensions of the card sleeves?", "price"),
        # The game's price, said as 'this game' / 'ce jeu'.
        ("how much does this game cost new?", "price"),
        ("ce jeu coûte combien en général ?", "price"),
        ("what's the price of this game in the US?", "price"),
    ],
)
def test_comparisons_balance_drafts_gold_ribbons_sleeve_sizes_and_prices_are_near_domain(question, reason):
    found = out_of_scope(question, "Canvas", "canvas")
    assert found is not None and found.reason == reason


@pytest.mark.parametrize(
    "question",
    [
        "how many art cards go into one sleeve?",
        "une pochette contient combien de cartes ?",
        "what changes when only 2 players play?",
        "à 4 joueurs, on a combien de jetons chacun ?",
        "how many points are silver ribbons worth?",
        "which scoring cards does the Balanced scenario use?",
        "ça coûte combien de prendre la 5e carte, celle près de la pioche ?",
    ],
)
def test_rules_questions_near_the_new_cues_stay_in_scope(question):
    assert out_of_scope(question, "Canvas", "canvas") is None
