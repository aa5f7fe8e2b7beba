"""Computed answers and claim checks (issue 4 fills this in; until then nothing is computed).

`Rulesbot.ask` calls `answer_computed` before retrieval: returning an Answer (kind "computed" or "claim")
short-circuits retrieval; returning None lets the rulebook answer.
"""


def answer_computed(bot, question, lang, pack):  # noqa: ARG001 - the hook's signature; issue 4 uses them
    """An engine-computed Answer for `question`, or None when the question is not computable (issue 4)."""
    return None
