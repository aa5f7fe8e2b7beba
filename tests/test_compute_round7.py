"""Seventh-round families: claims about a rules number the engine knows (a per-player count dealt, a range of
players, one ribbon said with "each"/"chaque", a speaker named after the claim), a value verb closing a message with
the value left unsaid ("... ça fait ?"), a number that only counts the players at the table, a pronoun "one", and a
question whether two things are the same (a rule, never a computation).

Oracles come from the engine's data (component counts, rulesets' player ranges, Scoring Card points tables, silver
points, Vincent's toss probability), never from the answer's code path; every question is worded here.
"""

from fractions import Fraction
from math import comb

import pytest
from compute_helpers import ask
from rulesbot.engine import canvas as engine

from rulesbot.compute.parse import parse
from rulesbot.compute.text import language, numbers_for

_PER_PLAYER = engine.component_counts("base")["inspiration_tokens_per_player"].count


# ------------------------------------------------------------------------------ a count dealt to each player, claimed


@pytest.mark.parametrize("stated", [_PER_PLAYER - 1, _PER_PLAYER, _PER_PLAYER + 1])
@pytest.mark.parametrize(("template", "lang"), [
    ("everyone starts with {n} inspiration tokens, don't they?", "en"),
    ("each player receives {n} tokens at setup, right?", "en"),
    ("chaque joueur reçoit {n} jetons au début, c'est ça ?", "fr"),
])
def test_a_per_player_count_claimed_is_checked_against_the_engine(template, lang, stated):
    answer = ask(template.format(n=stated), lang)
    assert answer is not None and answer.kind == "claim"
    assert answer.verdict is (stated == _PER_PLAYER)
    assert str(_PER_PLAYER) in answer.answer
    assert 2 in {citation.page for citation in answer.citations}


# ----------------------------------------------------------------------------------------- a range of players, claimed


def _ranges():
    for name, ruleset in sorted(engine.RULESETS.items()):
        if ruleset.min_players != ruleset.max_players:
            yield name, ruleset


@pytest.mark.parametrize(("slug", "ruleset"), list(_ranges()))
@pytest.mark.parametrize("shift", [0, 1])
def test_a_range_of_players_claimed_is_checked_against_the_ruleset(slug, ruleset, shift):
    low, high = ruleset.min_players, ruleset.max_players + shift
    name = "the base game" if slug == "base" else ruleset.name_en
    answer = ask(f"{name} is meant for {low} or {high} players, not more, right?", "en")
    assert answer is not None and answer.kind == "claim"
    assert answer.verdict is (shift == 0)
    assert f"{ruleset.min_players} to {ruleset.max_players}" in answer.answer


def test_players_named_as_a_range_for_another_count_are_not_the_range_claim():
    answer = ask("we're 3 or 4 players, how many tokens go back in the box?", "en")
    assert answer is None or answer.engine.get("component") != "player_range"


# ------------------------------------------------------------------------------------------- one ribbon, "each" / "chaque"


@pytest.mark.parametrize("stated", [engine.SILVER_POINTS, engine.SILVER_POINTS + 1])
@pytest.mark.parametrize(("template", "lang"), [
    ("chaque ruban gris vaut {n} points, c'est ce que m'a dit ma copine", "fr"),
    ("each silver ribbon is worth {n} points, that's what my brother said", "en"),
])
def test_one_ribbon_said_with_each_and_a_speaker_after_the_claim(template, lang, stated):
    answer = ask(template.format(n=stated), lang)
    assert answer is not None and answer.kind == "claim"
    assert answer.verdict is (stated == engine.SILVER_POINTS)


def test_a_speaker_after_the_claim_is_reported_speech():
    parsed = parse("3 green ribbons make 12, that's what my uncle told me", "en", "canvas")
    assert parsed.claim and parsed.reported


# --------------------------------------------------------------------------------- a value verb with the value unsaid


