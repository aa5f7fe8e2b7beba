"""Computed facts and claims about levels, scenario goals, achievements, component counts, ribbon points and
paintings, and how a follow-up inherits (or refuses to guess) from the previous computable question.

Oracles come from the engine's data (levels, scenarios, achievements, component counts, points tables), never
from the answer text's own code path.
"""


import pytest
from compute_helpers import ask
from rulesbot.engine import canvas as engine


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
    ("how many ribbons per colour?", "en"),
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


# ------------------------------------------------------------------------------------------- achievements


def _achievement(kind: str):
    return next(entry for entry in engine.ACHIEVEMENTS if entry.kind == kind)


@pytest.mark.parametrize(("question", "lang", "kind", "claimed"), [
    ("the one-painting silver achievement needs 3 silvers, right?", "en", "painting_silver", 3),
    ("the achievement for ribbons in one painting is 7 ribbons isn't it", "en", "painting_ribbons", 7),
    ("le succès des rubans argent sur une peinture c'est 6 argents, non ?", "fr", "painting_silver", 6),
])
def test_an_achievement_threshold_claim(question, lang, kind, claimed):
    answer = ask(question, lang)
    threshold = _achievement(kind).params["min"]
    assert answer is not None and answer.kind == "claim" and answer.verdict is (claimed == threshold)
    assert str(threshold) in answer.answer


@pytest.mark.parametrize(("question", "lang", "count"), [
    ("having 5 of the same element in a single painting is an achievement", "en", 5),
    ("4 fois le même élément sur une peinture, ça compte comme un accomplissement, je crois", "fr", 4),
    ("6 of the same element on one painting counts for an achievement, right?", "en", 6),
])
def test_the_same_element_achievement_claim(question, lang, count):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim"
    assert answer.verdict is (count >= _achievement("painting_same_element").params["min"])


@pytest.mark.parametrize(("question", "lang", "silver"), [
    ("I got 5 silver ribbons in one painting!! does that unlock any achievement?", "en", 5),
    ("une peinture avec 3 rubans argent, ça débloque un accomplissement ?", "fr", 3),
    ("j'ai eu 4 rubans gris sur un seul tableau, il y a un succès pour ça ?", "fr", 4),
])
def test_silver_in_one_painting_asks_the_achievement(question, lang, silver):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed"
    assert answer.engine["earned"] == (["four-silver-one-painting"] if silver >= 4 else [])


@pytest.mark.parametrize(("question", "lang"), [
    ("what's the designers top score on the achievements page", "en"),
    ("designers' best score for the achievement on the back?", "en"),
    ("c'est quoi le meilleur score des auteurs dans les succès ?", "fr"),
])
def test_the_designers_top_score(question, lang):
    beat = max((entry for entry in engine.ACHIEVEMENTS if entry.kind == "game_points"), key=lambda entry: entry.params["min"])
    answer = ask(question, lang)
    assert answer is not None and str(beat.params["min"] - 1) in answer.answer


def _painting_earns(titles):
    """Whether a first-game painting earns a one-painting achievement (the rulebook's p. 6 conditions, checked here)."""
    from rulesbot.engine.canvas import game

    state = game.custom_game(row=[], hands=(titles, ()), scoring=list(engine.FIRST_GAME_CARDS))
    done = game.apply_action(state, game.CompletePainting(player=0, cards=tuple(state.players[0].hand)))
    record = done.players[0].paintings[0]
    return record.silver >= _achievement("painting_silver").params["min"] or (
        sum(record.taken) + record.silver >= _achievement("painting_ribbons").params["min"]) or (
        max(engine.Painting.from_cards(titles).element_counts().values()) >= _achievement("painting_same_element").params["min"]) or (
        all(count >= 1 for count in record.ribbons))


@pytest.mark.parametrize(("question", "lang", "context", "titles"), [
    ("and does that unlock an achievement?", "en", ["Liberated, Game, Darkness bottom to top, what does it score?"],
     ["Liberated", "Game", "Darkness"]),
    ("et ça débloque un succès ?", "fr", ["Chosen, Game, Truth de bas en haut, ça rapporte combien ?"], ["Chosen", "Game", "Truth"]),
    ("any achievement for that one?", "en", ["what does Fragile, Pride, Purpose score (bottom to top)"], ["Fragile", "Pride", "Purpose"]),
])
def test_a_follow_up_asks_what_the_previous_painting_unlocks(question, lang, context, titles):
    answer = ask(question, lang, context)
    assert answer is not None and answer.engine["intent"] == "painting_achievements"
    assert answer.engine["cards"] == titles and bool(answer.engine["earned"]) is _painting_earns(titles)


