"""The fourth blind round's rules families, as mechanisms (how a family of messages is read), not phrases.

The questions are new phrasings written for these tests (none from an eval set). The oracles are the rules as the
rulebook states them (taking a card further along the row costs 1 Inspiration Token on each card skipped; the
player who painted most recently goes first) and what a condition, an asking phrase and a follow-up opener mean
in each language, not the code's output.
"""

import re

import pytest

from rulesbot.retrieval.clauses import asks_its_own, conditional_ask

# Family: a follow-up that changes one thing of a question asked under a condition.


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("if I pass over three cards, how many tokens does that cost me?", "how many tokens does that cost me"),
        ("if i skip 2 cards how many inspiration tokens do i pay", "how many inspiration tokens do i pay"),
        ("si je saute 1 carte, je dois poser combien de jetons ?", "je dois poser combien de jetons"),
        ("quand on prend la 4e carte, on récupère quoi comme jetons ?", "on récupère quoi comme jetons"),
    ],
)
def test_the_asking_part_of_a_question_asked_under_a_condition(question, asked):
    assert conditional_ask(question) == asked


@pytest.mark.parametrize(
    "question",
    [
        "Vincent starts with how many tokens?",  # no condition: its things only are lent
        "quand la partie se termine-t-elle ?",  # "quand" asks here, it opens no condition
        "if I have 5 cards in hand",  # a condition that asks nothing
    ],
)
def test_no_asking_part_without_a_condition_before_it(question):
    assert conditional_ask(question) is None


@pytest.mark.parametrize(
    ("follow_up", "own"),
    [
        ("what if I skip all four?", False),
        ("what about passing three?", False),
        ("et si j'en saute quatre ?", False),
        ("et pour celle près de la pioche ?", False),
        ("and how many for Vincent?", True),
        ("et combien pour la dernière ?", True),
    ],
)
def test_a_follow_up_asks_its_own_question_only_with_an_asking_phrase_beyond_its_opener(follow_up, own):
    assert asks_its_own(follow_up) is own


def test_a_follow_up_changing_the_condition_is_searched_with_the_previous_asking_part():
    from rulesbot.knowledge import load_packs
    from rulesbot.retrieval import Retriever

    retriever = Retriever.__new__(Retriever)  # only the entity vocabulary is read
    retriever.packs, retriever.reranker, retriever._entity_vocabulary = load_packs(), None, None
    text = retriever.follow_up_text("if I pass over three cards, how many tokens does that cost me?",
                                    "what about passing all four?", "canvas")
    assert text.endswith("what about passing all four? how many tokens does that cost me")
    # Without a condition the previous question's form is not lent (its things are).
    text = retriever.follow_up_text("Vincent starts with how many tokens?", "and if he has only one left?", "canvas")
    assert "how many" not in text and "Vincent" in text


@pytest.mark.slow
@pytest.mark.parametrize(
    ("previous", "follow_up"),
    [
        ("if I pass over three cards, how many tokens does that cost me?", "what about passing all four?"),
        ("if i skip 2 cards how many inspiration tokens do i pay?", "what if i skip all four?"),
    ],
)
def test_a_follow_up_changing_the_condition_gets_the_cost_rule(real_bot, previous, follow_up):
    # The rulebook: taking a card further along the row costs 1 Inspiration Token on each card skipped. The answer
    # states that rule, or computes it for the four cards skipped (4 tokens).
    answer = real_bot.ask(follow_up, context=[previous])
    stated = answer.answer.split("\n")[0]
    if answer.kind == "computed":
        assert re.search(r"\bcosts 4 tokens\b", stated), stated
    else:
        assert answer.kind == "rule" and re.search(r"\b1\b[^.]*\b(?:each|every)\b[^.]*\bcards?\b", stated), stated


# Family: a bilingual player's message, French with the rules' English words (persona "mixed French and English").


def _lexical_retriever():
    from rulesbot.knowledge import load_packs
    from rulesbot.retrieval import Retriever

    return Retriever(load_packs(), backend="bm25")


@pytest.mark.parametrize(
    "question",
    [
        "quand je take une card, elle slide ?",  # take, card, slide: words of the English rulebook
        "le hand limit c'est combien ?",
        "les ribbons silver, on les score à la fin ?",
        "après take, les cartes slide ?",  # English verbs in a French sentence
    ],
)
def test_the_rules_english_words_in_a_french_message_count_as_known(question):
    # The rulebook's own words (take, card, slide, hand, limit, ribbons, silver, score) are the knowledge's words in
    # one of its languages: none of them is evidence that the message is about something else.
    retriever = _lexical_retriever()
    assert retriever.coverage(question, "canvas", "fr") == 1.0


def test_words_neither_language_of_the_rules_uses_still_count_against_coverage():
    retriever = _lexical_retriever()
    assert retriever.coverage("je take une pizza au poker", "canvas", "fr") < 0.5


@pytest.mark.parametrize(
    ("question", "word"),
    [("les jetons sur les cards skipped, ils restent ?", "skipped"), ("la card que vincent discard, elle va où ?", "discard"),
     ("je peux take la card gratuite ?", "take")],
)
def test_an_english_word_in_a_french_message_matches_the_english_records(question, word):
    from rulesbot.retrieval.lexical import tokens

    retriever = _lexical_retriever()
    scores = retriever.lexical_scores(question, "canvas", "fr")
    # The English records using the word (stemmed as English) are matched by it.
    stem = tokens(word, "en")[0]
    pack = retriever.packs["canvas"]
    using = [entry.id for entry in pack.entries if entry.lang == "en" and stem in tokens(entry.text, "en")]
    assert using and any(scores.get(record, 0.0) > 0 for record in using)
    alone = retriever.lexical_scores(word, "canvas", "fr")
    assert any(alone.get(record, 0.0) > 0 for record in using)


@pytest.mark.slow
def test_a_french_message_with_the_english_skipped_is_answered_about_the_skipped_cards(real_bot):
    # The rulebook: the tokens paid to skip a card are placed on that skipped card; the tokens on the card you take
    # are another rule. "skipped" is an English word of the rules the French stemmer knows nothing of.
    answer = real_bot.ask("les tokens que je drop sur les cards skipped, ils restent dessus ?")
    assert answer.kind == "rule" and "sautée" in answer.answer.split("\n")[0], answer.answer
