"""Canvas's words: its vocabulary (vocabulary.json over the shared language.json) and the names from its engine.

The names of Art Cards, Scoring Cards, scenarios and solo levels are read from the engine's data (with common
misspellings and plurals derived here from those names, never listed by hand); everything else is language.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources

from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

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


def listed(name: str, lang: str | None = None) -> list[str]:
    """One of the word lists the intents build their regexes from (vocabulary.json "pattern_words"): its English and
    French phrases, or one language's. Kept apart from the cue lists so the parser never looks for them alone."""
    entry = vocabulary()["pattern_words"][name]
    return list(entry[lang]) if lang else entry["en"] + entry["fr"]


def either(name: str, lang: str | None = None) -> str:
    """The regex alternation of one `listed` word list (longest phrase first)."""
    return alternation(listed(name, lang))


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
            for alias in vocabulary().get("scenario_aliases", {}).get(scenario.slug, []):
                index[alias] = scenario  # "mode chill": the name in French word order
        # "the family set up", "le scenario family": a scenario named by the first word of its name next to a word
        # for a scenario (a first word that is a number, an ordinal or a short word, "No", "All", "First", is too
        # common to name one alone).
        reader = numbers()
        heads: dict[str, list] = {}
        for scenario in engine.SCENARIOS:
            parts = fold(scenario.name).split()
            if len(parts) >= 2 and len(parts[0]) > 3 and not reader.regex.fullmatch(parts[0]) \
                    and not reader.ordinal_regex.fullmatch(parts[0]):
                heads.setdefault(parts[0], []).append(scenario)
        for head, scenarios in heads.items():
            if len(scenarios) == 1:
                for word_for in vocabulary().get("scenario_head_words", []):
                    index.setdefault(f"{head} {word_for}", scenarios[0])
                    index.setdefault(f"{word_for} {head}", scenarios[0])
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


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in _strings(item)] + list(value)
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    return []


@cache
def known_words() -> frozenset[str]:
    """Every word of the vocabulary (cue words, numbers, ...): a word the parser knows is never a misspelt name."""
    return frozenset(word for text in _strings(vocabulary()) for word in re.findall(r"[a-z]+", text))


# Fuzzy names: which kinds, the shortest word tried, and the edit distance allowed by word length. Short names
# ("Game", "Mess") and everyday level names are too close to ordinary words to be guessed.
_FUZZY_KINDS = {"art": 6, "scoring": 5, "scenario": 6}
_WORD = re.compile(r"[a-z]+")


def _allowed_distance(length: int) -> int:
    return 1 if length < 8 else 2


@cache
def _fuzzy_keys(kind: str) -> dict[str, object]:
    _regex, index = _name_index(kind)
    shortest = _FUZZY_KINDS[kind]
    # Real names only: a listed misspelling ("movment") would pull ordinary words ("moment") toward a name.
    listed = vocabulary()["scoring_misspellings"]
    return {key: value for key, value in index.items()
            if " " not in key and "-" not in key and len(key) >= shortest and key not in listed}


@cache
def _all_name_keys() -> frozenset[str]:
    return frozenset(key for kind in ("art", "scoring", "scenario", "level", "variant") for key in _name_index(kind)[1])


@cache
def name_words() -> frozenset[str]:
    """Every word of the game's names (Art Cards, Scoring Cards, scenarios, levels, variants): never a player's name."""
    return frozenset(part for key in _all_name_keys() for part in re.findall(r"[a-z]+", key))


def fuzzy_name(token: str, kind: str):
    """The name of one kind a misspelt word means ("heirarchy", "proximty", "varietee"), or None: the closest name by
    edit distance within 1 (2 from 8 letters), same first letter, the word itself unknown to the vocabulary."""
    if kind not in _FUZZY_KINDS or len(token) < _FUZZY_KINDS[kind] or token in known_words() or token in _all_name_keys():
        return None
    keys = _fuzzy_keys(kind)
    limit = _allowed_distance(len(token))
    best = process.extractOne(token, [key for key in keys if key[0] == token[0] and abs(len(key) - len(token)) <= limit],
                              scorer=Levenshtein.distance, score_cutoff=limit)
    return keys[best[0]] if best else None


