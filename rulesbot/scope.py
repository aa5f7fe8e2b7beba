"""Near-domain questions: about the game but not about its rules (opinion, price, expansions, other games).

Similarity cannot tell "the best card to take first" from "which card is free": both sit close to the rules in
meaning. These questions carry words the rules never need, listed per reason in scope.json (data, not code);
a question that matches gets an honest "not a rules question" message saying why, before anything else runs.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources


@dataclass(frozen=True)
class OutOfScope:
    """Why a question is outside the rules: the reason and the phrase that showed it."""

    reason: str
    cue: str
    # Values the reason's message names besides the title ("players": the fewest and most players), as pairs.
    values: tuple[tuple[str, object], ...] = ()


def fold(text: str) -> str:
    """Lower-case, accent-free text with plain apostrophes and single spaces (how cues are written)."""
    text = unicodedata.normalize("NFKD", text.replace("’", "'").lower())
    text = "".join(char for char in text if not unicodedata.combining(char))
    return " ".join(text.split())


@lru_cache(maxsize=1)
def scope_data() -> dict:
    """The cue lists and messages (scope.json)."""
    return json.loads(resources.files(__package__).joinpath("scope.json").read_text(encoding="utf-8"))


def _phrase_pattern(phrase: str) -> str:
    # A "*" inside a cue stands for the rest of one word: "worth *ing" is "worth spending", "worth taking"...
    return re.escape(phrase).replace(r"\*", r"\w*")


def _group_pattern(phrases: tuple[str, ...], title: str) -> _Cues:
    # Longest first, so "best cards" wins over "best card"; whole words only ("uno" is not in "unoriginal").
    words = sorted({fold(phrase.replace("{title}", title)) for phrase in phrases}, key=len, reverse=True)
    return _Cues(tuple(words))


class _Cues:
    """A group's phrases as a pattern compiled on first need: a phrase matches literally up to its first space or
    "*", so a text holding none of those leading words has no match, and a cold start compiles only the groups a
    question can match. `search` and `finditer` behave as the compiled pattern's."""

    __slots__ = ("_leads", "_pattern", "_words")

    def __init__(self, words: tuple[str, ...]) -> None:
        self._words = words
        self._leads = frozenset(re.split(r"[ *]", word, maxsplit=1)[0] for word in words)
        self._pattern: re.Pattern | None = None

    def compiled(self) -> re.Pattern:
        if self._pattern is None:
            self._pattern = re.compile(r"(?<!\w)(?:" + "|".join(_phrase_pattern(word) for word in self._words) + r")(?!\w)")
        return self._pattern

    def _may_match(self, text: str) -> bool:
        return any(lead in text for lead in self._leads)

    def search(self, text: str, *bounds: int) -> re.Match | None:
        return self.compiled().search(text, *bounds) if self._may_match(text) else None

    def finditer(self, text: str, *bounds: int):
        return self.compiled().finditer(text, *bounds) if self._may_match(text) else iter(())


@lru_cache(maxsize=1)
def _comparison_markers() -> re.Pattern:
    # The words that make a cue a comparison ("comme au tarot", "like the automa in Scythe"), shortly before it.
    markers = sorted({fold(marker) for marker in scope_data()["comparison"]["markers"]}, key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(_phrase_pattern(marker) for marker in markers) + r")(?!\w)")


@lru_cache(maxsize=1)
def _contrast_markers() -> re.Pattern:
    # The comparison markers and the bare ones ("que", "than", "vs") that make the pack's own title the thing
    # compared to ("azul c'est mieux que canvas"), not the game asked about.
    data = scope_data()["comparison"]
    markers = sorted({fold(marker) for marker in data["markers"] + data["contrast"]}, key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(_phrase_pattern(marker) for marker in markers) + r")(?!\w)")


