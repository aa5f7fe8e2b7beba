"""Second-wave computed facts: end-of-game totals written as "card count" lists, paintings (visible icons, titles,
covered icons), component arithmetic, limits ("maxed out"), achievements of a painting, the best painting of a hand.

Oracles come from the engine's data and functions (points tables, card data, component counts, the scorer), never
from the answer text's own code path; every question is worded here, not copied from an eval set.
"""


import pytest
from compute_helpers import ask
from rulesbot.engine import canvas as engine


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


# ------------------------------------------------------------------------------------------- components


def _count(slug: str) -> int:
    return engine.component_counts("base")[slug].count


@pytest.mark.parametrize(("question", "lang", "players", "slug"), [
    ("in a 2 player game how many tokens stay in the box", "en", 2, "inspiration_tokens"),
    ("how many backgrounds go back to the box in a 5 player game?", "en", 5, "background_cards"),
    ("à 3 joueurs on range combien de jetons dans la boîte ?", "fr", 3, "inspiration_tokens"),
])
def test_box_leftovers_for_a_player_count(question, lang, players, slug):
    answer = ask(question, lang)
    expected = _count(slug) - players * _count(f"{slug}_per_player")
    assert answer is not None and answer.kind == "computed" and answer.engine["left"] == expected
    assert str(expected) in answer.answer


@pytest.mark.parametrize(("question", "lang", "players", "slug", "claimed"), [
    ("so with 2 players 8 tokens are in play, right?", "en", 2, "inspiration_tokens", 8),
    ("à 4 joueurs il y a 15 cartes de fond en jeu, c'est ça ?", "fr", 4, "background_cards", 15),
    ("with 3 players there are 9 background cards dealt out, correct?", "en", 3, "background_cards", 9),
])
def test_what_is_in_play_for_a_player_count(question, lang, players, slug, claimed):
    used = players * _count(f"{slug}_per_player")
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim" and answer.verdict is (used == claimed)
    assert str(used) in answer.answer


@pytest.mark.parametrize(("question", "lang", "players", "slug"), [
    ("with 4 players are all the background cards dealt out?", "en", 4, "background_cards"),
    ("à 5 joueurs toutes les cartes de fond sont distribuées, vrai ?", "fr", 5, "background_cards"),
    ("at 3 players all the tokens are in play, right?", "en", 3, "inspiration_tokens"),
])
def test_all_of_a_component_used_for_a_player_count(question, lang, players, slug):
    used = players * _count(f"{slug}_per_player")
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim" and answer.verdict is (used >= _count(slug))


def _bonus_cards() -> int:
    from rulesbot.engine.canvas.data import BONUS_ELEMENT

    return sum(1 for art_card in engine.ART_CARDS if any(icon in BONUS_ELEMENT for stripe in art_card.stripes for icon in stripe))


@pytest.mark.parametrize(("question", "lang"), [
    ("how many of the art cards carry a silver bonus icon?", "en"),
    ("number of art cards with a PER icon on them", "en"),
    ("y a combien de cartes art avec un symbole bonus ?", "fr"),
])
def test_art_cards_with_a_bonus_icon_are_counted_on_the_card_data(question, lang):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed" and answer.engine["count"] == _bonus_cards()
    assert 1 in {citation.page for citation in answer.citations}


@pytest.mark.parametrize(("question", "lang", "claimed"), [
    ("ribbons: there are 15 of each colour, right?", "en", 15),
    ("the ribbons come 20 per colour, yeah?", "en", 20),
    ("cb de rubans par couleur ?", "fr", None),
])
def test_ribbons_per_colour(question, lang, claimed):
    count = _count("ribbons_per_colour")
    answer = ask(question, lang)
    assert answer is not None and str(count) in answer.answer
    if claimed is None:
        assert answer.kind == "computed"
    else:
        assert answer.kind == "claim" and answer.verdict is (count == claimed)


# ------------------------------------------------------------------------------------------- ribbons and limits


@pytest.mark.parametrize(("question", "lang", "slug", "count", "claimed"), [
    ("ma soeur dit que 2 rubans Emphase valent 5 points, moi j'y crois pas", "fr", "emphasis", 2, 5),
    ("my cousin says 3 variety ribbons make 12, i doubt it", "en", "variety", 3, 12),
    ("my friend reckons 2 repetition ribbons are worth 7, I don't think so", "en", "repetition", 2, 7),
])
def test_the_speakers_disbelief_does_not_negate_the_reported_claim(question, lang, slug, count, claimed):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim"
    assert answer.verdict is (engine.points_for(slug, count) == claimed)


