"""Fourth-round computed families in our own wording (EN and FR): Vincent's odds and turns, Solo Puzzle's supply,
solo levels, achievements and scenario goals, component counts. Oracles are the engine's own functions and data
(vincent_take_odds, vincent_turn, apply_action, SOLO_LEVELS, SCENARIOS, component_counts) called here directly, or
the rule as the rulebook states it, never the intents' code."""


import pytest
from compute_helpers import ask
from rulesbot.engine import canvas as engine

from rulesbot.compute.parse import parse

VINCENT = engine.ruleset("vincent")


def odds(tokens, position):
    """The engine's probability that Vincent, tossing `tokens`, selects row `position`."""
    return dict(engine.vincent_take_odds(vincent_tokens=tokens))[position]


def vincent_after(tokens, face_up, row_tokens=()):
    """(the row position Vincent discards, his tokens after) for one toss, from the engine's vincent_turn."""
    row = [card.id for card in engine.ART_CARDS[: VINCENT.row_size]]
    on_cards = list(row_tokens) + [0] * (VINCENT.row_size - len(row_tokens))
    state = engine.custom_game(row=row, hands=((),), row_tokens=on_cards, ruleset_name=VINCENT.name, vincent_tokens=tokens)
    after = engine.vincent_turn(state, face_up)
    gone = [index for index, card in enumerate(state.row, start=1) if card not in after.row]
    return gone[0], after.vincent_tokens


# ------------------------------------------------------------------------------------ Vincent


@pytest.mark.parametrize(("question", "lang", "tokens", "position"), [
    # The rulebook quoted before the question is context, not a claim to check.
    ("the rulebook says he flips every token and spends the face-up ones. he has 3. chance he grabs the 2nd card?",
     "en", 3, 2),
    ("le livret dit qu'il lance tous ses jetons. il en a 4. quelle probabilité qu'il prenne la 4e carte ?", "fr", 4, 4),
    # The cap on what he spends, restated, is the rule recalled, not another state of the game.
    ("Vincent is holding 6 tokens but he never spends more than 4. likelihood he picks the last card?", "en", 6, 5),
    ("vincent a 5 jetons, il peut en dépenser 4 au maximum : quelle chance qu'il prenne la 3e ?", "fr", 5, 3),
])
def test_vincent_odds_with_the_rule_recalled(question, lang, tokens, position):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed", answer and answer.answer
    assert answer.engine["tokens"] == tokens and answer.engine["probability"] == str(odds(tokens, position))


@pytest.mark.parametrize(("question", "lang", "tokens", "face_up"), [
    ("vincent throws his 4 tokens and 1 comes up. which card is discarded?", "en", 4, 1),
    ("Vincent's toss: none of his tokens land face up. what card does he take?", "en", 4, 0),
    ("vincent lance ses 3 jetons, 2 tombent face visible : il prend quelle carte ?", "fr", 3, 2),
    ("si aucun de ses jetons n'est face visible, vincent prend laquelle ?", "fr", 4, 0),
])
def test_a_toss_with_its_face_up_count_gives_the_card_not_odds(question, lang, tokens, face_up):
    position, _after = vincent_after(tokens, face_up)
    answer = ask(question, lang)
    assert answer is not None and answer.engine["position"] == position, answer and answer.answer
    assert "probab" not in answer.answer.lower()
    # What a player needs: the card, and that Vincent discards it (the rule's word).
    assert ("discard" in answer.answer) if lang == "en" else ("défausse" in answer.answer)


@pytest.mark.parametrize(("question", "lang", "tokens", "face_up", "row_tokens"), [
    ("vincent has 4 tokens, 2 land face up, and the 3rd card has 2 of my tokens on it. tokens for vincent after?",
     "en", 4, 2, (0, 0, 2)),
    ("vincent a 3 jetons, 1 tombe face visible et la 2e carte a 1 de mes jetons dessus. il en a combien après ?",
     "fr", 3, 1, (0, 1)),
    ("vincent has 4 tokens and all of them come up face up. how many does he hold after?", "en", 4, 4, ()),
])
def test_vincent_tokens_after_his_turn(question, lang, tokens, face_up, row_tokens):
    _position, after = vincent_after(tokens, face_up, row_tokens)
    answer = ask(question, lang)
    assert answer is not None and answer.engine["tokens_after"] == after, answer and answer.answer


