"""Slot precision and claim verification (issue 10, eighth round).

- A shortened Scoring Card name (the vocabulary's misspellings that only cut a name short: "hier", "comp") is a slot
  only where the words around it corroborate it (a tally, a ribbon word, a card word before it, a point word after
  it); an everyday use of the same word ("hier soir") is none.
- A level name qualifying a noun ("un joueur normal", "a hard game") is an adjective, no solo level.
- A claimed number said in one unit is checked against the value in that unit ("Style au max ca rapporte 18 pts"
  against the card's top points, not its ribbon count), or not decided by an intent that has no value in it.
- A variant named in a count question is explained only when it changes the count.
- "un seul ruban" with a Scoring Card of the scenario named is one ribbon of that card.

Oracles: the engine's data files read here as JSON (names, points tables, levels, scenarios, rulesets).
"""

import json
import unicodedata
from pathlib import Path

import pytest

from rulesbot.compute.parse import parse
from rulesbot.compute.registry import Computation, in_claimed_unit
from tests.compute_helpers import ask

DATA = Path(__file__).parents[1] / "engine" / "canvas" / "data"
RULES = json.loads((DATA / "rules.json").read_text(encoding="utf-8"))
CARDS = json.loads((DATA / "scoring_cards.json").read_text(encoding="utf-8"))["cards"]
VOCABULARY = json.loads((Path(__file__).parents[1] / "rulesbot" / "compute" / "canvas" / "vocabulary.json")
                        .read_text(encoding="utf-8"))


def _fold(text: str) -> str:
    return "".join(char for char in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(char))


FULL_NAMES = {_fold(name): card for card in CARDS for name in (card["slug"], card["name_en"], card["name_fr"])}
# The listed misspellings that only shorten a name (computed here from the data, not from the code under test).
SHORTENED = sorted(key for key, slug in VOCABULARY["scoring_misspellings"].items()
                   if any(name != key and name.startswith(key) for name in FULL_NAMES))


def _cards(question: str, lang: str = "fr") -> list[str]:
    return [slot.value.slug for slot in parse(_fold(question), lang, "canvas").slots if slot.name == "scoring_card"]


def test_there_are_shortened_names_to_check():
    assert len(SHORTENED) >= 5


@pytest.mark.parametrize("short", SHORTENED)
def test_a_shortened_name_in_an_everyday_sentence_is_no_card(short):
    assert _cards(f"on a joue {short} soir chez des amis, c'etait bien") == []
    assert _cards(f"we played {short} last night at a friend's place") == []


@pytest.mark.parametrize("short", SHORTENED)
def test_a_shortened_name_in_a_tally_or_next_to_a_ribbon_word_is_the_card(short):
    slug = VOCABULARY["scoring_misspellings"][short]
    other = next(card for card in CARDS if card["slug"] != slug)
    assert slug in _cards(f"3 {short} + 2 {_fold(other['name_fr'])}, total ?")
    assert slug in _cards(f"j'ai 2 rubans {short}, ca fait combien ?")
    assert slug in _cards(f"how many {short} points for 2 ribbons?", "en")
    assert slug in _cards(f"le bonus compte pour remplir la case de la {short} ?")


LEVELS = RULES["solo_levels"]


@pytest.mark.parametrize("level", LEVELS, ids=lambda level: level["slug"])
def test_a_level_word_qualifying_a_noun_is_no_level(level):
    fr = _fold(level["name_fr"])
    en = _fold(level["name_en"])
    for question, lang in ((f"en solo avec Vincent, il demarre comme un joueur {fr} ?", "fr"),
                           (f"in solo, does he start like a {en} player?", "en")):
        assert "level" not in parse(question, lang, "canvas").slot_names(), question
    # The same word naming the level is one (positive control).
    assert "level" in parse(f"en solo niveau {fr}, 32 points ca passe ?", "fr", "canvas").slot_names()


@pytest.mark.parametrize("card", CARDS, ids=lambda card: card["slug"])
def test_a_top_score_claimed_in_points_is_checked_in_points(card):
    top = card["points"][-1]
    for stated, truth in ((top, True), (top + 1, False)):
        answer = ask(f"{_fold(card['name_fr'])} au max ca rapporte {stated} pts c'est ca ?", "fr")
        assert answer is not None and answer.kind == "claim", stated
        assert answer.verdict is truth, answer.answer
    # The same claim about ribbons is checked against the card's ribbon count.
    ribbons = card["max_ribbons"]
    answer = ask(f"{card['name_en']} maxed out gives {ribbons} ribbons, right?")
    assert answer is not None and answer.kind == "claim" and answer.verdict is True, answer.answer


