"""The computed front door as the compute tests call it: the shipped Canvas pack, no retriever, an optional context."""

from functools import cache

from rulesbot.compute import answer_computed
from rulesbot.knowledge import load_packs


@cache
def canvas_pack():
    """The shipped Canvas pack, loaded once per test process."""
    return load_packs()["canvas"]


def ask(question: str, lang: str = "en", context=()):
    """The computed answer to `question` (None when no intent computes it), with the previous questions `context`."""
    return answer_computed(None, question, lang, canvas_pack(), context=list(context))
