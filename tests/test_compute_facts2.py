"""Second-wave computed facts: end-of-game totals written as "card count" lists, paintings (visible icons, titles,
covered icons), component arithmetic, limits ("maxed out"), achievements of a painting, the best painting of a hand.

Oracles come from the engine's data and functions (points tables, card data, component counts, the scorer), never
from the answer text's own code path; every question is worded here, not copied from an eval set.
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


def _total(groups: dict[str, int], silver: int = 0) -> int:
    return sum(engine.points_for(slug, count) for slug, count in groups.items()) + engine.SILVER_POINTS * silver


# ------------------------------------------------------------------------------------------- totals as lists


@pytest.mark.parametrize(("question", "lang", "groups", "silver"), [
    ("final tally: repetition 3, variety 1, composition 2, and 2 silver. whats my total", "en",
     {"repetition": 3, "variety": 1, "composition": 2}, 2),
    ("end of the game - style x2, movement x1, no silver. score?", "en", {"style": 2, "movement": 1}, 0),
    ("fin de partie : 2 proximité, 1 symétrie, 3 espace et un argent, j'ai combien", "fr",
     {"proximity": 2, "symmetry": 1, "space": 3}, 1),
    ("à la fin j'avais hiérarchie 1, emphase 2, pas d'argent. ça me fait quoi ?", "fr", {"hierarchy": 1, "emphasis": 2}, 0),
])
def test_a_list_of_card_count_pairs_is_a_total(question, lang, groups, silver):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed"
    assert answer.engine["points"] == _total(groups, silver)


@pytest.mark.parametrize(("question", "lang", "groups", "silver", "claimed"), [
    ("variety 2, emphasis 1, plus 1 silver, so i'm on 9, right?", "en", {"variety": 2, "emphasis": 1}, 1, 9),
    ("2 cohérence, 1 hiérarchie, aucun argent : je compte 10, juste ?", "fr", {"consistency": 2, "hierarchy": 1}, 0, 10),
    ("movement x2 and symmetry x3, zero silver, that comes to 17 yeah?", "en", {"movement": 2, "symmetry": 3}, 0, 17),
])
def test_a_total_claimed_over_a_list(question, lang, groups, silver, claimed):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim"
    assert answer.verdict is (_total(groups, silver) == claimed)
    assert str(_total(groups, silver)) in answer.answer


# ------------------------------------------------------------------------------------------- paintings


def _painting(titles):
    by_title = {art_card.title.lower(): art_card for art_card in engine.ART_CARDS}
    return engine.Painting.from_cards([by_title[title.lower()] for title in titles])


def _empty_colours(titles, lang):
    names = {"en": {"red": "red", "yellow": "yellow", "green": "green", "blue": "blue", "violet": "violet"},
             "fr": {"red": "rouge", "yellow": "jaune", "green": "vert", "blue": "bleu", "violet": "violet"}}[lang]
    painting = _painting(titles)
    return [names[shade] for shade, icons in zip(engine.SWATCH_COLOURS, painting.visible, strict=True) if not icons]


@pytest.mark.parametrize(("question", "lang", "titles"), [
    ("what can you see on the swatches with Whimsical, Nature and Purpose stacked bottom to top?", "en",
     ["Whimsical", "Nature", "Purpose"]),
    ("Chosen then Game then Unashamed on top: which icons show?", "en", ["Chosen", "Game", "Unashamed"]),
    ("on voit quelles icônes avec Whimsical, Nature, Purpose (de bas en haut) ?", "fr", ["Whimsical", "Nature", "Purpose"]),
])
def test_the_visible_icons_name_each_swatch_by_colour(question, lang, titles):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed"
    assert answer.engine["visible"] == [list(icons) for icons in _painting(titles).visible]
    empty = _empty_colours(titles, lang)
    assert empty and all(shade in answer.answer for shade in empty)


@pytest.mark.parametrize(("question", "lang", "titles", "claimed"), [
    ("chosen at the bottom, game, unashamed on top, that's called 'Unashamed Game' isn't it", "en",
     ["Chosen", "Game", "Unashamed"], "Unashamed Game"),
    ("Whimsical, Nature then Purpose on top is titled 'Nature Purpose', right?", "en",
     ["Whimsical", "Nature", "Purpose"], "Nature Purpose"),
    ("Chosen, Game puis Unashamed en haut s'intitule « Chosen Game », c'est ça ?", "fr",
     ["Chosen", "Game", "Unashamed"], "Chosen Game"),
])
def test_a_title_stated_after_the_painting_is_checked(question, lang, titles, claimed):
    title = _painting(titles).title
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim"
    assert answer.verdict is (title == claimed)
    assert title in answer.answer


@pytest.mark.parametrize(("question", "lang", "context", "titles", "stated"), [
    ("ok and what is it called?", "en", ["Liberated, Game, View on top: points?"], ["Liberated", "Game", "View"], None),
    ("and the title would be just 'View'?", "en", ["Liberated, Game, View on top: points?"], ["Liberated", "Game", "View"],
     "View"),
    ("et son titre alors ?", "fr", ["Mess, Expanse, Childhood (de bas en haut), ça marque combien ?"],
     ["Mess", "Expanse", "Childhood"], None),
    ("et le titre c'est « Mess Childhood » ?", "fr", ["Mess, Expanse, Childhood (de bas en haut), ça marque combien ?"],
     ["Mess", "Expanse", "Childhood"], "Mess Childhood"),
])
def test_a_title_follow_up_about_the_previous_painting(question, lang, context, titles, stated):
    title = _painting(titles).title
    answer = ask(question, lang, context)
    assert answer is not None
    # The title is the first thing quoted: it opens the answer.
    assert title in answer.answer.split("”" if lang == "en" else "»")[0]
    if stated is None:
        assert answer.kind == "computed"
    else:
        assert answer.kind == "claim" and answer.verdict is (title == stated)
