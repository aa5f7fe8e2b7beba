"""`parse(question, lang, game) -> Parsed`: the one question-understanding layer (cached: one parse per question).

Generic steps, driven by the shared language.json and the game's vocabulary (rulesbot.games.GameSpec):
1. fold the question and, in French, restore the elisions chat leaves out ("cest", "jai", "quil", "ya": the
   vocabulary's `elisions`), so every later step reads the standard forms; strip a claim cue (a prefix such as "is it true that", reported speech such as "my sister
   reckons ..." / "mon cousin dit que ...", or a tag such as "..., innit?" / "..., c'est ça ?");
2. run the game's slot finders over the claim's body (names from engine data, positions, counts, ...);
3. add every number (digits and words), the cue lists present, the form, negation and whether it is elliptical.
"""

from __future__ import annotations

import re
from functools import lru_cache

from rulesbot.compute.text import B, E, alternation, alternation_tree, bounded, fold, language, numbers_for
from rulesbot.games import game_spec
from rulesbot.parsed import Parsed, Slot

# Lists of the vocabulary that are not cue lists (number tables, name maps, claim and form cues).
_NOT_CUES = {"rulebook_speaker", "claim_fillers", "numbers", "tens", "ordinals", "claim_prefix", "claim_suffix", "reported_verbs", "reported_connector",
             "reported_according", "number_labels", "forms", "quiz_openers", "ellipsis", "pair", "article_one", "list_sep", "bare_tags", "interrogatives",
             "ellipsis_openers", "yes_no_openers", "first_person", "interjections", "generic_cues",
             "value_cues", "topic_cues", "stated_value", "open_questions", "opinion_questions",
             "reason_question", "reason_fillers", "referent_pronouns", "referent_things", "value_claim_suffix",
             "confidence_question", "range_joiner", "reported_after", "claim_hedges", "claim_inner", "reported_inverted",
             "value_asked_alone"}


# A speaker named after the claim ("..., my friend says", "... dit mon pote") is read only after this many characters
# of claim: a message that opens with its speaker is not a claim reported after the fact.
_SPEAKER_AFTER = 8


@lru_cache(maxsize=4096)
def parse(question: str, lang: str, game: str) -> Parsed:
    """What `question` (in `lang`) asks about the game whose engine id is `game`; cached."""
    spec = game_spec(game)
    vocabulary = spec.vocabulary if spec is not None else language()
    # "..., not a 'you needed more', right?", "... 1 seul ruban hein pas 2": the alternative the asker rejects is
    # neither a negation of the claim nor its value (its lead, a comma or "hein", stays: it may be the claim's tag).
    folded = strip_contrast(restore_elisions(fold(question), lang, vocabulary), vocabulary)
    body, cue, reported = split_claim(folded, vocabulary)
    # "quiz: ...", "petit quiz : ...": a quizzer's opener; what follows is read as usual (a question or a claim).
    body = strip_quiz_opener(body, vocabulary)
    slots: list[Slot] = []
    for finder in (spec.slot_finders if spec is not None else ()):
        slots += finder(body, slots)
    reader = numbers_for(vocabulary)
    labelled = labelled_numbers(body, vocabulary)
    slots += [slot for slot in reader.find(body) if (slot.start, slot.end) not in labelled]
    # Ordinals no finder used ("et la deuxieme ?"): a follow-up may mean a position by them.
    slots += [slot for slot in reader.ordinals(body) if not any(other.overlaps(slot.start, slot.end) for other in slots)]
    slots.sort(key=lambda slot: (slot.start, slot.end))
    cues = cues_in(body, game)
    # "Tom says it scores nothing. What does that painting earn?": a reported claim, then the value asked openly: the
    # asker wants the value (computed), not a verdict.
    if cue is not None and asks_open_after(folded, cue, vocabulary):
        body, cue, reported = folded, None, False
    claim = cue is not None
    elliptical = is_elliptical(body, vocabulary)
    # A follow-up ("and the leftmost one?") asks; only an explicit cue, or a value it states at its end ("and Movement
    # with 3 is 12?"), makes it a claim.
    # "Variete avec 3 rubans ca fait ?", "and 4 of them makes?": a value verb closing the message with no value after
    # it asks that value (a how-many question), it states nothing.
    open_value = not claim and asks_value_left_open(body, vocabulary)
    statement = not claim and not open_value and (states_value(body, vocabulary) if elliptical
                                                  else is_statement(body, vocabulary))
    return Parsed(
        text=question,
        folded=body,
        lang=lang,
        game=game,
        slots=tuple(slots),
        cues=cues,
        form="is_it_true" if claim else "how_many" if open_value else question_form(body, vocabulary),
        claim=claim or statement,
        claim_cue=cue if claim else ("statement" if statement else None),
        reported=reported,
        negated=polarity(body, slots, cue, reported, lang, vocabulary),
        elliptical=elliptical,
    )


