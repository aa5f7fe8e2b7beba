"""The seventh round's rules family: two close records, and the one ranked first is about a neighbouring thing.

When the best two concepts are within the "did you mean" margin, the record that answers is the one about what the
question names (rulesbot.fit): the question's entities (the game's vocabulary, its Scoring Card and scenario names)
against each FAQ record's section and own question. The oracles are what the question and each record name (the
skipped cards, a Scoring Card, a scenario), never the code's output; the questions are new phrasings written for
these tests (none from an eval set).
"""

import pytest

from rulesbot.answer import rule_answer
from rulesbot.fit import fit, fits_better, named
from rulesbot.knowledge import Entry, Pack
from rulesbot.retrieval import Calibration, Ranked

CALIBRATION = Calibration(
    threshold=0.1, scale=0.1, faq_margin=0.0, cite_margin=0.0, close_margin=0.1, lead_threshold=0.99,
    alternative_margin=0.02,
)


def _faq(identifier: str, question: str, text: str, *, section: str = "Taking a card", page: int = 3) -> Entry:
    return Entry(
        id=identifier, concept_id=identifier, lang="en", source="faq", pages=[page], section=section, text=text,
        question=question, game="canvas",
    )


TAKEN = _faq("faq.t7-taken", "Do I keep the tokens lying on the card I take?", "The card's tokens come with it.")
SKIPPED = _faq(
    "faq.t7-skipped", "Where do the tokens I pay for skipped cards go?", "They stay on the cards you skip.", page=4
)
GENERAL = _faq(
    "faq.t7-general", "Does an icon count twice for one Scoring Card?", "Each icon counts once per condition.",
    section="Scoring",
)
COMPOSITION = _faq(
    "faq.t7-composition", "Does a bonus icon fill a swatch for Composition?", "Yes: a bonus icon fills its swatch.",
    section="Scoring",
)
SCENARIO = _faq(
    "faq.t7-scenario", "Which cards does the Chill Mode scenario use?", "Any 3 Scoring Cards drawn at random.",
    section="Scenarios", page=6,
)
BACKGROUNDS = _faq(
    "faq.t7-backgrounds", "Do Background Cards differ?", "They are all the same; take any 3.", section="Setup",
    page=2,
)


def _pack(hash_bot, entries) -> Pack:
    shipped = hash_bot.packs["canvas"]
    return Pack(manifest=shipped.manifest, entries=list(entries), path=shipped.path)


def _answer(hash_bot, question, first, second, *, gap=0.01, follow_up=False):
    records = [Ranked(first, 0.90, 0.90, asked=0.90), Ranked(second, 0.90 - gap, 0.90 - gap, asked=0.90 - gap)]
    return rule_answer(question, "en", records, _pack(hash_bot, [first, second]), CALIBRATION, 0.9, follow_up=follow_up)


@pytest.mark.parametrize(
    "question",
    [
        "my uncle reckons the chips stacked on the card you pick up go back in the box, true?",
        "the tokens on the sheet i grab: are they returned to the supply?",
    ],
)
def test_a_question_that_never_names_skipping_gets_the_taken_card_rule(hash_bot, question):
    # Ranked first: the skipped-cards rule; the question names no skipping, the taken-card record does not stray.
    answer = _answer(hash_bot, question, SKIPPED, TAKEN)
    assert answer.answer.startswith(TAKEN.text)
    assert [alternative.answer for alternative in answer.alternatives] == [SKIPPED.text]


def test_a_question_about_skipping_keeps_the_skipped_cards_rule(hash_bot):
    answer = _answer(hash_bot, "when i skip two cards, where do my tokens end up?", SKIPPED, TAKEN)
    assert answer.answer.startswith(SKIPPED.text)


def test_outside_the_did_you_mean_margin_the_first_record_answers(hash_bot):
    # No close alternative: nothing to choose between, the retrieval's order stands.
    answer = _answer(hash_bot, "the tokens on the sheet i grab: are they returned to the supply?", SKIPPED, TAKEN,
                     gap=0.2)
    assert answer.answer.startswith(SKIPPED.text) and answer.alternatives == []


def test_an_elliptical_follow_up_is_not_re_chosen(hash_bot):
    # Its records were ranked with the previous question, whose subject the follow-up does not restate.
    answer = _answer(hash_bot, "and the tokens on the one i grab?", SKIPPED, TAKEN, follow_up=True)
    assert answer.answer.startswith(SKIPPED.text)


def test_a_question_naming_a_scoring_card_gets_the_record_about_that_card(hash_bot):
    question = "for composition, my middle swatch only has a bonus icon: does that swatch still count?"
    answer = _answer(hash_bot, question, GENERAL, COMPOSITION)
    assert answer.answer.startswith(COMPOSITION.text)


def test_a_record_about_a_scenario_the_question_does_not_name_gives_way(hash_bot):
    answer = _answer(hash_bot, "do we pick our background cards at random?", SCENARIO, BACKGROUNDS)
    assert answer.answer.startswith(BACKGROUNDS.text)


def test_a_match_inside_a_longer_one_does_not_count(hash_bot):
    pack = _pack(hash_bot, [TAKEN])
    # "bonus icon" names the silver bonus icons, not the scenario called Bonus; the scenario named alone is one.
    assert not any(name.startswith("scenario:") for name in named("my painting shows two bonus icons", pack))
    assert any(name.startswith("scenario:") for name in named("the Bonus scenario's goal", pack))


def test_broad_components_do_not_decide(hash_bot):
    # Both records are about tokens; naming tokens tells neither apart (ranking.json "broad").
    pack = _pack(hash_bot, [TAKEN, SKIPPED])
    plain = _faq("faq.t7-plain", "What are Inspiration Tokens for?", "They pay for skipping.")
    assert fit("what are tokens for?", plain, pack) == fit("what are tokens for?", TAKEN, pack) == (0, 0)


def test_no_swap_onto_a_record_asking_another_way(hash_bot):
    # The question and the first record's own question ask yes or no; the other's asks how many.
    pack = _pack(hash_bot, [GENERAL])
    count = _faq("faq.t7-count", "How many Repetition ribbons do 4 Shapes earn?", "2.", section="Scoring")
    question = "for repetition, can one shape belong to two pairs?"
    assert fit(question, count, pack) < fit(question, GENERAL, pack)
    assert not fits_better(question, count, GENERAL, pack)


def test_a_passage_is_never_swapped(hash_bot):
    passage = TAKEN.model_copy(update={"id": "t7-passage", "concept_id": "t7-passage", "source": "rulebook",
                                       "question": None})
    pack = _pack(hash_bot, [passage, SKIPPED])
    assert not fits_better("the tokens on the card i grab go back to the supply?", passage, SKIPPED, pack)