@pytest.mark.parametrize(("question", "lang", "claimed"), [
    ("vincent with 4 tokens takes the free card half the time", "en", "1/2"),
    ("vincent avec 4 jetons : la 2e carte c'est une chance sur deux", "fr", "1/2"),
    ("si aucun jeton de vincent ne tombe face visible, il défausse la carte gratuite, non ?", "fr", None),
])
def test_vincent_claims_without_a_question(question, lang, claimed):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim", answer and answer.answer
    if claimed is None:
        assert answer.verdict is (vincent_after(4, 0)[0] == 1)
    else:
        position = 1 if "free" in question else 2
        assert answer.verdict is (str(odds(4, position)) == claimed)


def test_the_rulebook_as_speaker_is_no_claim_but_a_person_is():
    quoted = parse("the book says he tosses all his tokens. odds he takes the 3rd card?", "en", "canvas")
    assert not quoted.reported and "book" in quoted.folded
    assert parse("my friend says he takes the 3rd card half the time", "en", "canvas").reported


# ------------------------------------------------------------------------------------ solo levels


def level_reached(score):
    """The highest solo level a score meets (engine data: a target is met by reaching it)."""
    met = [level for level in engine.SOLO_LEVELS if score >= level.target]
    return max(met, key=lambda level: level.target).slug if met else None


def level(slug):
    return next(item for item in engine.SOLO_LEVELS if item.slug == slug)


@pytest.mark.parametrize(("question", "lang", "score", "claimed"), [
    # One level claimed as reached, the next one named as the requirement.
    ("solo game, I ended on 40, so I only get Hard since Master needs more than 40, correct?", "en", 40, "hard"),
    ("30 pile en solo ça reste Facile, il faut plus de 30 pour Normal, hein ?", "fr", 30, "easy"),
    ("scored 27 in solo: that is Easy, Normal needs 30, right?", "en", 27, "easy"),
])
def test_a_claimed_level_with_the_next_level_as_requirement(question, lang, score, claimed):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim", answer and answer.answer
    assert answer.verdict is (level_reached(score) == claimed), answer.answer


@pytest.mark.parametrize(("context", "question", "lang", "score"), [
    ("solo, I finished with 28. what level is that?", "and with 4 more?", "en", 28 + 4),
    ("en solo j'ai 37 points, ça fait quel niveau ?", "et avec 3 de moins ?", "fr", 37 - 3),
    ("played solo and got 33, which difficulty did I reach?", "what if I'd scored 7 more?", "en", 33 + 7),
])
def test_a_follow_up_moves_the_previous_score(context, question, lang, score):
    answer = ask(question, lang, context=[context])
    assert answer is not None and answer.engine["score"] == score, answer and answer.answer
    assert answer.engine["level"] == level_reached(score)


@pytest.mark.parametrize(("question", "lang", "score", "slug"), [
    # The rule: a level is won by reaching or beating its target, so a claim of a loss at the target is false.
    ("hard solo, exactly 35. my brother says you must beat the target, so that's a loss, right?", "en", 35, "hard"),
    ("niveau maître en solo, j'ai 40 tout rond. mon pote dit qu'il faut dépasser 40 donc c'est perdu ?", "fr", 40, "master"),
    ("solo on Normal with 29, I reckon I lost?", "en", 29, "normal"),
])
def test_a_claimed_loss_is_checked_against_the_target(question, lang, score, slug):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim", answer and answer.answer
    assert answer.verdict is (score < level(slug).target), answer.answer


# ------------------------------------------------------------------------------------ achievements and scenario goals


def achievement(kind, highest=True):
    """The engine's achievement of a kind (the highest threshold, as the designers' one is)."""
    found = [a for a in engine.ACHIEVEMENTS if a.kind == kind and "min" in a.params]
    return max(found, key=lambda a: a.params["min"]) if highest else min(found, key=lambda a: a.params["min"])


@pytest.mark.parametrize(("question", "lang", "score"), [
    ("finished on 41 points. how many more did I need to beat the designers?", "en", 41),
    ("j'ai fini à 45, il m'en manquait combien pour battre le record des auteurs ?", "fr", 45),
    ("we got 30 points, how far off the designers' best were we?", "en", 30),
])
def test_the_points_short_of_the_designers_score(question, lang, score):
    beat = achievement("game_points")
    answer = ask(question, lang)
    assert answer is not None and answer.engine["short"] == beat.params["min"] - score, answer and answer.answer


