"""Issue 11: every answer carries a stable `id` and a one-line `headline`, filled in once by the core's last step,
so the CLI, the HTTP API and MCP all get them (here: the real core on the shipped pack with the bm25 backend)."""

import re

import pytest

from rulesbot.finishing import answer_id, finish_answer, headline, split_sentences
from rulesbot.models import Answer


@pytest.fixture(scope="module")
def bot(tmp_path_factory):
    """The real core (computed answers and claims need the shipped Canvas pack); bm25 needs no model."""
    from rulesbot.core import Rulesbot
    from rulesbot.settings import Settings

    settings = Settings(backend="bm25", data_dir=tmp_path_factory.mktemp("finishing"), knowledge_dir=None)
    return Rulesbot.load(settings, notify=lambda _message: None)


def test_a_false_claim_headlines_its_verdict_with_the_right_value(bot):
    # The oracle: 3 ribbons on Repetition are worth 11 points (rulebook p. 4), so "9" is false.
    answer = bot.ask("3 green ribbons are worth 9 points, right?", "en")
    assert answer.kind == "claim" and answer.verdict is False
    assert answer.headline == "False: it is 11 points, not 9."


def test_a_true_claim_headline_says_the_result_too(bot):
    answer = bot.ask("3 green ribbons are worth 11 points, right?", "en")
    assert answer.verdict is True
    assert answer.headline.startswith("True. ") and "11 points" in answer.headline


def test_a_computed_headline_is_the_sentence_holding_the_result(bot):
    answer = bot.ask("3 green ribbons: how many points?", "en")
    assert answer.kind == "computed"
    assert answer.headline == "Total: 11 points for 3 ribbons (green = Repetition)."
    french = bot.ask("Que rapporte la peinture Mess, Truth, Chosen ?", "fr")
    # Not the first sentence (the swatch list, which holds bare digits): the one with the painting's points.
    assert french.headline == f"À elle seule, la peinture vaut {french.engine['points']} points."


def test_a_rule_headline_is_its_first_sentence(bot):
    answer = bot.ask("How many cards can I hold in my hand?", "en")
    assert answer.kind in ("rule", "unknown")
    assert answer.answer.startswith(answer.headline)
    assert answer.headline.endswith((".", "!", "?", "…")) and len(answer.headline) < len(answer.answer)


def test_the_id_is_stable_for_one_answer_to_one_question(bot):
    first = bot.ask("How many cards can I hold in my hand?", "en")
    again = bot.ask("  how many cards can I hold in my HAND ", "en")
    assert re.fullmatch(r"[0-9a-f]{16}", first.id)
    assert again.id == first.id
    assert bot.ask("How many cards can I hold in my hand?", "fr").id != first.id
    assert bot.ask("3 green ribbons: how many points?", "en").id != first.id


def test_both_fields_are_in_the_contract_and_kept_when_set():
    answer = Answer(question="q", answer="One. Two.", lang="en", kind="rule", confidence=0.5)
    assert set(answer.contract()) == {"question", "answer", "lang", "kind", "verdict", "citations", "confidence"}
    finished = finish_answer(answer, game="canvas")
    assert finished.contract()["headline"] == "One."
    assert finished.contract()["id"] == answer_id(answer, game="canvas") != answer_id(answer, game="other")
    preset = finish_answer(answer.model_copy(update={"id": "x", "headline": "h"}), game="canvas")
    assert (preset.id, preset.headline) == ("x", "h")


def test_sentences_do_not_split_at_page_numbers_and_long_headlines_are_cut():
    assert split_sentences("See p. 4 for it. Then (rulebook p. 3)") == ["See p. 4 for it.", "Then (rulebook p. 3)"]
    long = Answer(question="q", answer="word " * 100 + ".", lang="en", kind="rule", confidence=0.5)
    cut = headline(long)
    assert len(cut) <= 200 and cut.endswith("…")


def test_the_cli_json_carries_id_and_headline(hash_env):
    import json

    from typer.testing import CliRunner

    from rulesbot.cli import app

    result = CliRunner().invoke(app, ["ask", "--json", "How many cards in hand?"])
    assert result.exit_code == 0, result.output
    contract = json.loads(result.stdout)
    assert re.fullmatch(r"[0-9a-f]{16}", contract["id"]) and contract["answer"].startswith(contract["headline"])


def test_an_abstention_has_an_id_but_no_headline(bot):
    answer = bot.ask("How do I castle in chess?", "en")
    assert answer.kind == "unknown"
    assert answer.id and answer.headline is None and "headline" not in answer.contract()