@pytest.mark.parametrize(("question", "lang", "claimed"), [
    ("silver ribbons are worth 1 point each, right?", "en", 1),
    ("each silver ribbon scores 2, correct?", "en", 2),
    ("un ruban argent vaut 4 points l'unité, non ?", "fr", 4),
])
def test_the_value_of_each_silver_ribbon(question, lang, claimed):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim" and answer.verdict is (engine.SILVER_POINTS == claimed)


@pytest.mark.parametrize(("question", "lang"), [
    ("what is written under the 16 of Repetition on its card?", "en"),
    ("sous le 9 de Composition il y a quoi ?", "fr"),
])
def test_a_number_printed_on_a_card_is_no_ribbon_count(question, lang):
    assert ask(question, lang) is None


@pytest.mark.parametrize(("question", "lang", "slug", "count", "bound", "claimed"), [
    ("6 emphasis ribbons over the game is more than 11 points, right?", "en", "emphasis", 6, "more", 11),
    ("4 rubans de variété ça fait au moins 13, non ?", "fr", "variety", 4, "least", 13),
    ("5 style ribbons: that's less than 18 points, correct?", "en", "style", 5, "less", 18),
])
def test_a_claim_comparing_the_points_with_a_number(question, lang, slug, count, bound, claimed):
    points = engine.points_for(slug, count)
    expected = {"more": points > claimed, "least": points >= claimed, "less": points < claimed}[bound]
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim" and answer.verdict is expected
    assert str(points) in answer.answer


def _cap(slug):
    return engine.scoring_card(slug).max_ribbons


@pytest.mark.parametrize(("question", "lang", "slug"), [
    ("proximity maxed out: ribbons and points?", "en", "proximity"),
    ("movement fully maxed, how many ribbons is that", "en", "movement"),
    ("hiérarchie au max, ça fait combien de rubans ?", "fr", "hierarchy"),
])
def test_a_maxed_out_card_is_its_cap(question, lang, slug):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["max_ribbons"] == _cap(slug)
    assert str(engine.scoring_card(slug).points[-1]) in answer.answer


@pytest.mark.parametrize(("question", "lang", "scenario", "claimed"), [
    ("if we max out all 4 cards of spatial that's 15 ribbons, right?", "en", "spatial", 15),
    ("si on max les quatre cartes de balanced on a 12 rubans, non ?", "fr", "balanced", 12),
    ("first time playing: max on every card gives 14 ribbons, correct?", "en", "first-time-playing", 14),
])
def test_the_ribbons_of_every_card_maxed_out(question, lang, scenario, claimed):
    cards = engine.scenario(scenario).cards if hasattr(engine, "scenario") else next(
        item.cards for item in engine.SCENARIOS if item.slug == scenario)
    total = sum(_cap(slug) for slug in cards)
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim" and answer.verdict is (total == claimed)
    assert str(total) in answer.answer


# ------------------------------------------------------------------------------------------- achievements


def _earned(titles):
    from rulesbot.compute.canvas import helpers

    by_title = {art_card.title.lower(): art_card for art_card in engine.ART_CARDS}
    earned, _record = helpers.painting_achievements([by_title[title.lower()] for title in titles], list(engine.FIRST_GAME_CARDS))
    return earned


@pytest.mark.parametrize(("question", "lang", "titles", "slug"), [
    ("Adventure, Heavy then Perspective on top: do I get the 'five of the same element' achievement?", "en",
     ["Adventure", "Heavy", "Perspective"], "five-same-element"),
    ("Heavy, Innocent, Mess (bottom to top), does it earn the '4 silver ribbons with 1 painting' achievement?", "en",
     ["Heavy", "Innocent", "Mess"], "four-silver-one-painting"),
    ("Heavy, Innocent, Mess de bas en haut : ça valide le succès « remplir les 4 conditions de score » ?", "fr",
     ["Heavy", "Innocent", "Mess"], "all-conditions-one-painting"),
])
def test_a_painting_and_one_named_achievement(question, lang, titles, slug):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["intent"] == "painting_achievements"
    assert set(answer.engine["earned"]) == set(_earned(titles))
    expected = slug in _earned(titles)
    assert ("yes" if lang == "en" else "oui") in answer.answer if expected else ("no" if lang == "en" else "non") in answer.answer


