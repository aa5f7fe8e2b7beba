"""Rule answers say a limit together with its scope and the count asked for (issue 12, wave 2), on the real model.

Families: a limit stated with its scope (an icon counts once per Scoring Card, and still counts for a different
card), 'at least 3' cards to paint, the card beside the deck (the 5th) costs 4, 5 ribbon piles, a substitute for an
empty pile, Vincent is simulated and non-scoring, titles score nothing, ribbons are taken right away, 2 bonus icons
score separately, Symmetry ignores the other icons in its swatches, Solo Puzzle's skipped cards are discarded, the
swatches show each icon's position. Questions written for this test, EN and FR, some as follow-ups (context).
"""

import pytest

from rulesbot.evaluation import key_facts_present

# Misses of other layers, kept visible: the first stage ranks a neighbouring record first, or a computation answers.
RANKED_ELSEWHERE = pytest.mark.xfail(reason="retrieval ranks a neighbouring record first (not the statement)", strict=False)
COMPUTED = pytest.mark.xfail(reason="a computation answers the rules question (rulesbot/compute, not this layer)", strict=False)

CASES = [
    ("can a Shape I already paired for Repetition be counted again by Variety?", ["different"], ()),
    pytest.param("my Texture is in a Proximity pair; does Style still get to use it?", ["different"],
                 ("can one icon be in two Proximity pairs?",), marks=RANKED_ELSEWHERE),
    ("ok and on another scoring card, is that same icon available again?", ["different"],
     ("can one shape join two repetition pairs?",)),
    ("et pour une autre carte de score, cette icône est encore utilisable ?", ["différente|différentes|autre"],
     ("une forme peut être dans deux paires de répétition ?",)),
    pytest.param("une Texture déjà comptée pour Proximité peut resservir pour Style ?", ["différente|autre"], (),
                 marks=RANKED_ELSEWHERE),
    ("with 3 cards in my hand am I obliged to make a painting right now?", ["at least 3|at least three", "5|five"], ()),
    ("j'ai 3 cartes en main, je suis forcé de peindre ce tour-ci ?", ["au moins 3", "5"], ()),
    ("must I paint on my turn once my hand reaches three cards?", ["at least 3|at least three", "5|five"], ()),
    ("and the last one, next to the deck?", ["4|four"], ("how many tokens to take the second card from the free end?",)),
    pytest.param("et celle tout contre la pioche ?", ["4|quatre"],
                 ("combien de jetons pour la 2e carte à partir du bout gratuit ?",), marks=COMPUTED),
    ("what about the card sitting beside the Deck Box?", ["4|four"], ("which card of the row is the free one?",)),
    ("how many stacks of ribbon tokens do we set out, one per colour?", ["5|five"], ()),
    ("on fait combien de tas avec les rubans à l'installation ?", ["5|cinq"], ()),
    ("les rubans, c'est un tas par couleur de carte de score seulement ?", ["5|cinq"], ()),
    ("there are no violet ribbons left in the supply, what do we do?", ["substitute"], ()),
    ("il n'y a plus de rubans bleus du tout, on fait comment ?", ["remplacement|substitut"], ()),
    ("plus un seul ruban rouge dans la réserve, on note ça avec quoi ?", ["remplacement|substitut"], ()),
    ("what is Vincent, and does he get points?", ["non-scoring"], ()),
    ("Vincent c'est qui ? il compte ses points ?", ["simulé"], ()),
    ("does the Vincent player score anything at the end?", ["non-scoring"], ()),
    ("do we earn anything for the name of our painting?", ["nothing"], ()),
    ("le nom de ma peinture, ça me donne des points ?", ["rien|aucun"], ()),
    ("est-ce que le titre qu'on lit compte au score ?", ["rien|aucun"], ()),
    ("are ribbons handed out straight after each painting or only when the game ends?", ["right away"], ()),
    ("les rubans, on les récupère après chaque peinture ou au décompte final ?", ["tout de suite|directement"], ()),
    ("quand est-ce qu'on touche ses rubans, à la fin ou dès la peinture finie ?", ["tout de suite|directement"], ()),
    ("two 'per Tone' bonus icons are visible and the painting has 2 Tones: how many silver ribbons?", ["4|four"], ()),
    ("deux icônes bonus par Ton et deux Tons visibles, combien de rubans argent ?", ["4|quatre"], ()),
    ("if my painting shows a pair of bonus icons, do both give silver ribbons?", ["separately|each"], ()),
    ("symmetry: a Shape in red and in violet, but red also has a Hue, does it still score?", ["shape"], ()),
    ("symétrie : une Forme en rouge et en violet, et une Teinte en plus dans la rouge, ça marche ?", ["forme"], ()),
    ("for Symmetry do the extra icons in the red swatch stop a match?", ["other"], ()),
    ("in Solo Puzzle, what happens to the cards I skip over?", ["discarded"], ()),
    ("puzzle solo : les cartes que je saute, je les remets dans la rangée ?", ["défaussées|défausse|défaussée"], ()),
    ("and the two cards I passed over, where do they go?", ["discarded"], ("solo puzzle, how much is the 3rd card?",)),
    ("what are the coloured bands on the art cards for?", ["position"], ()),
    ("à quoi servent les zones de couleur sur les cartes Art ?", ["position"], ()),
    ("are the coloured swatches just there to look nice?", ["position"], ()),
]


@pytest.mark.slow
@pytest.mark.parametrize(("question", "facts", "context"), CASES)
def test_the_answer_states_the_limit_its_scope_and_the_count(real_bot, question, facts, context):
    answer = real_bot.ask(question, context=list(context) or None)
    assert answer.kind != "unknown"
    assert key_facts_present(facts, answer.answer), answer.answer


FOLLOW_UPS_THE_OTHER_WAY_ROUND = [
    ("can the same icon count twice for one scoring card?", "and across two separate scoring cards?"),
    ("une icône peut compter deux fois pour la même carte de score ?", "et sur deux cartes de score distinctes ?"),
    ("must I paint as soon as I hold 3 cards?", "and when I hold 5?"),
    ("je dois peindre dès que j'ai 3 cartes ?", "et avec 5 cartes en main ?"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("previous", "follow_up"), FOLLOW_UPS_THE_OTHER_WAY_ROUND)
def test_a_follow_up_never_gets_the_previous_questions_yes_or_no(real_bot, previous, follow_up):
    first = real_bot.ask(previous)
    assert first.answer.split(" ", 1)[0] in {"No.", "Non."}, first.answer
    answer = real_bot.ask(follow_up, context=[previous])
    assert answer.answer.split(" ", 1)[0] not in {"No.", "Non."}, answer.answer