@pytest.mark.parametrize("slug", sorted(engine.SCORING_SLUGS))
def test_a_value_verb_closing_the_message_asks_the_value(slug):
    card = engine.scoring_card(slug)
    for ribbons in range(1, card.max_ribbons + 1):
        answer = ask(f"{card.name_fr} avec {ribbons} rubans ça fait ?", "fr")
        assert answer is not None and answer.kind == "computed", (slug, ribbons)
        assert f"{card.points[ribbons - 1]} point" in answer.answer


def test_a_value_verb_followed_by_a_value_still_states_it():
    card = engine.scoring_card(sorted(engine.SCORING_SLUGS)[0])
    wrong = card.points[0] + 1
    answer = ask(f"{card.name_fr} avec 1 ruban ça fait {wrong} ?", "fr")
    assert answer is not None and answer.kind == "claim" and answer.verdict is False


# ------------------------------------------------------------------------------- a number counting the players at the table


@pytest.mark.parametrize("tokens", [1, 2, 3])
def test_the_number_of_players_only_sets_the_scene(tokens):
    vincent = engine.ruleset("vincent")
    p = Fraction(vincent.vincent_face_up_probability)
    # Card 2 is selected when exactly one token lands face up.
    expected = comb(tokens, 1) * p * (1 - p) ** (tokens - 1)
    answer = ask(f"in our two-player game Vincent has {tokens} tokens left. how likely is it that he takes the second card?",
                 "en")
    assert answer is not None and answer.kind == "computed"
    assert f"{expected.numerator}/{expected.denominator}" in answer.answer


# --------------------------------------------------------------------------------------------- "one" as a pronoun


@pytest.mark.parametrize(("text", "values"), [
    ("is it a different one", []),
    ("or another one", []),
    ("only a single one", [1]),
    ("give me one", [1]),
])
def test_one_after_an_article_and_an_adjective_is_a_pronoun(text, values):
    reader = numbers_for(language())
    assert [slot.value for slot in reader.find(text)] == values


# ------------------------------------------------------------------------------ whether two things are the same: a rule


@pytest.mark.parametrize("scenario", engine.SCENARIOS[:4], ids=lambda scenario: scenario.slug)
def test_asking_whether_two_things_are_the_same_is_a_rule(scenario):
    assert ask(f"is the first-game set of four cards the same as the {scenario.name} scenario, or a different one?",
               "en") is None
    assert ask(f"la mise en place de la première partie, c'est la même que le scénario {scenario.name} ?", "fr") is None


# ------------------------------------------------------------------------------------- follow-ups: "next one: ..."


@pytest.mark.parametrize("slug", sorted(engine.SCORING_SLUGS))
def test_next_one_follow_up_reads_a_bare_count_as_ribbons(slug):
    card = engine.scoring_card(slug)
    previous = "quick quiz: what are two emphasis ribbons worth?"
    ribbons = card.max_ribbons
    answer = ask(f"next one: {ribbons} {card.name_en.lower()}?", "en", context=[previous])
    assert answer is not None and answer.kind == "computed"
    assert f"{card.points[ribbons - 1]} point" in answer.answer


@pytest.mark.parametrize(("words", "pick"), [("highest", max), ("lowest", min)])
def test_a_superlative_follow_up_after_one_scenario_asks_over_all_scenarios(words, pick):
    first = engine.SCENARIOS[0]
    goal = pick(scenario.goal for scenario in engine.SCENARIOS)
    names = [scenario.name for scenario in engine.SCENARIOS if scenario.goal == goal]
    answer = ask(f"which one's got the {words} goal then?", "en", context=[f"what's the goal for the {first.name} scenario?"])
    assert answer is not None and answer.kind == "computed"
    assert all(name in answer.answer.split("(")[0] for name in names) and str(goal) in answer.answer


# ---------------------------------------------------------------------------------------------- titles claimed


def _titled():
    # Paintings the engine gives a two-word title (oracle: Painting.from_cards(...).title), a few of them.
    from itertools import permutations

    found = []
    for bottom, middle, top in permutations(engine.ART_CARDS[:12], 3):
        title = engine.Painting.from_cards([bottom.title, middle.title, top.title]).title
        if title and " " in title and len(found) < 3 and all(title != item[3] for item in found):
            found.append((bottom, middle, top, title))
    return found


