"""A question that names computable things but asks a rule stays with retrieval, or gets the right computation.

Mechanisms (issue 10): a procedure asked ("what do we do?", "do the tokens stay?") is no value; a count answers the
thing counted (the face-up row, not the box); a number's role (a player count "a 3", "3 of us" is no score); several
players' scores (any one reaching the goal passes); a question about who among the players passes; both achievement
scopes asked; a variant named earlier in the conversation still holds in a follow-up.

Oracles come from the engine's data (scenario goals, achievement thresholds, component counts, the take in the
engine) or from the rule as the rulebook states it (a procedure is no number); every question is worded here.
"""


import pytest
from compute_helpers import ask
from rulesbot.engine import canvas as engine


def _goal(slug: str) -> int:
    return next(scenario.goal for scenario in engine.SCENARIOS if scenario.slug == slug)


# ------------------------------------------------------------------ a procedure or what stays where is asked


@pytest.mark.parametrize(("question", "lang"), [
    ("We ran out of blue ribbons, what do we do?", "en"),
    ("do the tokens remain on the card after I take it? it had 2 on it", "en"),
    ("the 3rd card has 2 tokens on it, if I take it what should I do with those tokens?", "en"),
    ("la pile de rubans violets est vide, qu'est-ce qu'on fait ?", "fr"),
    ("je prends la 2e carte qui a 1 jeton : le jeton reste sur la rangée ?", "fr"),
    ("on a 20 rubans rouges et ils sont tous pris, comment faire ?", "fr"),
])
def test_a_procedure_question_is_left_to_the_rulebook(question, lang):
    assert ask(question, lang) is None


def test_a_value_asked_with_a_procedure_word_is_still_computed():
    answer = ask("the 3rd card has 2 tokens on it and I have 3: if I take it, how many tokens do I have after?")
    assert answer is not None and answer.engine["intent"] == "take_cost"


# ------------------------------------------------------------------ a count answers the thing counted


@pytest.mark.parametrize(("question", "lang"), [
    ("how many art cards are face up in the row at the start?", "en"),
    ("at setup, how many cards go face up next to the deck?", "en"),
    ("combien de cartes Art sont visibles dans la rangée au départ ?", "fr"),
    ("au début on retourne combien de cartes Art face visible ?", "fr"),
])
def test_the_face_up_row_is_not_the_box_count(question, lang):
    # The row holds the few cards dealt face up, never the box's whole count: not the components' answer.
    answer = ask(question, lang)
    assert answer is None or answer.engine.get("intent") != "component_count"


def test_the_box_count_is_still_computed():
    answer = ask("how many art cards are there in the box?")
    expected = engine.data.component_counts("base")["art_cards"].count
    assert answer is not None and answer.engine["count"] == expected


# ------------------------------------------------------------------ a number's role: players, not a score


@pytest.mark.parametrize(("question", "lang", "slug", "score"), [
    ("Playing the Spatial scenario with 3 of us, best score 38, did we pass?", "en", "spatial", 38),
    ("we're 4 on No Elements and I ended on 36: passed?", "en", "no-elements", 36),
    ("On joue Spatial à 3. Léa a 38. C'est gagné pour le scénario ?", "fr", "spatial", 38),
    ("on joue le scénario Bonus à 4, j'ai fait 41, c'est réussi ?", "fr", "bonus", 41),
])
def test_a_player_count_is_not_the_score(question, lang, slug, score):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["scenario"] == slug
    assert answer.engine["score"] == score and answer.engine["passed"] == (score >= _goal(slug))


@pytest.mark.parametrize(("question", "lang", "slug", "stated"), [
    ("pour réussir le scénario Bonus on doit monter à 40, vrai ?", "fr", "bonus", 40),
    ("le scénario Spatial se gagne à 37, c'est ça ?", "fr", "spatial", 37),
])
def test_a_number_above_any_player_count_stays_a_value(question, lang, slug, stated):
    # "a 40" after a scenario: no game seats 40 players, so it is the value claimed.
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim" and answer.verdict is (stated >= _goal(slug))


