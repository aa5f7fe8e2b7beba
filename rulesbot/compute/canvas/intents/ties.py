"""Who wins at the end of a game: "my opponent also ended on 29 with 2 tokens left, I've got 1: who wins?",
"Tom 31 and 2 tokens, Ana 31 and 3 tokens, who wins?", "tied, same tokens too, so we share the win, right?".

The winner comes from the engine's `winners` (most points, then most Inspiration Tokens left); the question gives
the scores (one shared score for a tie) and each player's tokens, said of "me", of the other player or of players
named, each in their own part of the message.
"""

from __future__ import annotations

import re

from rulesbot.compute.canvas.intents.common import counts_players
from rulesbot.compute.canvas.phrasing import join, qty, say, word
from rulesbot.compute.canvas.words import either, known_words, listed, name_words, numbers, words
from rulesbot.compute.registry import Computation, own_reading
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


# A player's name as written: a capitalised word (not all capitals) the vocabulary does not know.
_CAPITALISED = re.compile(r"(?<![\w'])[A-ZÀ-Ý][a-zà-ÿ][\w'-]*")


def _names(parsed: Parsed) -> list[str]:
    """The players named in the message ("Lea has 3", "Tom 31 et 2 jetons"): capitalised words no list of the
    vocabulary and no game name holds, plus a lower-case name said to hold a count ("lea has 3")."""
    known = known_words() | name_words()
    count = numbers().fragment
    units = {part for phrase in words("token") + words("points") for part in phrase.split()}
    tie_words = {part for phrase in words("tie") + listed("tied_words") for part in phrase.split()}
    found: list[str] = []
    for match in _CAPITALISED.finditer(parsed.text):
        folded = fold(match.group(0))
        if folded in found or len(folded) < 2 or folded in name_words() or folded in units:
            continue
        # A known word is a name only when it holds a count inside a sentence ("..., Ben has 1"); a sentence opens
        # with a capital ("Égalité à 31").
        holds = re.match(r"(?:" + _HOLDS + r"|\s+)(?:" + count + r")" + E, " " + fold(parsed.text[match.end():]))
        opening = re.search(r"(?:^|[.?!:;]\s*)$", parsed.text[: match.start()]) is not None
        if folded not in known or holds and not opening and folded not in tie_words:
            found.append(folded)
    not_names = known | set(listed("not_holders"))
    for match in re.finditer(B + r"(?P<name>[a-z][\w'-]*)" + _HOLDS + f"(?:{count})" + E, parsed.folded):
        if match.group("name") not in not_names and match.group("name") not in found:
            found.append(match.group("name"))
    # A list of scores ("final scores: me 31 w 1 token left, jake 31 w 3 tokens, mia 30 w 4"): lower-case words the
    # vocabulary does not know, each right before a count, are the players when at least two are listed so.
    listed_names = []
    for match in re.finditer(B + r"(?P<name>[a-z][\w'-]+)\s+(?:" + count + r")" + E, parsed.folded):
        name = match.group("name")
        if name not in not_names and name not in found and name not in listed_names and numbers().count_value(name) is None:
            listed_names.append(name)
    if len(listed_names) >= 2 or found and listed_names:
        found += listed_names
    return found


def _mentions(parsed: Parsed, names: list[str]) -> list[tuple[int, int, str]]:
    """Where each player is mentioned, in order: (start, end, who), who being a name, "me" or "opponent"."""
    text = parsed.folded
    found = [(match.start(), match.end(), name) for name in names
             for match in re.finditer(B + re.escape(name) + E, text)]
    found += [(match.start(), match.end(), "opponent")
              for match in re.finditer(B + alternation(words("opponent")) + E, text)]
    mine = [(match.start(), match.end(), "me")
            for match in re.finditer(B + either("me_player") + E + r"|\bj'", text)]
    found += [item for item in mine if not any(start < item[1] and item[0] < end for start, end, _ in found)]
    return sorted(found)