@lru_cache(maxsize=16)
def _anchor_pattern(title: str, game: str | None, game_words: bool) -> _Cues:
    # The pack's own title, the words that point at the game being played ("here", "ici", "dans ce jeu") and,
    # when asked for, the game's own component and card names ("Inspiration Tokens", "rubans").
    data = scope_data()["comparison"]
    words = tuple(data["anchors"]) + (tuple(data["game_words"].get(game or "", ())) if game_words else ())
    return _group_pattern(words, title)


_CLAUSE_BREAK = re.compile(r"[.,;:!?()…]")
_SENTENCE = re.compile(r"[^.!?;:…]+(?:[.!?;:…]+|$)")
_WORDS = re.compile(r"[\w'-]+")


def _marker_before(folded: str, start: int, markers: re.Pattern) -> int | None:
    """Where the comparison marker governing the phrase at `start` begins: the last marker in the same clause
    (no punctuation between) with at most comparison["window"] words between it and the phrase, else None."""
    clause_start = max((match.end() for match in _CLAUSE_BREAK.finditer(folded, 0, start)), default=0)
    window = scope_data()["comparison"]["window"]
    found = None
    for match in markers.finditer(folded, clause_start, start):
        if len(_WORDS.findall(folded[match.end() : start])) <= window:
            found = match.start()
            break
    return found


def _sentences(folded: str) -> list[tuple[int, int]]:
    """The (start, end) spans of the sentences of `folded`, cut after . ! ? ; : and an ellipsis."""
    return [match.span() for match in _SENTENCE.finditer(folded) if _WORDS.search(match.group(0))]


def _asking_sentence(spans: list[tuple[int, int]], folded: str) -> tuple[int, int]:
    """The sentence that asks: the last one ending in "?", else the last one."""
    asking = [span for span in spans if folded[span[0] : span[1]].rstrip().endswith("?")]
    return (asking or spans)[-1]


def _set_aside(folded: str, match: re.Match, spans: list[tuple[int, int]], cues: list[_Cues]) -> bool:
    """Whether the cue at `match` sits in a statement told before the question (a sentence of its own
    with at least comparison["aside_words"] other words, not itself a question), while the sentence that asks
    names none of the rule's cues: "In Splendor costs are printed. Why does the third card cost 2 here?"."""
    data = scope_data()["comparison"]
    asking = _asking_sentence(spans, folded)
    sentence = next(span for span in spans if span[0] <= match.start() < span[1])
    # Told before the question; a sentence after the last "?" may be a question typed without one.
    if sentence[0] >= asking[0] or folded[sentence[0] : sentence[1]].rstrip().endswith("?"):
        return False
    own = folded[sentence[0] : match.start()] + " " + folded[match.end() : sentence[1]]
    if len(_WORDS.findall(own)) < data["aside_words"]:
        return False
    asked = folded[asking[0] : asking[1]]
    return len(_WORDS.findall(asked)) >= data["aside_words"] and not any(cue.search(asked) for cue in cues)


def _remarks_only(folded: str, cues: list[_Cues]) -> bool:
    """Whether every phrase of `cues` in `folded` sits in a remark told beside the question: a sentence other than
    the asking one (the last ending in "?", with at least comparison["aside_words"] words and none of the cues),
    not itself a question (no "?", not opening with one of comparison["question_openers"]): "do i get 2 more so 5
    total?? thats op", "does every player have to hit the goal? i want to be fair to the little one"."""
    data = scope_data()["comparison"]
    spans = _sentences(folded)
    asking = _asking_sentence(spans, folded)
    asked = folded[asking[0] : asking[1]]
    if not asked.rstrip().endswith("?") or len(_WORDS.findall(asked)) < data["aside_words"]:
        return False
    if any(cue.search(asked) for cue in cues):
        return False
    openers = _question_openers()
    for pattern in cues:
        for match in pattern.finditer(folded):
            start, end = next(span for span in spans if span[0] <= match.start() < span[1])
            sentence = folded[start:end].strip()
            if sentence.endswith("?") or openers.match(sentence):
                return False
    return True