@pytest.mark.parametrize(("question", "lang", "context"), [
    ("and is it blue?", "en", ["Chosen, Game, Truth bottom to top: points?"]),
    ("et ça se joue en combien de temps ?", "fr", ["combien valent 3 rubans verts ?"]),
    ("does that work too?", "en", ["how many points are 2 variety ribbons worth?"]),
])
def test_a_follow_up_whose_words_the_previous_question_does_not_use_is_not_guessed(question, lang, context):
    assert ask(question, lang, context) is None


# ------------------------------------------------------------------------------------------- scenario goals


def _scenario(slug: str):
    return next(item for item in engine.SCENARIOS if item.slug == slug)


@pytest.mark.parametrize(("question", "lang", "slug", "claimed"), [
    ("Synergy is the scenario with 28, right?", "en", "synergy", 28),
    ("Balanced c'est le scénario à 35, non ?", "fr", "balanced", 35),
    ("Spatial, c'est bien le scénario à 37 ?", "fr", "spatial", 37),
])
def test_a_scenario_goal_stated_as_the_scenario_at_n(question, lang, slug, claimed):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim" and answer.verdict is (_scenario(slug).goal == claimed)
    assert str(_scenario(slug).goal) in answer.answer


@pytest.mark.parametrize(("question", "lang", "claimed"), [
    ("Chill Mode uses 3 random scoring cards and its goal is 25, right?", "en", 25),
    ("en Chill Mode l'objectif c'est 30 et ce sont 3 cartes au hasard", "fr", 30),
    ("chill mode: goal 25 with 3 cards at random, yes?", "en", 25),
])
def test_a_random_card_scenario_says_how_many_cards(question, lang, claimed):
    chill = _scenario("chill-mode")
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim" and answer.verdict is (chill.goal == claimed)
    assert f"{chill.random_cards} " in answer.answer


@pytest.mark.parametrize(("question", "lang", "context", "slug"), [
    ("which scoring cards does it use?", "en", ["what's the Balanced scenario's goal?"], "balanced"),
    ("et il utilise quelles cartes ?", "fr", ["objectif du scénario Synergy ?"], "synergy"),
    ("what cards are in that one?", "en", ["goal for the Bonus scenario?"], "bonus"),
])
def test_which_cards_a_scenario_uses_as_a_follow_up(question, lang, context, slug):
    answer = ask(question, lang, context)
    assert answer is not None and answer.engine["scenario"] == slug
    for card_slug in _scenario(slug).cards:
        assert engine.scoring_card(card_slug).name_fr in answer.answer if lang == "fr" else \
            engine.scoring_card(card_slug).name_en in answer.answer


# ------------------------------------------------------------------------------------------- paintings


def _points(titles, scoring=engine.FIRST_GAME_CARDS):
    return engine.score_painting(engine.Painting.from_cards(titles), list(scoring)).points()


@pytest.mark.parametrize(("question", "lang", "titles"), [
    ("chosen truth mess (mess on top) = ? pts", "en", ["Chosen", "Truth", "Mess"]),
    ("vast nature pride (vast en bas), ça fait combien ?", "fr", ["Vast", "Nature", "Pride"]),
    ("sudden wandering purpose (sudden at the bottom): points?", "en", ["Sudden", "Wandering", "Purpose"]),
])
def test_three_titles_and_a_later_layer_label(question, lang, titles):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["cards"] == titles and answer.engine["points"] == _points(titles)


@pytest.mark.parametrize(("question", "lang", "titles"), [
    ("Chosen at the bottom, Vast, Nature on top - points and title? first-game mat", "en", ["Chosen", "Vast", "Nature"]),
    ("Fragile en bas, Truth, Mess en haut, en config first game : points et titre ?", "fr", ["Fragile", "Truth", "Mess"]),
    ("end of the game: Risky bottom, Pride, Vast top. score + title?", "en", ["Risky", "Pride", "Vast"]),
])
def test_a_title_question_is_not_a_title_claim(question, lang, titles):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed" and answer.engine["cards"] == titles
    assert answer.engine["points"] == _points(titles)