def test_a_claim_in_a_unit_the_intent_cannot_give_is_not_decided():
    parsed = parse(_fold("style au max ca rapporte 18 jetons c'est ca ?"), "fr", "canvas")
    computation = Computation(intent="limit", sentences=["..."], value=3, claimed=18, unit="ribbons",
                              in_units={"points": (18, "18 points")})
    assert in_claimed_unit(parsed, computation) is None
    same = Computation(intent="limit", sentences=["..."], value=3, claimed=18, unit="tokens")
    assert in_claimed_unit(parsed, same) is same


def _ruleset(name: str) -> dict:
    rules = dict(RULES["rulesets"]["base"])
    rules.update(RULES["rulesets"][name].get("overrides", {}))
    return rules


def test_a_variant_that_does_not_change_a_count_is_not_answered_with_the_box_count():
    box = next(item["count"] for item in RULES["components"] if item["slug"] == "inspiration_tokens")
    for question, lang in (("vincent il commence avec combien de jetons", "fr"),
                           ("vincent mode how many tokens does he start with", "en")):
        answer = ask(question, lang)
        assert answer is None or str(box) not in answer.answer, answer.answer


def test_a_variant_that_changes_a_count_still_computes_it():
    supply = _ruleset("solo-puzzle")["token_supply"]
    answer = ask("solo puzzle: how many tokens go in the separate supply at the start?")
    assert answer is not None and answer.kind == "computed" and str(supply) in answer.answer


SCENARIO_CARDS = [(scenario["name"], slug) for scenario in RULES["scenarios"] for slug in scenario["cards"]]


@pytest.mark.parametrize("scenario,slug", SCENARIO_CARDS[::3])
def test_one_ribbon_of_a_scenario_card_is_checked_as_that_cards_ribbon(scenario, slug):
    card = next(item for item in CARDS if item["slug"] == slug)
    one = card["points"][0]
    for stated, truth in ((one, True), (one + 1, False)):
        answer = ask(f"Scenario {scenario}, {card['name_fr']} en jeu : ma peinture remplit la condition, donc un seul "
                     f"ruban. Ca rapporte {stated} points, correct ?", "fr")
        assert answer is not None and answer.kind == "claim", answer
        assert answer.verdict is truth, answer.answer


BOX_TOKENS = next(item["count"] for item in RULES["components"] if item["slug"] == "inspiration_tokens")
EACH = _ruleset("base")["starting_tokens"]
NUMBER_WORDS = {"en": {2: "two", 3: "three", 4: "four", 5: "five"}, "fr": {2: "deux", 3: "trois", 4: "quatre", 5: "cinq"}}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_tokens_left_in_the_box_for_a_player_count_said_in_words(players):
    left = BOX_TOKENS - players * EACH
    answer = ask(f"{NUMBER_WORDS['en'][players].capitalize()}-player setup: how many Inspiration Tokens go back into "
                 "the box once everyone has their starting supply?")
    assert answer is not None and answer.kind == "computed" and f"{left} Inspiration Tokens" in answer.answer, answer
    # A follow-up stating only the players keeps the previous question's component (not "how many players").
    context = ["Combien de jetons Inspiration chaque joueur reçoit au départ ?"]
    for follow_up in (f"et à {NUMBER_WORDS['fr'][players]} joueurs, il en reste dans la boîte ?",
                      f"et à {NUMBER_WORDS['fr'][players]} joueurs, il en reste combien dans la boîte ?"):
        answer = ask(follow_up, "fr", context)
        assert answer is not None and answer.answer.startswith(f"{left} jetons"), answer and answer.answer


@pytest.mark.parametrize("card", CARDS, ids=lambda card: card["slug"])
def test_a_cap_asked_for_one_painting_is_not_the_cards_game_cap(card):
    ribbons = card["max_ribbons"]
    answer = ask(f"how many ribbons can {card['name_en']} give at most?")
    assert answer is not None and answer.engine["intent"] == "card_limit" and str(ribbons) in answer.answer
    for question, lang in ((f"La carte {card['name_fr']}, elle peut donner combien de rubans pour une seule peinture ?",
                            "fr"),
                           (f"how many ribbons can the {card['name_en']} card give for one single painting, at most?",
                            "en")):
        answer = ask(question, lang)
        assert answer is None or (answer.engine or {}).get("intent") != "card_limit", answer.answer