@pytest.mark.parametrize(("question", "lang", "context"), [
    ("and that's the 'score 7+ ribbons with 1 painting' achievement as well, right?", "en",
     ["Heavy, Innocent, Mess (bottom to top): what does it score?"]),
    ("donc ça débloque aussi le succès « 5 fois le même élément », non ?", "fr",
     ["Adventure, Heavy, Perspective (de bas en haut), ça marque combien ?"]),
])
def test_a_named_achievement_claim_about_the_previous_painting(question, lang, context):
    titles = {"Heavy": ["Heavy", "Innocent", "Mess"], "Adventure": ["Adventure", "Heavy", "Perspective"]}[context[0].split(",")[0]]
    slug = "seven-ribbons-one-painting" if lang == "en" else "five-same-element"
    answer = ask(question, lang, context)
    assert answer is not None and answer.kind == "claim" and answer.verdict is (slug in _earned(titles))


@pytest.mark.parametrize(("question", "lang"), [
    ("is the '14+ ribbons' achievement counted over the whole game or per painting?", "en"),
    ("le succès « 7 rubans argent » c'est par peinture ou sur la partie ?", "fr"),
])
def test_a_number_inside_an_achievements_name_is_no_value(question, lang):
    assert ask(question, lang) is None


# ------------------------------------------------------------------------------------------- best painting


@pytest.mark.parametrize(("question", "lang", "hand", "scenario"), [
    ("balanced: I hold Peaceful, Moment, View and Precious, which one do I keep aside?", "en",
     ["Peaceful", "Moment", "View", "Precious"], "balanced"),
    ("j'ai Chosen, Game, Truth et Mess en main, laquelle je laisse de côté ?", "fr", ["Chosen", "Game", "Truth", "Mess"], None),
    ("with Liberated, Game, View, Whimsical and Nature in hand, which should I leave out?", "en",
     ["Liberated", "Game", "View", "Whimsical", "Nature"], None),
])
def test_the_cards_left_aside_by_the_best_painting(question, lang, hand, scenario):
    by_title = {art_card.title: art_card for art_card in engine.ART_CARDS}
    slugs = (next(item.cards for item in engine.SCENARIOS if item.slug == scenario) if scenario
             else engine.FIRST_GAME_CARDS)
    best = engine.best_painting([by_title[title] for title in hand], list(slugs))
    used = {art_card.title for art_card in engine.ART_CARDS if art_card.id in best.painting.cards}
    answer = ask(question, lang)
    assert answer is not None and answer.engine["points"] == best.points
    assert set(answer.engine["left_out"]) == set(hand) - used
    assert all(title in answer.answer for title in set(hand) - used)


# ------------------------------------------------------------------------------------------- level follow-ups


@pytest.mark.parametrize(("question", "lang", "context", "score", "slug"), [
    ("and 42 would be master then?", "en", ["solo: 36 = hard, right?"], 42, "master"),
    ("and 33 would be hard?", "en", ["solo, 30 points is normal, correct?"], 33, "hard"),
    ("et 41 ce serait maître alors ?", "fr", ["en solo 36 = difficile, c'est ça ?"], 41, "master"),
])
def test_a_level_follow_up_restating_the_claim_with_a_new_score(question, lang, context, score, slug):
    answer = ask(question, lang, context)
    assert answer is not None and answer.kind == "claim"
    assert answer.verdict is (score >= engine.solo_level(slug).target)
    assert str(engine.solo_level(slug).target) in answer.answer


# ------------------------------------------------------------------------------------------- scenario and question


@pytest.mark.parametrize(("question", "lang", "titles", "scenario"), [
    ("first time playing, Nightmare / Heightened / Melancholy bottom to top. does the middle bonus fill a swatch for "
     "composition? total score?", "en", ["Nightmare", "Heightened", "Melancholy"], "first-time-playing"),
    ("spatial : Mess, Expanse, Childhood (de bas en haut). ça remplit Symétrie ? score total ?", "fr",
     ["Mess", "Expanse", "Childhood"], "spatial"),
    ("balanced: Peaceful, Moment, View bottom to top, it gets Emphasis. and the points?", "en",
     ["Peaceful", "Moment", "View"], "balanced"),
])
def test_a_named_card_of_the_scenario_keeps_the_scenarios_cards_and_a_final_value_question_asks(question, lang, titles,
                                                                                                  scenario):
    cards = next(item.cards for item in engine.SCENARIOS if item.slug == scenario)
    points = engine.score_painting(_painting(titles), list(cards)).points()
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed"
    assert answer.engine["points"] == points and set(answer.engine["scoring"]) == set(cards)


def _hidden(titles, card_title, icon):
    painting = _painting(titles)
    card = next(art_card for art_card in engine.ART_CARDS if art_card.title == card_title)
    places = [number for number, stripe in enumerate(card.stripes) if icon in stripe]
    return all(painting.shown_by[number] != card.id for number in places)


