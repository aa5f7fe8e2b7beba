"""The eighth round's rules family: an answer must answer the question asked, else the rulebook text (or an honest
"I don't know") answers.

- A computed answer that never names the agent the question is about (Vincent as the one who acts: "Vincent
  starts with...", "may Vincent take...") answers someone else's case: the question goes to retrieval. Vincent as the
  game's setting ("with Vincent", "Vincent mode") does not count.
- A question asking what a thing is for is answered by a close FAQ record whose own question asks that, not by a
  neighbouring rule about the same thing (rulesbot.answer.purpose_record).
- Vincent's turn names the card he selects at the row's ends; a solo level met says that meeting it wins.

Oracles come from the engine's data (rulesets, solo levels) and from what each made-up record asks, never from the
answer's code path; every question is worded here (none from an eval set).
"""

import pytest
from compute_helpers import ask, canvas_pack
from rulesbot.engine import canvas as engine

from rulesbot.answer import FORM_MARGIN, rule_answer
from rulesbot.compute.parse import parse
from rulesbot.compute.registry import Computation, restates_given
from rulesbot.fit import agents_asked_about, named, unanswered_agents
from rulesbot.knowledge import Entry, Pack
from rulesbot.retrieval import Calibration, Ranked
from rulesbot.retrieval.ranking import asks_purpose

CALIBRATION = Calibration(
    threshold=0.1, scale=0.1, faq_margin=0.0, cite_margin=0.0, close_margin=0.1, lead_threshold=0.99,
    alternative_margin=0.02,
)


# ------------------------------------------------------------------------------------- the agent a question is about


@pytest.mark.parametrize("question", [
    "how many tokens has Vincent got when the game begins?",
    "does Vincent ever keep a card for himself?",
    "Vincent's face-down tokens, what becomes of them?",
    "au début Vincent reçoit combien de jetons ?",
    "est-ce que Vincent peut prendre la carte la plus proche de la pioche ?",
])
def test_vincent_acting_is_what_the_question_is_about(question):
    assert agents_asked_about(question, canvas_pack()) == {"vincent"}


@pytest.mark.parametrize("question", [
    "playing with Vincent I ended on 31, is that Normal?",
    "in Vincent mode how many paintings do I make?",
    "en partie avec Vincent, je dois annoncer mon niveau ?",
    "how many tokens do I start with?",
])
def test_vincent_as_the_setting_or_not_named_is_no_agent(question):
    assert agents_asked_about(question, canvas_pack()) == frozenset()


def test_an_answer_naming_the_agent_answers_it_and_one_that_does_not_leaves_it():
    pack = canvas_pack()
    question = "how many tokens has Vincent got when the game begins?"
    assert unanswered_agents(question, "Each player starts with 4 tokens.", pack) == {"vincent"}
    assert unanswered_agents(question, "Vincent starts with 4 tokens.", pack) == frozenset()
    assert "vincent" in named("Vincent starts with 4 tokens.", pack)


@pytest.mark.parametrize(("question", "lang"), [
    ("how many inspiration tokens has Vincent got when the game begins?", "en"),
    ("au début de la partie Vincent reçoit combien de jetons Inspiration ?", "fr"),
    ("is Vincent allowed to take the free card too?", "en"),
])
def test_a_computation_about_someone_else_leaves_an_agent_question_to_the_rulebook(question, lang):
    # Whatever computes it must name Vincent, the one asked about; the per-player count or the asker's take does not.
    answer = ask(question, lang)
    assert answer is None or "vincent" in answer.answer.lower()


def test_vincent_as_the_setting_still_computes_the_solo_level():
    level = next(level for level in engine.SOLO_LEVELS if level.slug == "normal")
    answer = ask(f"playing solo with Vincent I ended on {level.target}, is that enough for Normal?", "en")
    assert answer is not None and answer.kind in ("computed", "claim")
    assert str(level.target) in answer.answer


# ------------------------------------------------------------------------------------------ what the answer must say


@pytest.mark.parametrize(("question", "lang", "words"), [
    ("Vincent tosses his tokens and none of them is face up. which card does he take?", "en", ("free", "farthest")),
    ("Vincent lance ses jetons, aucun face visible : et alors ?", "fr", ("gratuite",)),
])
def test_vincent_with_no_token_face_up_is_said_to_take_the_free_card(question, lang, words):
    # The rule: each face-up token skips one card, so none face up selects the row's first card, the free one.
    answer = ask(question, lang)
    if answer is None:
        pytest.skip("not computed: the rulebook text answers it")
    assert any(word in answer.answer for word in words)


@pytest.mark.parametrize("slug", [level.slug for level in engine.SOLO_LEVELS])
def test_a_solo_score_exactly_on_a_level_says_meeting_it_wins(slug):
    level = next(level for level in engine.SOLO_LEVELS if level.slug == slug)
    answer = ask(f"solo on {level.name_en}, final score {level.target} exactly. did I make it?", "en")
    assert answer is not None and answer.kind in ("computed", "claim")
    assert answer.verdict in (None, True)
    assert "meet" in answer.answer and str(level.target) in answer.answer


