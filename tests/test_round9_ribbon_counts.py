"""Ninth-round counts computed instead of left to the rulebook text: the ribbons of every listed Scoring Card and the
silver ones ("how many ribbons in total w silver"), a follow-up moving a card to the middle of the painting, ribbons
from a count of icons ("Répétition : 5 formes visibles", only where the card's ribbons follow from that count), and the
Art Cards a player takes at least over a game.

Oracles come from the engine's scoring and data (Scoring Cards' rules and tables, component counts), never from the
answer's code path; every question is worded here.
"""

import pytest
from compute_helpers import ask
from rulesbot.engine import canvas as engine

from rulesbot.compute.canvas.intents.icon_counts import ribbons_for_counts


@pytest.mark.parametrize("said", [" w silver", ""])
def test_the_ribbons_of_every_listed_card(said):
    cards = ["Chosen", "View", "Nature"]
    slugs = ["variety", "repetition", "emphasis", "composition"]
    score = engine.score_painting(engine.Painting.from_cards(cards), slugs)
    # Silver ribbons are ribbons too: counted in all, whether or not the question says them.
    expected = sum(score.ribbons[slug] for slug in slugs) + score.bonus
    answer = ask(f"first game cards ({' '.join(slugs)}). my painting bottom to top is chosen then view then nature on "
                 f"top. how many ribbons do i get in total{said}")
    assert answer is not None and answer.kind == "computed"
    assert answer.answer.startswith(f"This painting earns {expected} ribbons")


def test_one_listed_card_still_names_its_own_ribbons():
    score = engine.score_painting(engine.Painting.from_cards(["Chosen", "View", "Nature"]), ["repetition"])
    answer = ask("chosen then view then nature on top, how many repetition ribbons?")
    assert answer is not None
    assert answer.answer.startswith(f"This painting earns {score.ribbons['repetition']} ribbons (Repetition)")


def test_a_follow_up_moving_a_card_to_the_middle():
    first = "ma fille a fait un tableau avec Unashamed tout au fond, puis Innocent, puis Mess au-dessus. on joue avec " \
            "Variété, Répétition, Emphase et Composition. ça lui fait combien de rubans en tout ?"
    answer = ask("et si elle met Unashamed au milieu, donc au-dessus d'Innocent ?", "fr", context=[first])
    assert answer is not None and answer.engine["cards"] == ["Innocent", "Unashamed", "Mess"]
    score = engine.score_painting(engine.Painting.from_cards(["Innocent", "Unashamed", "Mess"]),
                                  ["variety", "repetition", "emphasis", "composition"])
    assert answer.answer.startswith(f"Cette peinture rapporte {sum(score.ribbons.values()) + score.bonus} rubans")


@pytest.mark.parametrize("shapes", [2, 3, 5])
def test_ribbons_from_a_count_of_shapes(shapes):
    card = engine.scoring_card("repetition")
    expected = shapes // card.rule["size"]
    answer = ask(f"Répétition : ma fille compte {shapes} formes visibles sur son tableau, ça fait combien de rubans ?", "fr")
    assert answer is not None and answer.kind == "computed"
    assert answer.engine["ribbons"] == expected
    assert answer.engine["points"] == engine.points_for("repetition", expected)


def test_a_claimed_count_of_ribbons_from_icons_is_checked():
    answer = ask("repetition: 4 shapes visible, that's 3 ribbons right?")
    assert answer is not None and answer.kind == "claim" and answer.verdict is False


@pytest.mark.parametrize("question", [
    "Emphasis — when there is zero Hue on my painting, I get a ribbon anyway?",
    "l icone PER forme compte comme une forme pour repetition ?",
    "My painting shows 2 Hue icons and the app gave nothing for Emphasis. Shouldn't two Hues be even better than one?",
])
def test_a_card_condition_asked_with_icons_is_left_to_the_rulebook(question):
    answer = ask(question, "fr" if " pour " in question else "en")
    assert answer is None or answer.engine.get("intent") != "icon_count_ribbons"


@pytest.mark.parametrize(("slug", "counts"), [("movement", {"hue": 3}), ("variety", {"shape": 2}),
                                              ("hierarchy", {"tone": 2}), ("style", {"texture": 6})])
def test_a_count_the_ribbons_do_not_follow_from_is_not_answered(slug, counts):
    assert ribbons_for_counts(slug, counts) is None


def test_the_art_cards_a_player_takes_at_least():
    counts = engine.component_counts("base")
    expected = counts["paintings_per_player"].count * counts["cards_per_painting"].count
    answer = ask("sur une partie normale chaque joueur prend au minimum combien de cartes Art au total ?", "fr")
    assert answer is not None and answer.kind == "computed"
    assert answer.engine["count"] == expected
    assert ask("how many art cards at least in the box?").engine["count"] == counts["art_cards"].count