@pytest.mark.parametrize(("bottom", "middle", "top", "title"), list(_titled()))
def test_the_title_said_after_the_copula_is_the_one_claimed(bottom, middle, top, title):
    question = (f"le titre de {bottom.title}, {middle.title}, {top.title} (dans cet ordre, {top.title} en haut) "
                f"c'est {title}, non ?")
    answer = ask(question, "fr")
    assert answer is not None and answer.kind == "claim" and answer.verdict is True
    answer = ask(f"{title} c'est le titre de {bottom.title}, {middle.title}, {top.title}, ou je me trompe ?", "fr")
    assert answer is not None and answer.kind == "claim" and answer.verdict is True


# --------------------------------------------------------------------------- a scenario named by its first word


def _headed():
    heads = {}
    for scenario in engine.SCENARIOS:
        head = scenario.name.split()[0].lower()
        if len(scenario.name.split()) >= 2 and len(head) > 3 and head not in ("first",):
            heads.setdefault(head, []).append(scenario)
    return [(head, items[0]) for head, items in heads.items() if len(items) == 1]


@pytest.mark.parametrize(("head", "scenario"), _headed())
def test_a_scenario_named_by_its_first_word_and_set_up(head, scenario):
    count = len(scenario.cards) + (scenario.random_cards or 0)
    answer = ask(f"we'd like the {head} set up. how many of the scoring cards does that use?", "en")
    assert answer is not None and answer.kind == "computed"
    assert str(count) in answer.answer and str(scenario.goal) in answer.answer


# ---------------------------------------------------------------------------------- the rulebook's worked example


def _final_score_example():
    from rulesbot.engine.canvas import verify

    (example,) = [item for item in verify.load_examples() if item["kind"] == "final_score"]
    return example


@pytest.mark.parametrize("shift", [0, -2])
@pytest.mark.parametrize(("template", "lang"), [
    ("quiz: the rulebook's example final score is {n}, yes?", "en"),
    ("dans l'exemple du livret le total c'est {n} points ?", "fr"),
])
def test_the_worked_example_total_claimed(template, lang, shift):
    example = _final_score_example()
    total = example["expect"]["total"]  # the rulebook's figure, recorded with the example (not the code's sum)
    answer = ask(template.format(n=total + shift), lang)
    assert answer is not None and answer.kind == "claim" and answer.verdict is (shift == 0)
    assert str(total) in answer.answer and example["page"] in {citation.page for citation in answer.citations}


def test_for_example_is_no_worked_example():
    answer = ask("for example, 3 green ribbons are worth 11 points, right?", "en")
    assert answer is None or (answer.engine or {}).get("intent") != "example_score"


# ----------------------------------------------------------------------------- Vincent's toss: none face up, claimed


@pytest.mark.parametrize("tokens", [2, 3, 4])
@pytest.mark.parametrize("right", [True, False])
def test_none_face_up_claimed_in_french_is_a_count_of_zero_not_a_negation(tokens, right):
    p = Fraction(engine.ruleset("vincent").vincent_face_up_probability)
    none = (1 - p) ** tokens
    stated = none if right else none * 2
    question = (f"vincent qui lance {tokens} jetons, il a une chance sur {stated.denominator // stated.numerator} "
                f"de n'en avoir aucun face visible, c'est ça ?")
    answer = ask(question, "fr")
    assert answer is not None and answer.kind == "claim" and answer.verdict is right
    assert f"{none.numerator}/{none.denominator}" in answer.answer


# ------------------------------------------------------------------------ counts: a pronoun, each kind and the total


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_count_asked_with_the_pronoun_en_counts_the_component_named_before(players):
    counts = engine.component_counts("base")
    left = counts["inspiration_tokens"].count - players * counts["inspiration_tokens_per_player"].count
    answer = ask(f"à {players} joueurs on rend des jetons inspiration à la boîte ? il en reste combien ?", "fr")
    assert answer is not None and answer.kind == "computed" and answer.engine["left"] == left
    assert str(left) in answer.answer


