"""Sixth-round claim families: a claim's polarity read once (negated statements, negative tags, double negatives,
"c'est pas vrai que ..."), quizzers' cues, limits claimed to exist or not, and "how sure are you?" re-showing the
previous answer.

Oracles come from the engine's data (each Scoring Card's ribbon cap and points table, the rules' hand limit), never
from the answer's code path; every question is worded here, not copied from an eval set.
"""

import pytest
from compute_helpers import ask, canvas_pack
from rulesbot.engine import canvas as engine

from rulesbot.compute.parse import asks_confidence_only, count_negations, parse
from rulesbot.compute.text import language

_WORDS = language()["polarity"]


# ------------------------------------------------------------------------------------------- the polarity rule itself


@pytest.mark.parametrize(("sentence", "lang", "expected"), [
    ("emphasis doesn't cap at 3", "en", 1),
    ("you can't paint unless you hold 3 cards", "en", 2),  # "unless" after a negation states a requirement
    ("there's no limit to the ribbons", "en", 1),
    ("with no tokens i can take the free card", "en", 0),  # a count of zero, not a negation
    ("it gives nothing", "en", 0),
    ("on ne peut pas prendre de carte", "fr", 1),  # "ne ... pas" is one negation
    ("on a pas le droit de prendre la carte", "fr", 1),  # chat drops the "ne"
    ("il n'a que 2 jetons", "fr", 0),  # "ne ... que" means "only"
    ("c'est pas interdit de prendre la carte", "fr", 2),
    ("n'importe quelle carte convient", "fr", 0),
    ("doesn't emphasis cap at 3", "en", 0),  # a negative opener asks to confirm the positive statement
])
def test_negations_are_counted_as_a_player_means_them(sentence, lang, expected):
    assert count_negations(sentence, lang, _WORDS) == expected


@pytest.mark.parametrize(("question", "lang", "negated"), [
    ("Emphasis caps at 3 ribbons, doesn't it?", "en", False),  # a negative tag does not negate
    ("Emphasis doesn't cap at 3 ribbons, does it?", "en", True),  # a positive tag after a negative statement
    ("there isn't any cap on Proximity ribbons, is there?", "en", True),
    ("l'Emphase ne s'arrête pas à 3 rubans, si ?", "fr", True),
    ("c'est pas vrai que l'Emphase s'arrête à 3 rubans", "fr", True),  # a negating prefix
    ("ce n'est pas interdit de prendre la carte gratuite, non ?", "fr", False),  # two negations
])
def test_a_claims_polarity_is_the_statement_as_stated(question, lang, negated):
    parsed = parse(question, lang, "canvas")
    assert parsed.claim
    assert parsed.negated is negated


def test_a_name_is_no_negation():
    # "Forbidden" is an Art Card's title, not a predicate of the claim.
    parsed = parse("Forbidden, Perspective, Freedom: that meets Variety, right?", "en", "canvas")
    assert parsed.claim and not parsed.negated


# ------------------------------------------------------------------------ caps and limits claimed, in every polarity


def _cap(slug: str) -> int:
    return engine.scoring_card(slug).max_ribbons


@pytest.mark.parametrize(("question", "lang", "slug", "stated", "negated"), [
    ("Emphasis doesn't cap at 3 ribbons, does it?", "en", "emphasis", 3, True),
    ("Proximity tops out at 4 ribbons, doesn't it?", "en", "proximity", 4, False),
    ("Variety doesn't max out at 2 ribbons, is that right?", "en", "variety", 2, True),
    ("la Symétrie ne plafonne pas à 4 rubans, si ?", "fr", "symmetry", 4, True),
    ("c'est pas vrai que le Mouvement s'arrête à 3 rubans", "fr", "movement", 3, True),
])
def test_a_cap_claim_is_true_exactly_when_its_statement_with_its_negation_holds(question, lang, slug, stated,
                                                                               negated):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim"
    assert answer.verdict is ((stated == _cap(slug)) != negated)
    assert str(_cap(slug)) in answer.answer


