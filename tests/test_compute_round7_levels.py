"""A solo level's target stated as a claim, with the level's word and the solo mode between the name and the number
("the Normal level in solo is 35 points, isn't it?"), is checked against the level's target, not read as a score
reaching it. Oracle: the engine's rules data read here as a file."""

import json
from pathlib import Path

import pytest

from tests.compute_helpers import ask

RULES = json.loads((Path(__file__).parents[1] / "engine" / "canvas" / "data" / "rules.json").read_text(encoding="utf-8"))
TARGETS = {level["name_en"]: level["target"] for level in RULES["solo_levels"]}


@pytest.mark.parametrize("level", sorted(TARGETS))
@pytest.mark.parametrize("template", ["the {level} level in solo is {n} points isnt it",
                                      "{level} level in solo mode is {n}, right?"])
def test_a_level_target_stated_is_checked_against_the_target(level, template):
    target = TARGETS[level]
    for stated in (target, target + 5):
        answer = ask(template.format(level=level, n=stated))
        assert answer is not None and answer.kind == "claim"
        assert answer.verdict is (stated == target), answer.answer
        assert str(target) in answer.answer