def test_each_colour_and_the_total_are_both_counted():
    counts = engine.component_counts("base")
    each, colours = counts["ribbons_per_colour"].count, counts["ribbon_colours"].count
    answer = ask("how many ribbons of each colour are in the box? and how many in total?", "en")
    assert answer is not None and answer.kind == "computed"
    assert str(each) in answer.answer and str(each * colours) in answer.answer
    alone = ask("how many ribbons of each colour are in the box?", "en")
    assert alone is not None and str(each * colours) not in alone.answer


# ------------------------------------------------------------------- a follow-up changing Vincent's token count


@pytest.mark.parametrize(("before", "after"), [(4, 2), (4, 3), (3, 1)])
@pytest.mark.parametrize(("previous", "follow_up", "lang"), [
    ("mode vincent : il a {before} jetons. quelle proba qu'il prenne la carte gratuite ?",
     "et s'il lui en reste que {after}, il a plus de chances de prendre celle du bout ? combien ?", "fr"),
    ("Vincent has {before} tokens: odds he takes the free card?", "and if he's only got {after}?", "en"),
])
def test_a_follow_up_stating_vincents_new_token_count_replaces_the_previous_one(previous, follow_up, lang, before, after):
    p = Fraction(engine.ruleset("vincent").vincent_face_up_probability)
    free = (1 - p) ** after  # the free card is taken when no token lands face up
    answer = ask(follow_up.format(after=after), lang, context=[previous.format(before=before)])
    assert answer is not None and answer.kind == "computed"
    assert answer.engine["tokens"] == after
    assert f"{free.numerator}/{free.denominator}" in answer.answer.split(":")[0]  # the headline, not the table


@pytest.mark.parametrize(("question", "lang"), [
    ("in the example, charlotte takes the second card. what does she get with it?", "en"),
    ("dans l'exemple d'abby elle a 4 formes, elle prend combien de rubans verts ?", "fr"),
])
def test_another_worked_example_is_not_the_final_score_example(question, lang):
    answer = ask(question, lang)
    assert answer is None or (answer.engine or {}).get("intent") != "example_score"


@pytest.mark.parametrize("slug", sorted(engine.SCORING_SLUGS))
def test_a_count_of_those_ribbons_from_a_card(slug):
    card = engine.scoring_card(slug)
    count = min(2, card.max_ribbons)
    answer = ask(f"tonight I managed two of those ribbons from the {card.name_en} card. what are they worth?", "en")
    assert answer is not None and answer.kind == "computed"
    assert f"{card.points[count - 1]} point" in answer.answer


@pytest.mark.parametrize(("follow_up", "lang"), [
    ("does that name give me any points tho?", "en"),
    ("et le titre, il rapporte des points ?", "fr"),
])
def test_what_a_title_is_worth_is_a_rule_not_the_paintings_score(follow_up, lang):
    bottom, middle, top, _title = _titled()[0]
    previous = f"what's the title if I stack {bottom.title}, {middle.title}, {top.title} bottom to top?"
    assert ask(follow_up, lang, context=[previous]) is None
    # The painting's own score is still computed when asked.
    answer = ask(f"how many points does the painting {bottom.title}, {middle.title}, {top.title} give?", "en")
    assert answer is not None and answer.kind == "computed"


def test_an_empty_token_pile_in_solo_puzzle_is_an_empty_supply():
    solo = engine.ruleset("solo-puzzle")
    answer = ask("in the Solo Puzzle, if the token pile is empty, what do I gain for taking the first card?", "en")
    assert answer is not None and answer.engine["ruleset"] == solo.name and answer.engine["supply_after"] == 0
    assert answer.engine["gain"] == 0 != solo.supply_gain_free_card  # the rules' gain, not paid from an empty supply