def labelled_numbers(body: str, vocabulary) -> frozenset[tuple[int, int]]:
    """The spans of the numbers that label who asks ("table 2 asks ...", "la table 4", "adding up for table 1"): a
    number right after a label word (vocabulary `number_labels`) that opens its clause or follows one of the listed
    leads, and no other number joined to it ("table 4/8/13" lists a card's points). Such a number counts nothing."""
    labels = vocabulary.get("number_labels")
    if not labels or not any(word in body for word in labels["words"]):
        return frozenset()
    regex = re.compile(r"(?:^|[.,:;!?()]\s*|\b" + alternation(labels["leads"]) + r"\s+)" + alternation(labels["words"])
                       + r"\s+(?:n[o°]\s*)?(?P<number>\d+)(?![\d/]|\s*[/,-]\s*\d|\s+\d)")
    return frozenset(match.span("number") for match in regex.finditer(body))


def asks_open_after(folded: str, cue: str, vocabulary) -> bool:
    """Whether the message's last sentence asks a value openly ("what does it earn?", "combien ca fait alors ?",
    not "is she right?" nor "what do you think?") and the claim cue stands in an earlier sentence."""
    sentences = [match for match in re.finditer(r"[^.?!]+[.?!]*", folded) if match.group(0).strip(" .?!")]
    if len(sentences) < 2:
        return False
    last = sentences[-1]
    where = folded.rfind(cue)
    if where < 0 or where >= last.start() or not last.group(0).rstrip().endswith("?"):
        return False
    if re.search(B + alternation(vocabulary.get("opinion_questions", ["\0"])) + E, last.group(0)) or re.match(
            r"\s*" + alternation(vocabulary["yes_no_openers"]) + E, last.group(0)):
        return False  # "is she right?", "is that what the rulebook says?" ask for a verdict
    return re.search(B + alternation(vocabulary.get("open_questions", ["\0"])) + E, last.group(0)) is not None


def restore_elisions(folded: str, lang: str, vocabulary) -> str:
    """`folded` with the language's elided words written without their apostrophe restored ("cest" -> "c'est",
    "quil" -> "qu'il", "ya" -> "y a"); only words that are never anything else are listed (vocabulary `elisions`)."""
    table = vocabulary.get("elisions", {}).get(lang)
    if not table:
        return folded
    return _elision_pattern(tuple(sorted(table))).sub(lambda match: table[match.group(0)], folded)


@lru_cache(maxsize=8)
def _elision_pattern(words: tuple[str, ...]) -> re.Pattern:
    return re.compile(B + "(?:" + "|".join(re.escape(word) for word in sorted(words, key=len, reverse=True)) + ")" + r"(?![\w'])")


def strip_quiz_opener(body: str, vocabulary) -> str:
    """`body` without a quizzer's opener ("quiz:", "quick quiz -", "petit quiz :"): it neither asks nor claims."""
    openers = vocabulary.get("quiz_openers")
    if not openers:
        return body
    opener = re.match(r"^\s*(?:" + alternation(openers) + r")\s*[:,!-]+\s*", body)
    return body[opener.end():] if opener and opener.end() < len(body) else body