def _players(parsed: Parsed, named: bool = True) -> tuple[list[list], int | None] | None:
    """Each player the message gives numbers for, as [who, score, tokens] (None when not said), and the score said
    for all of them ("we both ended on 31", "égalité à 30 entre ..."); None unless a player is named (or, with
    `named` False, unless two players are given numbers: "I got 31, my opponent 29")."""
    names = _names(parsed)
    if not names and named:
        return None
    mentions = _mentions(parsed, names)
    if not mentions:
        return None  # no player said: nothing to give numbers to
    if len(names) == 1:
        # "Nina and I tied; she kept 1 token": with one player named, "she" is that player.
        mentions = [(start, end, names[0] if who == "opponent" else who) for start, end, who in mentions]
    token = alternation(words("token"))
    points = alternation(words("points"))
    tied = B + either("tied_words") + E
    # Every player named is in the table, numbers said or not ("Ana and I tied on 28 with 2 tokens each").
    said: dict[str, list[tuple[str | None, int]]] = {who: [] for _start, _end, who in mentions if who in names}
    shared = shared_tokens = None
    for slot in parsed.all("number"):
        if slot.inherited or not isinstance(slot.value, int) or counts_players(parsed, slot):
            continue
        after = parsed.folded[slot.end:]
        unit = ("tokens" if re.match(r"\s*(?:[\w'-]+\s+)?(?:" + token + r")" + E, after)
                else "score" if re.match(r"\s*(?:" + points + r")" + E, after) else None)
        owner = next(((start, who) for start, _end, who in reversed(mentions) if start <= slot.start), None)
        lead = parsed.folded[owner[0] if owner else 0: slot.start]
        if unit == "tokens" and re.match(r"\s*(?:[\w'-]+\s+)?(?:" + token + r")\s+(?:left\s+|restants?\s+)?(?:"
                                         + alternation(words("each_word")) + r")" + E, after):
            shared_tokens = slot.value  # "tied on 28 with 2 tokens each": every player's tokens
            continue
        if unit != "tokens" and (owner is None or re.search(tied, lead)):
            # "we both ended on 31", "égalité à 30 entre ...", "Nina and I both finished on 27": a score said of
            # every player (before any player, only when said as shared: "à 2, score final" counts the players).
            before_players = parsed.folded[: mentions[0][0]] if owner is None else lead
            if shared is None and (re.search(tied, before_players) or unit == "score"):
                shared = slot.value
            continue
        if owner is not None:
            said.setdefault(owner[1], []).append((unit, slot.value))
    if (shared is not None or shared_tokens is not None) and any(who == "me" for _start, _end, who in mentions):
        said.setdefault("me", [])  # "Ana and I tied on 28": the asker is one of the tied players
    players: dict[str, list] = {}
    for who, numbers_said in said.items():
        player = players.setdefault(who, [who, None, None])
        explicit_tokens = any(unit == "tokens" for unit, _ in numbers_said)
        for unit, value in numbers_said:
            if unit is None:
                # A bare number: the score when the tokens are said apart ("Tom 31 et 2 jetons") or no score is
                # shared; the tokens left when a shared score was said ("I have 2 tokens left, Lea has 3").
                unit = "score" if player[1] is None and (explicit_tokens or shared is None) else "tokens"
            index = 1 if unit == "score" else 2
            if player[index] is None:
                player[index] = value
        if player[2] is None:
            player[2] = shared_tokens
    table = sorted(players.values(), key=lambda player: player[0] != "me")  # the asker first, then in order said
    if len(table) < 2 or named and not any(who in names for who, _, _ in table):
        return None
    return table, shared


def _win_claim(parsed: Parsed, names: list[str]):
    """What a claim about the winner asserts: True for a shared win ("so we share the win, right?"), a player for
    "Ana wins, right?" ("me" for "so I win?"), None when the message claims no winner."""
    if not parsed.claim:
        return None
    if re.search(B + either("win_shared") + E, parsed.folded):
        return True
    wins = either("wins_verb")
    for name in names:
        if re.search(B + re.escape(name) + r"\s+(?:" + wins + r")" + E, parsed.folded):
            return _written(parsed, name)
    if re.search(B + either("me_player") + r"\s+(?:" + wins + r")" + E, parsed.folded):
        return "me"
    return None


def _shared_claim(parsed: Parsed) -> Computation | None:
    """"tied on points, same tokens too, so we share the win?": equal points and equal tokens stay tied for the
    engine; the win is then not shared (a neutral person judges the artwork)."""
    if _win_claim(parsed, []) is not True or not re.search(B + either("same_tokens") + E, parsed.folded):
        return None
    if not re.search(B + either("tied_words") + E, parsed.folded):
        return None
    return _equal_tokens(parsed.lang, value=False, claimed=True)


def _equal_tokens(lang: str, value, claimed=None) -> Computation:
    """Equal points and equal tokens: still tied for the engine; a neutral person judges the artwork."""
    winners = engine.winners([0, 0], [0, 0])
    return Computation(intent="tie_break", sentences=[say("tie_still_equal", lang)], trace=[say("tie_trace_equal", lang)],
                       value=value, claimed=claimed,
                       engine={"intent": "tie_break", "score": None, "tokens": None, "winners": list(winners)},
                       concepts=[("tie_break", {})])


def _both_hold(text: str) -> int | None:
    """The token count said of both tied players ("we both have exactly two tokens", "on a tous les deux 2 jetons")."""
    both = re.search(B + either("both_hold") + r"\s+(?:[\w']+\s+)?(?P<n>" + numbers().fragment + r")\s+(?:"
                     + alternation(words("token")) + r")" + E, text)
    return numbers().count_value(both.group("n")) if both is not None else None


