"""The seventh blind round's near-domain family: looking after the components (cleaning the see-through cards,
scratches, warping). No rulebook answers that; the rulebook's one word on the cards' care (the protective film,
peel it or leave it) stays a rules question, and so do the Background Cards' paint splashes ("taches").

The questions are new phrasings (none from an eval set); the oracle is what each message asks.
"""

import pytest

from tests.test_scope_round6 import _reason  # the front door's reading, then the scope cues


@pytest.mark.parametrize(
    ("question", "lang"),
    [
        ("how do I clean the art cards without scratching them?", "en"),
        ("my cards got warped in the heat, can I flatten them?", "en"),
        ("what's the best way to wipe them, they're all fingerprints", "en"),
        ("comment nettoyer les cartes transparentes ?", "fr"),
        ("mes cartes se rayent un peu, comment éviter les rayures ?", "fr"),
        ("les cartes gondolent avec l'humidité, on fait comment ?", "fr"),
    ],
)
def test_looking_after_the_components_is_near_domain(question, lang):
    assert _reason(question, lang) == "care"


@pytest.mark.parametrize(
    ("question", "lang"),
    [
        ("should we peel the plastic film off the art cards before playing?", "en"),
        ("on enlève le film plastique des cartes ou on le laisse ?", "fr"),
        ("les taches de peinture sur les cartes de fond, elles comptent pour le score ?", "fr"),
        ("do the splashes on the background cards count as icons?", "en"),
    ],
)
def test_the_rulebooks_words_on_the_cards_stay_rules_questions(question, lang):
    assert _reason(question, lang) is None