def asks_value_left_open(body: str, vocabulary) -> bool:
    """Whether the message ends on a value verb or copula and a question mark, the value left unsaid ("... ca fait ?",
    "... that makes?", "3 Style = ?"), or on a sentence that only names the value asked ("... 2 silvers. total?",
    "... score ?": the vocabulary's `value_asked_alone`)."""
    return re.search(B + alternation(vocabulary.get("stated_value", ["\0"])) + r"\s*\?[?!.\s]*$", body) is not None \
        or re.search(r"=\s*\?[?!.\s]*$", body) is not None \
        or re.search(r"(?:^|[.?!,;:]\s*)(?:" + alternation(vocabulary.get("value_asked_alone", ["\0"])) + r")\s*\?[?!.\s]*$",
                     body) is not None


def strip_contrast(body: str, vocabulary) -> str:
    """`body` without a rejected alternative after the claim (language.json `contrast_tail`): ", not a 'you needed
    more'", " hein pas 2", ", not 4": a negator after a comma (or `before` word), then a short tail up to the sentence
    end or a comma holding a number, a quote or opening with an article."""
    table = vocabulary.get("contrast_tail")
    if not table:
        return body
    pattern = _contrast_pattern(tuple(table["before"]), tuple(table["negators"]), int(table["max_words"]))
    articles = frozenset(table["articles"])
    reader = numbers_for(vocabulary)
    for match in reversed(list(pattern.finditer(body))):
        tail = match.group("tail").strip()
        words = tail.split()
        # The alternative itself opens the tail: a number ("not 4"), a quote, or an article ("not a loss"); "pas
        # d'argent -> je compte 30" counts zero silver, it rejects nothing.
        first = reader.find(tail)
        if not words or not (first and first[0].start == 0 or tail[0] in "'\"" or words[0] in articles):
            continue
        if not body[: match.start()].strip():
            continue  # the message opens with it: nothing is claimed before
        body = body[: match.end("lead")] + body[match.end():]
    return body


@lru_cache(maxsize=8)
def _contrast_pattern(before: tuple[str, ...], negators: tuple[str, ...], max_words: int) -> re.Pattern:
    marks = [re.escape(item) for item in before if not item[0].isalnum()]
    said = [item for item in before if item[0].isalnum()]
    lead = "(?P<lead>" + "|".join(marks + ([r"\s" + alternation(said) + E] if said else [])) + ")"
    return re.compile(lead + r"\s*" + alternation(negators) + r"\s+(?P<tail>(?:[^\s,;.?!]+\s*){1," + str(max_words)
                      + r"})(?=[,;.?!]|$)")


def states_value(body: str, vocabulary) -> bool:
    """Whether a follow-up ends by stating a value ("et Movement avec 3 c'est 12 ?", "and 4 silver makes 8?"): a
    copula or value verb, then a number (and its unit) closing the message."""
    reader = numbers_for(vocabulary)
    return re.search(B + alternation(vocabulary.get("stated_value", ["\0"])) + r"\s+(?:" + reader.core + r")"
                     r"(?:\s*(?:%|points?|pts?|jetons?|tokens?|rubans?|ribbons?))?\s*[?!.]*\s*$", body) is not None


def polarity(body: str, slots: list[Slot], cue: str | None, reported: bool, lang: str, vocabulary) -> bool:
    """Whether the claim as the player stated it is negative: the one polarity rule every intent's claim check reads
    (`Parsed.negated`; its words are language.json `polarity`).

    Negations are counted in the sentences that hold what is asked about (chat around them, "my brother can never
    remember", says nothing about the claim): an odd count is a negative claim, an even one ("c'est pas interdit de
    ...", "you can't paint unless you hold 3") a positive one. A tag ("..., is it?", "..., si ?") was stripped with
    the claim cue and never counts; a negating prefix ("c'est pas vrai que ...") and a reported "no" ("... my friend
    says no") flip the whole claim."""
    words = vocabulary.get("polarity", {})
    sentences = [match.span() for match in re.finditer(r"[^.?!;]+[.?!;]*", body)]
    held = [(start, end) for start, end in sentences if any(slot.start < end and start < slot.end for slot in slots)]
    # A count said as a negation ("pas d'argent", "no tokens", "aucun jeton") is a value of zero, not a negation;
    # a name is no predicate ("Forbidden" is an Art Card).
    named = body
    for slot in slots:
        if slot.inherited:
            continue
        blank = " " * (slot.end - slot.start)
        named = named[: slot.start] + blank + named[slot.end:]
        if _is_zero(slot.value):
            body = body[: slot.start] + blank + body[slot.end:]
    count = sum(count_negations(body[start:end], lang, words, named[start:end])
                for start, end in (held or [(0, len(body))]))
    negative = count % 2 == 1
    if cue is not None and fold(cue) in set(words.get("negating_prefixes", ())):
        negative = not negative
    if reported and cue and re.search(r"\b(?:no|non)$", cue):
        negative = not negative
    return negative