def max_ribbons_of(slugs):
    """Each Scoring Card's cap and last value, summed (engine data), for the cards of a setup."""
    cards = [engine.scoring_card(slug) for slug in slugs]
    return sum(card.max_ribbons for card in cards), sum(card.points[-1] for card in cards)


@pytest.mark.parametrize(("question", "lang", "slugs", "unit"), [
    ("the achievement for max ribbons on all 4 scoring cards, in the Balanced scenario: how many ribbons is that?", "en",
     "balanced", "ribbons"),
    ("succès « maximum de rubans des 4 cartes » pour le scénario Spatial : ça fait combien de points ?", "fr",
     "spatial", "points"),
    ("the 'max ribbons from all 4 scoring cards' achievement with the first-game cards, how many points does it give?",
     "en", None, "points"),
])
def test_the_max_ribbons_achievement_is_computed_for_a_setup(question, lang, slugs, unit):
    cards = engine.FIRST_GAME_CARDS if slugs is None else next(s for s in engine.SCENARIOS if s.slug == slugs).cards
    ribbons, points = max_ribbons_of(cards)
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "computed", answer and answer.answer
    assert answer.engine["ribbons"] == ribbons and answer.engine["total"] == points
    assert str(ribbons if unit == "ribbons" else points) in answer.answer


@pytest.mark.parametrize(("question", "lang", "context", "slug"), [
    ("Chill Mode is 25, ok. and Synergy?", "en", (), "synergy"),
    ("bon, Balanced c'est 33, et No Elements ?", "fr", (), "no-elements"),
    ("ok Spatial 37 got it, what about All Elements?", "en", ("what's the goal of Spatial?",), "all-elements"),
])
def test_the_scenario_asked_last_is_answered(question, lang, context, slug):
    scenario = next(item for item in engine.SCENARIOS if item.slug == slug)
    answer = ask(question, lang, context=context)
    assert answer is not None and answer.kind == "computed", answer and answer.answer
    assert answer.engine["scenario"] == slug and str(scenario.goal) in answer.answer


# ------------------------------------------------------------------------------------ components and the supply


def counts(ruleset="base"):
    return engine.component_counts(ruleset)


@pytest.mark.parametrize(("question", "lang", "players"), [
    ("4 players with 4 tokens each, that's more than the box has so we need substitutes?", "en", 4),
    ("à 5 joueurs, 4 jetons chacun, y en a pas assez dans la boîte, non ?", "fr", 5),
    ("we're 5, four tokens apiece: we'll run out of tokens, right?", "en", 5),
])
def test_a_claimed_shortage_of_tokens(question, lang, players):
    table = counts()
    short = players * table["inspiration_tokens_per_player"].count > table["inspiration_tokens"].count
    answer = ask(question, lang)
    assert answer is not None and answer.engine["short"] is short, answer and answer.answer
    assert answer.kind == "computed" or answer.verdict is short


@pytest.mark.parametrize(("question", "lang", "players"), [
    ("à 3 joueurs chacun prend 4 jetons, combien en reste-t-il dans la boîte ?", "fr", 3),
    ("each of the 4 of us takes four tokens at setup. how many are left in the box?", "en", 4),
    ("everyone grabs their 4 tokens, we're 2 players: how many tokens go back in the box?", "en", 2),
])
def test_tokens_left_in_the_box_after_each_takes_a_share(question, lang, players):
    table = counts()
    left = table["inspiration_tokens"].count - players * table["inspiration_tokens_per_player"].count
    answer = ask(question, lang)
    assert answer is not None and answer.engine.get("left") == left, answer and answer.answer


@pytest.mark.parametrize(("question", "lang"), [
    ("solo puzzle: how many tokens are on the table in total at the start, mine plus the supply?", "en"),
    ("puzzle solo : au départ, combien de jetons en tout avec la réserve ?", "fr"),
    ("in solo puzzle what's the total number of tokens at setup, counting the supply?", "en"),
])
def test_tokens_on_the_table_at_the_start_of_solo_puzzle(question, lang):
    table = counts("solo-puzzle")
    answer = ask(question, lang)
    assert answer is not None, question
    assert answer.engine["total"] == table["inspiration_tokens_per_player"].count + table["token_supply"].count, answer.answer


