"""Coverage of the misreadings (issue 12): the sub-fact a player asks for is in the answer, on the real model.

Each family is a rule whose records used to leave out the part players ask about: how many Inspiration Tokens go
back in the box for a player count, which card Vincent discards for a number of face-up tokens, what each position
of the row costs, what an empty swatch shows (the background fills nothing), that a stripe's icons show together,
Hierarchy's "greater than or equal", no reshuffle of an empty deck, the full list of achievements, Symmetry with
both mirrored pairs, Variety's Elements anywhere on the painting, a tie that is never shared and goes to more
tokens, who takes the first turn (neither age nor chance), a title with no effect on score, Emphasis counting
only visible Hues, a scenario passed by any one player, Solo Puzzle refilling all the empty spaces, unused cards
kept in hand. The questions
are written for this test (not the knowledge's phrasings, not the eval sets'); each oracle is the rule as the
rulebook (/work/shared/seeds) or FACTS.md states it, or arithmetic on its numbers (20 tokens in the box, 4 each;
a card costs 1 token per card skipped; Vincent skips k cards and discards the next one). Against the pack before
this change, 28 of these questions failed (each family but three has at least one); the families of the card costs,
the first player and the title already passed here and stay as guards (their dev misses were neighbouring records).
"""

import pytest

from rulesbot.evaluation import key_facts_present

# A miss of another layer, kept visible: the computed-question front door answers another question.
COMPUTED_ELSEWHERE = pytest.mark.xfail(reason="the computed-question front door answers another question", strict=False)

TOKENS_IN_BOX, TOKENS_EACH = 20, 4  # rulebook p. 2: components list and setup step F

