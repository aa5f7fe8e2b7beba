"""Ties at the end of a game: "my opponent also ended on 29 with 2 tokens left, I've got 1: who wins?".

The winner comes from the engine's `winners` (most points, then most Inspiration Tokens left); the question gives
the tied score and each player's tokens, said of "me" and of the other player in their own clauses.
"""

from __future__ import annotations

import re

from rulesbot.compute.canvas.phrasing import join, qty, say, word
from rulesbot.compute.canvas.words import either, listed, numbers, words
from rulesbot.compute.registry import Computation
from rulesbot.compute.text import B, E, alternation, fold
from rulesbot.engine import canvas as engine
from rulesbot.parsed import Parsed

# Clauses: each says one player's tokens ("he has 2 left, and I've got 1").
_CLAUSE_BREAK = re.compile(r"[,.;:?!]|\b" + either("and_breaks") + r"\b")
# The asker named by a pronoun ("moi", "me", "j'en ai").
_ME = alternation(words("first_person") + listed("me_words"))


def _tokens_by_player(parsed: Parsed) -> tuple[int | None, int | None]:
    """(my tokens, the other player's tokens) from the clauses that say them ("he has 2 tokens left, I've got 1")."""
    reader = numbers()
    count = reader.fragment
    token = alternation(words("token"))
    mine = theirs = None
    me = _ME
    subject = None  # a clause without its own subject ("... and has 2 tokens left") keeps the previous one's
    for text in _CLAUSE_BREAK.split(parsed.folded):
        if re.search(B + alternation(words("opponent")) + E, text):
            subject = "theirs"
        elif re.search(B + me + E, text) or re.search(r"\bj'", text):
            subject = "mine"
        # "2 tokens", or a count held with the tokens said elsewhere ("I've only got 1", "moi j'en ai 2").
        found = re.search(B + f"(?P<n>{count})\\s+(?:{token})" + E, text) or re.search(
            r"\b" + either("holds_mine") + r"\s+(?:only\s+|just\s+|que\s+|qu'|seulement\s+)?"
            + f"(?P<n>{count})\\s*(?:left|restants?)?\\s*$", text) or re.search(
            B + alternation(words("opponent") + listed("me_short")) + r"\s+(?:en\s+a\s+|has\s+)?" + f"(?P<n>{count})\\s*$", text)
        if found is None:
            continue
        value = reader.count_value(found.group("n"))
        if value is None:
            continue
        if subject == "theirs" and theirs is None:
            theirs = value
        elif subject == "mine" and mine is None:
            mine = value
    return mine, theirs


_HOLDS = r"\s+" + either("holds_theirs") + r"\s+(?:only\s+|just\s+|que\s+|qu'|seulement\s+|encore\s+)?"


def _named_players(parsed: Parsed) -> list[tuple[str, int]]:
    """Every player whose tokens left are said ("I have 2 tokens left, Paul has 0, Lina has 2"): (who, tokens), "me"
    for the asker, a name as written for the others; empty unless at least two other players are named."""
    reader = numbers()
    count = reader.fragment
    token = alternation(words("token"))
    me = _ME
    not_names = set(words("first_person") + words("opponent") + listed("not_holders"))
    found: list[tuple[str, int]] = []
    for match in re.finditer(B + r"(?P<name>[a-z][\w'-]*)" + _HOLDS + f"(?P<n>{count})" + E, parsed.folded):
        name = match.group("name")
        value = reader.count_value(match.group("n"))
        if name in not_names or value is None or any(name == other for other, _ in found):
            continue
        after = parsed.folded[match.end("n"): match.end("n") + 20]
        if re.match(r"\s*(?:points?|pts?)\b", after):
            continue
        written = next((item for item in re.findall(r"[\w'-]+", parsed.text) if fold(item) == name), name)
        found.append((written, value))
    if len(found) < 2:
        return []
    mine = None
    for text in _CLAUSE_BREAK.split(parsed.folded):
        if re.search(B + me + E, text) or re.search(r"\bj'", text):
            held = re.search(B + f"(?P<n>{count})\\s+(?:{token})" + E, text) or re.search(
                r"\b" + either("have_mine") + r"\s+(?:only\s+|just\s+|que\s+|qu'|seulement\s+)?" + f"(?P<n>{count})" + E, text)
            if held is not None:
                mine = reader.count_value(held.group("n"))
                break
    return ([("me", mine)] if mine is not None else []) + found


def _several(parsed: Parsed, players: list[tuple[str, int]]) -> Computation:
    """The tie-break among three or more players (or two named ones): most tokens left wins, a tie stays a tie."""
    lang = parsed.lang
    tied = next((slot.value for slot in parsed.free_numbers()
                 if not re.match(r"\s*(?:" + alternation(words("token")) + r")" + E, parsed.folded[slot.end:])
                 and not re.search(_HOLDS + r"$", parsed.folded[: slot.start] + " ")
                 and slot.value not in {tokens for _, tokens in players}), None)
    score = tied if tied is not None else 0
    winners = engine.winners([score] * len(players), [tokens for _, tokens in players])
    names = [word("tie_me", lang) if who == "me" else who for who, _ in players]
    counts = ", ".join(f"{name} {qty(tokens, 'token', lang)}" for name, (_, tokens) in zip(names, players, strict=True))
    who = join([names[index] for index in winners], lang)
    key = "tie_still_several" if len(winners) > 1 else "tie_winner_several"
    return Computation(intent="tie_break", sentences=[say(key, lang, who=who, counts=counts)],
                       trace=[say("tie_trace_several", lang, counts=counts)],
                       value=who, engine={"intent": "tie_break", "score": tied,
                                          "tokens": [tokens for _, tokens in players],
                                          "players": [who for who, _ in players],
                                          "winners": [players[index][0] for index in winners]},
                       concepts=[("tie_break", {})])


def compute(parsed: Parsed) -> Computation | None:
    """Who wins a tie on points, by the tokens each player has left (the engine's tie-break)."""
    lang = parsed.lang
    if not parsed.cue("tie"):
        return None
    several = _named_players(parsed)
    if len(several) >= 3:
        return _several(parsed, several)
    mine, theirs = _tokens_by_player(parsed)
    source = parsed
    if (mine is None or theirs is None) and parsed.previous is not None:
        source = parsed.previous  # "who wins then?" after the scores and tokens were said
        mine, theirs = _tokens_by_player(source)
    if mine is None or theirs is None:
        return None
    tied = next((slot.value for slot in source.free_numbers()
                 if not re.match(r"\s*(?:" + alternation(words("token")) + r")" + E, source.folded[slot.end:])
                 and slot.value not in (mine, theirs)), None)
    score = tied if tied is not None else 0  # the tie-break only compares tokens: equal points are what matters
    winners = engine.winners([score, score], [mine, theirs])
    if len(winners) == 2:
        sentence = say("tie_still", lang, mine=qty(mine, "token", lang), theirs=qty(theirs, "token", lang))
        value = "both"
    else:
        who = word("tie_you" if winners[0] == 0 else "tie_opponent", lang)
        sentence = say("tie_winner", lang, who=who, mine=qty(mine, "token", lang), theirs=qty(theirs, "token", lang))
        value = "me" if winners[0] == 0 else "opponent"
    return Computation(intent="tie_break", sentences=[sentence],
                       trace=[say("tie_trace", lang, mine=mine, theirs=theirs)], value=value,
                       engine={"intent": "tie_break", "score": tied, "tokens": [mine, theirs],
                               "winners": ["me" if index == 0 else "opponent" for index in winners]},
                       concepts=[("tie_break", {})])
