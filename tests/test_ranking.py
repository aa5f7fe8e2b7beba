"""The second-stage ranker: entity agreement, stray variant records pushed down, how-many against a number."""

from rulesbot.knowledge import Entry
from rulesbot.retrieval import Ranked
from rulesbot.retrieval.ranking import Reranker


def _entry(identifier: str, section: str, text: str, question: str | None = None) -> Entry:
    return Entry(
        id=identifier, concept_id=identifier, lang="en", source="faq" if question else "rulebook", pages=[1],
        section=section, text=text, question=question, game="canvas",
    )


def _order(question: str, records: list[Ranked]) -> list[str]:
    return [item.entry.id for item in Reranker({}).rerank(question, "canvas", records)]


def test_a_record_about_the_entity_the_question_names_ranks_first():
    row = _entry("row", "The row", "5 Art Cards are laid face up in the row.")
    box = _entry("box", "Components", "The box contains 60 Art Cards and 20 tokens.")
    records = [Ranked(row, 0.92, 0.92), Ranked(box, 0.91, 0.91)]
    assert _order("how many art cards are in the box?", records) == ["box", "row"]


def test_a_variant_record_ranks_below_a_base_record_when_the_question_names_no_variant():
    vincent = _entry("vincent", "Painting with Vincent", "Vincent discards the card he selects.")
    base = _entry("base", "Take an Art Card", "Slide the remaining cards and refill the row.")
    records = [Ranked(vincent, 0.90, 0.90), Ranked(base, 0.89, 0.89)]
    assert _order("what happens to the row after I take a card?", records) == ["base", "vincent"]
    # Named, the variant keeps its place.
    assert _order("what does vincent do with the card he takes?", records)[0] == "vincent"


def test_scores_used_for_abstention_are_untouched():
    row = _entry("row", "The row", "5 Art Cards are laid face up in the row.")
    box = _entry("box", "Components", "The box contains 60 Art Cards.")
    ranked = Reranker({}).rerank("how many art cards in the box", "canvas", [Ranked(row, 0.92, 0.92), Ranked(box, 0.91, 0.91)])
    assert sorted(item.score for item in ranked) == [0.91, 0.92]


def test_scoring_card_names_come_from_the_engine(hash_bot):
    reranker = Reranker(hash_bot.packs)
    assert "card:emphasis" in reranker.question_features("Emphase avec 2 teintes ?", "canvas").entities


def test_question_form_and_polarity_cues():
    from rulesbot.retrieval.ranking import asks_yes_no, negated

    assert asks_yes_no("Can Vincent be used with 3 or more players?")
    assert asks_yes_no("dès que j'ai 3 cartes je suis obligé de peindre ?")  # intonation: no inversion
    assert asks_yes_no("j'ai 5 cartes, je peux quand même prendre la gratuite ?")  # "quand même" is not "quand"
    assert not asks_yes_no("why would we add vincent in a 2 player game")
    assert not asks_yes_no("how many cards do I get?")
    assert negated("so I can't take it?") and negated("on ne peut pas ?") and negated("je n'ai plus de jetons")
    assert not negated("Do I get the tokens?") and not negated("is that notable?")
