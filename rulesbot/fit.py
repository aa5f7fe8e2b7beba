"""Concept fit: which of two close records is about what the question names.

When the best two concepts rank within the "did you mean" margin (answer.alternative_record), the first stage's
order between them is a near coin toss, and the one ranked first is often the neighbouring rule: "the tokens on the
card I take go back to the supply?" ranked onto "what happens to the tokens I put on the cards I skip", a question
naming Composition onto a bonus-icon record that names no Scoring Card. This module compares the two on the things
the question names (the game's entities: ranking.json's list plus the engine's Scoring Card and scenario names,
`EntityVocabulary`), read on what each record is about (its section and its own question, in both languages; never
its text, which names in passing things it is not about):

- `missing`: the things the question names that the record is not about;
- `stray`: the things the record is about that the question does not name (the skipped cards, a variant, a
  scenario…).

The close alternative answers in place of the first record when it is better on that pair (no more missing and no
more stray, and fewer of one), so the question's own subject wins a tie the retrieval could not break; the first record is then
offered as the "If you meant" line. Nothing is re-ranked beyond the two records already shown.
"""

from __future__ import annotations

import re

from rulesbot.knowledge import Entry, Pack
from rulesbot.scope import fold

_VOCABULARIES: dict[int, tuple[Pack, object]] = {}


def vocabulary(pack: Pack):
    """The entity vocabulary of `pack`'s game (built once per pack)."""
    held = _VOCABULARIES.get(id(pack))
    if held is None or held[0] is not pack:
        from rulesbot.retrieval.ranking import EntityVocabulary

        held = _VOCABULARIES[id(pack)] = (pack, EntityVocabulary({pack.game: pack}))
    return held[1]


def about(entry: Entry, pack: Pack) -> frozenset[str]:
    """The entities a record is about: those its section and its own question name (a passage has only its section;
    its text, like an FAQ record's, names in passing many things it is not about)."""
    return _longest(" ".join([entry.section, entry.question or ""]), pack)


def named(question: str, pack: Pack) -> frozenset[str]:
    """The entities `question` names."""
    return _longest(question, pack)


def _longest(text: str, pack: Pack) -> frozenset[str]:
    # The entities `text` names, a match inside a longer one aside: "bonus icon" names the silver bonus icons, not
    # the scenario called Bonus.
    folded = fold(text)
    spans = [(match.start(), match.end(), name)
             for name, pattern in vocabulary(pack).patterns_for(pack.game).items() for match in pattern.finditer(folded)]
    return frozenset(name for start, end, name in spans
                     if not any(s <= start and end <= e and (e - s) > (end - start) for s, e, _ in spans))


def broad(game: str) -> frozenset[str]:
    """The entities the fit does not count: components nearly every rule names (ranking.json "broad")."""
    from rulesbot.retrieval.ranking import ranking_data

    return frozenset(ranking_data()["games"].get(game, {}).get("broad", []))


def fit(question: str, entry: Entry, pack: Pack) -> tuple[int, int]:
    """(missing, stray) for `entry` against `question`: lower is a better fit."""
    asked = named(question, pack) - broad(pack.game)
    of = about(entry, pack)
    twin = pack.twin(entry, "fr" if entry.lang == "en" else "en")
    if twin is not None:
        of = of | about(twin, pack)
    of = of - broad(pack.game)
    return len(asked - of), len(of - asked)


def form(text: str) -> bool:
    """Whether `text` asks yes or no ("can I…", "…, right?") rather than how, what, which… (ranking.asks_yes_no)."""
    from rulesbot.retrieval.ranking import asks_yes_no

    return asks_yes_no(text)


def fits_better(question: str, candidate: Entry, chosen: Entry, pack: Pack) -> bool:
    """Whether `candidate` is better about what `question` names than `chosen`: no more missing and no more stray,
    and fewer of one (a record that names the question's subject but strays further is no clear winner). Only two
    FAQ records are compared (each has its own question; a passage, with only its section, would look about
    nothing)."""
    if not candidate.question or not chosen.question:
        return False
    asked = form(question)
    if form(chosen.question) == asked != form(candidate.question):
        # The first record's own question asks the way the question does (yes or no, or how / what…) and the
        # other's does not: the first answers the question's form, the other a neighbouring case of it.
        return False
    mine, theirs = fit(question, candidate, pack), fit(question, chosen, pack)
    return mine != theirs and all(a <= b for a, b in zip(mine, theirs, strict=True))



def agents_asked_about(question: str, pack: Pack) -> frozenset[str]:
    """The game's agents (ranking.json "agents": the players that take turns besides the asker, like Vincent) the
    question is about: named as someone who acts or has things ("Vincent starts with…", "does Vincent…", "Vincent's
    tokens"), not as the setting of the game ("with Vincent", "Vincent mode", "en partie avec Vincent": the
    `setting_words` before or after the name)."""
    from rulesbot.retrieval.ranking import ranking_data

    data = ranking_data()
    agents = data["games"].get(pack.game, {}).get("agents", [])
    if not agents:
        return frozenset()
    before = set(data.get("setting_words", {}).get("before", ()))
    after = set(data.get("setting_words", {}).get("after", ()))
    folded = fold(question)
    patterns = vocabulary(pack).patterns_for(pack.game)
    found = set()
    for name in agents:
        pattern = patterns.get(name)
        if pattern is None:
            continue
        for match in pattern.finditer(folded):
            previous = re.findall(r"[a-z]+", folded[:match.start()])[-1:]
            following = re.findall(r"[a-z]+", folded[match.end():])[:1]
            if not (set(previous) & before or set(following) & after):
                found.add(name)
    return frozenset(found)


def unanswered_agents(question: str, answer: str, pack: Pack) -> frozenset[str]:
    """The agents the question is about (agents_asked_about) that a computed answer never names: "how many tokens
    does Vincent start with?" answered by the components' per-player count, "may Vincent take the free card?" by the
    cost of a take for the asker. Such a computation answers someone else's case; the question is left to the
    rulebook text."""
    asked = agents_asked_about(question, pack)
    return asked - named(answer, pack) if asked else frozenset()
