"""The ninth round's FAQ family: a rule question answered with a neighbouring rule or a record that does not state
the fact asked.

- A set phrase holding an entity's word names no such thing ("ils ont pas le livret sous la main": at hand, no hand
  of cards), so the concept fit (rulesbot.fit) does not swap a record about the player's hand in for it
  (ranking.json "entity_idioms").
- A question asking when something happens ("when do I get a token back in Solo Puzzle?") asks a rule, not a
  value: no computation answers it (the vocabulary's `mechanism_question`).
- The records that answer: Vincent never completes a painting; a Bonus icon is no Element for the achievement of
  5 of the same Element; only the card you take gives its tokens, not a skipped one; the cards of a painting go in
  any order; the Solo Puzzle's two moments of gaining a token.

Every question is worded here (none from an eval set); oracles are the records' own statements and the rulebook
facts they restate, never the code path that picks them.
"""

import pytest
from compute_helpers import ask, canvas_pack

from rulesbot.compute.parse import parse
from rulesbot.compute.registry import asks_rule
from rulesbot.evaluation import key_facts_present
from rulesbot.fit import named
from rulesbot.retrieval.ranking import _pattern

# ------------------------------------------------------------------------------------------------ entity idioms


def test_an_idiom_holding_the_word_is_not_the_entity():
    pattern = _pattern(["main", "en main"], ["sous la main", "coup de main"])
    assert pattern.search("il a pas les regles sous la main") is None
    assert pattern.search("un coup de main pour la regle") is None
    assert pattern.search("j'ai 5 cartes en main") is not None
    assert pattern.search("ma main est pleine") is not None
    # The same word elsewhere in the sentence still counts.
    assert pattern.search("sous la main, ma main est pleine") is not None


@pytest.mark.parametrize("question, entities", [
    ("on joue dans quel sens ? on n'a pas la règle sous la main", frozenset()),
    ("combien de cartes en main au maximum ?", frozenset({"hand"})),
    ("on the other hand, does play go clockwise?", frozenset()),
    ("how many cards can I hold in hand?", frozenset({"hand"})),
])
def test_the_canvas_hand_is_named_only_as_a_hand(question, entities):
    assert named(question, canvas_pack()) & {"hand"} == entities


# ------------------------------------------------------------------------------------- when-questions ask a rule


@pytest.mark.parametrize("question, lang", [
    ("solo puzzle: when do I gain a token from the supply?", "en"),
    ("when exactly does the solo puzzle give me a token back? just for painting?", "en"),
    ("en casse-tête solo, à quel moment je récupère un jeton de la réserve ?", "fr"),
    ("quand est-ce qu'on regagne un jeton en puzzle solo ?", "fr"),
])
def test_a_when_question_asks_a_rule_and_is_not_computed(question, lang):
    assert asks_rule(parse(question, lang, "canvas"))
    assert ask(question, lang) is None


def test_a_value_question_about_the_solo_puzzle_supply_is_still_computed():
    computed = ask("solo puzzle, the supply has 2 tokens and I complete a painting: how many tokens do I gain?")
    assert computed is not None and computed.kind == "computed"


# ----------------------------------------------------------------------------------------- the records that answer


def _record(concept: str, lang: str):
    return next(entry for entry in canvas_pack().entries if entry.concept_id == concept and entry.lang == lang)


@pytest.mark.parametrize("concept, lang, facts", [
    ("faq.vincent-never-paints", "en", ["never", "painting"]),
    ("faq.vincent-never-paints", "fr", ["jamais", "peinture"]),
    ("faq.achievement-same-element-bonus", "en", ["not an element", "4 shapes"]),
    ("faq.achievement-same-element-bonus", "fr", ["n'est pas un element", "4 formes"]),
    ("faq.take-further-card", "en", ["only the card you take", "skipped card stay"]),
    ("faq.take-further-card", "fr", ["seule la carte que tu prends", "carte sautee y restent"]),
    ("faq.solo-puzzle-gain", "en", ["leftmost", "paint"]),
    ("faq.leftover-cards", "fr", ["conserv*"]),
    ("layer-order", "fr", ["n'importe quel ordre"]),
])
def test_each_record_states_its_fact_by_itself(concept, lang, facts):
    assert key_facts_present(facts, _record(concept, lang).text)


@pytest.mark.parametrize("question, facts", [
    ("does Vincent make any paintings of his own during a solo game?", ["never"]),
    ("Vincent, il se fait des tableaux lui aussi pendant la partie ?", ["jamais"]),
    ("does a PER Hue bonus icon add one Hue for the 5 same Element achievement?", ["not an element|not elements"]),
    ("pour le succès des 5 Éléments pareils, l'icône PER Ton compte comme un Ton ?", ["n'est pas un element"]),
    ("when do I get a token from the supply in the solo puzzle variant?", ["leftmost", "painting"]),
])
def test_the_question_is_answered_by_a_record_stating_the_fact(real_bot, question, facts):
    answer = real_bot.ask(question, game="canvas")
    assert answer.kind == "rule"
    assert key_facts_present(facts, answer.answer.split("\n", 1)[0])