@pytest.mark.parametrize(("question", "lang", "titles"), [
    ("Forbidden at the bottom (the one with the bonus per hue), then Innocent, Attraction on top: points?", "en",
     ["Forbidden", "Innocent", "Attraction"]),
    ("alors : Vast en bas (celle avec le bonus par forme), Nature, Chosen en haut, ça rapporte quoi ?", "fr",
     ["Vast", "Nature", "Chosen"]),
    ("so Game bottom (bonus per texture one), Chosen, Truth top, what's it worth", "en", ["Game", "Chosen", "Truth"]),
])
def test_a_bonus_icon_is_not_the_bonus_scenario(question, lang, titles):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["scoring"] == list(engine.FIRST_GAME_CARDS)
    assert answer.engine["points"] == _points(titles)


@pytest.mark.parametrize(("question", "lang", "titles"), [
    ("Chosen then Game then Truth on top, it only scores a single point right?", "en", ["Chosen", "Game", "Truth"]),
    ("Harmonious, Complexity, Mistake par-dessus : ça donne qu'un point, c'est ça ?", "fr", ["Harmonious", "Complexity", "Mistake"]),
    ("Masked, Vast, Nature bottom to top is worth one point, isn't it?", "en", ["Masked", "Vast", "Nature"]),
])
def test_a_single_point_claim(question, lang, titles):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim" and answer.verdict is (_points(titles) == 1)


# ------------------------------------------------------------------------------------------- painting follow-ups


@pytest.mark.parametrize(("question", "lang", "context", "titles"), [
    ("and if I flip it, Mess on the bottom and Chosen on top?", "en", ["Chosen, Game, Mess bottom to top: points?"],
     ["Mess", "Game", "Chosen"]),
    ("et si j'inverse, Truth en bas et Fragile en haut ?", "fr", ["Fragile, Pride, Truth de bas en haut, ça fait combien ?"],
     ["Truth", "Pride", "Fragile"]),
    ("what if it's Nature at the bottom and Vast on top", "en", ["Vast bottom, Masked, Nature top: what's that worth?"],
     ["Nature", "Masked", "Vast"]),
])
def test_a_follow_up_naming_two_cards_of_the_painting_at_its_ends(question, lang, context, titles):
    answer = ask(question, lang, context)
    assert answer is not None and answer.engine["cards"] == titles and answer.engine["points"] == _points(titles)


@pytest.mark.parametrize(("question", "lang", "context", "shade"), [
    ("how many green ribbons does that give me?", "en", ["Chosen bottom, Game, Truth top: score?"], "green"),
    ("ça me fait combien de rubans rouges ?", "fr", ["Vast en bas, Nature, Pride en haut, ça rapporte quoi ?"], "red"),
    ("and how many violet ribbons is that?", "en", ["Risky, Pride, Vast bottom to top - points?"], "violet"),
])
def test_a_follow_up_asking_the_ribbons_of_one_colour(question, lang, context, shade):
    answer = ask(question, lang, context)
    slug = _colour_card(shade)
    assert answer is not None and answer.kind == "computed"
    assert f"{answer.engine['ribbons'][slug]} " in answer.answer.split(".")[0]


@pytest.mark.parametrize(("question", "lang", "context", "slug", "claimed"), [
    ("that's 1 movement ribbon there, right?", "en", ["Spatial scenario: Sudden bottom, Wandering, Purpose top. points?"],
     "movement", 1),
    ("ça fait 2 rubans proximité là, non ?", "fr", ["scénario Spatial : Imminent en bas, Childhood, Expanse en haut, combien ?"],
     "proximity", 2),
    ("so that's 3 space ribbons, yeah?", "en", ["spatial: Imminent bottom, Childhood middle, Expanse top, score?"], "space", 3),
])
def test_a_follow_up_claim_about_one_cards_ribbons_keeps_the_scenario(question, lang, context, slug, claimed):
    answer = ask(question, lang, context)
    assert answer is not None and answer.kind == "claim" and answer.engine["scoring"] == list(_scenario("spatial").cards)
    assert answer.verdict is (answer.engine["ribbons"][slug] == claimed)


# ------------------------------------------------------------------------------------------- ties


