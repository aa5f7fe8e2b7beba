"""The shipped Canvas data: counts and the derived statistics FACTS.md section 3 states (rulebook p. 1-2)."""

from collections import Counter
from itertools import combinations

import pytest
from rulesbot.engine import canvas
from rulesbot.engine.canvas.data import BONUSES, ELEMENTS


def test_sixty_cards_two_stripes_each():
    assert len(canvas.ART_CARDS) == 60
    assert [art_card.id for art_card in canvas.ART_CARDS] == list(range(1, 61))
    assert all(len(art_card.stripe_positions()) == 2 for art_card in canvas.ART_CARDS)


def test_each_position_pair_on_exactly_six_cards():
    pairs = Counter(art_card.stripe_positions() for art_card in canvas.ART_CARDS)
    assert set(pairs) == set(combinations(range(1, 6), 2))
    assert set(pairs.values()) == {6}


def test_each_position_striped_on_24_cards():
    for index in range(5):
        assert sum(1 for art_card in canvas.ART_CARDS if art_card.stripes[index]) == 24


def test_icon_totals():
    icons = Counter(icon for art_card in canvas.ART_CARDS for stripe in art_card.stripes for icon in stripe)
    assert {element: icons[element] for element in ELEMENTS} == dict.fromkeys(ELEMENTS, 34)
    assert {bonus: icons[bonus] for bonus in BONUSES} == dict.fromkeys(BONUSES, 4)


def test_stripe_sizes():
    sizes = Counter(len(stripe) for art_card in canvas.ART_CARDS for stripe in art_card.stripes if stripe)
    assert sizes == {1: 88, 2: 32}
    icons_per_card = Counter(sum(len(stripe) for stripe in art_card.stripes) for art_card in canvas.ART_CARDS)
    assert icons_per_card == {2: 28, 3: 32}


def test_double_stripes_by_kind():
    doubles = Counter(
        tuple(stripe) for art_card in canvas.ART_CARDS for stripe in art_card.stripes if len(stripe) == 2
    )
    assert doubles == {
        ("shape", "texture"): 6,
        ("hue", "tone"): 6,
        ("shape", "tone"): 5,
        ("hue", "shape"): 5,
        ("hue", "texture"): 5,
        ("texture", "tone"): 5,
    }


def test_title_slots():
    left = [art_card for art_card in canvas.ART_CARDS if art_card.title_slot == "left"]
    assert len(left) == 30
    for art_card in canvas.ART_CARDS:
        if art_card.stripes[0] or art_card.stripe_positions() == (2, 3):
            assert art_card.title_slot == "left", art_card.title


def test_per_position_counts_green():
    green = Counter(icon for art_card in canvas.ART_CARDS for icon in art_card.stripes[2])
    assert green == {"hue": 7, "shape": 7, "texture": 7, "tone": 7, **dict.fromkeys(BONUSES, 1)}


@pytest.mark.parametrize(
    ("name", "expected_id"),
    [
        ("Precious", 1),
        ("precious", 1),
        ("Impropable", 23),
        ("improbable", 23),
        (" Warning ", 60),
        (5, 5),
        ("31", 31),
    ],
)
def test_card_lookup(name, expected_id):
    assert canvas.card(name).id == expected_id


@pytest.mark.parametrize("bad", ["Nope", 0, 61, "", None, True])
def test_card_lookup_refuses(bad):
    with pytest.raises(canvas.UnknownCard):
        canvas.card(bad)


def test_unknown_card_suggests():
    with pytest.raises(canvas.UnknownCard, match="Game"):
        canvas.card("Gme")


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("variety", "variety"),
        ("Variété", "variety"),
        ("variete", "variety"),
        ("Cohérence", "consistency"),
        ("Hierarchie", "hierarchy"),
        ("Symétrie", "symmetry"),
        ("ESPACE", "space"),
        ("Répétition", "repetition"),
    ],
)
def test_scoring_card_lookup(name, slug):
    assert canvas.scoring_card(name).slug == slug


def test_scoring_card_unknown():
    with pytest.raises(canvas.UnknownScoringCard):
        canvas.scoring_card("Unity")  # a pre-release card, not in the retail game


def test_twelve_scoring_cards_and_max_ribbons():
    assert len(canvas.SCORING_CARDS) == 12
    maximums = {entry.slug: entry.max_ribbons for entry in canvas.SCORING_CARDS}
    assert [slug for slug, maximum in maximums.items() if maximum == 4] == [
        "proximity",
        "repetition",
        "space",
        "symmetry",
    ]


def test_scenarios_and_levels():
    assert len(canvas.SCENARIOS) == 9
    assert canvas.scenario("First Time Playing").cards == ("composition", "emphasis", "repetition", "variety")
    assert [level.target for level in canvas.SOLO_LEVELS] == [25, 30, 35, 40]
    assert canvas.solo_level("Maître").target == 40
    assert len(canvas.ACHIEVEMENTS) == 10