# ------------------------------------------------------------------ several scores: any one player passes


@pytest.mark.parametrize(("question", "lang", "slug", "scores"), [
    ("Bonus scenario, 3 players: 38, 41 and 35. did we pass?", "en", "bonus", [38, 41, 35]),
    ("No Elements: we scored 34 and 36, passed?", "en", "no-elements", [34, 36]),
    ("scénario Spatial : Léo 30, moi 36. on l'a réussi ?", "fr", "spatial", [30, 36]),
    # The rulebook's own words for passing: colour in the scenario's paint blob.
    ("Spatial: Tom 35, me 38. can we colour in the blob?", "en", "spatial", [35, 38]),
    ("scénario Bonus, on a fini à 39 et 36 : on colorie la tache ?", "fr", "bonus", [39, 36]),
])
def test_several_scores_pass_when_any_reaches_the_goal(question, lang, slug, scores):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed"
    assert answer.engine["passed"] == (max(scores) >= _goal(slug))
    assert str(max(scores)) in answer.answer


# ------------------------------------------------------------------ who among the players passes: a rule


@pytest.mark.parametrize(("question", "lang"), [
    ("We played Spatial at 4 and only Zoe reached 37. Did all of us pass or only her?", "en"),
    ("does every player need 35 on No Elements for the scenario to count?", "en"),
    ("scénario Bonus : tout le monde doit atteindre 40 pour le réussir ?", "fr"),
    ("partie Spatial, Tom a 38 et moi 30 : on a tous réussi ou seulement lui ?", "fr"),
])
def test_who_passes_is_a_rule_question(question, lang):
    assert ask(question, lang) is None


# ------------------------------------------------------------------ both achievement scopes asked


def _silver_thresholds() -> set[int]:
    return {a.params["min"] for a in engine.ACHIEVEMENTS
            if a.kind in ("painting_silver", "game_silver") and "min" in a.params}


@pytest.mark.parametrize(("question", "lang"), [
    ("silver ribbon achievements: the threshold in one painting, and the one over the whole game?", "en"),
    ("what's the silver ribbon achievement? how many silvers do i need?", "en"),
    ("pour le succès des rubans argent, il en faut combien sur une peinture et combien sur la partie ?", "fr"),
    ("rubans argent et succès : seuil en une peinture = ? et en toute la partie = ?", "fr"),
])
def test_both_scopes_get_both_thresholds(question, lang):
    answer = ask(question, lang)
    thresholds = _silver_thresholds()
    assert len(thresholds) == 2
    assert answer is not None and set(answer.engine["min"]) == thresholds


def test_one_scope_asked_gets_that_threshold():
    answer = ask("combien de rubans argent faut-il pour le succès en une seule peinture ?", "fr")
    painting = next(a.params["min"] for a in engine.ACHIEVEMENTS if a.kind == "painting_silver")
    assert answer is not None and answer.engine["min"] == painting


# ------------------------------------------------------------------ a variant set earlier in the conversation


@pytest.mark.parametrize(("question", "lang", "context"), [
    ("I take the leftmost card and the supply is empty: what do I gain?", "en", ["we're playing Solo Puzzle"]),
    ("supply's gone dry, leftmost card: gain?", "en", ["solo puzzle: how do I get tokens back?"]),
    ("je prends la carte gratuite, la réserve est vide : je gagne combien de jetons ?", "fr",
     ["partie en Puzzle solo, je débute"]),
])
def test_a_variant_named_earlier_still_holds(question, lang, context):
    answer = ask(question, lang, context)
    rules = engine.data.RULESETS["solo-puzzle"]
    row = [art_card.id for art_card in engine.ART_CARDS[: rules.row_size]]
    state = engine.custom_game(row=row, hands=((),), tokens=(4,), ruleset_name=rules.name, supply=0)
    after = engine.apply_action(state, engine.TakeCard(player=0, position=1))
    assert answer is not None and answer.engine["ruleset"] == rules.name
    assert answer.engine["gain"] == after.players[0].tokens - 4