def _is_zero(value) -> bool:
    count = getattr(value, "count", value)
    return isinstance(count, int) and not isinstance(count, bool) and count == 0


def count_negations(sentence: str, lang: str, words, unnamed: str | None = None) -> int:
    """How many negations one sentence holds (see `polarity`); 0 for a sentence without one. `unnamed` is the
    sentence with its names blanked out, where predicates ("forbidden") are looked for."""
    patterns = _polarity_patterns(tuple(sorted((key, tuple(value)) for key, value in words.items() if isinstance(value, list))))
    text = patterns["not_negation"].sub(" ", sentence) if "not_negation" in patterns else sentence
    # "doesn't Emphasis cap at 3?", "isn't the free card the leftmost?": asks to confirm the positive statement.
    if "rhetorical_openers" in patterns:
        text = patterns["rhetorical_openers"].sub(" ", text, count=1)
    positions: list[int] = []
    for key in ("english",) + (("english_chat",) if lang == "en" else ()):
        if key in patterns:
            positions += [match.start() for match in patterns[key].finditer(text)]
    if "negative_predicates" in patterns:
        positions += [match.start() for match in patterns["negative_predicates"].finditer(
            sentence if unnamed is None else unnamed)]
    said_no = {match.start(1) for match in patterns["no_after"].finditer(text)} if "no_after" in patterns else set()
    said_no |= {match.start() for match in patterns["no_before"].finditer(text)} if "no_before" in patterns else set()
    positions += sorted(said_no)
    # French: "ne/n' ... pas" is one negation; "ne ... que" is "only"; chat drops the "ne" ("on a pas le droit").
    if "ne" in patterns:
        taken: set[int] = set()
        for opener in patterns["ne"].finditer(text):
            closer = patterns["closers"].search(text, opener.end()) if "closers" in patterns else None
            only = patterns["restrictive"].search(text, opener.end()) if "restrictive" in patterns else None
            if closer is not None and (only is None or closer.start() < only.start()):
                positions.append(opener.start())
                taken.add(closer.start())
        if "closers_alone" in patterns:
            positions += [match.start() for match in patterns["closers_alone"].finditer(text) if match.start() not in taken]
    if positions and "cancel" in patterns:
        # "can't X unless Y" states what X needs: the "unless" after a negation cancels it.
        first = min(positions)
        positions += [match.start() for match in patterns["cancel"].finditer(text) if match.start() > first]
    return len(positions)


