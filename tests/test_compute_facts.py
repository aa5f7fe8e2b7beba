"""Computed facts and claims about levels, scenario goals, achievements, component counts, ribbon points and
paintings, and how a follow-up inherits (or refuses to guess) from the previous computable question.

Oracles come from the engine's data (levels, scenarios, achievements, component counts, points tables), never
from the answer text's own code path.
"""

from functools import cache

import pytest
from rulesbot.engine import canvas as engine

from rulesbot.compute import answer_computed
from rulesbot.knowledge import load_packs


@cache
def _pack():
    return load_packs()["canvas"]


def ask(question: str, lang: str = "en", context=()):
    return answer_computed(None, question, lang, _pack(), context=list(context))


def _reached(score: int):
    reached = [level for level in engine.SOLO_LEVELS if score >= level.target]
    return max(reached, key=lambda level: level.target) if reached else None


def _name(level, lang: str) -> str:
    return level.name_fr if lang == "fr" else level.name_en


# ------------------------------------------------------------------------------------------- solo levels


@pytest.mark.parametrize(("question", "lang", "score", "slug"), [
    ("36 = hard?", "en", 36, "hard"),
    ("31 = master??", "en", 31, "master"),
    ("26 = facile ?", "fr", 26, "easy"),
])
def test_a_score_equals_level_claim(question, lang, score, slug):
    level = engine.solo_level(slug)
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim" and answer.verdict is (score >= level.target)


@pytest.mark.parametrize(("question", "lang", "score", "slug"), [
    ("I scored 41 solo, my mate says that's only Hard", "en", 41, "hard"),
    ("solo game, 36 points, apparently that's just Normal", "en", 36, "normal"),
    ("en solo j'ai eu 42, mon frère dit que c'est seulement Difficile", "fr", 42, "hard"),
    ("j'ai 31 en solo, paraît que c'est que Normal", "fr", 31, "normal"),
])
def test_an_only_level_claim_is_checked_against_the_highest_level_reached(question, lang, score, slug):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim"
    assert answer.verdict is (_reached(score).slug == slug)
    assert _name(_reached(score), lang) in answer.answer


@pytest.mark.parametrize(("question", "lang", "score"), [
    ("solo run, only 19 points, is that any level at all?", "en", 19),
    ("22 en solo, ça fait un niveau ?", "fr", 22),
    ("en solo 23 points, c'est quel niveau", "fr", 23),
])
def test_a_score_below_every_level_reaches_none(question, lang, score):
    lowest = min(engine.SOLO_LEVELS, key=lambda level: level.target)
    assert score < lowest.target
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed" and str(lowest.target) in answer.answer


@pytest.mark.parametrize(("question", "lang", "context", "slug", "score"), [
    ("how many more did I need for master", "en", ["finished a solo game on 33, which level is that?"], "master", 33),
    ("and how many more for the next level?", "en", ["solo: 27 points, what level?"], "normal", 27),
    ("il m'aurait fallu combien de plus pour difficile ?", "fr", ["29 en solo, c'est quel niveau ?"], "hard", 29),
    ("et pour le niveau suivant il faut combien ?", "fr", ["j'ai terminé à 36 en solo, quel niveau ?"], "master", 36),
])
def test_how_many_more_for_a_level_uses_the_previous_score(question, lang, context, slug, score):
    level = engine.solo_level(slug)
    answer = ask(question, lang, context)
    assert answer is not None and answer.engine["level"] == slug and answer.engine["score"] == score
    assert str(level.target - score) in answer.answer


# ------------------------------------------------------------------------------------------- component counts


def _count(slug: str):
    return engine.component_counts("base")[slug]


@pytest.mark.parametrize(("question", "lang", "players", "slug"), [
    ("there are 4 of us and everyone gets 3 backgrounds, how many backgrounds stay in the box?", "en", 4, "background_cards"),
    ("we're 3 players, how many inspiration tokens are left in the box?", "en", 3, "inspiration_tokens"),
    ("on est 2 joueurs, combien de cartes de fond retournent dans la boîte ?", "fr", 2, "background_cards"),
    ("à 4 joueurs il reste combien de jetons dans la boîte ?", "fr", 4, "inspiration_tokens"),
])
def test_what_goes_back_in_the_box_for_a_player_count(question, lang, players, slug):
    left = _count(slug).count - players * _count(f"{slug}_per_player").count
    answer = ask(question, lang)
    assert answer is not None and answer.engine["left"] == left and str(left) in answer.answer
    assert {citation.page for citation in answer.citations} == {_count(slug).page}


@pytest.mark.parametrize(("question", "lang"), [
    ("the ribbons: how many are there of each color?", "en"),
    ("rubans : combien de chaque couleur ?", "fr"),
    ("how many ribbons per colour come in the box", "en"),
])
def test_ribbons_of_each_colour(question, lang):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["component"] == "ribbons_per_colour"
    assert str(_count("ribbons_per_colour").count) in answer.answer