@pytest.mark.parametrize(("question", "lang", "values"), [
    ("j'ai fait 14 rubans sur la partie et 42 points. je coche quels succès ?", "fr", {"ribbons": 14, "points": 42}),
    ("8 silver ribbons and 39 points this game, which achievements do I get?", "en", {"silver": 8, "points": 39}),
    ("fin de partie : 9 rubans et 48 points, quels succès ?", "fr", {"ribbons": 9, "points": 48}),
])
def test_several_values_are_each_checked_against_their_achievements(question, lang, values):
    kinds = {"ribbons": "game_ribbons", "points": "game_points", "silver": "game_silver"}
    earned = {a.slug for unit, value in values.items() for a in engine.ACHIEVEMENTS
              if a.kind == kinds[unit] and value >= a.params["min"]}
    answer = ask(question, lang)
    assert answer is not None and set(answer.engine["earned"]) == earned, answer and answer.answer


@pytest.mark.parametrize(("question", "lang", "tokens", "position", "claimed"), [
    # A Scoring Card's name used as a plain word ("coin-flip style") is no Scoring Card in a question about Vincent.
    ("vincent has 4 tokens, coin-flip style, so the second card is 1 in 2", "en", 4, 2, "1/2"),
    ("vincent with 3 tokens, heads-or-tails style: the first card is a 1/8 chance", "en", 3, 1, "1/8"),
    ("vincent a 2 jetons, style pile ou face : la 3e carte c'est 1 chance sur 4", "fr", 2, 3, "1/4"),
])
def test_vincent_odds_claims_with_a_card_word_as_chat(question, lang, tokens, position, claimed):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim", answer and answer.answer
    assert answer.verdict is (str(odds(tokens, position)) == claimed)


def supply_after(position, supply, held=4):
    """The Solo Puzzle supply after a take (engine: custom_game then apply_action)."""
    row = [card.id for card in engine.ART_CARDS[:5]]
    state = engine.custom_game(row=row, hands=((),), tokens=(held,), ruleset_name="solo-puzzle", supply=supply)
    return engine.apply_action(state, engine.TakeCard(player=0, position=position)).supply


@pytest.mark.parametrize(("question", "lang", "position", "supply"), [
    ("solo puzzle: the supply started at 2. I pay three to take the 4th card. what's in the supply after?", "en", 4, 2),
    ("puzzle solo, la réserve était à 3, je paie 1 pour prendre la 2e carte : combien dans la réserve après ?", "fr", 2, 3),
    ("solo puzzle, supply started at four, I pay two for the third card; how many tokens in the supply now?", "en", 3, 4),
])
def test_the_supply_after_a_take_with_the_cost_restated(question, lang, position, supply):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["supply_after"] == supply_after(position, supply), answer and answer.answer


@pytest.mark.parametrize(("question", "lang", "ruleset"), [
    ("vincent mode is for how many players?", "en", "vincent"),
    ("le puzzle solo, c'est pour combien de joueurs ?", "fr", "solo-puzzle"),
    ("with vincent, how many players at most?", "en", "vincent"),
])
def test_a_variants_player_count_cites_the_variants_page(question, lang, ruleset):
    answer = ask(question, lang)
    assert answer is not None and answer.engine["count"] == engine.component_counts(ruleset)["max_players"].count
    assert engine.ruleset(ruleset).page in [citation.page for citation in answer.citations], answer.answer


@pytest.mark.parametrize(("question", "lang", "score", "slug"), [
    # The claim is the reported one; the asker's own opinion after it ("I think you have to beat it") is no claim.
    ("my friend is sure 30 is enough for Normal in solo. I think you have to beat it. who's right?", "en", 30, "normal"),
    ("mon frère affirme que 25 suffit pour le niveau facile en solo. moi je pense qu'il faut dépasser 25. qui a raison ?",
     "fr", 25, "easy"),
])
def test_the_reported_claim_not_the_askers_opinion_is_checked(question, lang, score, slug):
    answer = ask(question, lang)
    assert answer is not None and answer.kind == "claim", answer and answer.answer
    assert answer.verdict is (score >= level(slug).target), answer.answer


def test_a_share_asked_is_not_answered_by_the_box_count():
    per_player = counts()["inspiration_tokens_per_player"].count
    answer = ask("the box has 20 inspiration tokens, right? and each player takes how many?", "en")
    assert answer is None or str(per_player) in answer.answer, answer.answer
