"""A second game is additive: a toy game defined in tests/ registers a GameSpec and gets computed answers, claims and
`score` through the same generic code as Canvas (no change to rulesbot)."""

from pathlib import Path

import pytest

from rulesbot.compute import answer_computed
from rulesbot.core import Rulesbot
from rulesbot.errors import BadInput, UnknownCard
from rulesbot.games import game_spec, register_game, registered, unregister_game
from rulesbot.knowledge import load_pack
from rulesbot.settings import Settings
from tests import toy_game

TOY_PACK = Path(__file__).parent / "fixtures" / "knowledge-toy" / "coins"


@pytest.fixture
def coins():
    register_game(toy_game.SPEC)
    yield load_pack(TOY_PACK)
    unregister_game("coins")


def test_the_toy_game_registers_beside_canvas(coins):
    assert coins.manifest.engine == "coins"
    assert {"canvas", "coins"} <= set(registered())
    assert game_spec("coins") is toy_game.SPEC


def test_a_computed_intent_of_the_second_game(coins):
    answer = answer_computed(None, "How many points are 3 gold coins worth?", "en", coins)
    assert answer.kind == "computed" and answer.verdict is None
    assert answer.engine["points"] == 3 * toy_game.VALUES["gold"]
    assert [citation.page for citation in answer.citations] == [1]
    assert answer.engine["rules_version"] == "coins-1"


@pytest.mark.parametrize(("question", "lang", "verdict"), [
    ("4 silver coins are worth 8 points, right?", "en", True),
    ("Est-ce vrai que 2 pièces d'or valent 12 points ?", "fr", False),
])
def test_a_claim_of_the_second_game(coins, question, lang, verdict):
    answer = answer_computed(None, question, lang, coins)
    assert answer.kind == "claim" and answer.verdict is verdict and answer.lang == lang


def test_canvas_intents_do_not_answer_the_second_game(coins):
    assert answer_computed(None, "3 green ribbons: how many points?", "en", coins) is None


def test_core_score_uses_the_second_games_spec(coins, tmp_path):
    bot = Rulesbot(Settings(data_dir=tmp_path, backend="bm25"), {"coins": coins}, retriever=None)
    assert bot.score({"coins": {"gold": 2}}, game="coins") == {"points": 2 * toy_game.VALUES["gold"]}
    with pytest.raises(UnknownCard):
        bot.score({"coins": {"copper": 1}}, game="coins")
    with pytest.raises(BadInput):
        bot.score({"gold": 1}, game="coins")


def test_a_pack_without_a_registered_engine_is_not_computed(coins):
    unregister_game("coins")
    assert answer_computed(None, "How many points are 3 gold coins worth?", "en", coins) is None
