"""Families of computed questions read from players' chat (issue 10, third blind round): French written without its
apostrophes, reported statements without a question mark, follow-ups that state a value, odds written as fractions,
percents or words, players named in the third person, negative outcomes claimed about a painting, and an open
question asked after a reported claim. The questions are our own wordings; the oracles are the engine's data and
functions, or the rulebook's numbers."""

from fractions import Fraction

import pytest
from compute_helpers import ask
from rulesbot.engine import canvas as engine
from rulesbot.engine.canvas.scoring import painting_points


def _odds(tokens, position):
    return dict(engine.vincent_take_odds(vincent_tokens=tokens))[position]


def _left_in_box(component, players):
    counts = engine.component_counts()
    return counts[component].count - players * counts[f"{component}_per_player"].count


# ------------------------------------------------------------------------------ 1. claims however they are written


@pytest.mark.parametrize(("question", "lang", "verdict"), [
    # French chat without its apostrophes reads as the standard forms.
    ("cest vrai que 2 rubans Emphase ca fait 4 points", "fr", engine.points_for("emphasis", 2) == 4),
    ("jai entendu dire quavec 3 rubans Variete on marque 13 points", "fr", engine.points_for("variety", 3) == 13),
    # A reported statement is a claim without a question mark, whoever says it and however long their name.
    ("The guy next to me says three blue ribbons score 11.", "en", engine.points_for("emphasis", 3) == 11),
    ("Mon cousin affirme qu'à 3 joueurs il reste 8 jetons dans la boîte.", "fr", _left_in_box("inspiration_tokens", 3) == 8),
    ("La copine de mon frère dit que Style ça va jusqu'à 4 rubans comme Variété.", "fr",
     engine.scoring_card("style").max_ribbons == 4),
])
def test_a_claim_is_read_however_it_is_written(question, lang, verdict):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim" and answer.verdict is verdict, answer and answer.answer


@pytest.mark.parametrize(("previous", "question", "lang", "card", "ribbons", "claimed"), [
    ("combien rapportent 2 rubans Variété ?", "et 3 rubans ça fait 13 ?", "fr", "variety", 3, 13),
    ("what are 2 Emphasis ribbons worth?", "and Repetition with 3 is 9?", "en", "repetition", 3, 9),
    ("how many points for 1 Composition ribbon?", "and 2 gives 4 points?", "en", "composition", 2, 4),
])
def test_a_follow_up_stating_a_value_is_checked(previous, question, lang, card, ribbons, claimed):
    answer = ask(question, lang, context=[previous])
    assert answer is not None and answer.kind == "claim", answer and answer.answer
    assert answer.verdict is (engine.points_for(card, ribbons) == claimed), answer.answer


def test_french_elisions_are_restored_for_slots():
    # "jai 2 jetons": the tokens the player holds, as with "j'ai 2 jetons".
    plain, chat = ask("j'ai 2 jetons, combien coûte la 4e carte ?", "fr"), ask("jai 2 jetons, combien coute la 4e carte ?", "fr")
    assert chat is not None and plain is not None and chat.engine == plain.engine


# ------------------------------------------------------------------------------ 3. odds claimed in any notation


@pytest.mark.parametrize(("question", "lang", "tokens", "position", "claimed"), [
    ("vincent 3 tokens: 3/8 he ends up on the third card?", "en", 3, 3, Fraction(3, 8)),
    ("With 1 token Vincent takes the free card fifty-fifty, right?", "en", 1, 1, Fraction(1, 2)),
    ("Vincent 2 jetons, 50/50 qu'il prenne la deuxième carte ?", "fr", 2, 2, Fraction(1, 2)),
    ("Vincent : 3 jetons. 12,5 % qu'il prenne la carte gratuite ?", "fr", 3, 1, Fraction(1, 8)),
    ("my daughter says with 4 tokens it's 40% that Vincent grabs the 3rd card", "en", 4, 3, Fraction(2, 5)),
])
def test_odds_claimed_as_a_fraction_a_percent_or_words(question, lang, tokens, position, claimed):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim", answer and answer.answer
    assert answer.engine["tokens"] == tokens and answer.engine["position"] == position, answer.engine
    assert answer.verdict is (_odds(tokens, position) == claimed), answer.answer