@lru_cache(maxsize=1)
def _question_openers() -> re.Pattern:
    # The words a question opens with ("what", "is", "comment"): a sentence opening so is no remark.
    words = sorted({fold(word) for word in scope_data()["comparison"]["question_openers"]}, key=len, reverse=True)
    return re.compile(r"(?:" + "|".join(re.escape(word) for word in words) + r")(?!\w)")


def _clause(folded: str, position: int) -> tuple[int, int]:
    """The (start, end) of the clause around `position`: between the punctuation marks on either side."""
    start = max((match.end() for match in _CLAUSE_BREAK.finditer(folded, 0, position)), default=0)
    following = _CLAUSE_BREAK.search(folded, position)
    return start, following.start() if following else len(folded)


def _anchored(folded: str, match: re.Match, anchors: _Cues, cues: list[_Cues]) -> bool:
    """Whether the sentence of the cue at `match` points at the pack's own game ("in Canvas", "here", "ici", one of
    its component or card names) in another clause, one without the cue, and not as the thing compared to ("the
    same as Canvas", "mieux que Canvas"): "in Wingspan there are food types, in Canvas what are they called?"."""
    contrast = _contrast_markers()
    sentence_start, sentence_end = next(span for span in _sentences(folded) if span[0] <= match.start() < span[1])
    for anchor in anchors.finditer(folded, sentence_start, sentence_end):
        start, end = _clause(folded, anchor.start())
        if any(cue.search(folded, start, end) for cue in cues):
            continue
        if _marker_before(folded, anchor.start(), contrast) is None:
            return True
    return False


@lru_cache(maxsize=16)
def _game_words(game: str | None) -> _Cues:
    # The game's own component and card names (comparison.game_words), which no other game's question uses.
    return _group_pattern(tuple(scope_data()["comparison"]["game_words"].get(game or "", ())) or ("\0",), "")


@lru_cache(maxsize=1)
def _away_pattern() -> _Cues:
    # The phrases that point at the other game just named ("dans ce jeu-là", "in that game"), never at the pack's.
    return _group_pattern(tuple(scope_data()["comparison"]["away"]), "")


def _about_own_game(folded: str, cues: list[_Cues], anchors: _Cues) -> bool:
    """Whether a question naming another game (or a digital version) is still about the pack's game: no phrase
    points at the game named (comparison["away"]: "dans ce jeu-là", "in that game"), and each such
    name is compared ("like the automa in Scythe", "comme au tarot"), told in a statement of its own before the
    question, or said in a sentence whose other clause points at the pack's game (`anchors`: "in Canvas",
    "ici"); and the question says enough of its own (comparison["min_words"] words) outside the comparisons."""
    if _away_pattern().search(folded):
        # "On sort de Wingspan, les oeufs ça vaut combien dans ce jeu-là ?": the question points at the game named.
        return False
    markers = _comparison_markers()
    spans = _sentences(folded)
    compared: list[tuple[int, int]] = []
    for pattern in cues:
        for match in pattern.finditer(folded):
            start = _marker_before(folded, match.start(), markers)
            if start is not None:
                compared.append((start, match.end()))
            elif _anchored(folded, match, anchors, cues) or _set_aside(folded, match, spans, cues):
                compared.append((match.start(), match.end()))
            else:
                return False
    rest, end = [], 0
    for start, stop in sorted(compared):
        rest.append(folded[end:start])
        end = max(end, stop)
    rest.append(folded[end:])
    return len(_WORDS.findall(" ".join(rest))) >= scope_data()["comparison"]["min_words"]