@pytest.mark.parametrize(("question", "lang", "mine", "theirs"), [
    ("we both finished on 31, my opponent has 3 tokens left and I have 4. who wins?", "en", 4, 3),
    ("égalité à 27 : mon adversaire a 1 jeton, moi j'en ai 2, qui gagne ?", "fr", 2, 1),
    ("tied at 30, she has 2 tokens, I have 2 tokens, who wins?", "en", 2, 2),
    ("on a fini à égalité, 28 partout, j'ai 3 jetons et lui 1, qui gagne ?", "fr", 3, 1),
])
def test_a_tie_on_points_is_broken_by_the_tokens_left(question, lang, mine, theirs):
    answer = ask(question, lang)
    expected = engine.winners([30, 30], [mine, theirs])
    assert answer is not None and answer.engine["tokens"] == [mine, theirs]
    assert answer.engine["winners"] == ["me" if index == 0 else "opponent" for index in expected]


def test_a_tie_follow_up_after_a_total():
    answer = ask("my friend also ended on 25, he has 3 tokens left and I've got 1. who wins?", "en",
                 ["final count: 2 red, 1 green, 3 blue and 2 silvers, first game cards. total?"])
    assert answer is not None and answer.engine["winners"] == ["opponent"]


# ------------------------------------------------------------------------------------------- best painting


@pytest.mark.parametrize(("question", "lang", "hand", "scenario"), [
    ("synergy game, holding chosen, vast, nature and pride. what's the max I can get from one painting?", "en",
     ["Chosen", "Vast", "Nature", "Pride"], "synergy"),
    ("partie Balanced, j'ai Fragile, Truth, Mess et Risky en main : le max que je peux faire avec une peinture ?", "fr",
     ["Fragile", "Truth", "Mess", "Risky"], "balanced"),
    ("bonus game: I hold Sudden, Masked, Truth, Game - most I can get from a painting?", "en",
     ["Sudden", "Masked", "Truth", "Game"], "bonus"),
])
def test_the_most_a_hand_can_score_in_a_scenario_game(question, lang, hand, scenario):
    best = engine.best_painting(hand, list(_scenario(scenario).cards))
    answer = ask(question, lang)
    assert answer is not None and f"{best.points} " in answer.answer


@pytest.mark.parametrize(("question", "lang", "context", "intent"), [
    ("the Hard level also needs 35 points, right?", "en", ["3 green ribbons, how many points?"], "solo_level"),
    ("also, how many scoring cards are there in the box?", "en", ["what's the goal of the Bonus scenario?"], "component_count"),
    ("il y a aussi combien de scénarios en tout ?", "fr", ["combien valent 2 rubans bleus ?"], "component_count"),
])
def test_a_complete_question_saying_also_keeps_its_own_intent(question, lang, context, intent):
    alone = ask(question, lang)
    answer = ask(question, lang, context)
    assert answer is not None and answer.answer == alone.answer and answer.engine["intent"] == intent


# ------------------------------------------------------------------------------------------- more follow-ups


@pytest.mark.parametrize(("question", "lang", "context", "titles"), [
    ("what if i swap chosen and truth?", "en", ["Chosen, Game, Truth bottom to top, score?"], ["Truth", "Game", "Chosen"]),
    ("et si j'échange Pride et Fragile ?", "fr", ["Fragile, Pride, Truth de bas en haut : combien ?"], ["Pride", "Fragile", "Truth"]),
    ("swap vast and masked?", "en", ["Vast bottom, Masked, Nature top - points?"], ["Masked", "Vast", "Nature"]),
])
def test_a_follow_up_swapping_two_named_cards(question, lang, context, titles):
    answer = ask(question, lang, context)
    assert answer is not None and answer.engine["cards"] == titles and answer.engine["points"] == _points(titles)


@pytest.mark.parametrize(("question", "lang", "context", "titles"), [
    ("how many silver ribbons is that?", "en", ["Liberated, Game, Darkness bottom to top, score?"], ["Liberated", "Game", "Darkness"]),
    ("ça fait combien de rubans argent ?", "fr", ["Chosen en bas, Game, Truth en haut, ça vaut combien ?"], ["Chosen", "Game", "Truth"]),
    ("and how many silver ribbons do I get?", "en", ["Vast bottom, Masked, Nature top - points?"], ["Vast", "Masked", "Nature"]),
])
def test_a_follow_up_asking_the_silver_ribbons(question, lang, context, titles):
    bonus = engine.score_painting(engine.Painting.from_cards(titles), list(engine.FIRST_GAME_CARDS)).bonus
    answer = ask(question, lang, context)
    assert answer is not None and answer.engine["bonus"] == bonus and f"{bonus} " in answer.answer.split(".")[0]