@lru_cache(maxsize=8)
def _polarity_patterns(lists: tuple[tuple[str, tuple[str, ...]], ...]) -> dict[str, re.Pattern]:
    table = dict(lists)
    patterns: dict[str, re.Pattern] = {}
    for key in ("english", "english_chat", "negative_predicates", "closers", "closers_alone", "cancel", "not_negation"):
        if table.get(key):
            phrases = frozenset(table[key])
            # "n't" closes a word ("can't", "isn't"): no boundary before it.
            patterns[key] = re.compile(B + alternation(phrases - {"n't"}) + E
                                       + ("|n't" + E if "n't" in phrases else ""))
    if table.get("ne"):
        patterns["ne"] = re.compile(B + r"(?:ne\b|n')")
    if table.get("restrictive"):
        patterns["restrictive"] = re.compile(B + alternation(frozenset(table["restrictive"])) + r"(?!\w)")
    if table.get("rhetorical_openers"):
        patterns["rhetorical_openers"] = re.compile(r"^\s*" + alternation(frozenset(table["rhetorical_openers"])) + E)
    # "no" negates in an existential or limit phrase ("there's no limit", "no cap on ribbons"); elsewhere it is a
    # count of zero ("with no tokens") or an answer.
    if table.get("no_after"):
        patterns["no_after"] = re.compile(B + alternation(frozenset(table["no_after"])) + r"\s+(no)" + E)
    if table.get("no_before"):
        patterns["no_before"] = re.compile(B + r"no\s+(?:[\w'-]+\s+)?" + alternation(frozenset(table["no_before"])) + E)
    return patterns


def is_follow_up(question: str, pack) -> bool:
    """Whether a question leans on the previous one ("and with 4 ribbons?", "et en solo ?"), for any pack."""
    from rulesbot.games import spec_for_pack

    spec = spec_for_pack(pack)
    vocabulary = spec.vocabulary if spec is not None else language()
    body, _cue, _reported = split_claim(fold(question), vocabulary)
    return is_elliptical(body, vocabulary)


def asks_reason_only(question: str, pack) -> bool:
    """Whether a follow-up asks only why the previous answer holds ("why?", "how come?", "mais pourquoi ?", "pk
    ca ?"): a reason word (`reason_question`) and nothing else but openers, interjections and fillers
    (`reason_fillers`), so it means nothing without the previous question; any game."""
    return _asks_only(question, pack, "reason_question")


def asks_confidence_only(question: str, pack) -> bool:
    """Whether a follow-up only asks how sure the previous answer is ("how sure are you?", "t'es sûr ?", "prove
    it", "vraiment ?"): a `confidence_question` phrase and nothing else but openers, interjections and fillers; the
    answer is the previous one again, its computation and page unchanged; any game."""
    return _asks_only(question, pack, "confidence_question")


def _asks_only(question: str, pack, key: str) -> bool:
    from rulesbot.games import spec_for_pack

    spec = spec_for_pack(pack)
    vocabulary = spec.vocabulary if spec is not None else language()
    text = " " + re.sub(r"[^\w'% ]+", " ", fold(question)) + " "
    asked = bounded(frozenset(vocabulary.get(key, ())))
    if not vocabulary.get(key) or not asked.search(text):
        return False
    spare = (vocabulary.get("reason_fillers", []) + vocabulary.get("interjections", []) + vocabulary["ellipsis_openers"])
    rest = bounded(frozenset(spare)).sub(" ", asked.sub(" ", text))
    return not rest.strip()


@lru_cache(maxsize=64)
def cue_lists(game: str) -> tuple[tuple[str, frozenset[str], frozenset[str]], ...]:
    """(cue list name, its phrases, their leading words) for every phrase list of the game's vocabulary."""
    spec = game_spec(game)
    vocabulary = spec.vocabulary if spec is not None else language()
    return tuple((key, frozenset(phrases), frozenset(re.split(r"[ -]", phrase, maxsplit=1)[0] for phrase in phrases))
                 for key, phrases in vocabulary.items()
                 if key not in _NOT_CUES and isinstance(phrases, list) and phrases and isinstance(phrases[0], str))


def cues_in(text: str, game: str) -> frozenset[str]:
    """The names of the game's cue lists with a phrase in folded `text`. A list's pattern is compiled only when one
    of its phrases' leading words is in the text (a phrase matches literally up to its first space or hyphen), so a
    cold start compiles the few lists a question can match, not all of them."""
    return frozenset(key for key, phrases, leads in cue_lists(game)
                     if any(lead in text for lead in leads) and bounded(phrases).search(text))


