"""The ninth blind round's follow-ups and dictated numbers, as mechanisms.

The questions are new phrasings written for these tests (none from an eval set). The oracles are the rules as the
rulebook states them (Variety gives 4 / 8 / 13 points, Repetition 3 / 7 / 11 / 16, Emphasis 1 / 4 / 11, Composition
1 / 3 / 9, a silver Ribbon 2 points; the solo levels Easy 25, Normal 30, Hard 35, Master 40; the scenario goals
Family Game 18, First Time Playing 32; 20 Background Cards in the box, 3 per player; taking a card costs 1 token per
card skipped before it, the row holds 5 cards, the one next to the deck is the 5th) and how a person hears a
dictated message ("to red ribbons" is "two red ribbons", "j'ai de jetons" is "j'ai deux jetons").
"""

import pytest

from rulesbot.shorthand import normalise


@pytest.fixture(scope="module")
def bot(tmp_path_factory):
    """The shipped Canvas pack on the lexical backend (no model): computed answers come before any ranking."""
    from rulesbot.core import Rulesbot
    from rulesbot.settings import Settings

    settings = Settings(backend="bm25", data_dir=tmp_path_factory.mktemp("round9_follow"), knowledge_dir=None)
    return Rulesbot.load(settings, notify=lambda _message: None)


def _ask(bot, question, *context, lang=None):
    return bot.ask(question, lang=lang, game="canvas", context=list(context) or None)


# Family: a follow-up after a ribbon total checks that total against a scenario's goal or the solo levels.


def test_a_level_follow_up_reads_the_previous_total(bot):
    # 3 Variety (13) + 4 Repetition (16) + 2 silver (4) = 33: Normal (30+), not Hard (35).
    answer = _ask(bot, "and in solo, what level is that?",
                  "3 variety ribbons, 4 repetition and 2 silver, what's my total?")
    assert answer.kind == "computed"
    assert "Normal" in answer.answer and "33" in answer.answer


def test_a_level_named_in_the_follow_up_is_checked_against_the_previous_total(bot):
    # 2 Variety (8) + 3 Composition (9) + 1 silver (2) = 19: short of Easy (25).
    answer = _ask(bot, "donc j'ai eu le niveau facile ?",
                  "partie solo : 2 rubans variété, 3 composition et 1 argent, ça fait combien ?", lang="fr")
    assert answer.kind in ("computed", "claim")
    assert "19" in answer.answer and "25" in answer.answer
    assert answer.verdict is not True


def test_a_scenario_follow_up_reads_the_previous_total(bot):
    # 3 Variety (13) + 2 Repetition (7) + 3 Emphasis (11) + 1 Composition (1) = 32: meets First Time Playing's 32.
    answer = _ask(bot, "and did that pass the first time playing scenario?",
                  "3 variety, 2 repetition, 3 emphasis and 1 composition ribbons: total?")
    assert answer.kind == "computed"
    assert answer.engine["passed"] is True and answer.engine["score"] == 32


def test_a_scenario_follow_up_fails_a_total_short_of_the_goal(bot):
    # 1 Variety (4) + 1 Composition (1) = 5: short of Family Game's 18.
    answer = _ask(bot, "donc on a réussi le scénario famille ?",
                  "1 ruban variété et 1 ruban composition, ça fait combien ?", lang="fr")
    assert answer.engine is not None and answer.engine["passed"] is False


def test_a_follow_up_with_its_own_score_keeps_it(bot):
    answer = _ask(bot, "and with 36, did I pass the first time playing scenario?",
                  "3 variety, 2 repetition, 3 emphasis and 1 composition ribbons: total?")
    assert answer.engine is not None and answer.engine["score"] == 36


# Family: "and the X?" asks the previous question again about another thing of the same kind.


def test_a_bare_thing_follow_up_asks_the_previous_question_about_it(bot):
    # 4 players take 3 Background Cards each from the box's 20: 8 stay in the box.
    answer = _ask(bot, "and the background cards?", "4 players: how many inspiration tokens stay in the box at setup?")
    assert answer.kind == "computed"
    assert "8" in answer.answer


def test_a_follow_up_naming_a_position_asks_its_cost(bot):
    # The card up against the deck is the 5th: 4 cards skipped, 4 tokens.
    answer = _ask(bot, "and the one up against the deck?", "how many tokens does the 2nd card from the free end cost?")
    assert answer.kind == "computed"
    assert "4 tokens" in answer.answer


def test_a_table_number_only_sets_the_scene(bot):
    answer = _ask(bot, "at table 3 a kid wants the 3rd card from the free end, how many tokens does that cost?")
    assert answer.kind == "computed"
    assert "2 tokens" in answer.answer


# Family: a number heard by voice dictation, read only where a number is expected.


@pytest.mark.parametrize(
    ("question", "lang", "read"),
    [
        ("i got to red ribbons on variety for green on repetition and to silver",
         "en", "i got two red ribbons on variety four green on repetition and two silver"),
        ("j'ai de rubans verts", "fr", "j'ai deux rubans verts"),
        ("y avait de jetons sur la carte", "fr", "y avait deux jetons sur la carte"),
        ("j'ai deux rubans variété trois emphase un hiérarchie de proportion", "fr",
         "j'ai deux rubans variété trois emphase un hiérarchie deux proportion"),
        ("il lance ses 4 jetons, de tombent face visible", "fr", "il lance ses 4 jetons, deux tombent face visible"),
        ("j'ai 2 rubans vers la fin", "fr", "j'ai 2 rubans vers la fin"),
    ],
)
def test_a_dictated_number_is_read_where_a_number_is_expected(question, lang, read):
    assert normalise(question, lang, "canvas").text == (read or question)


@pytest.mark.parametrize(
    ("question", "lang"),
    [
        ("combien de jetons il me reste ?", "fr"),
        ("j'ai pas de rubans", "fr"),
        ("le ruban de proportion vaut combien ?", "fr"),
        ("un ruban variété de plus", "fr"),
        ("what do i score for green with 3 ribbons", "en"),
        ("how many points for green ribbons?", "en"),
        ("i have to take a card", "en"),
        ("3 red ribbons, what do i get for blue ones", "en"),
    ],
)
def test_a_word_with_its_own_meaning_is_left_as_typed(question, lang):
    assert normalise(question, lang, "canvas").text == question


def test_a_dictated_tally_is_totalled(bot):
    # 2 Variety (8) + 4 Repetition (16) + 1 Emphasis (1) + 2 silver (4) = 29.
    answer = _ask(bot, "first game setup i got to red ribbons on variety for green on repetition won blue on emphasis "
                       "and to silver whats my total")
    assert answer.kind == "computed"
    assert "29" in answer.answer


# Family: the Family Game named in French words; a count of its cards is no score.


def test_the_family_scenario_named_in_french_words_is_the_family_game(bot):
    answer = _ask(bot, "le scénario famille c'est quoi l'objectif ?", lang="fr")
    assert answer.kind == "computed"
    assert "18" in answer.answer


def test_a_count_of_the_scenarios_cards_is_no_score(bot):
    answer = _ask(bot, "le scénario famille c'est quelles cartes ? y en a que deux, c'est normal ?", lang="fr")
    assert answer.engine is None or "passed" not in answer.engine
    assert "Composition" in answer.answer and "Variété" in answer.answer
