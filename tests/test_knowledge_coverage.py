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
    # Answered since the eighth round (the box's leftovers read with a player count said before them).
    ("three players at the table: after handing out the palettes, how many are spare?",
     [str(TOKENS_IN_BOX - 3 * TOKENS_EACH)]),
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
    # Round 5: the rule stated in the rulebook's own words (a player's word was missing from a statement in
    # other words). Space and Proximity: "adjacent" (the card backs); swatches 1 and 3 are not adjacent.
    ("space card: hue in swatch 3, shape in swatch 4, does it work?", ["adjacent"]),
    ("Espace : une Teinte en zone 4 et une Forme en zone 5, ça passe ?", ["adjacentes"]),
    ("hue at swatch 1 and shape at swatch 3, ok for the space card?", ["not adjacent"]),
    ("Proximité : Texture et Ton sur la même pastille, ça fait une paire ?", ["adjacents"]),
    # the tokens on the card you take are kept (p. 3: "take them along with the card")
    ("the card I picked up had two palettes on it, do those go back to the box?", ["keep"]),
    ("la carte que je récupère porte 2 jetons, je les rends à la boîte ?", ["gardes"]),
    ("do the inspiration tokens on my chosen card get returned to the supply?", ["keep"]),
    # skipping puts 1 token on every skipped card, not into a bank (p. 3; a supply only in Solo Puzzle)
    ("when I jump over cards, do my tokens go into a central pot?", ["each skipped"]),
    ("pour passer des cartes, je mets mes jetons au pot commun ?", ["sautée"]),
    pytest.param("skipping two cards: are the two tokens handed to the bank?", ["each skipped"],
                 marks=COMPUTED_ELSEWHERE),
    # covered icons are ignored (p. 4; the French help page: "recouvertes sont ignorées")
    ("les icônes recouvertes par la carte du dessus, on les compte au score ?", ["ignorées"]),
    ("une Forme cachée sous une bande, elle rapporte encore ?", ["ignorées"]),
    ("are the icons buried under the top card ignored for scoring?", ["ignored"]),
    # a bonus icon with none of its Element visible gives nothing (1 silver Ribbon per matching Element)
    ("PER Texture icon showing, but the painting has no Texture at all: any silver?", ["nothing"]),
    ("icône PER Forme visible mais aucune Forme sur le tableau, ça rapporte ?", ["rien"]),
    ("no Hue anywhere on my painting but a PER Hue icon: what do I get?", ["nothing|0 silver"]),
    # a card's cap stops a 4th Variety Ribbon (p. 4: never more Ribbons than the card shows; Variety 4/8/13)
    ("I'm on three red Variety ribbons and my last painting meets Variety again, another one?", ["13|not taken"]),
    ("j'ai déjà 3 rubans Variété, ma dernière peinture la valide encore : un 4e ruban ?", ["13|ne se prend pas"]),
    pytest.param("can anyone end up holding four Variety ribbons?", ["3"], marks=pytest.mark.xfail(reason="another record (Variety twice in one painting) ranks first", strict=False)),
    # an empty Ribbon pile: any reasonable substitute (p. 4)
    ("la réserve de rubans bleus est vide, on fait comment ?", ["substitut"]),
    ("no silver ribbons left in the pile, what now?", ["substitute"]),
    ("plus aucun ruban violet sur la table, on arrête de marquer ?", ["substitut"]),
    # Consistency counts Elements; a bonus icon is not an Element (p. 1)
    pytest.param("Consistency: six Element icons and a PER Hue icon visible, do I get it?", ["not Elements"],
                 marks=pytest.mark.xfail(reason="the PER Hue words rank Emphasis's record first", strict=False)),
    ("Cohérence : 6 éléments et une icône bonus, c'est validé ?", ["pas des éléments"]),
    ("does a silver icon push my count to 7 for Consistency?", ["not Elements"]),
    ("un bonus PER Ton, c'est un Ton pour Hiérarchie ?", ["élément"]),
    # Symmetry needs the same Element in the mirrored swatches
    ("Symmetry: Hue in swatch 1 and Tone in swatch 5, does that pair up?", ["same Element"]),
    ("Symétrie : une Teinte en rouge et un Ton en violet, ça compte ?", ["même élément"]),
    ("for symmetry do the two mirrored swatches need a matching Element?", ["same Element"]),
    # Solo Puzzle: an empty supply gives no token, none is taken from the box (p. 5)
    pytest.param("solo puzzle supply has run dry and I take the leftmost card, can I grab a token from the box?",
                 ["nothing"], marks=COMPUTED_ELSEWHERE),
    ("casse-tête solo, plus de jetons dans la réserve : je me sers dans la boîte ?", ["aucun jeton"]),
    ("in solo puzzle with an empty supply, does finishing a painting still give me a token?", ["nothing|0 tokens"]),
    # the swatch colours mark positions (p. 1: "visual aids to help identify an icon's position")
    ("do the coloured swatches score points themselves?", ["position"]),
    ("la couleur d'une pastille rapporte des points ?", ["position"]),
    ("what do the swatch colours actually do in scoring?", ["position"]),
    # play proceeds clockwise (p. 3): "sens horaire"
    ("on tourne dans quel sens après le premier joueur ?", ["horaire"]),
    ("après celui qui commence, c'est à qui ?", ["horaire"]),
    ("after the first player, which way do turns go?", ["clockwise"]),
    # Round 6: the statement carries the word the asker's question turns on (an obligation is "must", a skipped
    # turn "skipped"/"sautés", an ordinal spelled out, a cap "never"). With 5 Art Cards a player must paint (p. 3).
    ("full hand of five cards: am I obliged to paint this turn?", ["must"]),
    pytest.param("cinq cartes en main, je peux attendre avant de peindre ?", ["dois"], marks=COMPUTED_ELSEWHERE),
    ("once I hit the hand limit, is completing a painting mandatory right away?", ["must"]),
    # after the third painting a player's turns are skipped (p. 5)
    pytest.param("I've sleeved all three of my paintings, do I still get turns?", ["skipped"], marks=pytest.mark.xfail(reason="the solo Vincent turn-order record ranks first", strict=False)),
    ("mes trois peintures sont terminées, je joue encore des tours ?", ["sautés"]),
    ("when a player has finished painting early, can she still take cards?", ["skipped"]),
    # Vincent discards the card he selects (p. 5)
    ("what does vincent do with the art card he ends up selecting?", ["discards"]),
    ("vincent met la carte choisie dans sa main ?", ["défausse"]),
    ("Vincent keeps a hand of the cards he picks, doesn't he?", ["discards"]),
    # only face-up tokens are spent: Vincent keeps the face-down ones (p. 5)
    ("what happens to the tokens of Vincent that fall face-down?", ["keeps"]),
    ("les jetons de Vincent retombés face cachée, ils sont dépensés ?", ["garde"]),
    ("are the face-down tokens of Vincent's throw lost to him?", ["keeps"]),
    # the card Vincent discards, its rank in words: k face up, card k + 1
    ("Vincent : deux jetons côté visible, quelle carte de la rangée part ?", ["troisième|3e"]),
    ("Vincent, un jeton face visible : c'est quelle carte qui est défaussée ?", ["deuxième|2e"]),
    ("with three of Vincent's tokens face up, which card does he throw away?", ["fourth|4th"]),
    # Vincent is non-scoring (p. 5)
    ("est-ce que Vincent marque des points à la fin ?", ["aucun"]),
    ("does Vincent ever score any points?", ["never"]),
    ("vincent, il a un score à la fin de la partie ?", ["aucun"]),
    # Solo Puzzle: skipped cards are discarded from the game (p. 5)
    ("casse-tête solo : que deviennent les cartes que je passe ?", ["défaussées"]),
    ("en puzzle solo, je saute deux cartes : elles restent en place ?", ["défaussées"]),
    ("solo puzzle: are the cards I jump over still in the row afterwards?", ["discarded"]),
    # the title does not change the score (FACTS 2, 8.4)
    ("will the name of my painting change my total?", ["not change"]),
    ("le nom de ma peinture modifie mon score ?", ["change pas"]),
    ("can a clever title alter how many points a painting gets?", ["not change"]),
    # the red swatch is always leftmost (p. 1)
    pytest.param("the red stripe on an art card, left side or right side?", ["leftmost"], marks=pytest.mark.xfail(reason="the stripe-hides-whole record ranks first; the 'did you mean' line (rotate-cards, 'red always leftmost') sits on the alternative margin's edge: rank gap 0.0090 before the ninth round's FAQ records, 0.0101 after (margin 0.01)", strict=False)),
    ("la zone rouge, elle est à gauche ou à droite sur les cartes ?", ["plus à gauche"]),
    ("in what order do the coloured bands go across a card?", ["leftmost"]),
    # never more Ribbons than the card shows (p. 4)
    ("can I ever hold more Ribbons of one card than it shows?", ["never"]),
    ("on peut dépasser le nombre de rubans affiché sur une carte de score ?", ["jamais"]),
    ("is there any way to collect ribbons past a scoring card's top value?", ["never|not taken"]),
    # a scenario is passed only if some player meets its goal (p. 6)
    ("no one at our table hit the scenario's goal: is it passed?", ["not passed"]),
    ("personne n'a atteint l'objectif du scénario, on le réussit quand même ?", ["pas réussi"]),
    ("if every player falls short of a scenario's goal, what happens?", ["not passed"]),
    # taking a card only to deny it: any card of the row may be taken with fewer than 5 in hand (p. 3)
    ("may I take a card purely to stop someone else getting it?", ["allowed"]),
    ("j'ai le droit de piquer une carte uniquement pour contrarier l'autre joueur ?", ["autorisé"]),
    ("is it legal to take a card I don't want just to block a rival?", ["allowed"]),
    # the first-game cards are a suggestion: any 4, or a scenario (p. 2)
    ("do we have to play with the four cards the rulebook suggests?", ["not compulsory"]),
    ("les 4 cartes conseillées pour débuter, on est obligés de les prendre ?", ["pas obligatoires"]),
    pytest.param("must beginners use the recommended scoring cards?", ["not compulsory"], marks=pytest.mark.xfail(reason="the first-game suggestion record ranks first without its 'not compulsory'", strict=False)),
    # a French answer about a scenario also names its cards as printed in the English edition (p. 6)
    ("le scénario Spatial utilise quelles cartes de score ?", ["Proximity|Proximité", "Symmetry|Symétrie"]),
    ("quelles cartes de score pour le scénario Bonus ?", ["Hierarchy|Hiérarchie"]),
    ("scénario Balanced : on pose quelles cartes ?", ["Consistency|Cohérence"]),
]


@pytest.mark.slow
@pytest.mark.parametrize(("question", "facts"), CASES)
def test_the_answer_carries_the_sub_fact_asked_for(real_bot, question, facts):
    answer = real_bot.ask(question)
    assert answer.kind != "unknown", answer.answer
    assert key_facts_present(facts, answer.answer), answer.answer