def _scorekeeper(parsed: Parsed, named: bool = True) -> Computation | None:
    """The winner among players named with their scores and tokens ("Tom 31 et 2 jetons, Ana 31 et 3 jetons")."""
    found = _players(parsed, named)
    if found is None:
        return None
    table, shared = found
    tied = re.search(B + either("tied_words") + E, parsed.folded) is not None
    for player in table:
        if player[1] is None:
            player[1] = shared
    if any(player[1] is None for player in table):
        if not tied or len({player[1] for player in table if player[1] is not None}) > 1:
            return None
        known = next((player[1] for player in table if player[1] is not None), 0)
        for player in table:
            player[1] = known  # "Tom and I tied, I had 31": the same score for every player
    top = max(player[1] for player in table)
    leaders = [player for player in table if player[1] == top]
    if len(leaders) > 1 and any(player[2] is None for player in leaders):
        if not re.search(B + either("same_tokens") + E, parsed.folded):
            return None
        held = next((player[2] for player in leaders if player[2] is not None), 0)
        for player in leaders:
            player[2] = held if player[2] is None else player[2]
    lang = parsed.lang
    tokens = [0 if player[2] is None else player[2] for player in table]
    winners = engine.winners([player[1] for player in table], tokens)
    shown = [word("tie_me", lang) if who == "me" else word("tie_them", lang) if who == "opponent" else _written(parsed, who)
             for who, _, _ in table]
    scores = ", ".join(f"{name} {qty(player[1], 'point', lang)}" for name, player in zip(shown, table, strict=True))
    counts = ", ".join(f"{name} {qty(player[2], 'token', lang)}" for name, player in zip(shown, table, strict=True)
                       if player[2] is not None)
    who = join([shown[index] for index in winners], lang)
    if len(winners) > 1:
        sentence = say("tie_still_several", lang, who=who, counts=counts)
    elif len(leaders) > 1:
        sentence = say("tie_winner_several", lang, who=who, counts=counts)
    else:
        sentence = say("winner_points", lang, who=who, scores=scores)
    claimed = _win_claim(parsed, [who for who, _, _ in table])
    value = (False if claimed is True else None if len(winners) > 1 else table[winners[0]][0]) \
        if claimed is not None else None
    return Computation(intent="tie_break", sentences=[sentence],
                       trace=[say("winner_trace", lang, scores=scores, counts=counts) if counts
                              else say("winner_trace_points", lang, scores=scores)],
                       value=value, value_text=None if value in (None, False) else shown[winners[0]],
                       claimed=claimed,
                       engine={"intent": "tie_break", "score": shared, "scores": [player[1] for player in table],
                               "tokens": [player[2] for player in table],
                               "players": [player[0] if player[0] in ("me", "opponent") else _written(parsed, player[0])
                                           for player in table],
                               "winners": [table[index][0] if table[index][0] in ("me", "opponent")
                                           else _written(parsed, table[index][0]) for index in winners]},
                       concepts=[("tie_break", {})])


def _written(parsed: Parsed, name: str) -> str:
    """A folded name as the message writes it ("zoe" -> "Zoé")."""
    return next((item for item in re.findall(r"[\w'-]+", parsed.text) if fold(item) == name), name)


def compute(parsed: Parsed) -> Computation | None:
    """Who wins at the end: most points, then a tie on points by the tokens each player has left (the engine's
    winners)."""
    lang = parsed.lang
    if not parsed.cue("tie"):
        return None
    shared_claim = _shared_claim(parsed)
    if shared_claim is not None:
        return shared_claim
    scored = _scorekeeper(parsed)
    if scored is not None:
        return scored
    several = _named_players(parsed)
    if len(several) >= 3:
        return _several(parsed, several)
    mine, theirs = _tokens_by_player(parsed)
    source = parsed
    if parsed.previous is not None and (mine is None or theirs is None) \
            and None not in _tokens_by_player(parsed.previous):
        # A follow-up's own tokens come first: "and if we both had 2 tokens?" / "and the same number of tokens too?"
        # after "I have 3, she has 1" asks another case than the previous question's (which it would repeat). (Named
        # players' ties, "Paul a 0 jeton, Inès en a 2", are read by the scorekeeper and the rulebook text.)
        own = own_reading(parsed).folded
        said = _both_hold(own)
        if said is not None:
            mine = theirs = said
        elif re.search(B + either("same_tokens") + E, own):
            return _equal_tokens(lang, value="both")
    if (mine is None or theirs is None) and parsed.previous is not None:
        source = parsed.previous  # "who wins then?" after the scores and tokens were said
        mine, theirs = _tokens_by_player(source)
    if mine is None and theirs is None:
        # "and what if we both have exactly two tokens?": the same count said of both tied players.
        said = _both_hold(parsed.folded)
        if said is not None and (parsed.previous is not None or re.search(B + either("tied_words") + E, parsed.folded)):
            mine = theirs = said
    if mine is None or theirs is None:
        # "I finished on 31 and my opponent on 29": the scores decide before any token.
        return _scorekeeper(parsed, named=False) if source is parsed else None
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