@pytest.mark.parametrize(("question", "lang"), [
    ("Vincent has no tokens left, which card does he take?", "en"),
    ("Vincent n'a aucun jeton : il prend quelle carte ?", "fr"),
])
def test_a_certain_outcome_is_shown_as_a_percent(question, lang):
    answer = ask(question, lang)
    assert answer is not None and _odds(0, 1) == 1
    assert "100" in answer.answer and "%" in answer.answer, answer.answer


# ------------------------------------------------------------------------------ 2. players named in the third person


def _hand_limit():
    return engine.ruleset("base").hand_limit


@pytest.mark.parametrize(("question", "lang", "held"), [
    ("My nephew has five Art Cards in his hand; may he take the free card now?", "en", 5),
    ("Ma fille a 5 cartes Art en main, peut-elle prendre la carte gratuite ?", "fr", 5),
    ("Chloé a déjà 4 cartes en main, elle peut encore prendre la carte gratuite ?", "fr", 4),
    ("Sam holds 3 cards in her hand. Can she take the free card?", "en", 3),
])
def test_the_hand_of_another_player_is_read(question, lang, held):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["intent"] == "legality", answer and answer.answer
    assert answer.engine["hand"] == held and answer.engine["allowed"] is (held < _hand_limit()), answer.answer


@pytest.mark.parametrize(("question", "lang", "tokens", "position"), [
    ("Paul has 2 tokens. Can he take the fourth card?", "en", 2, 4),
    ("Ma sœur a 3 jetons, elle peut prendre la 5e carte ?", "fr", 3, 5),
    ("my son has 1 token and takes the 2nd card, how many does he have after?", "en", 1, 2),
])
def test_the_tokens_of_another_player_are_read(question, lang, tokens, position):
    # The rulebook: one token per card skipped, so the card at `position` costs position - 1 (no tokens on the row).
    answer = ask(question, lang)
    assert answer is not None and answer.engine["intent"] == "take_cost", answer and answer.answer
    assert answer.engine["player_tokens"] == tokens and answer.engine["cost"] == position - 1, answer.engine
    assert answer.engine["allowed"] is (tokens >= position - 1)


@pytest.mark.parametrize(("question", "lang", "position", "claimed"), [
    ("Solo Puzzle: Emma takes the third card. She says she pays 2 tokens to the supply and the 2 cards she skipped are discarded, right?", "en", 3, 2),
    ("Puzzle solo : Lucie prend la 4e carte. Elle dit qu'elle paie 2 jetons à la réserve et que les 3 cartes qu'elle saute sont défaussées, non ?", "fr", 4, 2),
])
def test_a_third_person_cost_claim_reads_the_cost_not_the_skipped_count(question, lang, position, claimed):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim", answer and answer.answer
    assert answer.verdict is (position - 1 == claimed), answer.answer


# ------------------------------------------------------------------------------ 4. a card claimed not to be earned


def _ribbons(*titles):
    return engine.score_painting(engine.Painting.from_cards(list(titles)), list(engine.FIRST_GAME_CARDS)).ribbons


@pytest.mark.parametrize(("question", "lang", "slug"), [
    ("Chosen, View, Game bottom to top. My friend says no Variety ribbon for that one, is he right?", "en", "variety"),
    ("Chosen, View, Game from the bottom up: is it true that Repetition fails there?", "en", "repetition"),
    ("Chosen en bas, View, Game en haut : ma sœur dit que la Répétition est ratée, elle a raison ?", "fr", "repetition"),
    ("Chosen en bas, View au milieu, Game en haut : pas d'Emphase sur ce tableau, c'est bien ça ?", "fr", "emphasis"),
])
def test_a_claim_that_a_card_earns_nothing(question, lang, slug):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim", answer and answer.answer
    assert answer.verdict is (_ribbons("Chosen", "View", "Game")[slug] == 0), answer.answer