def split_claim(text: str, vocabulary) -> tuple[str, str | None, bool]:
    """(body, claim cue or None, reported speech) for a folded question.

    A cue is looked for first where it usually stands (a prefix, reported speech or a tag at the end), then in any
    clause of a chatty message ("... 2 ribbons = 8 pts. that right?? he always ...", "ok so ..., pretty sure ...")."""
    body, cue, reported = _split_claim_edges(text.strip(), vocabulary)
    if cue is None:
        body, cue, reported = _split_claim_inside(body, vocabulary)
    return body.strip(), cue, reported


def _split_claim_edges(body: str, vocabulary) -> tuple[str, str | None, bool]:
    cue = None
    reported = False
    prefix = re.match(r"^\s*(?:" + _prefixes(vocabulary) + r")\s*[:,]?\s*", body)
    if prefix:
        cue, body = prefix.group(0).strip(" :,"), body[prefix.end():]
    else:
        found = _reported(body, 0, vocabulary)
        if found and len(body) - found.end() > 8:
            cue, body, reported = found.group(0).strip(" :,"), body[found.end():], True
    # (A tag asked after a full stop, "... has to be more. no?", is a tag too: its own "?" marks it.)
    # (An English tag question, "..., is there?", follows a comma: "... this turn. May he?" asks.)
    suffix = re.search(r"(?:[,;:-]|\?)\s*(?:" + alternation(vocabulary["claim_suffix"]) + r")\s*[?!.]*\s*$", body) or re.search(
        r"[,;-]\s*(?:" + alternation(claim_tags(vocabulary)) + r")\s*[?!.]*\s*$", body) or re.search(
        r"\s(?:" + alternation(vocabulary["bare_tags"]) + r")\s*[?!.]*\s*$", body) or re.search(
        r"\.\s*(?:" + alternation(vocabulary["claim_suffix"]) + r")\s*\?[?!.]*\s*$", body)
    # "..., is that how it works?" checks a value the message states ("caps at 3 ribbons"); said of a rule with no
    # number, it asks how that rule works (a rule question, left to the rulebook text).
    if suffix and re.sub(r"\s+", " ", suffix.group(0).strip(" ,;:-?!.")) in vocabulary.get("value_claim_suffix", ()) \
            and not numbers_for(vocabulary).find(body[: suffix.start()]):
        suffix = None
    if suffix:
        cue = cue or suffix.group(0).strip(" ,;:-?!.")
        body = body[: suffix.start()]
    # "can I ...? my friend says yes", "... ? mon pote dit que non": a reported answer to the question is a claim.
    said = re.search(r"(?:[.?!,;:-]|\s)\s*(?:[\w'-]+\s+){0,3}?" + alternation(vocabulary["reported_verbs"])
                     + r"\s+(?:que\s+|qu')?(?:yes|no|oui|non)\s*[?!.]*\s*$", body)
    if said and cue is None and said.start() > 8:
        cue, body, reported = said.group(0).strip(" ,;:-?!."), body[: said.start()], True
    # "each silver is worth 3, that's what my friend told me", "..., c'est ce que m'a dit ma copine": the claim, then
    # who made it (a connector, a few words for the speaker, a reported verb, the speaker after it in French).
    told = re.search(r"[.,;:-]\s*(?:" + alternation(vocabulary.get("reported_after", ["\0"])) + r")\s+(?:[\w'-]+\s+){0,3}?"
                     + alternation(vocabulary["reported_verbs"]) + r"(?:\s+[\w'-]+){0,3}\s*[?!.]*\s*$", body)
    if told and cue is None and told.start() > _SPEAKER_AFTER:
        cue, body, reported = told.group(0).strip(" ,;:-?!."), body[: told.start()], True
    # "... donc 2 rubans mouvement dit mon pote", "... 3 points each says my mate": the speaker after the verb, closing
    # the message (language.json `reported_inverted`: the words a speaker opens with).
    inverted = re.search(r"(?<=\S)\s+" + alternation(vocabulary["reported_verbs"]) + r"\s+"
                         + alternation(vocabulary.get("reported_inverted", ["\0"])) + r"(?:\s+[\w'-]+){1,2}\s*[?!.]*\s*$", body)
    if inverted and cue is None and inverted.start() > _SPEAKER_AFTER:
        cue, body, reported = inverted.group(0).strip(" ,;:-?!."), body[: inverted.start()], True
    return body, cue, reported


