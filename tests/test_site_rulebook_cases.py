"""A site rulebook's bold case titles ("**The well runs dry.** ...") are sections of their own, read with their
section's heading: "Odd situations: The well runs dry"; an answer takes a passage's runner-up sentence when it is
nearly as close as the best; two sections tied for first lower the decision (a coin toss). Made-up rulebook
text (a game of wells and goats)."""

import math

import numpy as np
import pytest

from rulesbot.extractive import best_sentences, passage_decision
from rulesbot.ingest import chunk_pages, run_in_title, text_pages
from rulesbot.knowledge import Entry, Pack, PackManifest
from rulesbot.retrieval import Ranked, SearchResult

CASES = """\
<!-- page 1 -->
# Goatherd

## Odd situations

**The well runs dry.** Every herder loses one water token. Nobody may drink until the next rain card.

**A goat escapes.** Put it back on the hill. Its owner skips the next milking.

Whatever happens, the shepherd's dog never leaves the farm, and nobody may move it during the game.

**Note:** the dog figure is only a reminder of who milks first and has no other use in the game.

## Milking

You **never** milk more than two goats a turn, and a goat that was milked this turn rests until the next one.
"""


def test_a_bold_case_title_is_a_section_of_its_own_under_its_heading():
    passages = chunk_pages(text_pages(CASES), "Goatherd", max_chars=2000)
    sections = [(passage.section, passage.text.split()[0]) for passage in passages]
    assert sections == [
        ("Odd situations: The well runs dry", "**The"),
        ("Odd situations: A goat escapes", "**A"),
        # The paragraph after the cases belongs to the section again, and a label ("Note:") is no case title.
        ("Odd situations", "Whatever"),
        ("Odd situations", "**Note:**"),
        ("Milking", "You"),
    ]


def test_only_a_bold_lead_that_ends_a_sentence_is_a_case_title():
    assert run_in_title("**The well runs dry.** Every herder loses one water token.") == "The well runs dry"
    assert run_in_title("**Drought**: no herder may drink.") == "Drought"
    assert run_in_title("**Never** milk more than two goats.") is None  # bold word inside a sentence
    assert run_in_title("**Example:** two goats escape at once.") is None  # a label, not a subject
    assert run_in_title("- **Milk:** take one milk token.") is None  # a list item's bold lead stays in its list


class _FixedEmbedder:
    """Vectors chosen by hand: the question is (1, 0, 0); each sentence's first coordinate is its similarity."""

    model_id, dim = "fixed-test-vectors", 3

    def __init__(self, similarity: dict[str, float]):
        self.similarity = similarity

    def embed_queries(self, texts):
        return np.array([[1.0, 0.0, 0.0] for _ in texts], dtype=np.float32)

    def embed_passages(self, texts):
        rows = []
        for text in texts:
            value = next(score for start, score in self.similarity.items() if text.split(": ", 1)[1].startswith(start))
            rows.append([value, math.sqrt(1 - value * value), 0.0])
        return np.array(rows, dtype=np.float32)


def test_a_runner_up_sentence_nearly_as_close_joins_the_answer():
    text = (
        "The herder holding the crook also counts one of their dice as a crook. "
        "A die showing the crook face counts as any goat you like. "
        "Goats never leave the hill at night."
    )
    entry = Entry(id="goatherd.p1.1", concept_id="goatherd.p1.1", lang="en", source="user", pages=[1],
                  section="Milking", text=text, game="goatherd")
    # The runner-up is 0.025 below the best: two close sentences, either of which may be the rule asked about.
    embedder = _FixedEmbedder({"The herder": 0.90, "A die": 0.875, "Goats": 0.40})
    answer = best_sentences("what does the crook do", "en", entry, embedder)
    assert "counts as any goat" in answer and "as a crook" in answer
    assert "night" not in answer


class _WordsOnlyRetriever:
    """A retriever without an embedder (the bm25 path of passage_decision): words decide, no BM25 re-ranking."""

    backend, model_id, embedder = "bm25", "", None

    def vocabulary(self, game):
        return {}

    def lexical_scores(self, text, game, lang):
        return {}


def _goatherd_pack(entries):
    manifest = PackManifest(game="goatherd", title="Goatherd", languages=["en"], pages=2, rules_version="1")
    return Pack(manifest=manifest, entries=entries, path="")


def _passage(number, page, section, text):
    return Entry(id=f"goatherd.p{page}.{number}", concept_id=f"goatherd.p{page}.{number}", lang="en", source="user",
                 pages=[page], section=section, text=text, game="goatherd")


def test_two_sections_tied_for_first_are_a_coin_toss_and_lower_the_decision():
    # The question's words are in both passages alike: which rule it asks about is a coin toss.
    milking = _passage(1, 1, "Milking", "A goat gives one milk token each morning.")
    market = _passage(2, 2, "Market", "A goat sells for one milk token at the market.")
    pack = _goatherd_pack([milking, market])
    tied = SearchResult([Ranked(milking, 0.9, 0.9), Ranked(market, 0.9, 0.9)], 0.9)
    result, _calibration = passage_decision(_WordsOnlyRetriever(), pack, "goat milk token?", "en", tied)
    assert result.top_score < 0.9 - 0.5
    # One passage clearly first (its own words): the decision is its score.
    apart = SearchResult([Ranked(milking, 0.9, 0.9), Ranked(market, 0.5, 0.5)], 0.9)
    result, _calibration = passage_decision(_WordsOnlyRetriever(), pack, "goat milk token?", "en", apart)
    assert result.top_score == pytest.approx(0.9, abs=0.3)
