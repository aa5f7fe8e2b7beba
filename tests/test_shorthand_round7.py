"""Dictated questions (speech to text) write "fourth" as "forth": read as the ordinal, so the take computation gets
its position. Oracle: the take rule (one token per card skipped from the free end), counted here."""

from rulesbot.shorthand import normalise
from tests.compute_helpers import ask


def test_forth_is_read_as_fourth_and_the_take_is_computed():
    read = normalise("um how many tokens do i put down for the forth card from the free end", "en", "canvas").text
    assert "fourth card" in read
    answer = ask(read)
    skipped = 4 - 1  # the cards before the fourth, counted from the free end
    assert answer is not None and answer.kind == "computed" and f"{skipped} tokens" in answer.answer
