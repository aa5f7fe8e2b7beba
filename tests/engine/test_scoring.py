"""Per-Scoring-Card counts on hand-derived paintings (FACTS.md 1.2 and rulings 8.1), silver bonus, points (p. 4-5)."""

import pytest
from rulesbot.engine import canvas
from rulesbot.engine.canvas import Painting, points_for, score_painting

H, S, X, T = "hue", "shape", "texture", "tone"


def ribbons(swatches, slug):
    return score_painting(Painting.from_swatches(swatches), [slug]).ribbons[slug]


CASES = [
    # (scoring card, swatches left to right, expected per-painting ribbons, why)
    ("composition", [[H], [S], [X], [T], ["per-hue"]], 1, "a bonus icon fills a swatch"),
    ("composition", [[H], [S], [], [T], [H]], 0, "swatch 3 empty"),
    ("consistency", [[H, S], [X, T], [H], [S], ["per-tone"]], 1, "6 Elements; the bonus is not one"),
    ("consistency", [[H, S], [X, T], [H], [], []], 0, "5 Elements"),
    ("consistency", [[H, S], [X, T], [H, S], [X], []], 0, "7 Elements"),
    ("emphasis", [[H], ["per-hue"], [S], [], []], 1, "exactly 1 Hue; per-Hue is not a Hue"),
    ("emphasis", [[H], [H], [S], [], []], 0, "2 Hue"),
    ("emphasis", [[S], [], [], [], []], 0, "no Hue"),
    ("hierarchy", [[T], [T, S], [S], [H], []], 1, "Tone ties Shape"),
    ("hierarchy", [[T], [S], [S], [], []], 0, "more Shape than Tone"),
    ("hierarchy", [["per-tone"], [], [], [], []], 0, "no Tone at all (ruling 8.1)"),
    ("movement", [[H], [H], [H, S], [S], [S]], 2, "Hue run 1-3 and Shape run 3-5"),
    ("movement", [[H], [H], [H], [H], [H]], 1, "a run of 5 counts once"),
    ("movement", [[H], [H], [], [H], [H]], 0, "broken run"),
    ("proportion", [[H, S], [H, S], [H], [], []], 1, "3 Hue + 2 Shape"),
    ("proportion", [[H], [H], [H], [H], [H]], 1, "5 of one Element is 3 + 2"),
    ("proportion", [[H, S], [H, S], [H, S], [T, X], [T, X]], 2, "3+2 and 3+2"),
    ("proportion", [[H, S], [H, S], [H], [S], []], 1, "3 Hue + 3 Shape is only one set"),
    ("proximity", [[X], [T], [], [], []], 1, "adjacent"),
    ("proximity", [[X, T], [], [], [], []], 0, "same swatch is not adjacent"),
    ("proximity", [[T], [X], [T], [], []], 1, "one Texture pairs once"),
    ("proximity", [[X], [T], [X], [T], []], 2, "two disjoint pairs"),
    ("repetition", [[S], [S], [S], [S], [S]], 2, "5 Shape = 2 pairs"),
    ("repetition", [[S], [], [], [], []], 0, "1 Shape"),
    (
        "space",
        [[H], [S], [S, X], [H, S], [H, X]],
        3,
        "Delicate/Masked/Revolution: maximum matching gives 3 (ruling 8.1)",
    ),
    ("space", [[H], [S], [], [], []], 0, "adjacent"),
    ("space", [[H], [], [S], [], []], 1, "two apart"),
    ("space", [[H, S], [], [], [], []], 0, "same swatch"),
    ("style", [[X], [X], [X], [X], [X]], 1, "5 Texture = 1 set of 3"),
    ("style", [[X, H], [X], [X], [X], [X, S]], 1, "still one set"),
    ("style", [[X], [X], [], [], []], 0, "2 Texture"),
    ("symmetry", [[H, S], [T], [], [T], [H, S]], 3, "Hue and Shape in 1-5, Tone in 2-4"),
    ("symmetry", [[H], [], [], [], [S]], 0, "different Elements"),
    ("symmetry", [["per-hue"], [], [], [], ["per-hue"]], 0, "bonus icons are not Elements"),
    ("variety", [[H, S], [X, T], [H, S], [X, T], []], 2, "two complete sets"),
    ("variety", [[H, S], [X], [], [], []], 0, "no Tone"),
]


@pytest.mark.parametrize(
    ("slug", "swatches", "expected", "why"), CASES, ids=[f"{c[0]}-{c[3]}" for c in CASES]
)
def test_scoring_card_counts(slug, swatches, expected, why):
    assert ribbons(swatches, slug) == expected, why


def test_every_scoring_card_has_cases():
    assert {case[0] for case in CASES} == set(canvas.SCORING_SLUGS)


def test_space_example_from_real_cards():  # FACTS.md 8.1: Delicate, Revolution, Masked
    painting = Painting.from_cards(["Delicate", "Revolution", "Masked"])
    assert painting.visible == (
        ("hue",),
        ("shape",),
        ("shape", "texture"),
        ("hue", "shape"),
        ("hue", "texture"),
    )
    assert score_painting(painting, ["space"]).ribbons["space"] == 3


@pytest.mark.parametrize(
    ("swatches", "silver"),
    [
        ([[S], ["per-shape"], [S], [], []], 2),  # 1 per visible Shape
        ([["per-hue"], ["per-shape"], [H], [S], [S]], 3),  # each bonus scores separately
        ([["per-hue"], [S], [], [], []], 0),  # no Hue
        ([["per-tone"], ["per-tone"], [T], [T], [T]], 6),  # two bonus icons of one kind
    ],
)
def test_silver_bonus(swatches, silver):  # p. 1, p. 4
    assert score_painting(Painting.from_swatches(swatches)).bonus == silver


def test_layering_hides_whole_stripe():  # p. 4
    painting = Painting.from_cards(["Heavy", "Fragile", "Mess"])
    assert painting.visible == (("shape",), ("hue",), (), ("shape",), ("texture",))
    assert painting.shown_by == (4, 4, None, 58, 58)
    assert painting.title == "Fragile Mess"


def test_title_may_have_one_word():  # ruling 8.4
    assert Painting.from_cards(["Precious", "Peaceful", "Heavy"]).title == "Heavy"


@pytest.mark.parametrize(
    ("slug", "counts", "points"),
    [
        ("variety", [0, 1, 2, 3, 4], [0, 4, 8, 13, 13]),
        ("repetition", [4, 5], [16, 16]),
        ("composition", [2], [3]),
    ],
)
def test_points_for(slug, counts, points):  # p. 4: never more ribbons than the card shows
    assert [points_for(slug, count) for count in counts] == points


def test_points_for_refuses_negative():
    with pytest.raises(ValueError, match="expected a ribbon count"):
        points_for("variety", -1)


def test_best_painting_finds_the_top_arrangement():
    best = canvas.best_painting(["Chosen", "Game", "Truth", "View", "Bait"], canvas.FIRST_GAME_CARDS)
    assert best.points == best.score.points()
    for bottom, middle, top in __import__("itertools").permutations(
        ["Chosen", "Game", "Truth", "View", "Bait"], 3
    ):
        other = score_painting(Painting.from_cards([bottom, middle, top]), canvas.FIRST_GAME_CARDS)
        assert other.points() <= best.points


def test_take_cost():  # p. 3
    assert canvas.take_cost(1) == (0, 0)
    assert canvas.take_cost(3, (1, 1, 2, 0, 0)) == (2, 2)
