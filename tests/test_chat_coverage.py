"""Chat shorthand in a question counts as the word it stands for in the abstention's lexical coverage (issue 12).

A teenager's "pts", "gratos", "jai" or a "lol" are no evidence that the question is about something else than the
rules; the same question written out must get the same coverage (the oracle: the written-out question itself).
"""

import pytest


def _lexical_retriever():
    from rulesbot.knowledge import load_packs
    from rulesbot.retrieval import Retriever

    return Retriever(load_packs(), backend="bm25")


@pytest.mark.parametrize(
    ("chat", "plain", "lang"),
    [
        ("how many pts is a silver ribbon worth lol", "how many points is a silver ribbon worth", "en"),
        ("do titles give u pts at the end?", "do titles give you points at the end?", "en"),
        ("jai 2 jetons mdr, je peux prendre la 3e carte ?", "j'ai 2 jetons, je peux prendre la 3e carte ?", "fr"),
        ("la carte gratos elle coûte rien ?", "la carte gratuit elle coûte rien ?", "fr"),
    ],
)
def test_a_chat_question_has_the_coverage_of_the_question_written_out(chat, plain, lang):
    retriever = _lexical_retriever()
    assert retriever.coverage(chat, "canvas", lang) == retriever.coverage(plain, "canvas", lang)
    assert retriever.coverage(plain, "canvas", lang) == 1.0


def test_an_off_topic_chat_question_still_lacks_coverage():
    # Shorthand is read, not waved through: the pizza and the poker are still no rules words.
    retriever = _lexical_retriever()
    assert retriever.coverage("lol best pizza for poker night pls", "canvas", "en") < 0.5