def test_without_a_variant_in_the_conversation_the_base_game_applies():
    answer = ask("I take the leftmost card and the supply is empty: what do I gain?")
    assert answer is not None and answer.engine["ruleset"] == "base"


# ------------------------------------------------------------------ a written-out sum claims its total


@pytest.mark.parametrize(("question", "lang", "slug", "ribbons", "terms"), [
    ("2 emphasis ribbons are worth 2 + 5, right?", "en", "emphasis", 2, [2, 5]),
    ("4 ribbons on Repetition make 3+7+11+15 points, yeah?", "en", "repetition", 4, [3, 7, 11, 15]),
    ("pour trois rubans de Variété on compte 4+8+13 points, non ?", "fr", "variety", 3, [4, 8, 13]),
])
def test_a_sum_claims_its_total_not_its_last_term(question, lang, slug, ribbons, terms):
    answer = ask(question, lang)
    points = engine.points_for(slug, ribbons)
    assert answer is not None and answer.kind == "claim"
    assert answer.verdict is (points == sum(terms)) and str(points) in answer.answer


# ------------------------------------------------------------------ a bonus icon is no Bonus scenario


@pytest.mark.parametrize(("question", "lang"), [
    ("and what if two bonus icons show on my painting?", "en"),
    ("and if 3 bonus icons are visible?", "en"),
    ("et si j'ai deux icônes bonus visibles ?", "fr"),
])
def test_bonus_icons_in_a_follow_up_are_not_the_bonus_scenario(question, lang):
    answer = ask(question, lang)
    assert answer is None or answer.engine.get("intent") != "scenario"


# ------------------------------------------------------------------ which scope: "per X or in total?" is a rule


@pytest.mark.parametrize(("question", "lang"), [
    ("the 4 tokens, is that per player or in total?", "en"),
    ("the 20 ribbons in the box: per colour or in total?", "en"),
    ("les 4 jetons c'est par joueur ou au total ?", "fr"),
    ("20 rubans, c'est par couleur ou en tout ?", "fr"),
])
def test_which_scope_a_count_has_is_a_rule_question(question, lang):
    assert ask(question, lang) is None


# ------------------------------------------------------------------ a follow-up's own ribbon kind is counted


@pytest.mark.parametrize(("question", "lang", "context", "expected"), [
    ("and 3 silvers?", "en", ["how much are 2 red ribbons worth?"], 3 * engine.SILVER_POINTS),
    ("et avec 4 argents ?", "fr", ["2 rubans rouges valent combien ?"], 4 * engine.SILVER_POINTS),
    ("et avec 2 bleus ?", "fr", ["3 rubans verts valent combien ?"], engine.points_for("emphasis", 2)),
])
def test_a_bare_follow_up_counts_its_own_ribbons(question, lang, context, expected):
    # First-game colours: blue is Emphasis (the assumption the answer states).
    answer = ask(question, lang, context)
    assert answer is not None and answer.engine["points"] == expected


# ------------------------------------------------------------------ a painting laid out by places is no ribbon count


@pytest.mark.parametrize(("question", "lang"), [
    ("Shapes in swatches 2 and 4 only: my friend says that's 1 Proximity ribbon worth 3 points, right?", "en"),
    ("Tones in swatches 1, 2 and 3, that gives me a Repetition ribbon, so 3 points?", "en"),
    ("des formes dans les cases 2 et 5, ça fait un ruban Symétrie à 4 points ?", "fr"),
])
def test_icons_placed_in_numbered_swatches_are_not_ribbon_points(question, lang):
    # Whether those places earn the ribbon is the Scoring Card's condition (a rule), not N ribbons' points.
    answer = ask(question, lang)
    assert answer is None or answer.engine.get("intent") != "ribbon_points"


def test_ribbon_points_without_a_layout_are_still_checked():
    answer = ask("2 rubans Style ça fait 8 points ?", "fr")
    assert answer is not None and answer.kind == "claim" and answer.verdict is (engine.points_for("style", 2) == 8)
