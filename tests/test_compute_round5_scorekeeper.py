"""Fifth-round computed families (the end-of-game scorekeeper and the game's fixed numbers): the winner among players
named with their scores and tokens, "we share the win" claims, the role a number plays next to a scenario (a goal
claimed, a count of Scoring Cards, a ribbon tally's total), the scenario with the highest or lowest goal, two-part
counts (the box and a game, each player and everyone), the Solo Puzzle supply, a stated box count and a card's cap.

Oracles come from the engine (winners, scenarios, points tables, component counts, ribbons_taken) or from the rule as
the rulebook states it (p. 5: still tied, a neutral person judges), never from the answer's own code path; every
question is worded here, not copied from an eval set.
"""

from functools import cache

import pytest
from rulesbot.engine import canvas as engine

from rulesbot.compute import answer_computed
from rulesbot.knowledge import load_packs


@cache
def _pack():
    return load_packs()["canvas"]


def ask(question: str, lang: str = "en"):
    return answer_computed(None, question, lang, _pack())


def _scenario(slug):
    return next(scenario for scenario in engine.SCENARIOS if scenario.slug == slug)


def _counts(ruleset="base"):
    return engine.component_counts(ruleset)


# ------------------------------------------------------------------------------ 1. who wins, players named


@pytest.mark.parametrize(("question", "lang", "names", "scores", "tokens"), [
    ("Final tally: Marco 33 with 1 token left, Jade 33 with 4 tokens left. Who takes it?", "en",
     ["Marco", "Jade"], [33, 33], [1, 4]),
    ("score final : Léo 29 et 0 jeton, Inès 29 et 2 jetons, qui gagne ?", "fr", ["Léo", "Inès"], [29, 29], [0, 2]),
    ("we both ended on 30; I kept 1 token, Hugo kept 3. who wins?", "en", ["me", "Hugo"], [30, 30], [1, 3]),
    ("Marie 34, Tom 31 and me 29 at the end, who won?", "en", ["me", "Marie", "Tom"], [29, 34, 31], [None] * 3),
    ("fin de partie : Hugo 40 pts 0 jeton, moi 40 pts 2 jetons, qui l'emporte ?", "fr", ["me", "Hugo"], [40, 40], [2, 0]),
    ("I finished on 31 and my opponent on 29, who wins?", "en", ["me", "opponent"], [31, 29], [None, None]),
    ("j'ai fini avec 30 points et mon adversaire 33, qui gagne ?", "fr", ["me", "opponent"], [30, 33], [None, None]),
])
def test_the_winner_among_named_players(question, lang, names, scores, tokens):
    # The engine's winners: most points, then most Inspiration Tokens left (rulebook p. 5).
    expected = [names[index] for index in engine.winners(scores, [held or 0 for held in tokens])]
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed" and answer.engine["intent"] == "tie_break", \
        answer and answer.answer
    assert sorted(answer.engine["players"]) == sorted(names), answer.engine
    assert answer.engine["winners"] == expected, answer.answer
    assert all(name in answer.answer for name in expected if name not in ("me", "opponent")), answer.answer


@pytest.mark.parametrize(("question", "lang"), [
    ("Nina and I both finished on 27; she kept 1 token and I kept 2. So Nina wins, right?", "en"),
    ("Égalité à 31 : Paul a 3 jetons et moi 1, donc Paul gagne, c'est ça ?", "fr"),
])
def test_a_claimed_winner_is_checked(question, lang):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim", answer and answer.answer
    # Nina (1 token) against me (2); Paul (3) against me (1): the engine's tie-break.
    named_wins = "Paul" in question
    assert answer.verdict is named_wins, answer.answer


# ------------------------------------------------------------------------------ 2. "so we share the win?"


@pytest.mark.parametrize(("question", "lang", "word"), [
    ("we tied and have the same number of tokens, so we both win, right?", "en", "neutral"),
    ("égalité de points et même nombre de jetons, donc victoire partagée c'est ça ?", "fr", "neutre"),
    ("Ana and I tied on 28 with 2 tokens each, so we share the win right?", "en", "neutral"),
    ("Égalité à 25 entre Marc (2 jetons) et Lou (2 jetons) : on partage la victoire, non ?", "fr", "neutre"),
])
def test_a_shared_win_is_false(question, lang, word):
    # Equal points and equal tokens stay tied for the engine; then a neutral person judges the artwork and names
    # one winner (rulebook p. 5): the win is never shared.
    assert len(engine.winners([28, 28], [2, 2])) == 2
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim" and answer.verdict is False, answer and answer.answer
    assert word in answer.answer and 5 in [citation.page for citation in answer.citations], answer.answer