@lru_cache(maxsize=256)
def _compiled_rules(title: str) -> tuple[tuple[dict, _Cues | None, tuple[_Cues | None, ...]], ...]:
    """Each scope rule with its `unless` pattern and one pattern per group, for one pack title (built once)."""
    own = fold(title)
    compiled = []
    for rule in scope_data()["rules"]:
        unless = _group_pattern(tuple(rule["unless"]), title) if rule.get("unless") else None
        groups = []
        for group in rule["groups"]:
            # A cue that is the pack's own title never fires.
            phrases = tuple(phrase for phrase in group if fold(phrase) != own)
            groups.append(_group_pattern(phrases, title) if phrases else None)
        compiled.append((rule, unless, tuple(groups)))
    return tuple(compiled)


def _in_sequence(folded: str, groups: tuple[_Cues | None, ...], within: int) -> bool:
    """Whether each group's phrase follows the previous group's with at most `within` words between them
    ("best 4-card combo", "meilleur ordre"), somewhere in `folded`."""
    ends = [match.end() for match in groups[0].finditer(folded)]
    for pattern in groups[1:]:
        ends = [
            match.end()
            for match in pattern.finditer(folded)
            if any(end <= match.start() and len(re.findall(r"[\w'-]+", folded[end : match.start()])) <= within for end in ends)
        ]
        if not ends:
            return False
    return True


def out_of_scope(question: str, title: str, game: str | None = None) -> OutOfScope | None:
    """The first scope rule whose every group has a phrase in `question`, or None (a rules question).

    Rules naming `games` apply to those games only (one game's expansions are another's plain words); a cue that
    is the pack's own title never fires (a site's Catan pack is asked about Catan); a rule's `unless` phrases
    keep it from firing (a rules question that borrows one of its cues). A rule marked `comparable` (another
    game's name, a digital version) does not fire when the question is about the pack's game all the same: each
    cue is named as a comparison ("like the automa in Scythe", "comme au tarot") or told in a statement beside
    the question ("In Splendor costs are printed. Why…?"), or another clause points at the pack's game ("in
    Canvas", "ici"), and the question says enough of its own. A rule with `within` needs its groups in order, at
    most that many words apart ("the best order", not "best I can do … setup"). When nothing fires, the question
    is read once more without intensifiers (scope.json "fillers": "vaut vraiment le coup").
    """
    folded = fold(question)
    found = _first_rule(folded, title, game)
    plain = _fillers().sub(" ", folded)
    if found is None and plain != folded:
        # "ça vaut vraiment le coup", "is it really worth it": an intensifier inside a cue phrase.
        found = _first_rule(" ".join(plain.split()), title, game)
    return found


@lru_cache(maxsize=1)
def _fillers() -> re.Pattern:
    # Intensifiers that can sit inside a cue phrase without changing it ("vaut vraiment le coup").
    words = sorted({fold(word) for word in scope_data()["fillers"]}, key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(word) for word in words) + r")(?!\w)")


def _first_rule(folded: str, title: str, game: str | None) -> OutOfScope | None:
    """The first scope rule that fires on the folded question (see out_of_scope)."""
    for rule, unless, groups in _compiled_rules(title):
        if "games" in rule and game not in rule["games"]:
            continue
        if unless is not None and unless.search(folded):
            continue
        found = []
        for pattern in groups:
            match = pattern.search(folded) if pattern is not None else None
            if match is None:
                break
            found.append(match.group(0))
        else:
            if "within" in rule and not _in_sequence(folded, groups, rule["within"]):
                continue
            if rule.get("aside") and _remarks_only(folded, [pattern for pattern in groups if pattern]):
                continue  # "do i get 2 more so 5 total?? thats op": the cue is a remark beside a rules question
            if rule.get("comparable") == "same_game" and _game_words(game).search(folded):
                continue  # the app named is this game: a message naming the game's own things asks its rules
            if rule.get("comparable"):
                anchors = _anchor_pattern(title, game, rule["comparable"] in ("game_words", "same_game"))
                if _about_own_game(folded, [pattern for pattern in groups if pattern], anchors):
                    continue
            return OutOfScope(rule["reason"], found[0])
    return None


