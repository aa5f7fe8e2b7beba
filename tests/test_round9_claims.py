"""The ninth blind round's claim shapes, as mechanisms of the question-understanding layer.

The questions are new phrasings written for these tests (none from an eval set). The oracles are the rules as the
rulebook states them (solo levels Easy 25+, Normal 30+, Hard 35+, Master 40+, reaching the level wins; silver Ribbons
are worth 2 points each; the Family Game scenario's goal is 18; Hierarchy gives 4 / 9 / 15 points, Repetition
3 / 7 / 11 / 16), not the code's output.
"""

import pytest

from rulesbot.compute.parse import parse


@pytest.fixture(scope="module")
def bot(tmp_path_factory):
    """The shipped Canvas pack on the lexical backend (no model): claims are computed before any ranking."""
    from rulesbot.core import Rulesbot
    from rulesbot.settings import Settings

    settings = Settings(backend="bm25", data_dir=tmp_path_factory.mktemp("claims9"), knowledge_dir=None)
    return Rulesbot.load(settings, notify=lambda _message: None)


def ask(bot, question, lang):
    return bot.ask(question, lang=lang, game="canvas")


# A rejected alternative after the claim ("..., not 4", "... hein pas 2") is no negation and not the claimed value.


@pytest.mark.parametrize(("question", "lang"), [
    ("Normal solo needs 30. I got exactly 30 so I won, not a 'you fell short', right?", "en"),
    ("3 ribbons of Hierarchy give 15 points, not 9, right?", "en"),
    ("Hierarchie avec 3 rubans ca fait 15 points hein pas 9", "fr"),
])
def test_a_rejected_alternative_keeps_the_claim_positive(bot, question, lang):
    parsed = parse(question, lang, "canvas")
    assert parsed.claim and not parsed.negated
    answer = ask(bot, question, lang)
    assert answer.kind == "claim" and answer.verdict is True


def test_a_contrast_without_number_quote_or_article_stays_a_negation():
    parsed = parse("you can take it, not pay anything, right?", "en", "canvas")
    assert parsed.negated


def test_the_rejected_number_is_not_the_claimed_one(bot):
    answer = ask(bot, "Hierarchy with 2 ribbons gives 4 points, not 9, right?", "en")
    assert answer.kind == "claim" and answer.verdict is False and "9" in answer.answer


# When the asker states a value, tags it, and then reports someone else's value, the asker's claim is checked.


@pytest.mark.parametrize(("question", "lang", "verdict"), [
    ("3 Repetition ribbons = 11 points, right? my cousin insists it's 7", "en", True),
    ("3 Repetition ribbons = 7 points, right? my cousin insists it's 11", "en", False),
    ("Hierarchie 1 ruban = 4 points, c'est ca ? ma soeur jure que c'est 9", "fr", True),
])
def test_the_askers_own_value_is_the_claim(bot, question, lang, verdict):
    answer = ask(bot, question, lang)
    assert answer.kind == "claim" and answer.verdict is verdict


# Claim cues inside a sentence: a hedge closing the stated clause, a confirming "c'est bien" before a value.


def test_a_hedge_inside_the_message_marks_a_claim(bot):
    question = "played solo on hard n scored 33,, hard is 33+ i think so i won??"
    assert parse(question, "en", "canvas").claim_cue == "i think"
    answer = ask(bot, question, "en")
    assert answer.kind == "claim" and answer.verdict is False and "35" in answer.answer


@pytest.mark.parametrize(("question", "verdict"), [
    ("en solo, le niveau Difficile c'est bien 35 ou plus ?", True),
    ("en solo, le niveau Facile c'est bien 30 ou plus ?", False),
])
def test_cest_bien_before_a_value_marks_a_claim(bot, question, verdict):
    assert parse(question, "fr", "canvas").claim
    answer = ask(bot, question, "fr")
    assert answer.kind == "claim" and answer.verdict is verdict


def test_cest_bien_before_an_open_question_asks():
    assert not parse("le niveau Facile c'est bien combien de points ?", "fr", "canvas").explicit_claim


# Reported speech with the speaker after the verb ("... dit mon pote", "... says my mate").


@pytest.mark.parametrize(("question", "lang", "verdict"), [
    ("4 silver ribbons make 8 points says my mate", "en", True),
    ("3 rubans argent ca fait 9 points dit ma copine", "fr", False),
])
def test_a_speaker_after_the_verb_reports_a_claim(bot, question, lang, verdict):
    parsed = parse(question, lang, "canvas")
    assert parsed.reported and parsed.claim
    answer = ask(bot, question, lang)
    assert answer.kind == "claim" and answer.verdict is verdict


# A message ending on a sentence that only names the value ("... total?") asks it; it states nothing.


@pytest.mark.parametrize(("question", "lang"), [
    ("tallying: 2 hierarchy ribbons, 1 repetition and 3 silvers. total?", "en"),
    ("on compte : 2 rubans Hierarchie et 1 argent. le total ?", "fr"),
])
def test_a_closing_value_word_asks_the_value(bot, question, lang):
    parsed = parse(question, lang, "canvas")
    assert not parsed.claim
    answer = ask(bot, question, lang)
    assert answer.kind == "computed" and answer.verdict is None


# Vocabulary: a chat misspelling of "ribbons", the Family Game named in French word order.


def test_a_misspelt_ribbon_is_still_a_ribbon(bot):
    answer = ask(bot, "silver ribbings give 3 points each, innit", "en")
    assert answer.kind == "claim" and answer.verdict is False and "2 points" in answer.answer


def test_the_family_scenario_named_in_french_word_order(bot):
    answer = ask(bot, "pour le mode famille il faut 25 points, non ?", "fr")
    assert answer.kind == "claim" and answer.verdict is False and "18" in answer.answer


def test_a_hedge_before_an_open_question_asks():
    parsed = parse("green is repetition with 3 ribbons i think, so how much is that?", "en", "canvas")
    assert not parsed.explicit_claim


def test_a_zero_count_after_a_comma_is_no_rejected_alternative(bot):
    # "pas d'argent" counts no silver ribbon; the total claimed after it is still the claim (Proportion 2 ribbons = 5,
    # Hierarchy 1 = 4: 9 points).
    question = "2 proportion, 1 hierarchie, pas d'argent -> je compte 12, juste ?"
    answer = ask(bot, question, "fr")
    assert answer.kind == "claim" and answer.verdict is False and "9" in answer.answer


def test_a_which_cards_question_counting_the_cards_is_no_score(bot):
    answer = ask(bot, "the family game scenario, which cards? there are only two on the sheet, is that normal?", "en")
    assert answer.kind == "computed" and "Composition" in answer.answer and "short" not in answer.answer
