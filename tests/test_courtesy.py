"""Courtesy formulas around a question (greetings, apologies, thanks, "I should be most grateful for your opinion")
are taken out before the question is read (rulesbot.shorthand.strip_courtesy, data in shorthand.json "courtesy"),
only where one stands as a clause of its own. Found by the eighth blind round's polite persona: "... I should be
most grateful for your opinion." was refused as an opinion question, and "Bonjour, excusez-moi de vous déranger."
diluted the search until the bot said it did not know.
"""

import pytest

from rulesbot.scope import out_of_scope
from rulesbot.shorthand import strip_courtesy


@pytest.mark.parametrize(
    ("message", "lang", "question"),
    [
        ("Good evening. Which way does play go round the table? I should be most grateful for your opinion on the matter.",
         "en", "Which way does play go round the table?"),
        ("Hello there, I hope this finds you well. Can I skip the free card? Many thanks in advance!", "en",
         "Can I skip the free card?"),
        ("Dear sir or madam, forgive the intrusion. Who takes the first turn? Kind regards", "en",
         "Who takes the first turn?"),
        ("Bonjour, excusez-moi de vous déranger. Combien de jetons au départ ? Je vous remercie par avance de votre aide.",
         "fr", "Combien de jetons au départ ?"),
        ("Bonsoir à tous, qui commence la partie ? Merci d'avance, bien cordialement.", "fr", "qui commence la partie ?"),
    ],
)
def test_formulas_standing_alone_are_taken_out(message, lang, question):
    assert strip_courtesy(message, lang) == question


@pytest.mark.parametrize(
    ("message", "lang"),
    [
        ("what's your opinion, is Style the best card?", "en"),  # the opinion is the question here
        ("good day for a game, which card is free?", "en"),  # "good day" is not a greeting clause here
        ("history of the game: who designed it?", "en"),
        ("Thank you!", "en"),  # nothing but thanks: kept as typed
        ("merci pour la partie d'hier, tu veux rejouer ?", "fr"),
    ],
)
def test_words_inside_the_question_stay(message, lang):
    assert strip_courtesy(message, lang) == message


def test_a_real_opinion_question_is_still_refused():
    assert out_of_scope(strip_courtesy("Good evening. What's your opinion: which Scoring Card is the best?", "en"),
                        "Canvas", "canvas") is not None


def test_thanks_for_an_opinion_is_not_an_opinion_question():
    message = "Good evening. Does a PER bonus icon count as an Element? I should be most grateful for your opinion."
    # The message alone reads as a rules question too: the opinion cue sits in a remark after the question
    # (scope.json rule "aside", tests/test_round9_scope.py).
    assert out_of_scope(message, "Canvas", "canvas") is None
    assert out_of_scope(strip_courtesy(message, "en"), "Canvas", "canvas") is None


def test_the_bot_answers_a_polite_rules_question_and_keeps_it_as_asked(real_bot):
    message = "Good evening. Does a PER bonus icon count as an Element? I should be most grateful for your opinion."
    answer = real_bot.ask(message, game="canvas")
    assert answer.kind == "rule" and answer.citations
    assert answer.question == message


@pytest.mark.parametrize(
    ("message", "lang", "question"),
    [
        ("sens du jeu : horaire ou antihoraire ? question de @meeple_rose", "fr", "sens du jeu : horaire ou antihoraire ?"),
        ("@sam asks: how many tokens do we start with?", "en", "asks: how many tokens do we start with?"),
    ],
)
def test_a_chat_handle_names_who_asks_and_is_taken_out(message, lang, question):
    assert strip_courtesy(message, lang) == question


def test_an_email_address_is_not_a_handle():
    assert strip_courtesy("mail me at a@b.com: how many tokens?", "en") == "mail me at a@b.com: how many tokens?"
