"""A chatty message is also searched by the clause that asks (rulesbot.retrieval.clauses, Rulesbot._main_clause_search).

The questions are new phrasings written for these tests (none from an eval set). The oracles are the rules as the
rulebook states them (the player who painted most recently goes first; the most points wins Best In Show), and,
for the clause reading, what a question form, a qualifier and a reference back mean in each language.
"""

import pytest

from rulesbot.knowledge import load_packs
from rulesbot.retrieval.clauses import asks, clauses, main_clause


@pytest.mark.parametrize(
    ("question", "main"),
    [
        ("who starts the game? last time my brother won and he says that means him", "who starts the game"),
        ("qui commence la partie c'est le plus âgé non", "qui commence la partie"),
        ("on est cinq à la maison, qui gagne à la fin ?", "qui gagne à la fin"),
        ("Where is each card explained in full? My kids argue about every icon.", "Where is each card explained in full"),
    ],
)
def test_the_clause_that_asks_is_the_main_clause(question, main):
    found = main_clause(question)
    assert found is not None and found[0] == main


@pytest.mark.parametrize(
    "question",
    [
        "my friend says the tokens go in a common pool. is that right?",  # the asking clause refers back
        "ma sœur dit que les rubans argent valent 3 points, c'est ça ?",  # idem in French
        "how many cards can I hold?",  # a single clause
        "vincent il peut prendre la première carte, la gratuite ?",  # a question mark closes an apposition
        "when I take a card, the tokens on it are mine",  # a condition, not a question
    ],
)
def test_no_separate_main_clause_when_the_question_needs_the_rest(question):
    assert main_clause(question) is None


@pytest.mark.parametrize(
    "question",
    ["Pour une première partie, quelles cartes de score poser ?", "In Solo Puzzle, what happens when I skip a card?",
     "Avec deux joueurs, combien de jetons chacun ?"],
)
def test_a_qualifier_stays_with_the_question(question):
    # "For a first game", "in Solo Puzzle", "with two players" qualify the question: the whole message is the clause.
    assert main_clause(question) is None


def test_a_question_opened_by_when_asks_only_with_its_question_mark():
    assert asks("when does the game end", closed_by_question_mark=True)
    assert not asks("when I take a card")
    assert asks("quand la partie se termine-t-elle", closed_by_question_mark=True)


def test_clauses_split_at_sentence_ends_dashes_commas_and_a_spoken_tail():
    assert [text for text, _asked in clauses("I've got 4 cards — what now? ok, thanks")] == [
        "I've got 4 cards", "what now", "ok", "thanks"]
    assert [text for text, _asked in clauses("qui commence c est le plus jeune")] == ["qui commence", "c est le plus jeune"]


def test_the_other_clauses_lend_the_things_they_name():
    from rulesbot.retrieval import Retriever

    retriever = Retriever.__new__(Retriever)  # only the entity vocabulary is read
    retriever.packs, retriever.reranker, retriever._entity_vocabulary = load_packs(), None, None
    text = retriever.main_clause_text("On joue avec Vincent ce soir. Qui commence ?", "canvas")
    assert text is not None and text.startswith("Qui commence") and "Vincent" in text


@pytest.mark.slow
@pytest.mark.parametrize(
    ("question", "facts"),
    [
        # The rulebook: the player who most recently painted something takes the first turn.
        ("who starts the game? last time my brother won and he says that means him", ("painted",)),
        ("who goes first? my grandmother always insists the oldest player should start", ("painted",)),
        ("qui commence la partie c'est le plus âgé non", ("peint",)),
        # The rulebook: the player with the most points wins Best In Show.
        ("who wins at the end? my nephew thinks the first one to finish three paintings wins", ("most points",)),
        ("qui gagne à la fin ? mon neveu pense que c'est celui qui a fini ses peintures en premier", ("plus de points",)),
    ],
)
def test_a_chatty_question_is_answered_by_its_main_clause(real_bot, question, facts):
    answer = real_bot.ask(question)
    first = answer.answer.split("\n")[0]
    assert answer.kind == "rule" and all(fact in first for fact in facts), first


def _entity_retriever():
    from rulesbot.retrieval import Retriever

    retriever = Retriever.__new__(Retriever)  # only the entity vocabulary is read
    retriever.packs, retriever.reranker, retriever._entity_vocabulary = load_packs(), None, None
    return retriever


def test_a_follow_up_is_searched_with_the_things_the_previous_question_names_not_its_wording():
    text = _entity_retriever().follow_up_text("how many tokens does Vincent start with?", "and if he has none left?", "canvas")
    assert "Vincent" in text and text.endswith("and if he has none left?")
    assert "how many" not in text and "start" not in text


def test_a_follow_up_after_a_question_naming_nothing_keeps_the_whole_previous_question():
    previous = "what do I do now?"
    assert _entity_retriever().follow_up_text(previous, "and after that?", "canvas") == f"{previous} and after that?"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("context", "question", "fact"),
    [
        # The rulebook: if no token lands face up, Vincent skips nothing and takes the card farthest from the deck.
        ("how many tokens does Vincent start with?", "and what if he has none left?", "farthest"),
        ("Vincent démarre avec combien de jetons ?", "et quand il lui en reste zéro, il prend quoi ?", "plus éloignée"),
        # The rulebook: the tokens paid to skip stay on the skipped cards.
        ("the card I take has tokens on it, are they mine?", "and the ones on the cards I pass over?", "stay on"),
        ("la carte que je prends a des jetons dessus, je les garde ?",
         "et ceux que je pose sur les cartes sautées, ils deviennent quoi ?", "restent sur chaque carte"),
    ],
)
def test_a_follow_up_is_answered_about_its_own_point(real_bot, context, question, fact):
    answer = real_bot.ask(question, context=[context])
    first = answer.answer.split("\n")[0]
    assert answer.kind == "rule" and fact in first, first


class _TwoReadings:
    """A retriever whose whole-message and main-clause searches are given (only what _main_clause_search reads)."""

    def __init__(self, message, clause):
        self.results = {"message": message, "clause": clause}

    def main_clause_text(self, question, game):
        return "clause"

    def search(self, text, game, query_lang=None, k=None):
        return self.results[text]


def _result(concept: str, score: float, top: float):
    from types import SimpleNamespace

    from rulesbot.retrieval.search import Ranked, SearchResult

    return SearchResult(records=[Ranked(entry=SimpleNamespace(concept_id=concept), score=score)], top_score=top)


def _main_clause_search(message, clause):
    from types import SimpleNamespace

    from rulesbot.core import Rulesbot

    bot = SimpleNamespace(retriever=_TwoReadings(message, clause))
    return Rulesbot._main_clause_search(bot, "message", SimpleNamespace(game="canvas"), "fr", message)


def test_the_two_readings_agreeing_decide_on_the_better_score():
    # "C'est quoi X ? ma classe veut essayer": the chat after the question dilutes the message's score only.
    text, result = _main_clause_search(_result("scenario", 0.90, 0.95), _result("scenario", 0.905, 0.99))
    assert text == "message" and result.records[0].entry.concept_id == "scenario" and result.top_score == 0.99


def test_readings_that_disagree_keep_the_whole_messages_score():
    text, result = _main_clause_search(_result("scenario", 0.90, 0.95), _result("turn-order", 0.905, 0.99))
    assert text == "message" and result.top_score == 0.95
