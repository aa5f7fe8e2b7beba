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


# Family: after a tally, a follow-up changes one card's count ("what if X was N instead"): the rest of the tally stays.


@pytest.mark.parametrize(
    ("previous", "follow_up", "total"),
    [
        # Proximity 2 -> 5, Space 2 -> 4, Variety 3 -> 13, 1 silver -> 2: 24.
        ("end of game: proximity 2, space 2, variety 1 and one silver, my total?", "and if variety had been 3?", 24),
        # Repetition 3 -> 11, Variety 2 -> 8, Composition 2 -> 3, 2 silver -> 4: 26.
        ("fin de partie : répétition 3, variété 1, composition 2 et 2 argent, ça fait combien ?",
         "et si la variété était à 2 ?", 26),
        # Repetition 3 -> 11, Variety 1 -> 4, Composition 2 -> 3, 3 silver -> 6: 24.
        ("final count: repetition 3, variety 1, composition 2, 2 silver. total?", "what if I'd had 3 silver ribbons instead",
         24),
    ],
)
def test_a_follow_up_changing_one_count_of_a_tally_keeps_the_others(bot, previous, follow_up, total):
    answer = bot.ask(follow_up, context=[previous])
    assert answer.kind == "computed"
    assert answer.engine["points"] == total, answer.answer


def test_a_follow_up_naming_a_card_the_tally_lacks_is_not_added_to_it(bot):
    # "and with 3 emphasis?" after a tally without Emphasis asks about Emphasis: 3 ribbons -> 11 points (p. 4).
    previous = "end of game: proximity 2, space 2, variety 1 and one silver, my total?"
    answer = bot.ask("and 3 emphasis ribbons, how many points?", context=[previous])
    assert answer.kind == "computed" and answer.engine["points"] == 11, answer.answer


# Family: a follow-up counts what the previous question named by a pronoun ("6 of them").


@pytest.mark.parametrize(
    ("previous", "follow_up", "points"),
    [
        ("silver ribbons, what are they worth?", "so 6 of them = ?", 12),
        ("what's one silver ribbon worth at the end?", "and seven of those, how many points?", 14),
        ("un ruban argent ça vaut combien ?", "et 3 d'entre eux, ça fait combien ?", 6),
    ],
)
def test_a_pronoun_counting_the_previous_questions_thing_is_computed(bot, previous, follow_up, points):
    # The rulebook (p. 5): each silver Ribbon is worth 2 points.
    answer = bot.ask(follow_up, context=[previous])
    assert answer.kind == "computed" and answer.engine["points"] == points, answer.answer


# Family: a follow-up that changes the situation a question stated first asks that question again.


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("tom and mia both finished on 28. tom kept 1 token, mia kept 2. who takes the win?", "who takes the win"),
        ("égalité à 33 : Paul a 0 jeton, Inès en a 2, qui gagne ?", "qui gagne"),
        ("vincent threw his tokens and three came up, which card does he discard?", "which card does he discard"),
    ],
)
def test_the_asking_clause_after_a_stated_situation(question, asked):
    from rulesbot.retrieval.clauses import situation_ask

    assert situation_ask(question) == asked


@pytest.mark.parametrize(
    "question",
    ["who goes first?", "j'ai 5 cartes, je peux en prendre une 6e ?", "how many tokens? who wins?"],
)
def test_no_situation_ask_without_a_stated_situation_or_with_a_yes_no_ask(question):
    from rulesbot.retrieval.clauses import situation_ask

    assert situation_ask(question) is None


def test_a_follow_up_comparing_counts_asks_nothing_of_its_own():
    from rulesbot.retrieval.clauses import asks_its_own

    assert not asks_its_own("what if they'd had the same number of tokens too?")
    assert not asks_its_own("et s'ils ont le même nombre de jetons ?")
    assert asks_its_own("and how many tokens does each get?")


def test_a_situation_follow_up_is_searched_with_the_previous_asking_clause():
    from rulesbot.knowledge import load_packs
    from rulesbot.retrieval import Retriever

    retriever = Retriever.__new__(Retriever)  # only the entity vocabulary is read
    retriever.packs, retriever.reranker, retriever._entity_vocabulary = load_packs(), None, None
    text = retriever.follow_up_text("tom and mia both finished on 28. tom kept 1 token, mia kept 2. who takes the win?",
                                    "and if they had kept the same number of tokens?", "canvas")
    assert text.endswith("who takes the win")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("previous", "follow_up", "judge"),
    [
        ("tom and mia both finished on 28. tom kept 1 token, mia kept 2. who takes the win?",
         "and if their tokens had been equal as well?", r"\bneutral\b|\bjudge"),
        ("égalité à 33 : Paul a 0 jeton, Inès en a 2, qui gagne ?", "et s'ils avaient le même nombre de jetons ?",
         r"\bneutre\b|\bjuge"),
    ],
)
def test_a_tie_with_equal_tokens_too_gets_the_judging_rule(real_bot, previous, follow_up, judge):
    # The rulebook (p. 5): on a tie the player with more tokens wins; if that is equal too, a neutral person judges.
    answer = real_bot.ask(follow_up, context=[previous])
    assert answer.kind == "rule" and re.search(judge, answer.answer), answer.answer


# Family: chat shorthand for "and" ("n", "&") opens a follow-up like "and" does.


@pytest.mark.parametrize(
    ("previous", "follow_up", "goal"),
    [
        ("the Synergy scenario uses which cards?", "n the goal?", 28),  # rulebook p. 6: Synergy, goal 28
        ("which scoring cards does the Bonus scenario use?", "& its goal?", 40),  # Bonus, goal 40
    ],
)
def test_chat_shorthand_for_and_opens_a_follow_up(bot, previous, follow_up, goal):
    answer = bot.ask(follow_up, context=[previous])
    assert answer.kind != "unknown" and re.search(rf"\b{goal}\b", answer.answer), answer.answer