# ------------------------------------------------------------------------------ 5. an open question after a reported claim


def _points(*titles):
    return painting_points(engine.score_painting(engine.Painting.from_cards(list(titles)), list(engine.FIRST_GAME_CARDS)))


@pytest.mark.parametrize(("question", "lang"), [
    ("Chosen, View, Game from bottom to top, first game. My cousin says it is worth 15. What does it really score?", "en"),
    ("Chosen en bas, View au milieu, Game en haut, première partie. Mon oncle dit 8 points. Ça fait combien en vrai ?", "fr"),
    ("First game: Chosen at the bottom, View, then Game on top. Dad wrote 4 on the pad and mum thinks it is less. "
     "How many points is it worth?", "en"),
])
def test_an_open_question_after_a_reported_claim_is_computed(question, lang):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed", answer and answer.answer
    assert answer.engine["points"] == _points("Chosen", "View", "Game"), answer.engine


@pytest.mark.parametrize(("question", "lang", "claimed"), [
    ("Chosen, View, Game from bottom to top, first game. My cousin says it is worth 15. Is he right?", "en", 15),
    ("Chosen en bas, View au milieu, Game en haut, première partie. Mon oncle dit 10 points. Qui a raison ?", "fr", 10),
])
def test_a_yes_no_question_after_a_reported_claim_stays_a_claim(question, lang, claimed):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim", answer and answer.answer
    assert answer.verdict is (_points("Chosen", "View", "Game") == claimed), answer.answer


# ------------------------------------------------------------------------------ 6. the role a stated value plays


def _designers_score():
    # The "beat the designers" achievement needs strictly more than their score (rulebook p. 6).
    beat = max((entry for entry in engine.ACHIEVEMENTS if entry.kind == "game_points" and "min" in entry.params),
               key=lambda entry: entry.params["min"])
    return beat.params["min"] - 1


@pytest.mark.parametrize(("question", "lang", "claimed"), [
    ("My daughter read that the designers' best score is 45. Is that what the rules say?", "en", 45),
    ("Ma sœur a lu quelque part que le record des auteurs est de 47 points. C'est ce que dit le livret ?", "fr", 47),
    ("My uncle heard somewhere that the designers scored 52 at best, is that in the rulebook?", "en", 52),
])
def test_a_reported_designers_score_is_checked_not_scored(question, lang, claimed):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim" and answer.engine["intent"] == "designers_score", answer and answer.answer
    assert answer.verdict is (_designers_score() == claimed), answer.answer


@pytest.mark.parametrize(("question", "lang", "component", "players"), [
    ("We are three tonight. Our friend says we'll run short of Background Cards. How many will be left in the box?", "en",
     "background_cards", 3),
    ("On est 4 ce soir. Mon pote dit qu'il n'y aura pas assez de jetons Inspiration. Combien en reste-t-il dans la boîte ?", "fr",
     "inspiration_tokens", 4),
    ("On est 5 : il y a assez de cartes d'arrière-plan pour tout le monde ? Combien en reste-t-il ensuite ?", "fr",
     "background_cards", 5),
])
def test_a_count_asked_with_a_pronoun_counts_the_component_named_before(question, lang, component, players):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["intent"] == "component_leftover", answer and answer.answer
    assert answer.engine["left"] == _left_in_box(component, players), answer.engine


@pytest.mark.parametrize(("question", "lang"), [
    ("Chosen / View / Game, mon cousin dit que ça fait 3 rubans Répétition parce qu'il reste une Forme toute seule.", "fr"),
    ("Chosen, View, Game: my brother says that's 3 Repetition ribbons since one Shape is left alone.", "en"),
])
def test_a_card_left_alone_is_no_solo_game(question, lang):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim" and answer.engine["intent"] == "painting", answer and answer.answer
    assert answer.verdict is (_ribbons("Chosen", "View", "Game")["repetition"] == 3), answer.answer