# ------------------------------------------------------------------------------ 3. a goal claimed, not a score


@pytest.mark.parametrize(("question", "lang", "slug", "claimed"), [
    ("Spatial has 40 to reach, right?", "en", "spatial", 40),
    ("pour No Elements c 30 à atteindre ?", "fr", "no-elements", 30),
    ("Balanced, 33 needed, right?", "en", "balanced", 33),
    ("le scénario Synergy c'est 28 à faire ?", "fr", "synergy", 28),
])
def test_a_number_said_as_the_goal_is_a_claimed_goal(question, lang, slug, claimed):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim", answer and answer.answer
    assert answer.verdict is (_scenario(slug).goal == claimed), answer.answer
    assert str(_scenario(slug).goal) in answer.answer


# ------------------------------------------------------------------------------ 4. how many Scoring Cards a scenario uses


@pytest.mark.parametrize(("question", "lang", "slug", "claimed"), [
    ("Family Game is played with 4 scoring cards, right?", "en", "family-game", 4),
    ("le scénario Bonus se joue avec 4 cartes de score ?", "fr", "bonus", 4),
    ("my friend says Synergy uses 2 scoring cards", "en", "synergy", 2),
    ("combien de cartes de score pour le scénario Synergy ?", "fr", "synergy", None),
])
def test_a_scenario_s_card_count(question, lang, slug, claimed):
    scenario = _scenario(slug)
    count = len(scenario.cards) + (scenario.random_cards or 0)
    answer = ask(question, lang)
    assert answer is not None and answer.engine["intent"] == "scenario_cards", answer and answer.answer
    assert answer.engine["count"] == count and str(count) in answer.answer, answer.answer
    if claimed is None:
        assert answer.kind == "computed"
    else:
        assert answer.kind == "claim" and answer.verdict is (claimed == count), answer.answer


# ------------------------------------------------------------------------------ 5. the highest / lowest goal


@pytest.mark.parametrize(("question", "lang", "pick"), [
    ("which scenario needs the most points?", "en", max),
    ("quel scénario a l'objectif le plus élevé ?", "fr", max),
    ("scenario with the lowest goal?", "en", min),
    ("c'est quoi le scénario avec l'objectif le plus bas ?", "fr", min),
])
def test_the_scenario_with_the_extreme_goal(question, lang, pick):
    goal = pick(scenario.goal for scenario in engine.SCENARIOS)
    expected = [scenario for scenario in engine.SCENARIOS if scenario.goal == goal]
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed", answer and answer.answer
    assert answer.engine["scenarios"] == [scenario.slug for scenario in expected], answer.engine
    assert str(goal) in answer.answer and all(scenario.name in answer.answer for scenario in expected)


# ------------------------------------------------------------------------------ 6. a ribbon tally against a goal


def _tally(ribbons):
    return sum(engine.SILVER_POINTS * count if slug == "silver" else engine.points_for(slug, count)
               for slug, count in ribbons.items())


@pytest.mark.parametrize(("question", "lang", "slug", "ribbons", "stated"), [
    ("Spatial finished: movement 2, proximity 3, space 2, symmetry 1 and 3 silver. that's enough for the goal, right?",
     "en", "spatial", {"movement": 2, "proximity": 3, "space": 2, "symmetry": 1, "silver": 3}, None),
    ("fin de Synergy : proximité 2, espace 2, variété 3, 1 argent, 30 points et on réussit l'objectif, non ?", "fr",
     "synergy", {"proximity": 2, "space": 2, "variety": 3, "silver": 1}, 30),
    ("All Elements over: emphasis 2, hierarchy 3, repetition 2, style 1, 4 silver. 45 so we pass, yeah?", "en",
     "all-elements", {"emphasis": 2, "hierarchy": 3, "repetition": 2, "style": 1, "silver": 4}, 45),
])
def test_a_ribbon_tally_is_checked_against_the_goal(question, lang, slug, ribbons, stated):
    total = _tally(ribbons)
    passes = total >= _scenario(slug).goal
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim", answer and answer.answer
    assert answer.engine["score"] == total and str(total) in answer.answer, answer.answer
    assert answer.verdict is (passes and (stated is None or stated == total)), answer.answer


def test_a_ribbon_tally_question_is_computed():
    ribbons = {"emphasis": 1, "hierarchy": 1, "repetition": 2, "style": 1}
    answer = ask("All Elements: emphasis 1, hierarchy 1, repetition 2, style 1. did we pass the goal?")
    assert answer is not None and answer.kind == "computed", answer and answer.answer
    assert answer.engine["score"] == _tally(ribbons)
    assert answer.engine["passed"] is (_tally(ribbons) >= _scenario("all-elements").goal)