CASES = [
    # leftover tokens after setup: 20 - 4 x players
    ("there are four of us, how many inspiration tokens stay in the box once everyone has theirs?",
     [str(TOKENS_IN_BOX - 4 * TOKENS_EACH)]),
    ("à 2 joueurs, combien de jetons Inspiration reviennent dans la boîte après la distribution ?",
     [str(TOKENS_IN_BOX - 2 * TOKENS_EACH)]),
    pytest.param("three players at the table: after handing out the palettes, how many are spare?",
                 [str(TOKENS_IN_BOX - 3 * TOKENS_EACH)], marks=COMPUTED_ELSEWHERE),
    ("setup step F, the spare palettes go back... for a 2-player game is that twelve of them?",
     [str(TOKENS_IN_BOX - 2 * TOKENS_EACH)]),
    # Vincent skips k cards (k face up, at most 4) and discards card k + 1
    ("Vincent throws his tokens and exactly one lands face up: which card of the row goes?", ["2nd|card 2"]),
    ("Vincent : trois jetons retombent face visible, il défausse quelle carte ?", ["4e"]),
    ("every one of Vincent's four tokens shows its face: which card gets thrown out?", ["5th"]),
    ("Vincent gets two face up, which card is discarded?", ["3rd|card 3"]),
    ("Vincent : un seul jeton face visible, il prend quelle carte ?", ["2e|carte 2"]),
    # cost by position: 1 token per card skipped
    ("How many palettes do I need for the card sitting right beside the deck box?", ["4"]),
    ("combien je dépense pour attraper la carte collée à la boîte de pioche ?", ["4"]),
    ("I want to jump over every other card and grab the last one, what does that cost?", ["4"]),
    # an empty swatch stays empty: backgrounds have no icons
    ("no card of my painting has a stripe in the blue spot: does the background card fill that spot?", ["empty"]),
    ("aucune de mes trois cartes n'a rien en jaune : l'arrière-plan compte comme une icône à cet endroit ?", ["vide"]),
    ("is the background behind my cards enough to fill a blank swatch for Composition?", ["empty"]),
    # a stripe's icons show together
    ("my top card's stripe in that swatch has two icons: do both of them count?", ["together"]),
    ("la bande la plus haute porte deux icônes : elles comptent toutes les deux ?", ["ensemble"]),
    ("when the uppermost stripe holds a pair of Elements, is only one of them visible?", ["together"]),
    # Hierarchy: Tone greater than or equal to each other Element
    ("for hierarchy, must tone strictly beat every other element?", ["equal"]),
    ("Hiérarchie : le Ton doit dépasser les autres éléments, ou il suffit d'être à égalité ?", ["égal"]),
    ("does Hierarchy still work when Tone and Hue have the same count?", ["equal"]),
    ("2 tones, 2 textures and 1 shape showing: hierarchy ok?", ["equal"]),
    # the deck running out: no reshuffle
    ("the deck box is empty, do we reshuffle anything to refill?", ["reshuffle"]),
    ("la pioche est vide, on remélange quelque chose ?", ["remélange"]),
    ("no art cards left to draw, can we mix the discarded ones back in?", ["reshuffle"]),
    ("the deck is empty: shuffle the discards to make a new one?", ["reshuffle"]),
    # the achievements, all ten
    ("is 14 ribbons over one game one of the achievements?", ["14+"]),
    ("un succès existe pour 7 rubans argentés sur la partie ?", ["7"]),
    ("what are all the achievements, one by one?", ["47", "5 of the same Element"]),
    # Symmetry with both mirrored pairs
    ("symmetry with a matching element on the outer pair and another on the inner pair: how many ribbons?", ["2"]),
    ("Symétrie : une paire en miroir rouge/violet plus une jaune/bleu, combien de rubans ?", ["2"]),
    ("can one painting get Symmetry from red-violet and yellow-blue at once?", ["2 Ribbons"]),
    # Variety: the four Elements anywhere on the painting
    ("variety: do hue, shape, texture and tone need to be in one swatch?", ["anywhere"]),
    ("Variété : faut-il les quatre éléments dans une même pastille ?", ["n'importe"]),
    ("for variety can my four elements sit in four different swatches?", ["anywhere"]),
    # ties: the win is never shared
    ("level on points and on tokens: do we split the victory?", ["neutral"]),
    ("égalité de points et de jetons : on partage la victoire ?", ["neutre"]),
    ("tied on score and palettes: is it a draw with two winners?", ["one winner"]),
    # first player: whoever painted most recently, not age or chance
    ("does the youngest player go first in canvas?", ["painted"]),
    ("c'est le plus jeune qui commence la partie ?", ["peint"]),
    ("do we pick the starting player at random?", ["painted"]),
    # the title has no effect on score
    ("does my painting's title give me any points?", ["no effect|nothing"]),
    ("le titre du tableau rapporte-t-il des points ?", ["aucun|rien"]),
    ("do the words that form the title matter for scoring?", ["no effect|nothing"]),
    # Emphasis counts only visible Hues (covered ones are ignored, rulebook p. 4)
    ("Emphase : deux Teintes cachées et une seule visible, ça marche ?", ["cachées"]),
    ("for Emphasis do the hues buried under other cards count too?", ["covered"]),
    ("Emphasis: I have three Hues but two are hidden under the top card, does it score?", ["covered"]),
    # a scenario is passed when any one player reaches its goal
    ("scenario goal: does every player need to reach it, or is one enough?", ["enough"]),
    ("scénario : faut-il que tout le monde atteigne l'objectif pour le réussir ?", ["suffit"]),
    ("we play a scenario at four, only my brother beats the goal: passed for the group?", ["enough"]),
    # Solo Puzzle: draw to refill all the empty spaces
    ("solo puzzle refill: one new card or all the gaps?", ["all the empty spaces"]),
    ("Casse-tête solo : on comble un seul trou ou tous ?", ["tous les emplacements vides"]),
    pytest.param("in the solo puzzle, after skipping two and taking the third, how many cards do I draw?",
                 ["all the empty spaces"], marks=COMPUTED_ELSEWHERE),
    # unused cards are kept in hand
    ("après ma peinture, les cartes Art qui me restent, je les jette ?", ["garde"]),
    ("j'ai peint avec 3 de mes 5 cartes, les 2 autres je les défausse ?", ["garde"]),
    ("painted with three of my four cards, does the spare one get discarded?", ["keep"]),
    # the tie-break favours more tokens
    ("tiebreak: does the player with fewer tokens win?", ["more"]),
    ("égalité : c'est celui qui a le moins de jetons qui gagne ?", ["plus de jetons"]),
    ("tied score, the one who has more palettes left or fewer wins?", ["more"]),
]


@pytest.mark.slow
@pytest.mark.parametrize(("question", "facts"), CASES)
def test_the_answer_carries_the_sub_fact_asked_for(real_bot, question, facts):
    answer = real_bot.ask(question)
    assert answer.kind != "unknown", answer.answer
    assert key_facts_present(facts, answer.answer), answer.answer