@pytest.mark.parametrize(("question", "lang", "context", "groups"), [
    ("et avec 2 argents en plus ?", "fr", ["2 rouges et 1 vert ça fait combien ?"], {"variety": 2, "repetition": 1, "silver": 2}),
    ("and with 3 more silvers?", "en", ["how much are 2 blue and 2 violet ribbons?"], {"emphasis": 2, "composition": 2, "silver": 3}),
    ("et 1 ruban bleu en plus ?", "fr", ["combien font 3 rubans verts ?"], {"repetition": 3, "emphasis": 1}),
])
def test_a_follow_up_adding_ribbons_to_the_previous_ones(question, lang, context, groups):
    total = sum(engine.SILVER_POINTS * count if slug == "silver" else engine.points_for(slug, count)
                for slug, count in groups.items())
    answer = ask(question, lang, context)
    assert answer is not None and answer.engine["points"] == total


@pytest.mark.parametrize(("question", "lang", "context", "expected"), [
    ("is that a win?", "en", ["solo game on hard, I got 33"], False),
    ("c'est gagné alors ?", "fr", ["en solo niveau normal j'ai fait 31"], True),
    ("did I win then?", "en", ["playing solo on easy, finished with 24"], False),
])
def test_a_follow_up_asking_again_what_the_previous_answer_said(question, lang, context, expected):
    answer = ask(question, lang, context)
    assert answer is not None and answer.engine["passed"] is expected


@pytest.mark.parametrize(("question", "lang", "context", "winner"), [
    ("who wins then?", "en", ["we both ended on 30, I have 2 tokens and my friend has 3"], "opponent"),
    ("qui gagne alors ?", "fr", ["on a tous les deux fini à 26, j'ai 4 jetons et mon adversaire 1"], "me"),
    ("so who wins?", "en", ["tied at 35: I kept 1 token, my opponent has 1 token"], None),
])
def test_who_wins_after_the_tie_was_described(question, lang, context, winner):
    answer = ask(question, lang, context)
    assert answer is not None
    assert answer.engine["winners"] == ([winner] if winner else ["me", "opponent"])


@pytest.mark.parametrize(("question", "lang", "context", "score"), [
    ("does that earn an achievement?", "en", ["I scored 48 points, what level is that in solo?"], 48),
    ("ça débloque un succès ?", "fr", ["j'ai fait 41 en solo, quel niveau ?"], 41),
    ("any achievement for that?", "en", ["solo, 39 points, what level?"], 39),
])
def test_an_achievement_follow_up_uses_the_previous_score(question, lang, context, score):
    expected = [entry.slug for entry in engine.ACHIEVEMENTS if entry.kind == "game_points" and score >= entry.params["min"]]
    answer = ask(question, lang, context)
    assert answer is not None and answer.engine["earned"] == expected


@pytest.mark.parametrize(("question", "lang", "slug", "claimed"), [
    ("le scénario No Elements c'est 35 points ?", "fr", "no-elements", 35),
    ("Synergy is 30 points?", "en", "synergy", 30),
    ("scénario All Elements, c'est 36 ?", "fr", "all-elements", 36),
])
def test_a_goal_said_right_after_the_scenario_is_a_goal_claim(question, lang, slug, claimed):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim" and answer.verdict is (_scenario(slug).goal == claimed)


@pytest.mark.parametrize(("question", "lang", "slug"), [
    ("y a combien de succès ?", "fr", "achievements"), ("il y a combien de scénarios ?", "fr", "scenarios"),
    ("y en a combien, des cartes de score ?", "fr", "scoring_cards"),
])
def test_y_a_combien_counts_a_component(question, lang, slug):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["component"] == slug and str(_count(slug).count) in answer.answer


@pytest.mark.parametrize(("question", "lang", "players", "slug"), [
    ("on est 5, il reste combien de cartes de fond ?", "fr", 5, "background_cards"),
    ("we are 2, how many inspiration tokens are unused?", "en", 2, "inspiration_tokens"),
    ("nous sommes 3 : combien de cartes de fond en trop ?", "fr", 3, "background_cards"),
])
def test_leftovers_said_without_the_word_box(question, lang, players, slug):
    left = _count(slug).count - players * _count(f"{slug}_per_player").count
    answer = ask(question, lang)
    assert answer is not None and answer.engine["left"] == left