@pytest.mark.parametrize(("question", "lang", "slug", "says_limited"), [
    ("there's no limit to how many Emphasis ribbons you can get, is there?", "en", "emphasis", False),
    ("Proximity ribbons are unlimited, right?", "en", "proximity", False),
    ("Style has a cap on its ribbons, doesn't it?", "en", "style", True),
    ("y a pas de limite au nombre de rubans Variété, si ?", "fr", "variety", False),
    ("les rubans de Répétition sont limités, non ?", "fr", "repetition", True),
    ("c'est pas vrai que la Symétrie a une limite de rubans", "fr", "symmetry", False),
])
def test_a_claim_that_a_limit_exists_or_not_is_checked_against_the_card(question, lang, slug, says_limited):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim"
    # Every Scoring Card's table stops somewhere: its ribbons are limited.
    limited = _cap(slug) < 100
    assert answer.verdict is (says_limited == limited)
    assert str(_cap(slug)) in answer.answer


def test_holding_more_than_the_hand_limit_on_a_condition_is_still_refused():
    limit = engine.ruleset("base").hand_limit
    for question in ("you can keep six cards in hand if you paint right after, can't you?",
                     "you're allowed to hold 6 cards as long as you paint next, aren't you?"):
        answer = ask(question, "en")
        assert answer is not None and answer.kind == "claim"
        assert answer.verdict is (6 <= limit)


def test_a_hand_below_the_painting_size_still_asks_about_painting():
    answer = ask("I only hold 2 cards. Can I complete a painting now?", "en")
    assert answer is not None and answer.kind == "computed"
    assert "3" in answer.answer


# ----------------------------------------------------------------------------------------------- quizzers' cues


@pytest.mark.parametrize(("question", "lang", "slug", "ribbons", "points"), [
    ("quiz: 2 Emphasis ribbons are worth 4 points, yes?", "en", "emphasis", 2, 4),
    ("quick quiz - Variety with 3 ribbons gives 9, true?", "en", "variety", 3, 9),
    ("petit quiz : la Répétition avec 2 rubans rapporte 7 points, non ?", "fr", "repetition", 2, 7),
])
def test_a_quiz_opener_leaves_the_claim_to_be_checked(question, lang, slug, ribbons, points):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim"
    assert answer.verdict is (engine.points_for(slug, ribbons) == points)


def test_a_quiz_opener_before_a_question_asks_it():
    answer = ask("quiz: how many points do 3 Style ribbons give?", "en")
    assert answer is not None and answer.kind == "computed"
    assert str(engine.points_for("style", 3)) in answer.answer


@pytest.mark.parametrize(("question", "lang", "confidence"), [
    ("how sure are you?", "en", True),
    ("you sure about that??", "en", True),
    ("ok but really?", "en", True),
    ("t'es sûr ?", "fr", True),
    ("t'es sûr de toi là ?", "fr", True),
    ("are you sure Emphasis caps at 3?", "en", False),  # a claim of its own
    ("how sure is the free card free?", "en", False),
])
def test_a_confidence_follow_up_is_recognised(question, lang, confidence):
    assert asks_confidence_only(question, canvas_pack()) is confidence


@pytest.fixture(scope="module")
def bot(tmp_path_factory):
    """The shipped Canvas pack on the lexical backend (no model): follow-ups are read before any ranking."""
    from rulesbot.core import Rulesbot
    from rulesbot.settings import Settings

    settings = Settings(backend="bm25", data_dir=tmp_path_factory.mktemp("polarity"), knowledge_dir=None)
    return Rulesbot.load(settings, notify=lambda _message: None)


@pytest.mark.parametrize(("previous", "follow_up", "lang"), [
    ("true or false: Emphasis caps at 4 ribbons", "how sure are you?", "en"),
    ("how many points do 2 Proximity ribbons give?", "you sure about that??", "en"),
    ("vrai ou faux : la Variété s'arrête à 3 rubans", "t'es sûr ?", "fr"),
])
def test_how_sure_re_shows_the_previous_computation_unchanged(bot, previous, follow_up, lang):
    before = bot.ask(previous)
    again = bot.ask(follow_up, context=[previous])
    assert before.kind in ("claim", "computed")
    assert (again.kind, again.verdict, again.answer) == (before.kind, before.verdict, before.answer)
    assert [citation.page for citation in again.citations] == [citation.page for citation in before.citations]
    assert again.lang == lang
