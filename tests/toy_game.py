"""A tiny second game, "Coins", defined entirely in tests: it registers through rulesbot.games like Canvas does.

Rules (data): a gold coin is worth 5 points, a silver coin 2. Its engine scores {"coins": {"gold": n, ...}}; its
vocabulary, slot finder, one intent and templates are below. Nothing in rulesbot knows this game.
"""

import re
import sys

from rulesbot.compute.registry import Computation, load_intents
from rulesbot.compute.text import B, E, alternation, merged_vocabulary, numbers_for
from rulesbot.games import GameSpec
from rulesbot.parsed import Parsed, Slot

VALUES = {"gold": 5, "silver": 2}  # the game's rules data
VOCABULARY = merged_vocabulary({
    "coin": ["coins", "coin", "pieces", "piece"],
    "metals": {"gold": ["gold", "or"], "silver": ["silver", "argent"]},
    "points_question": ["how many points", "combien", "worth", "vaut", "valent"],
})
TEMPLATES = {
    "claim_true": {"en": "True.", "fr": "Vrai."},
    "claim_false": {"en": "False.", "fr": "Faux."},
    "claim_false_value": {"en": "False: it is {value}, not {claimed}.", "fr": "Faux : c'est {value}, pas {claimed}."},
    "trace": {"en": "Computation: {trace}.", "fr": "Calcul : {trace}."},
    "pages": {"en": "(rulebook p. {pages})", "fr": "(livret p. {pages})"},
    "coin_total": {"en": "{count} {metal} coins are worth {points} points.", "fr": "{count} pièces ({metal}) valent {points} points."},
}


class CoinInputError(ValueError):
    """A bad score payload."""


class UnknownCoin(ValueError):
    """No coin of that metal."""


def score(payload) -> dict:
    """The game's score entry point: {"coins": {metal: count}} -> {"points": n}."""
    coins = payload.get("coins") if isinstance(payload, dict) else None
    if not isinstance(coins, dict):
        raise CoinInputError('expected {"coins": {metal: count}}')
    unknown = [metal for metal in coins if metal not in VALUES]
    if unknown:
        raise UnknownCoin(f"unknown coin {unknown[0]!r}")
    return {"points": sum(VALUES[metal] * count for metal, count in coins.items())}


def find_coins(text: str, _found: list[Slot]) -> list[Slot]:
    """"3 gold coins" -> a coins slot (metal, count)."""
    reader = numbers_for(VOCABULARY)
    slots = []
    for metal, names in VOCABULARY["metals"].items():
        regex = B + f"({reader.fragment})\\s+(?:{alternation(names)})\\s+{alternation(VOCABULARY['coin'])}" + E
        regex += "|" + B + f"({reader.fragment})\\s+{alternation(VOCABULARY['coin'])}\\s+(?:d')?{alternation(names)}" + E
        for match in re.finditer(regex, text):
            count = reader.count_value(match.group(1) or match.group(2))
            slots.append(Slot("coins", (metal, count), *match.span()))
    return slots


def coin_points(parsed: Parsed) -> Computation | None:
    """Points for N coins of one metal, from the game's score entry point."""
    slot = parsed.first("coins")
    metal, count = slot.value
    points = score({"coins": {metal: count}})["points"]
    claimed = next((number.value for number in reversed(parsed.free_numbers())), None) if parsed.claim else None
    sentence = TEMPLATES["coin_total"][parsed.lang].format(count=count, metal=metal, points=points)
    return Computation(intent="coin_points", sentences=[sentence], value=points, claimed=claimed,
                       engine={"intent": "coin_points", "points": points}, concepts=[("coins", {})])


SPEC = GameSpec(
    engine_id="coins",
    engine=sys.modules[__name__],
    rules_version="coins-1",
    score=score,
    input_error=CoinInputError,
    unknown_card=UnknownCoin,
    vocabulary=VOCABULARY,
    slot_finders=(find_coins,),
    intents=load_intents({"coin_points": {"requires": ["coins"], "cues": ["points_question"]}}, {"coin_points": coin_points}),
    templates=TEMPLATES,
    concepts={"coins": {"concepts": ["coin-values"]}},
)