def _first_game_top():
    # Each Scoring Card's table ends at its maximum (rulebook p. 4): the most the first game's four cards give.
    return sum(engine.scoring_card(slug).points[-1] for slug in engine.FIRST_GAME_CARDS)


@pytest.mark.parametrize(("question", "lang"), [
    ("if somebody maxed out every scoring card in the first game, how many points would that be without silver?", "en"),
    ("si on maxe toutes les cartes de score de la première partie, ça fait combien de points sans l'argent ?", "fr"),
    ("Maxing out each scoring card of a first game: what's the total, silver aside?", "en"),
])
def test_every_scoring_card_maxed_out(question, lang):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["intent"] == "max_points", answer and answer.answer
    assert answer.engine["total"] == _first_game_top(), answer.engine


@pytest.mark.parametrize(("question", "lang", "kind"), [
    ("succès rubans argent sur toute la partie : il en faut combien ?", "fr", "game_silver"),
    ("the silver ribbon achievement over a whole game, how many do you need?", "en", "game_silver"),
    ("succès argent en une seule peinture : il en faut combien ?", "fr", "painting_silver"),
])
def test_how_many_an_achievement_needs_is_no_count_of_achievements(question, lang, kind):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["intent"] == "achievement_threshold", answer and answer.answer
    expected = next(entry.params["min"] for entry in engine.ACHIEVEMENTS if entry.kind == kind and "min" in entry.params)
    assert answer.engine["min"] == expected, answer.engine


@pytest.mark.parametrize(("question", "lang", "players", "tokens"), [
    ("Tie at 31 each. I have 2 tokens left, Paul has 0, Lina has 2. Who wins?", "en", ["me", "Paul", "Lina"], [2, 0, 2]),
    ("Égalité à 35 points : Marc a 1 jeton, Zoé en a 3 et moi j'en ai 2. Qui gagne ?", "fr", ["me", "Marc", "Zoé"], [2, 1, 3]),
    ("We all finished on 28, a tie. Sara kept 3 tokens, Ben has 1 and Ali has 0, who's the winner?", "en",
     ["Sara", "Ben", "Ali"], [3, 1, 0]),
])
def test_a_tie_between_named_players(question, lang, players, tokens):
    # The tie-break (rulebook p. 5): on equal points the most Inspiration Tokens left wins; equal tokens stay tied.
    answer = ask(question, lang)
    assert answer is not None and answer.engine["intent"] == "tie_break", answer and answer.answer
    assert answer.engine["players"] == players and answer.engine["tokens"] == tokens, answer.engine
    most = max(tokens)
    assert answer.engine["winners"] == [who for who, held in zip(players, tokens, strict=True) if held == most]


def _best_of(hand, scenario_cards):
    # Brute force over every ordered triple of the hand (the rulebook: a painting is 3 cards in the order chosen).
    from itertools import permutations
    return max(painting_points(engine.score_painting(engine.Painting.from_cards(list(triple)), list(scenario_cards)))
               for triple in permutations(hand, 3))


@pytest.mark.parametrize(("question", "lang", "hand"), [
    ("I hold Chosen, View, Game and Truth for the first game. What's the max I could score with three of them?", "en",
     ["Chosen", "View", "Game", "Truth"]),
    ("Première partie, j'ai Chosen, View, Game et Truth en main. Mon pote dit que je dépasse pas 8. C'est quoi le max avec 3 de ces cartes ?",
     "fr", ["Chosen", "View", "Game", "Truth"]),
    ("first game, hand: Mess, Truth, Chosen, Dreams. the maximum possible for one painting?", "en",
     ["Mess", "Truth", "Chosen", "Dreams"]),
])
def test_the_max_of_a_hand_is_its_best_painting(question, lang, hand):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed" and answer.engine["intent"] == "best_painting", answer and answer.answer
    assert answer.engine["points"] == _best_of(hand, engine.FIRST_GAME_CARDS), answer.engine


