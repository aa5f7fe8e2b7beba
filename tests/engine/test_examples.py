"""Every rulebook example in engine/canvas/examples/ passes, and a broken expectation is reported as a failure."""

import pytest
from rulesbot.engine.canvas.verify import load_examples, run_example

EXAMPLES = load_examples()


@pytest.mark.parametrize(
    "example", EXAMPLES, ids=[f"p{example['page']}-{example['id']}" for example in EXAMPLES]
)
def test_rulebook_example(example):
    result = run_example(example)
    assert result["passed"], result["detail"]


def test_examples_cover_the_pages():
    assert {example["page"] for example in EXAMPLES} >= {2, 3, 4, 5, 6}
    assert all(example["claim"]["en"] and example["claim"]["fr"] for example in EXAMPLES)


def test_broken_example_fails():
    example = next(example for example in EXAMPLES if example["id"] == "example-final-score")
    broken = {**example, "expect": {**example["expect"], "total": 30}}
    result = run_example(broken)
    assert result["passed"] is False
    assert "expected 30, got 29" in result["detail"]
