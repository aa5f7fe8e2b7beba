"""The word lists the Canvas intents build their regexes from (vocabulary.json "pattern_words") are data the code can
rely on: every list the code names exists with English and French phrases, and every phrase is folded the way the
parser folds questions (a phrase with an accent or a capital would never match)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulesbot.compute.canvas.words import vocabulary
from rulesbot.compute.text import fold

_CODE = Path(__file__).resolve().parents[1] / "rulesbot" / "compute"
_NAMED = re.compile(r"\b(?:either|listed)\(\s*\"([a-z_]+)\"")


def _names_in_code() -> set[str]:
    return {name for path in _CODE.rglob("*.py") for name in _NAMED.findall(path.read_text(encoding="utf-8"))}


def test_the_code_names_word_lists():
    # The scan itself must find the lists, or the next test would pass on nothing.
    assert len(_names_in_code()) >= 10


@pytest.mark.parametrize("name", sorted(_names_in_code()))
def test_every_list_the_code_names_has_english_and_french_phrases(name):
    entry = vocabulary()["pattern_words"].get(name)
    assert entry is not None, f"{name} is used in code but missing from vocabulary.json pattern_words"
    assert entry.get("en") and entry.get("fr"), f"{name} needs both an 'en' and an 'fr' list"


def test_every_phrase_is_folded():
    for name, entry in vocabulary()["pattern_words"].items():
        if name == "_doc":
            continue
        for lang in ("en", "fr"):
            for phrase in entry[lang]:
                assert phrase == fold(phrase), f"{name}/{lang}: {phrase!r} is not folded"