def test_of_each_colour_without_ribbons_is_not_the_ribbon_count():
    answer = ask("how many cards of each colour?")
    assert answer is None or answer.engine.get("component") != "ribbons_per_colour"


@pytest.mark.parametrize(("question", "lang", "context", "slug"), [
    ("and scenarios?", "en", ["how many achievements are in the game?"], "scenarios"),
    ("ok and inspiration tokens?", "en", ["how many scoring cards come in the box?"], "inspiration_tokens"),
    ("ah ok et les cartes de score ?", "fr", ["il y a combien de cartes art dans la boîte ?"], "scoring_cards"),
])
def test_a_follow_up_naming_another_component(question, lang, context, slug):
    answer = ask(question, lang, context)
    assert answer is not None and answer.engine["component"] == slug and str(_count(slug).count) in answer.answer


@pytest.mark.parametrize(("question", "lang"), [
    ("up to how many players can play?", "en"), ("5 players max, right?", "en"), ("on peut être combien de joueurs au max ?", "fr"),
])
def test_the_player_range_cites_the_components_list_too(question, lang):
    answer = ask(question, lang)
    pages = {citation.page for citation in answer.citations}
    assert answer.engine["component"] == "max_players" and str(_count("max_players").count) in answer.answer
    assert _count("art_cards").page in pages and _count("max_players").page in pages


# ------------------------------------------------------------------------------------------- ribbon points


def _colour_card(shade: str) -> str:
    return dict(zip(engine.MAT_SLOTS, engine.FIRST_GAME_CARDS, strict=True))[shade]


@pytest.mark.parametrize(("question", "lang", "shade"), [
    ("what does a single red ribbon score on the first-game mat?", "en", "red"),
    ("un seul ruban violet ça rapporte combien ?", "fr", "violet"),
    ("how many points for a single green ribbon", "en", "green"),
])
def test_a_single_ribbon_of_a_colour_is_computed(question, lang, shade):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["points"] == engine.points_for(_colour_card(shade), 1)


@pytest.mark.parametrize(("question", "lang", "slug", "count"), [
    ("movement w/ 3 ribbons??", "en", "movement", 3),
    ("symmetry, 2 ribbons?", "en", "symmetry", 2),
    ("hiérarchie 3 rubans ??", "fr", "hierarchy", 3),
])
def test_a_terse_card_and_count_question_asks_the_points(question, lang, slug, count):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed" and answer.engine["points"] == engine.points_for(slug, count)


@pytest.mark.parametrize(("question", "lang", "shades", "claimed"), [
    ("un bleu + un rouge + un vert sans argent, ça fait 8 points", "fr", ["blue", "red", "green"], 8),
    ("my friend is sure a red + a violet is 6 pts", "en", ["red", "violet"], 6),
    ("un vert, un violet et un bleu ça fait 7", "fr", ["green", "violet", "blue"], 7),
])
def test_a_total_of_single_ribbons_said_in_prose(question, lang, shades, claimed):
    total = sum(engine.points_for(_colour_card(shade), 1) for shade in shades)
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim" and answer.verdict is (total == claimed)
    assert answer.engine["points"] == total


@pytest.mark.parametrize(("question", "lang", "groups"), [
    ("end of game: 2 variety 3 comp 1 emphasis and 3 silvers, total??", "en",
     {"variety": 2, "composition": 3, "emphasis": 1, "silver": 3}),
    ("fin de partie, 3 répétition 2 compo 4 argent, total ?", "fr", {"repetition": 3, "composition": 2, "silver": 4}),
    ("all done, 1 variety 4 repetition plus 2 silvers, total?", "en", {"variety": 1, "repetition": 4, "silver": 2}),
])
def test_an_open_total_question_is_not_a_claim(question, lang, groups):
    total = sum(engine.SILVER_POINTS * count if slug == "silver" else engine.points_for(slug, count)
                for slug, count in groups.items())
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed" and answer.engine["points"] == total


@pytest.mark.parametrize(("question", "lang", "context", "slug", "count", "claimed"), [
    ("ok and 3 ribbons is 10, right?", "en", ["what are two consistency ribbons worth"], "consistency", 3, 10),
    ("ah d'accord et 1 ruban c'est 2 non ?", "fr", ["PROXIMITÉ TROIS RUBANS ÇA FAIT COMBIEN"], "proximity", 1, 2),
    ("and 4 ribbons makes 12, yeah?", "en", ["how much for 2 proximity ribbons?"], "proximity", 4, 12),
])
def test_a_follow_up_claim_with_a_new_ribbon_count(question, lang, context, slug, count, claimed):
    answer = ask(question, lang, context)
    assert answer is not None and answer.kind == "claim"
    assert answer.verdict is (engine.points_for(slug, count) == claimed)