# ------------------------------------------------------------------------------------- what a thing is for (the form)


@pytest.mark.parametrize(("text", "expected"), [
    ("What are those little coloured bars for?", True),
    ("and the clear film, what is it for? asking for a friend", True),
    ("à quoi servent les petits ronds en bois ?", True),
    ("le tapis, ça sert à quoi ?", True),
    ("is the mat for two players only?", False),
    ("what happens for the last painting?", False),
    ("combien de jetons pour sauter deux cartes ?", False),
])
def test_a_question_asking_what_a_thing_is_for(text, expected):
    assert asks_purpose(text) is expected


def _faq(identifier: str, question: str, text: str) -> Entry:
    return Entry(
        id=identifier, concept_id=identifier, lang="en", source="faq", pages=[1], section="Components", text=text,
        question=question, game="canvas",
    )


NEIGHBOUR = _faq("faq.t8-covering", "Does a bar on the top card cover the one below?", "The top card's bar covers it.")
PURPOSE = _faq("faq.t8-purpose", "What are the coloured bars for?", "They mark each icon's place on a painting.")


def _answer(hash_bot, question, gap):
    shipped = hash_bot.packs["canvas"]
    pack = Pack(manifest=shipped.manifest, entries=[NEIGHBOUR, PURPOSE], path=shipped.path)
    records = [Ranked(NEIGHBOUR, 0.90, 0.90, asked=0.90), Ranked(PURPOSE, 0.90 - gap, 0.90 - gap, asked=0.90 - gap)]
    return rule_answer(question, "en", records, pack, CALIBRATION, 0.9)


def test_a_purpose_question_is_answered_by_the_close_record_asking_it(hash_bot):
    answer = _answer(hash_bot, "what are the stripes on the cards for?", FORM_MARGIN / 2)
    assert answer.answer.startswith(PURPOSE.text)
    assert NEIGHBOUR.text in answer.answer  # the neighbouring rule stays, as the "If you meant" line


def test_a_purpose_record_too_far_below_does_not_answer(hash_bot):
    answer = _answer(hash_bot, "what are the stripes on the cards for?", FORM_MARGIN * 2)
    assert answer.answer.startswith(NEIGHBOUR.text)


def test_a_question_of_another_form_keeps_the_first_record(hash_bot):
    answer = _answer(hash_bot, "does the stripe on top hide the one below?", FORM_MARGIN / 2)
    assert answer.answer.startswith(NEIGHBOUR.text)


# ------------------------------------------------------------------------- a count the question states, not asks


_BACKGROUNDS = engine.component_counts("base")["background_cards"].count
_TOKENS = engine.component_counts("base")["inspiration_tokens"].count


def _count_of(thing: str, value: int | None = None) -> Computation:
    count = engine.component_counts("base")[thing].count
    return Computation(intent="t8", sentences=[], value=count if value is None else value,
                       engine={"component": thing, "count": count})


@pytest.mark.parametrize(("question", "lang"), [
    ("with just 3 backgrounds I can make how many paintings at most?", "en"),
    ("j ai seulement 3 arriere plans, je peux faire combien de peintures maximum ?", "fr"),
])
def test_the_count_of_a_thing_the_question_counts_itself_is_given_back(question, lang):
    parsed = parse(question, lang, "canvas")
    if parsed.first("component") is None or parsed.first("component").value != "background_cards":
        pytest.skip("the parser reads another thing as counted: nothing to give back")
    assert restates_given(parsed, _count_of("background_cards"))
    # A value derived from that count (what is left once dealt) is an answer, not the asker's own number.
    assert not restates_given(parsed, _count_of("background_cards", value=_BACKGROUNDS - 3))


def test_a_number_that_does_not_count_the_thing_is_not_restated():
    parsed = parse("we are 5 players, how many inspiration tokens are there in total?", "en", "canvas")
    assert not restates_given(parsed, _count_of("inspiration_tokens"))


@pytest.mark.parametrize(("question", "lang"), [
    ("I've only got 3 background cards left, so how many more paintings can I do?", "en"),
    ("avec mes 3 arrière-plans, je peux faire combien de tableaux au plus ?", "fr"),
])
def test_a_count_the_question_states_is_not_given_back_as_the_answer(question, lang):
    # The asker states how many backgrounds they hold: the box's total of backgrounds answers nothing asked.
    answer = ask(question, lang)
    assert answer is None or f" {_BACKGROUNDS} " not in f" {answer.answer} "


def test_a_count_asked_beside_another_stated_number_is_still_computed():
    answer = ask("we are 5 players: how many inspiration tokens come in the box?", "en")
    assert answer is not None and str(_TOKENS) in answer.answer