def scope_message(reason: str, lang: str, title: str, values: tuple[tuple[str, object], ...] = ()) -> str:
    """The honest message for one reason, in `lang` (naming `values` where the reason's message has them)."""
    return scope_data()["messages"][reason][lang].format(title=title, **dict(values))


def players_beyond(question: str, lang: str, pack) -> OutOfScope | None:
    """A player count above the most players the game seats (GameSpec.most_players), or None: "is there a rule for
    six players if we combine two boxes", "jouer a 6 ou 7 avec 2 boites". A number counts players when the game's
    own test says so (GameSpec.scene_number: "six players", "on est 6") or when it comes right after one of
    scope.json players["before"] ("play with", "jouer a") and ends its clause or is followed by "or" and another
    number ("a 6 ou 7") or by "with"."""
    from rulesbot.games import spec_for_pack

    spec = spec_for_pack(pack)
    if spec is None or spec.most_players is None or spec.scene_number is None:
        return None
    from rulesbot.compute.parse import parse

    parsed = parse(question, "fr" if lang == "fr" else "en", pack.game)
    text = parsed.folded
    for slot in parsed.slots:
        if slot.name != "number" or not isinstance(slot.value, int) or slot.value <= spec.most_players:
            continue
        led = _players_lead().search(text[: slot.start]) is not None
        after = text[slot.end :]
        closes = re.match(r"\s*(?:[?!.,;:)]|$|(?:(?:ou|or|to|a)\s+|-\s*)\d|(?:ou|or|to|a)\s+\w+\b(?=\s*(?:[?!.,;:]|$|players?|joueurs?))|(?:avec|with|if|si)\b)", after) is not None
        if spec.scene_number(parsed, slot) or (led and closes):
            values = (("fewest", spec.fewest_players), ("most", spec.most_players))
            return OutOfScope("players", text[slot.start : slot.end], values)
    return None


@lru_cache(maxsize=1)
def _players_lead() -> re.Pattern:
    # One of players["before"] ("jouer a", "play with") right before a number: the text up to it ends so.
    words = sorted({fold(word) for word in scope_data()["players"]["before"]}, key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(word) for word in words) + r")\s*$")


@lru_cache(maxsize=1)
def _existence_cues() -> _Cues:
    return _group_pattern(tuple(scope_data()["existence"]["cues"]), "")


def existence_cue(question: str) -> str | None:
    """The phrase by which `question` asks whether a rule, variant or official option exists (scope.json
    "existence": "is there an official...", "is that in the book?", "is trading a thing?"), or None."""
    match = _existence_cues().search(fold(question))
    return match.group(0) if match else None


# The forms of a follow-up that asks nothing of its own ("et la pire ?", "and in solo?"): it goes on with the
# previous question's topic. A follow-up that asks a count, a permission or a condition is a question in its own right.
_CONTINUING_FORMS = ("what_if", "which", "other")


def follow_up_out_of_scope(question: str, lang: str, context: list[str], title: str, game: str | None,
                           pack) -> OutOfScope | None:
    """The previous question's reason when `question` only continues it: "meilleure carte de score ?" then "et la
    pire ?" is still an opinion. The newest previous question must be out of scope, and `question` an elliptical
    follow-up (rulesbot.compute.parse.is_follow_up) naming nothing to compute and asking in one of the continuing
    forms (no count, permission or condition of its own: "and how many are there?" is a rules question)."""
    from rulesbot.compute.parse import is_follow_up, parse

    previous = next((item for item in reversed(context) if item.strip()), None)
    if previous is None or not is_follow_up(question, pack):
        return None
    before = out_of_scope(previous, title, game)
    if before is None:
        return None
    parsed = parse(question, lang, game or "")
    if parsed.form not in _CONTINUING_FORMS or any(slot.name != "variant" for slot in parsed.slots):
        return None
    return before