@cache
def shortened_names() -> frozenset[str]:
    """The listed misspellings of Scoring Card names that only shorten a name ("hier", "comp", "prop", "var"): short
    forms that are often an everyday word of one of the languages too (French "hier" is "yesterday")."""
    full = {fold(name) for card in engine.SCORING_CARDS for name in (card.slug, card.name_en, card.name_fr)}
    return frozenset(key for key in vocabulary()["scoring_misspellings"]
                     if any(name != key and name.startswith(key) for name in full))


_TOKEN = re.compile(r"[\w']+|[.?!;:()\"]")


@cache
def _corroborating_words() -> tuple[frozenset[str], frozenset[str]]:
    """(words that make a loose name a name when they stand right before it, ... right after it): the vocabulary's
    ribbon, silver and colour words and every Scoring Card name on both sides, card words before ("carte compo"),
    point words after ("comp points")."""
    both = set(words("ribbon")) | set(words("silver")) | {name for names_ in vocabulary()["colours"].values() for name in names_}
    both |= set(_name_index("scoring")[1])
    before = both | set(words("card"))
    after = both | set(words("points"))
    return frozenset(before), frozenset(after)


def corroborated(text: str, start: int, end: int) -> bool:
    """Whether a loose name match (a shortened or misspelt name) at text[start:end] stands where a Scoring Card
    name stands: next to a ribbon, silver, colour or other Scoring Card word in its clause (a tally "3 compo + 3
    variete", "2 verts repet", "(prox, espace, variete)"), after a card word or before a point word ("how many comp
    points"), or after a definite article ("la compo"). Numbers and list words between are passed over; an everyday
    word in a sentence ("hier soir") is none."""
    before_words, after_words = _corroborating_words()
    skip = re.compile(r"\d+|" + numbers().core + r"|and|et|plus|de|d'|du|des|la|le|les|the|of|x")

    def neighbours(tokens: list[str]) -> list[str]:
        seen = []
        for token in tokens:
            if token in ".?!;:()\"":
                break
            if skip.fullmatch(token):
                continue
            seen.append(token)
            if len(seen) == 2:
                break
        return seen

    left = neighbours(list(reversed(_TOKEN.findall(text[:start]))))
    right = neighbours(_TOKEN.findall(text[end:]))
    # A definite article right before it makes it a noun ("remplir la case de la compo"); an everyday adverb such as
    # "hier" takes none.
    article = re.search(r"(?:^|\s)(?:la|le|l'|the)\s*$", text[:start]) is not None
    return article or any(word in before_words for word in left) or any(word in after_words for word in right)


def in_scoring_sentence(text: str, start: int, end: int) -> bool:
    """Whether a misspelt Scoring Card name ("proximitee", "spice") stands in a sentence about ribbons or points (or
    where `corroborated` holds): a near miss of a name is a name there, an everyday word elsewhere ("century spice
    road")."""
    if corroborated(text, start, end):
        return True
    sentence_start = max([0] + [match.end() for match in re.finditer(r"[.?!;]", text[:start])])
    stop = re.search(r"[.?!;]", text[end:])
    sentence = text[sentence_start: end + stop.start() if stop else len(text)]
    return any(has(sentence, key) for key in ("ribbon", "points", "silver"))


def names(text: str, kind: str, slot: str) -> list[Slot]:
    """Every name of one kind ("art", "scoring", "scenario", "level", "variant") in folded `text`, as slots
    (misspelt names too, by edit distance: see `fuzzy_name`). A loose match, a shortened name ("hier", "comp") or a
    misspelt one, is a name only where the words around it corroborate it (`corroborated`)."""
    regex, index = _name_index(kind)
    found = []
    loose = shortened_names() if kind == "scoring" else frozenset()
    for match in regex.finditer(text):
        key = " ".join(match.group(0).split())
        value = index.get(key)
        if value is None:
            value = next((item for name, item in index.items() if " ".join(name.replace("-", " ").split())
                          == key.replace("-", " ")), None)
        if value is not None and key in loose and not corroborated(text, match.start(), match.end()):
            continue
        if value is not None:
            found.append(Slot(slot, value, match.start(), match.end()))
    if kind in _FUZZY_KINDS:
        for match in _WORD.finditer(text):
            if any(other.overlaps(*match.span()) for other in found) or match.group(0) in index:
                continue
            value = fuzzy_name(match.group(0), kind)
            if value is not None and (kind != "scoring" or in_scoring_sentence(text, *match.span())):
                found.append(Slot(slot, value, match.start(), match.end()))
        found.sort(key=lambda item: item.start)
    return found
