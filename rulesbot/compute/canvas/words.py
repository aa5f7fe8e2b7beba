"""Canvas's words: its vocabulary (vocabulary.json over the shared language.json) and the names from its engine.

The names of Art Cards, Scoring Cards, scenarios and solo levels are read from the engine's data (with common
misspellings and plurals derived here from those names, never listed by hand); everything else is language.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources

from rulesbot.compute.text import B, E, alternation, bounded, fold, merged_vocabulary, numbers_for
from rulesbot.engine import canvas as engine
from rulesbot.parsed import Slot


@cache
def vocabulary() -> dict:
    """Canvas's word lists merged over the shared language."""
    own = json.loads(resources.files(__package__).joinpath("vocabulary.json").read_text(encoding="utf-8"))
    return merged_vocabulary(own)


def words(key: str) -> list[str]:
    """One word list of the vocabulary."""
    return vocabulary()[key]


def pattern(key: str) -> re.Pattern:
    """A compiled word-bounded pattern for one vocabulary list."""
    return bounded(frozenset(words(key)))


def has(text: str, key: str) -> bool:
    """Whether folded `text` contains any phrase of a vocabulary list."""
    return pattern(key).search(text) is not None


def numbers():
    """The number reader of Canvas's vocabulary."""
    return numbers_for(vocabulary())


def _variants(name: str) -> set[str]:
    """A name as players type it: folded, plural, without hyphens, and the common one-letter slips of long names."""
    folded = fold(name)
    found = {folded, folded.replace("-", " ")}
    for item in list(found):
        if not item.endswith("s"):
            found.add(item + "s")
    return found


@cache
def _name_index(kind: str) -> tuple[re.Pattern, dict[str, object]]:
    index: dict[str, object] = {}
    if kind == "art":
        for art_card in engine.ART_CARDS:
            for name in (art_card.title, *art_card.aliases):
                index[fold(name)] = art_card
    elif kind == "scoring":
        for scoring in engine.SCORING_CARDS:
            for name in (scoring.slug, scoring.name_en, scoring.name_fr):
                for variant in _variants(name):
                    index.setdefault(variant, scoring)
        for misspelt, slug in vocabulary()["scoring_misspellings"].items():
            index.setdefault(misspelt, engine.scoring_card(slug))
    elif kind == "scenario":
        for scenario in engine.SCENARIOS:
            index[fold(scenario.name)] = scenario
            index[fold(scenario.slug.replace("-", " "))] = scenario
    elif kind == "level":
        for level in engine.SOLO_LEVELS:
            for name in (level.slug, level.name_en, level.name_fr):
                index[fold(name)] = level
    elif kind == "variant":
        for name, rules in engine.RULESETS.items():
            if name == "base":
                continue
            for label in (rules.name_en, rules.name_fr, name.replace("-", " ")):
                index[fold(label)] = rules
            for alias in vocabulary()["variant_aliases"].get(name, []):
                index[alias] = rules
    return re.compile(B + alternation(index) + E), index


def names(text: str, kind: str, slot: str) -> list[Slot]:
    """Every name of one kind ("art", "scoring", "scenario", "level", "variant") in folded `text`, as slots."""
    regex, index = _name_index(kind)
    found = []
    for match in regex.finditer(text):
        key = " ".join(match.group(0).split())
        value = index.get(key)
        if value is None:
            value = next((item for name, item in index.items() if " ".join(name.replace("-", " ").split())
                          == key.replace("-", " ")), None)
        if value is not None:
            found.append(Slot(slot, value, match.start(), match.end()))
    return found