# ------------------------------------------------------------------------------ 7. two-part counts, the supply, box claims


@pytest.mark.parametrize(("question", "lang"), [
    ("how many scoring cards are in the box, and how many do we play with?", "en"),
    ("combien de cartes de score au total et combien on en utilise par partie ?", "fr"),
])
def test_the_box_and_the_game_counts(question, lang):
    counts = _counts()
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed", answer and answer.answer
    assert str(counts["scoring_cards"].count) in answer.answer and str(counts["scoring_cards_in_play"].count) in answer.answer


@pytest.mark.parametrize(("question", "lang", "players"), [
    ("how many tokens does each player start with? there are 4 of us", "en", 4),
    ("combien de jetons par joueur au départ ? on est 2", "fr", 2),
    ("jetons de départ pour chaque joueur, on est 5 : combien ?", "fr", 5),
])
def test_each_and_all_players_tokens(question, lang, players):
    each = _counts()["inspiration_tokens_per_player"].count
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed", answer and answer.answer
    assert answer.engine["per_player"] == each and answer.engine["in_play"] == players * each, answer.engine
    assert str(each) in answer.answer and str(players * each) in answer.answer


@pytest.mark.parametrize(("question", "lang"), [
    ("Solo Puzzle: how many tokens are in the supply at the start?", "en"),
    ("en puzzle solo, la réserve commence avec combien de jetons ?", "fr"),
    ("how many tokens start in the Solo Puzzle supply?", "en"),
])
def test_the_solo_puzzle_supply(question, lang):
    supply = _counts("solo-puzzle")["token_supply"]
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed", answer and answer.answer
    assert answer.engine["component"] == "token_supply" and answer.engine["count"] == supply.count, answer.engine
    assert supply.page in [citation.page for citation in answer.citations]


@pytest.mark.parametrize(("question", "lang", "claimed"), [
    ("there should be 20 ribbons of each colour in the box, right?", "en", 20),
    ("normalement c'est 15 rubans par couleur dans la boîte, hein ?", "fr", 15),
    ("tidying up: there'd be 20 of each colour of ribbon, yeah?", "en", 20),
])
def test_a_stated_box_count_is_checked(question, lang, claimed):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim", answer and answer.answer
    assert answer.verdict is (_counts()["ribbons_per_colour"].count == claimed), answer.answer


# ------------------------------------------------------------------------------ 8. ribbons already at the card's cap


@pytest.mark.parametrize(("question", "lang", "slug", "held", "met"), [
    ("already 3 Style ribbons, my new painting shows 2 sets of 3 Textures, how many more Style ribbons?", "en",
     "style", 3, 2),
    ("I already have 2 Repetition ribbons and this painting has 3 pairs of Shape: how many more Repetition ribbons?",
     "en", "repetition", 2, 3),
    ("j'ai déjà 4 rubans Répétition, ma dernière peinture a encore 2 paires de formes : combien de rubans Répétition en plus ?",
     "fr", "repetition", 4, 2),
])
def test_sets_counted_are_the_times_a_card_is_met(question, lang, slug, held, met):
    taken = engine.ribbons_taken(slug, met, held)
    answer = ask(question, lang)
    assert answer is not None and answer.engine["intent"] == "ribbons_taken", answer and answer.answer
    assert answer.engine["held"] == held and answer.engine["met"] == met and answer.engine["taken"] == taken


# ------------------------------------------------------------------------------ 9. what the new readings leave alone


@pytest.mark.parametrize(("question", "lang"), [
    ("tied at 30, who wins?", "en"),
    ("égalité à 27, qui gagne ?", "fr"),
])
def test_a_tie_without_players_is_left_to_the_rule(question, lang):
    # No player's tokens are said: the tie-break rule (rulebook p. 5) is the answer, not a computation.
    assert ask(question, lang) is None


def test_a_tally_follow_up_checks_the_previous_ribbons():
    ribbons = {"proportion": 2, "style": 1, "hierarchy": 2, "movement": 1}
    answer = answer_computed(None, "did that pass the goal then?", "en", _pack(),
                             context=["Bonus scenario done: proportion 2, style 1, hierarchy 2, movement 1. total?"])
    assert answer is not None and answer.engine["score"] == _tally(ribbons), answer and answer.answer
    assert answer.engine["passed"] is (_tally(ribbons) >= _scenario("bonus").goal)


def test_a_count_asked_with_where_it_goes_is_a_rule_question():
    # "how many, and where is it put?": the placement is a rule the count does not answer.
    assert ask("Combien de jetons dans la réserve du Puzzle solo, et où la pose-t-on ?", "fr") is None
