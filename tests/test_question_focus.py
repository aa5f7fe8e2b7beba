"""A long, polite message whose background sentences talk about other things: its question sentence is what is
computed (rulesbot.shorthand.question_focus, tried by the front door when the whole message computes nothing).

The messages are new phrasings (none from an eval set). The oracles are independent of the code: which sentence
of a message asks (a person reading it), and the rules as the rulebook states them: Vincent tosses his tokens and
skips one card per token landing face up, each face up half the time (so with 3 tokens he takes the free card
1 time in 8, with 2 tokens the second card 1 time in 2); a card costs one token per card skipped before it.
"""

import pytest

from rulesbot.shorthand import question_focus


def test_the_question_sentence_and_the_one_before_it_are_the_focus():
    message = "Good evening! We play every Sunday, lovely game. Vincent has 2 tokens. Which card does he take?"
    assert question_focus(message) == ["Vincent has 2 tokens. Which card does he take?", "Which card does he take?"]


def test_a_colon_ends_the_preamble():
    message = "A small question from an old player: what does the third card of the row cost?"
    assert question_focus(message) == ["what does the third card of the row cost?"]
    assert question_focus("Hello there. A small question: what does the third card cost?") == [
        "A small question: what does the third card cost?",
        "what does the third card cost?",
    ]


def test_a_one_sentence_message_has_no_shorter_reading():
    assert question_focus("how many tokens does Vincent start with?") == []


def test_a_short_question_sentence_is_not_read_alone():
    # "And him?" says nothing without what comes before it.
    assert question_focus("We play with Vincent. And him?") == []


@pytest.mark.parametrize(
    ("message", "value"),
    [
        ("Hello, we've been enjoying the game with the grandchildren all winter, it's lovely. Yesterday Vincent had "
         "3 tokens left to toss. What are the chances he picks the free card?", "1/8"),
        ("My wife and I are both 70 and still play twice a week. What are the odds that Vincent takes the second "
         "card with 2 tokens?", "1/2"),
        ("Hi there! Lovely game, we play it after dinner most evenings. A small question from an old lady: what "
         "does it cost to take the third card of the row?", "2 tokens"),
        ("Bonsoir ! Avec ma sœur on joue tous les dimanches depuis la retraite, quel bonheur. Ce soir j'ai eu "
         "2 rubans sur Hiérarchie. Ça fait combien de points ?", "9"),
        ("Bonjour, mes petits-enfants adorent les couleurs des cartes, c'est un plaisir de jouer avec eux. Dans la "
         "rangée, prendre la quatrième carte coûte combien de jetons ?", "3 jetons"),
    ],
)
def test_a_chatty_message_computes_its_question(real_bot, message, value):
    answer = real_bot.ask(message)
    assert answer.kind == "computed"
    assert value in answer.answer
    assert answer.question == message
