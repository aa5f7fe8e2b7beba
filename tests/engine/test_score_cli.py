"""The `rulesbot score` JSON-lines contract (issue 2) and `rulesbot verify`, through the real CLI app."""

import json

import pytest
from rulesbot.engine import canvas
from typer.testing import CliRunner

from rulesbot.cli import app

runner = CliRunner()


def run(args, stdin=None):
    return runner.invoke(app, args, input=stdin)


def test_score_request_shape():
    result = canvas.score_request({"cards": ["chosen", "View", 31], "scoring": ["Variété", "repetition"]})
    assert result == {
        "visible": [["shape", "texture"], ["shape"], ["shape"], ["per-texture"], ["shape", "tone"]],
        "title": "Chosen Game",
        "ribbons": {"variety": 0, "repetition": 2},
        "bonus": 1,
    }


def test_swatch_request_has_no_title_and_all_twelve_by_default():
    result = canvas.score_request({"swatches": [["hue"], ["shape"], [], ["tone"], ["per-hue"]]})
    assert result["title"] is None
    assert list(result["ribbons"]) == list(canvas.SCORING_SLUGS)
    assert result["bonus"] == 1


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({"cards": ["Chosen", "Nope", "Truth"]}, "unknown Art Card 'Nope'"),
        ({"cards": ["Chosen", "chosen", "Truth"]}, "repeated Art Card"),
        ({"cards": ["Improbable", "Impropable", "Truth"]}, "repeated Art Card"),
        ({"cards": ["Chosen", "Truth"]}, "expected 3 Art Cards"),
        ({"cards": [1, 2, 61]}, "unknown Art Card id 61"),
        ({"swatches": [["hue"], [], [], []]}, "expected 5 swatches"),
        ({"swatches": [["hue"], [], [], [], ["colour"]]}, "unknown icon 'colour'"),
        ({"cards": [1, 2, 3], "scoring": ["unity"]}, "unknown Scoring Card 'unity'"),
        ({"cards": [1, 2, 3], "scoring": ["variety", "Variété"]}, "repeated Scoring Card"),
        ({"cards": [1, 2, 3], "swatches": []}, "exactly one of"),
        ([1, 2, 3], "expected a JSON object"),
    ],
)
def test_score_request_errors(payload, message):
    with pytest.raises(canvas.ScoreInputError, match=message):
        canvas.score_request(payload)


def test_jsonl_good_and_bad_lines_in_order():
    lines = [
        '{"cards": ["Chosen", "View", "Game"], "scoring": ["repetition"]}',
        '{"cards": ["Chosen", "Nope", "Game"]}',
        "",
        "{not json",
        '{"cards": [1, 1, 2]}',
        '{"cards": [1, 2]}',
        '{"swatches": [["hue"], [], [], [], ["glitter"]]}',
        '{"cards": [1, 2, 3], "scoring": ["unity"]}',
        '{"swatches": [["hue"], ["hue"], [], [], []], "scoring": ["emphasis"]}',
    ]
    result = run(["score", "--jsonl"], "\n".join(lines) + "\n")
    assert result.exit_code == 2
    outputs = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(outputs) == 8  # the blank line is skipped
    assert outputs[0]["ribbons"] == {"repetition": 2} and outputs[0]["title"] == "Chosen Game"
    assert [("error" in output) for output in outputs] == [False, True, True, True, True, True, True, False]
    assert "bad JSON" in outputs[2]["error"]
    assert outputs[7] == {
        "visible": [["hue"], ["hue"], [], [], []],
        "title": None,
        "ribbons": {"emphasis": 0},
        "bonus": 0,
    }


def test_jsonl_all_good_exits_zero():
    result = run(["score", "--jsonl"], '{"cards": [5, 31, 55]}\n')
    assert result.exit_code == 0
    assert json.loads(result.stdout)["title"] == "Chosen Truth"


def test_human_form():
    result = run(["score", "Chosen", "View", "Game", "--scoring", "first-time-playing"])
    assert result.exit_code == 0, result.output
    assert "Chosen Game" in result.stdout and "Repetition" in result.stdout and "View" in result.stdout


def test_human_form_bad_card_is_a_clear_error():
    result = run(["score", "Chosen", "Gme", "Truth"])
    assert result.exit_code == 2
    assert "unknown Art Card 'Gme'" in result.stderr and "Traceback" not in result.output


def test_human_form_bad_scoring():
    result = run(["score", "Chosen", "Game", "Truth", "--scoring", "unity"])
    assert result.exit_code == 2
    assert "unknown Scoring Card" in result.stderr


@pytest.mark.parametrize("option", ["", " , "])
def test_human_form_empty_scoring_is_an_error(option):
    result = run(["score", "Chosen", "Game", "Truth", "--scoring", option])
    assert result.exit_code == 2
    assert "names no Scoring Card" in result.stderr and "Traceback" not in result.output


def test_verify_json():
    result = run(["verify", "--json"])
    assert result.exit_code == 0
    examples = json.loads(result.stdout)["examples"]
    assert len(examples) >= 15
    assert all({"id", "page", "claim", "passed", "detail"} <= set(example) for example in examples)
    assert all(example["passed"] for example in examples)


def test_verify_human():
    result = run(["verify"])
    assert result.exit_code == 0
    assert "PASS  p.5  example-final-score" in result.stdout