@pytest.mark.parametrize(("question", "lang", "titles", "card", "icon"), [
    ("Vast at the bottom, Expanse, Divine on top. the per-shape of Vast ends up hidden, right?", "en",
     ["Vast", "Expanse", "Divine"], "Vast", "per-shape"),
    ("Divine, Expanse, Vast bottom to top: Vast's per shape is covered, correct?", "en",
     ["Divine", "Expanse", "Vast"], "Vast", "per-shape"),
    ("Vast, Expanse, Divine (de bas en haut) : la texture d'Expanse est recouverte, c'est ça ?", "fr",
     ["Vast", "Expanse", "Divine"], "Expanse", "texture"),
])
def test_a_claim_that_a_cards_icon_is_covered(question, lang, titles, card, icon):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim" and answer.verdict is _hidden(titles, card, icon)


# ------------------------------------------------------------------------------------------- bonus icons


def _silver_for(element: str, matching: int) -> int:
    swatches = [[f"per-{element}"]] + [[element]] * matching + [[]] * (len(engine.SWATCH_COLOURS) - 1 - matching)
    return engine.score_painting(engine.Painting.from_swatches(swatches), []).bonus


@pytest.mark.parametrize(("question", "lang", "element", "matching"), [
    ("a PER shape bonus icon with 2 shapes visible: how many silver ribbons and points?", "en", "shape", 2),
    ("how many silver ribbons from a per-texture icon when 4 texture icons show?", "en", "texture", 4),
    ("avec 3 teintes visibles et une icône bonus par teinte, ça fait combien de rubans argent ?", "fr", "hue", 3),
])
def test_silver_ribbons_of_a_bonus_icon_and_matching_icons(question, lang, element, matching):
    silver = _silver_for(element, matching)
    answer = ask(question, lang)
    assert answer is not None and answer.engine["ribbons"]["silver"]["ribbons"] == silver
    assert answer.engine["points"] == silver * engine.SILVER_POINTS


def test_a_bonus_icon_counting_as_an_element_stays_a_rules_question():
    assert ask("does a PER tone bonus icon count as a tone for hierarchy?", "en") is None


@pytest.mark.parametrize(("question", "lang", "slug", "count", "claimed"), [
    ("Espace c'est pareil que Proximité, hein ? 2 rubans = 5 pts", "fr", "space", 2, 5),
    ("is Symmetry like Movement? 3 ribbons = 6", "en", "symmetry", 3, 6),
    ("Style works like Hierarchy I think, so 2 ribbons = 9 points", "en", "style", 2, 9),
])
def test_a_count_after_comparing_two_cards_belongs_to_the_first(question, lang, slug, count, claimed):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim"
    assert answer.verdict is (engine.points_for(slug, count) == claimed)
    assert str(engine.points_for(slug, count)) in answer.answer


@pytest.mark.parametrize(("question", "lang", "slug", "held", "titles"), [
    ("two composition ribbons in hand already; final painting Liberated, Game, View on top. composition points at the end?",
     "en", "composition", 2, ["Liberated", "Game", "View"]),
    ("j'ai déjà 1 ruban Répétition, et je peins Liberated, Game, View (View en haut) : ça me fait combien en Répétition ?",
     "fr", "repetition", 1, ["Liberated", "Game", "View"]),
    ("so far 3 variety ribbons; next painting Heavy, Innocent, Mess bottom to top. how many variety points then?", "en",
     "variety", 3, ["Heavy", "Innocent", "Mess"]),
])
def test_ribbons_already_held_plus_a_new_painting(question, lang, slug, held, titles):
    gained = engine.score_painting(_painting(titles), list(engine.FIRST_GAME_CARDS)).ribbons[slug]
    points = engine.points_for(slug, held + gained)
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed"
    assert f"{points} " in answer.answer.split(". ")[0]


@pytest.mark.parametrize(("question", "lang"), [
    ("en mode chill on joue avec combien de cartes et quel objectif ?", "fr"),
    ("le mode chill, il faut combien de points ?", "fr"),
    ("chill mode: how many scoring cards and what's the goal?", "en"),
])
def test_chill_mode_gives_its_cards_and_its_goal(question, lang):
    scenario = next(item for item in engine.SCENARIOS if item.slug == "chill-mode")
    answer = ask(question, lang)
    assert answer is not None and str(scenario.goal) in answer.answer and str(scenario.random_cards) in answer.answer
