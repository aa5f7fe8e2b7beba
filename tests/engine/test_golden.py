"""Golden playthroughs: each registered ruleset has a transcript in tests/golden/, and the engine reproduces it.

Regenerate after an intended behaviour change: `python -m rulesbot.engine.canvas.golden --update`.
"""

from pathlib import Path

import pytest
from rulesbot.engine import canvas
from rulesbot.engine.canvas.golden import GOLDEN_GAMES, golden_path, transcript

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def test_every_ruleset_has_a_golden_game():
    assert set(GOLDEN_GAMES) == set(canvas.RULESETS)
    for name in canvas.RULESETS:
        assert golden_path(GOLDEN, name).exists(), f"no golden transcript for ruleset {name!r}"


@pytest.mark.parametrize("name", sorted(canvas.RULESETS))
def test_golden_transcript_matches(name):
    expected = golden_path(GOLDEN, name).read_text(encoding="utf-8")
    actual = transcript(name)
    assert actual.splitlines() == expected.splitlines()
    assert canvas.RULES_VERSION in expected.splitlines()[0]
