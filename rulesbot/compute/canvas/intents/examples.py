"""The rulebook's worked final-score example, recomputed by the engine: "the rulebook's example final score is 29,
yes?", "dans l'exemple du livret le total c'est 27 points ?".

The example's Scoring Cards, ribbons and silver ribbons are the engine's own example data (engine/canvas/examples,
kind `final_score`); the total is the engine's `final_score` of them, never the file's expected value.
"""

from __future__ import annotations

from rulesbot.compute.canvas.intents.common import claimed_number
from rulesbot.compute.canvas.phrasing import card_name, join, qty, say
from rulesbot.compute.registry import Computation
from rulesbot.engine import canvas as engine
from rulesbot.engine.canvas import verify
from rulesbot.parsed import Parsed


def compute(parsed: Parsed) -> Computation | None:
    """The worked example's final score, when the question asks (or claims) it."""
    if not parsed.cue("final_total"):
        return None  # "in the example, what does Charlotte get?": another worked example (a take, a painting), not the total
    examples = [example for example in verify.load_examples() if example.get("kind") == "final_score"]
    if len(examples) != 1:
        return None  # several worked scores: which one is meant is not said
    example = examples[0]
    lang = parsed.lang
    scoring, ribbons, silver = list(example["scoring"]), list(example["ribbons"]), int(example["silver"])
    total = engine.final_score(scoring, ribbons, silver)
    terms = [say("example_term", lang, card=card_name(slug, lang), ribbons=qty(count, "ribbon", lang),
                 points=engine.points_for(slug, count)) for slug, count in zip(scoring, ribbons, strict=True)]
    terms.append(say("example_term_silver", lang, silver=qty(silver, "silver_ribbon", lang),
                     points=engine.SILVER_POINTS * silver))
    number = claimed_number(parsed)
    return Computation(intent="example_score",
                       sentences=[say("example_score", lang, total=total, terms=join(terms, lang))],
                       trace=[" + ".join(str(engine.points_for(slug, count)) for slug, count in zip(scoring, ribbons, strict=True))
                              + f" + {engine.SILVER_POINTS} × {silver} = {total}"],
                       value=total, value_text=qty(total, "point", lang),
                       claimed=None if number is None else number.value,
                       explained=[] if number is None else [(number.start, number.end)],
                       engine={"intent": "example_score", "example": example["id"], "scoring": scoring,
                               "ribbons": ribbons, "silver": silver, "total": total},
                       concepts=[("example_score", {"page": example["page"]})])
