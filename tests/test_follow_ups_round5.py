"""The fifth blind round's follow-up families (a chat's rapid-fire questions with their `context`), as mechanisms.

The questions are new phrasings written for these tests (none from an eval set). The oracles are the rules as the
rulebook states them (a player holds at most 5 Art Cards; you never take more Ribbons than a Scoring Card shows,
Repetition shows 4; silver Ribbons are worth 2 points each; Variety gives 4 / 8 / 13 points, Space 2 / 4 / 7 / 11,
Proximity 2 / 5 / 8 / 12) and what a bare "why?" or an opinion means, not the code's output.
"""

import re

import pytest

from rulesbot.compute.parse import asks_reason_only


@pytest.fixture(scope="module")
def bot(tmp_path_factory):
    """The shipped Canvas pack on the lexical backend (no model): follow-ups are read before any ranking."""
    from rulesbot.core import Rulesbot
    from rulesbot.settings import Settings

    settings = Settings(backend="bm25", data_dir=tmp_path_factory.mktemp("follow_ups"), knowledge_dir=None)
    return Rulesbot.load(settings, notify=lambda _message: None)


@pytest.fixture(scope="module")
def pack(bot):
    return bot.packs["canvas"]


# Family: a bare "why?" after an answer asks the rule that answer rests on.


@pytest.mark.parametrize(
    "question", ["why?", "how come??", "ok but why tho", "mais pourquoi ?", "pk ça ?", "et pourquoi donc ?", "why's that"]
)
def test_a_bare_reason_question_is_recognised(pack, question):
    assert asks_reason_only(question, pack)


@pytest.mark.parametrize(
    "question",
    ["why does the third card cost 2 tokens?", "pourquoi la 3e carte ?", "et pourquoi pas ?", "why not four?",
     "what's the reason for the hand limit?"],
)
def test_a_reason_question_about_something_named_is_a_question_of_its_own(pack, question):
    assert not asks_reason_only(question, pack)


@pytest.mark.parametrize(
    ("previous", "why", "cap", "never_more"),
    [
        ("most ribbons Repetition can ever give me?", "why?", r"\b4\b", r"\bnever take more Ribbons\b"),
        ("la répétition donne combien de rubans au maximum ?", "pourquoi ?", r"\b4\b", r"\bjamais prendre plus de rubans\b"),
    ],
)
def test_why_after_a_computed_cap_states_the_cap_rule_with_its_page(bot, previous, why, cap, never_more):
    # The rulebook (p. 4): you never take more Ribbons of a colour than its Scoring Card shows; Repetition shows 4.
    before = bot.ask(previous)
    assert before.kind == "computed" and re.search(cap, before.answer)
    answer = bot.ask(why, context=[previous])
    assert answer.kind == "rule"
    assert re.search(never_more, answer.answer, re.IGNORECASE), answer.answer
    assert 4 in {citation.page for citation in answer.citations}
    assert "(p. 4)" in answer.answer


@pytest.mark.parametrize(
    ("previous", "why", "lang"),
    [("can I keep six art cards in my hand?", "how come?", "en"), ("on peut garder 6 cartes art en main ?", "pk ?", "fr")],
)
def test_why_after_a_rule_answer_states_that_rule_without_a_yes_or_no(bot, previous, why, lang):
    # The rulebook (p. 3): a player holds at most 5 Art Cards.
    answer = bot.ask(why, context=[previous])
    assert answer.kind == "rule" and answer.lang == lang
    assert re.search(r"\b5\b", answer.answer) and 3 in {citation.page for citation in answer.citations}
    statement = answer.answer.split(":", 1)[1].strip()
    assert not re.match(r"(?:yes|no|oui|non)\b", statement, re.IGNORECASE), statement


def test_why_after_an_abstention_abstains(bot):
    answer = bot.ask("why?", context=["which Scoring Card is the strongest one?"])
    assert answer.kind == "unknown"


def test_a_complete_why_question_is_not_answered_with_the_previous_rule(bot):
    previous = "can I keep six art cards in my hand?"
    answer = bot.ask("why do skipped cards get a token each?", context=[previous])
    assert not answer.answer.startswith(("The rule behind that answer", "La règle derrière"))


# Family: a follow-up of a near-domain question (opinion, strategy, price) that only varies it keeps its abstention.


@pytest.mark.parametrize(
    ("previous", "follow_up"),
    [
        ("which Scoring Card is the strongest one?", "and the weakest?"),
        ("quelle est la meilleure stratégie pour gagner ?", "et à deux joueurs ?"),
        ("where can I buy the game?", "and online?"),
        ("quelle carte de score est la plus forte ?", "et la plus sympa ?"),
    ],
)
def test_a_follow_up_that_only_varies_an_opinion_question_abstains_too(bot, previous, follow_up):
    assert bot.ask(previous).kind == "unknown"
    assert bot.ask(follow_up, context=[previous]).kind == "unknown"


@pytest.mark.parametrize(
    ("previous", "follow_up", "fact"),
    [
        ("which Scoring Card is the strongest one?", "and how many art cards can I hold?", r"\b5\b"),
        ("quelle est la meilleure stratégie pour gagner ?", "et un ruban argent vaut combien ?", r"\b2\b"),
    ],
)
def test_a_follow_up_asking_its_own_rule_after_an_opinion_question_is_answered(bot, previous, follow_up, fact):
    answer = bot.ask(follow_up, context=[previous])
    assert answer.kind != "unknown" and re.search(fact, answer.answer), answer.answer