def _scenario(slug):
    return next(scenario for scenario in engine.SCENARIOS if scenario.slug == slug)


@pytest.mark.parametrize(("question", "lang", "slug"), [
    ("Nous débutons avec seulement Composition et Variété sur le plateau. Quel score faut-il pour gagner ce scénario ?", "fr",
     "family-game"),
    ("We play with Proximity, Space and Variety only. What is the goal score for that setup?", "en", "synergy"),
    ("Hierarchy, Movement, Proportion and Style on the mat: what's the target?", "en", "bonus"),
])
def test_a_scenario_said_by_its_scoring_cards(question, lang, slug):
    answer = ask(question, lang)
    assert answer is not None and str(_scenario(slug).goal) in answer.answer, answer and answer.answer
    assert answer.engine["intent"] in ("scenario_goal", "scenario"), answer.engine


@pytest.mark.parametrize(("question", "lang"), [
    ("is there an easy scenario for little kids, and what score do we need?", "en"),
    ("c'est quoi un scénario facile pour débuter, et il faut combien de points ?", "fr"),
    ("we want a hard game tonight: which setup and what target score?", "en"),
])
def test_a_level_word_describing_a_scenario_is_no_solo_level(question, lang):
    answer = ask(question, lang)
    assert answer is None or answer.engine is None or answer.engine["intent"] != "solo_level", answer.answer


def test_a_solo_level_is_still_read():
    answer = ask("what score do I need for hard in solo?")
    level = next(level for level in engine.SOLO_LEVELS if level.slug == "hard")
    assert answer.engine["intent"] == "solo_level" and str(level.target) in answer.answer, answer.answer


@pytest.mark.parametrize(("question", "lang", "counts", "claimed"), [
    ("mon frère dit que 2 compo + 1 variété ça fait 7", "fr", {"composition": 2, "variety": 1}, 7),
    ("my dad says Composition 3 and Variety 2 is 16, and that's the goal anyway", "en", {"composition": 3, "variety": 2}, 16),
])
def test_scoring_cards_with_counts_are_ribbons_not_a_scenario(question, lang, counts, claimed):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim" and answer.engine["intent"] == "ribbon_points", answer and answer.answer
    assert answer.verdict is (sum(engine.points_for(slug, n) for slug, n in counts.items()) == claimed), answer.answer


def _row_after(positions):
    # Play the takes in the engine from an empty row (each player holding plenty of tokens).
    rules = engine.ruleset("base")
    row = [art_card.id for art_card in engine.ART_CARDS[: rules.row_size]]
    state = engine.custom_game(row=row, hands=((), ()), tokens=(10, 10))
    for player, position in enumerate(positions):
        state = engine.apply_action(state, engine.TakeCard(player=player, position=position))
    return list(state.row_tokens)


@pytest.mark.parametrize(("question", "lang", "positions", "asked"), [
    ("In the example Abby skips two cards and then Charlotte skips one card. After Charlotte's turn, how many tokens are on the first card?",
     "en", [3, 2], 1),
    ("Léo saute 3 cartes, puis Inès saute une carte. Combien de jetons sur la 1re carte après le tour d'Inès ?", "fr", [4, 2], 1),
    ("Max skipped one card, then Noor skipped two cards. How many tokens are sitting on the second card after that?", "en",
     [2, 3], 2),
])
def test_players_who_skip_cards_take_the_next_one(question, lang, positions, asked):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["intent"] == "take_players", answer and answer.answer
    assert answer.engine["positions"] == positions, answer.engine
    assert answer.engine["row_tokens_after"][asked - 1] == _row_after(positions)[asked - 1], answer.engine