def claim_tags(vocabulary) -> tuple[str, ...]:
    """Every English tag question the vocabulary's `tag_questions` grammar builds (auxiliary, optional negation,
    subject: "is it", "can't you", "is there", "don't they")."""
    grammar = vocabulary.get("tag_questions")
    if not grammar:
        return ("\0",)
    return _built_tags(tuple(grammar["auxiliaries"]), tuple(grammar["negative"]),
                                                          tuple(grammar["subjects"]))


@lru_cache(maxsize=8)
def _built_tags(auxiliaries: tuple[str, ...], negatives: tuple[str, ...], subjects: tuple[str, ...]) -> tuple[str, ...]:
    built = []
    for auxiliary in auxiliaries:
        for negative in ("",) + negatives:
            for subject in subjects:
                built.append(f"{auxiliary}{negative} {subject}")
    return tuple(built)


def _prefixes(vocabulary) -> str:
    """The claim prefixes as a regex, an intensifier allowed between their words ("je crois bien que", "I really
    think")."""
    filler = r"\s+(?:" + alternation(vocabulary.get("claim_fillers", ["\0"])) + r"\s+)?"
    return alternation_tree(frozenset(vocabulary["claim_prefix"])).replace(r"\s+", filler)


def _reported(body: str, start: int, vocabulary) -> re.Match | None:
    """Reported speech opening the clause at `start` ("my sister reckons (that)", "d'apres Paul,")."""
    according = re.compile(r"\s*" + alternation(vocabulary["reported_according"]) + r"\s+[\w' -]{1,40}?,\s*").match(body, start)
    # The speaker may take a few words ("le joueur a cote dit que", "the guy next to me says"), none of them asking.
    speech = re.compile(r"\s*(?:(?!" + alternation(vocabulary["interrogatives"]) + E + r")[\w'-]+\s+){0,5}?" + alternation(vocabulary["reported_verbs"]) + r"\s*(?::|,)?\s*(?:"
                        + alternation(vocabulary["reported_connector"]) + r"\s*)?").match(body, start)
    found = according or speech
    # "the vincent section says ...", "le livret dit ...": the rulebook quoted is the asker's context, not a claim
    # someone makes (what is asked or stated after it is read as usual).
    if found is not None and re.search(B + alternation(vocabulary.get("rulebook_speaker", ["\0"])) + E, found.group(0)):
        return None
    return found


# Where a clause starts inside a message: after a sentence end, a comma or a dash (" - "), or after "and", "but", "so", "et", "mais".
_CLAUSE_START = re.compile(r"(?:(?:[.?!,;:]+|\s-+)\s*(?:(?:and|but|so|et|mais|donc|alors)\s+)?|\s(?:and|but|so|et|mais|donc|alors)\s+)")


def _split_claim_inside(body: str, vocabulary) -> tuple[str, str | None, bool]:
    # A tag closing a sentence that more chat follows ("that's 3 points yeah? my mate ...", "that right?? he ...").
    tag = re.search(r"(?:^|[,;:-]|\s)\s*(?:that(?:'s)?\s+|is\s+that\s+|c'est\s+)?(?:" + alternation(vocabulary["claim_suffix"])
                    + r")\s*\?+", body)
    # ... unless a real question follows it ("le vert c'est bien la repetition je crois ? combien ca fait ?").
    rest = body[tag.end():] if tag else ""
    asks_after = re.search(B + alternation(vocabulary["interrogatives"]) + E, rest) is not None and (
        "?" in rest or any(bounded(frozenset(vocabulary.get(key, ()))).search(rest)
                           for key in ("points_question", "count_question") if vocabulary.get(key)))
    if tag and tag.end() < len(body) and not asks_after:
        if _reported(body, tag.end(), vocabulary) is not None:
            # "Hierarchy 2 ribbons = 9 points, correct? my friend swears it's 8": the asker's own claim is checked;
            # the other value said after it is what the asker doubts, not a second claim.
            return body[: tag.start()], tag.group(0).strip(" ,;:-?!."), False
        # The tag's "?" ended a sentence: keep a boundary there (negation is read per sentence).
        return body[: tag.start()] + ". " + body[tag.end():], tag.group(0).strip(" ,;:-?!."), False
    prefix = re.compile(r"\s*(?:" + _prefixes(vocabulary) + r")" + E + r"\s*[:,]?\s*")
    for boundary in _CLAUSE_START.finditer(body):
        start = boundary.end()
        found = prefix.match(body, start)
        reported = False
        if found is None:
            found = _reported(body, start, vocabulary)
            reported = found is not None and len(body) - found.end() > 4
            if not reported:
                found = None
        if found is not None and found.end() < len(body):
            return body[:start] + body[found.end():], found.group(0).strip(" :,"), reported
    return _inner_cue(body, vocabulary)


def _inner_cue(body: str, vocabulary) -> tuple[str, str | None, bool]:
    """A claim marked inside a sentence: a hedge closing the stated clause ("master is 38+ i think so i won??", "...
    je crois donc ...": `claim_hedges`, taken out of the body), or a confirming copula before a value with no question
    word after it ("le niveau Normal c'est bien 30 ou plus ?": `claim_inner`). A value asked after either ("... i think?
    so how much ...") leaves the message a question."""
    hedges = vocabulary.get("claim_hedges")
    if hedges:
        hedge = re.search(r"(?<=\S)\s+" + alternation(hedges) + r"(?=\s*[,.;!?]|\s+(?:so|donc|alors|and|et)" + E + r")", body)
        if hedge is not None and numbers_for(vocabulary).find(body[: hedge.start()]) \
                and not re.search(B + alternation(vocabulary["open_questions"]) + E, body[hedge.end():]):
            return body[: hedge.start()] + body[hedge.end():], hedge.group(0).strip(), False
    inner = vocabulary.get("claim_inner")
    if inner:
        marker = re.search(B + alternation(inner) + E, body)
        if marker is not None and marker.start() > 0:
            rest = body[marker.end():]
            if numbers_for(vocabulary).find(rest) and not re.search(B + alternation(vocabulary["open_questions"]) + E, rest):
                return body, marker.group(0), False
    return body, None, False


def is_statement(body: str, vocabulary) -> bool:
    """A sentence that states something instead of asking ("there are 15 background cards", "38 ca fait Maitre ?"):
    no interrogative word anywhere and at least one number or name-like content (the intent decides what is stated)."""
    # "does 38 count as Master?", "is 3 green worth 11?": a yes/no question about a thing (not about what I may do)
    # asserts what follows it.
    opener = re.match(r"^\s*" + alternation(vocabulary["yes_no_openers"]) + r"\s+", body)
    if opener and not re.match(alternation(vocabulary["first_person"]) + E, body[opener.end():]) \
            and numbers_for(vocabulary).find(body[opener.end():]):
        body = body[opener.end():]  # it states a value ("does 38 count as ...")
    elif opener:
        return False
    if re.search(B + alternation(vocabulary["interrogatives"]) + E, body):
        return False
    return len(body.split()) >= 3


def question_form(body: str, vocabulary) -> str:
    """The form of a (non-claim) question: the first form (in vocabulary order) with a phrase in it."""
    for form, phrases in vocabulary["forms"].items():
        if bounded(frozenset(phrases)).search(body):
            return form
    return "other"


def is_elliptical(body: str, vocabulary) -> bool:
    """A follow-up leaning on the previous question: it opens with a follow-up cue ("and if", "et avec", ...)."""
    # An interjection may open it ("ok et des cartes fond ?", "ah ok and with 3?").
    opener = r"^\s*(?:" + alternation(vocabulary.get("interjections", ["\0"])) + r"[\s,.!]+)*"
    return re.match(opener + r"(?:" + alternation(vocabulary["ellipsis"] + vocabulary["ellipsis_openers"]) + r")" + E,
                    body) is not None
