"""FAQ leads only for the record's own question (close, same polarity, same form); "did you mean" alternatives."""

from dataclasses import replace

from rulesbot.answer import lead_applies, rule_answer
from rulesbot.knowledge import Entry, Pack
from rulesbot.retrieval import Calibration, Ranked

CALIBRATION = Calibration(
    threshold=0.1, scale=0.1, faq_margin=0.0, cite_margin=0.0, close_margin=0.1, lead_threshold=0.9,
    alternative_margin=0.01,
)


def _faq(identifier: str, question: str, lead: str, text: str, page: int = 3) -> Entry:
    return Entry(
        id=identifier, concept_id=identifier, lang="en", source="faq", pages=[page], section="Taking a card",
        text=text, question=question, lead=lead, game="canvas",
    )


TAKEN = _faq(
    "faq.taken", "Do I get the tokens on the card I take?", "Yes.", "The tokens on the card you take go with it."
)
SKIPPED = _faq(
    "faq.skipped", "Do the tokens I put on skipped cards come back to me?", "No.",
    "Tokens paid to skip stay on the skipped cards.", page=4,
)


def _pack(hash_bot) -> Pack:
    shipped = hash_bot.packs["canvas"]
    return Pack(manifest=shipped.manifest, entries=[TAKEN, SKIPPED], path=shipped.path)


def test_the_lead_shows_for_the_records_own_question(hash_bot):
    records = [Ranked(TAKEN, 0.95, 0.95, asked=0.97), Ranked(SKIPPED, 0.80, 0.80, asked=0.80)]
    answer = rule_answer("do i get the tokens on the card i take?", "en", records, _pack(hash_bot), CALIBRATION, 0.9)
    assert answer.answer == "Yes. The tokens on the card you take go with it."
    assert answer.alternatives == []


def test_no_lead_for_a_distant_question_or_the_other_polarity_or_another_form():
    close = Ranked(TAKEN, 0.95, 0.95, asked=0.97)
    far = Ranked(TAKEN, 0.95, 0.95, asked=0.85)
    assert lead_applies("do i get the tokens on the card i take?", close, CALIBRATION)
    assert not lead_applies("do i get the tokens on the card i take?", far, CALIBRATION)
    # Asked the other way round, "Yes." would say the opposite of the rule.
    assert not lead_applies("so I don't get the tokens on the card I take?", close, CALIBRATION)
    # A how-many question never gets a yes/no lead.
    assert not lead_applies("how many tokens on the card I take do I get?", close, CALIBRATION)


def test_without_the_lead_the_answer_is_the_statement_alone(hash_bot):
    records = [Ranked(TAKEN, 0.95, 0.95, asked=0.85)]
    answer = rule_answer("tokens on my card?", "en", records, _pack(hash_bot), CALIBRATION, 0.9)
    assert answer.answer == "The tokens on the card you take go with it."


def test_a_close_second_concept_is_offered_as_did_you_mean(hash_bot):
    records = [Ranked(TAKEN, 0.95, 0.950, asked=0.97), Ranked(SKIPPED, 0.945, 0.945, asked=0.96)]
    answer = rule_answer("do i get the tokens on the card i take?", "en", records, _pack(hash_bot), CALIBRATION, 0.9)
    assert answer.answer.splitlines() == [
        "Yes. The tokens on the card you take go with it.",
        # The alternative's own lead never shows: it answers another question.
        "If you meant “Do the tokens I put on skipped cards come back to me”: Tokens paid to skip stay on the "
        "skipped cards. (p. 4)",
    ]
    assert [alternative.answer for alternative in answer.alternatives] == ["Tokens paid to skip stay on the skipped cards."]
    assert answer.alternatives[0].citations[0].page == 4
    assert "alternatives" in answer.contract()


def test_a_distant_second_concept_is_not_offered(hash_bot):
    records = [Ranked(TAKEN, 0.95, 0.95, asked=0.97), Ranked(SKIPPED, 0.90, 0.90, asked=0.90)]
    answer = rule_answer("do i get the tokens on the card i take?", "en", records, _pack(hash_bot), CALIBRATION, 0.9)
    assert answer.alternatives == [] and "alternatives" not in answer.contract()


def test_the_french_line_says_si_vous_vouliez_dire(hash_bot):
    from rulesbot.answer import IF_YOU_MEANT

    assert IF_YOU_MEANT["fr"].startswith("Si vous vouliez dire")


# Answer composition: a statement that lacks what the question asks gets one sentence of a close record on its page.
def _entry(identifier: str, text: str, *, page: int = 2, lang: str = "en", source: str = "faq", section: str = "Setup"):
    faq = source == "faq"
    return Entry(
        id=f"{identifier}.{lang}", concept_id=identifier, lang=lang, source=source, pages=[page], section=section,
        text=text, question="What is set up?" if faq else None, game="canvas",
    )


ROW_FAQ = _entry("faq.row", "The row is laid face-up to the left of the Deck Box at setup.")
ROW_PASSAGE = _entry(
    "setup-row", "Shuffle the Art Cards into the Deck Box. Deal 5 Art Cards face-up beside it.", source="rulebook"
)
ROW_FAQ_FR = _entry("faq.row", "La rangée est posée face visible à gauche de la boîte de pioche.", lang="fr")
ROW_PASSAGE_FR = _entry(
    "setup-row", "On mélange les cartes Art dans la boîte. On pose cinq cartes Art face visible à côté.", lang="fr",
    source="rulebook",
)
FAR_PASSAGE = _entry("far", "Each player takes 4 Inspiration Tokens.", page=5, source="rulebook")
BASE_TURN = _entry("faq.turn", "On your turn, take an Art Card or complete a painting.", page=5, section="Turn")
VINCENT_TURN = _entry(
    "vincent-turn", "Vincent goes last in turn order. Vincent discards the card he selects from the game.", page=5,
    source="rulebook", section="Painting with Vincent",
)


def _composed(hash_bot, question: str, entries: list[Entry], lang: str = "en") -> str:
    pack = Pack(manifest=hash_bot.packs["canvas"].manifest, entries=entries, path=hash_bot.packs["canvas"].path)
    own = [entry for entry in entries if entry.lang == lang]
    records = [Ranked(entry, 0.95 - 0.01 * rank, 0.95 - 0.01 * rank) for rank, entry in enumerate(own)]
    return rule_answer(question, lang, records, pack, replace(CALIBRATION, alternative_margin=-1.0), 0.9).answer


def test_a_how_many_question_gets_the_passage_sentence_holding_the_number(hash_bot):
    answer = _composed(hash_bot, "how many cards go face up in the row?", [ROW_FAQ, ROW_PASSAGE])
    assert answer == f"{ROW_FAQ.text} Deal 5 Art Cards face-up beside it. (p. 2)"


def test_a_french_how_many_question_gets_the_french_sentence(hash_bot):
    entries = [ROW_FAQ, ROW_PASSAGE, ROW_FAQ_FR, ROW_PASSAGE_FR]
    answer = _composed(hash_bot, "on met combien de cartes dans la rangée ?", entries, lang="fr")
    assert answer == f"{ROW_FAQ_FR.text} On pose cinq cartes Art face visible à côté. (p. 2)"


def test_no_sentence_is_added_when_nothing_is_missing_or_the_question_compares_counts(hash_bot):
    assert _composed(hash_bot, "is the row face up?", [ROW_FAQ, ROW_PASSAGE]) == ROW_FAQ.text
    assert _composed(hash_bot, "same number of cards in the row for everyone?", [ROW_FAQ, ROW_PASSAGE]) == ROW_FAQ.text


def test_a_sentence_from_another_page_is_never_added(hash_bot):
    assert _composed(hash_bot, "how many cards go face up in the row?", [ROW_FAQ, FAR_PASSAGE]) == ROW_FAQ.text


def test_a_question_naming_a_variant_gets_the_variant_sentence(hash_bot):
    answer = _composed(hash_bot, "what does vincent do with the card he picks?", [BASE_TURN, VINCENT_TURN])
    assert answer == f"{BASE_TURN.text} Vincent discards the card he selects from the game. (p. 5)"


def test_an_elliptical_follow_up_gets_the_statement_without_the_previous_questions_lead(hash_bot):
    # Ranked for "previous question + follow-up", the record is close to the previous question: its lead answered
    # that one, and "and for the skipped cards?" may have the opposite answer.
    records = [Ranked(TAKEN, 0.95, 0.95, asked=0.97)]
    answer = rule_answer("and for the skipped cards?", "en", records, _pack(hash_bot), CALIBRATION, 0.9, follow_up=True)
    assert answer.answer == "The tokens on the card you take go with it."
    standalone = rule_answer("do i get the tokens on the card i take?", "en", records, _pack(hash_bot), CALIBRATION, 0.9)
    assert standalone.answer.startswith("Yes. ")


# A lead answers its record's own question, for the values that question names (rulebook p. 3-4: Space counts a Hue
# and a Shape that are neither in one swatch nor in neighbouring ones; a card may be taken with fewer than 5 in hand).
SPACE = _faq(
    "faq.space-apart", "Does Space count a Hue and a Shape in neighbouring swatches?", "No.",
    "Space needs a Hue and a Shape neither in the same swatch nor in neighbouring ones.", page=4,
)
FULL_HAND = _faq(
    "faq.full-hand", "Can I take a card with 5 cards in hand?", "No.",
    "With 5 Art Cards in hand you cannot take another: your action must be to complete a painting.",
)
SPACE_FR = Entry(
    id="faq.space-apart.fr", concept_id="faq.space-apart", lang="fr", source="faq", pages=[4], section="Espace",
    question="Espace compte-t-il une Teinte et une Forme dans des zones voisines ?", lead="Non.",
    text="Espace demande une Teinte et une Forme ni dans la même zone ni dans des zones voisines.", game="canvas",
)


def test_no_lead_when_the_question_names_values_its_records_question_does_not():
    # Swatches 1 and 3 (red and green), 2 and 5 (yellow and violet) are not neighbours: "No." would be wrong.
    close = Ranked(SPACE, 0.95, 0.95, asked=0.97, own=0.97)
    assert not lead_applies("For Space, does a Hue in red and a Shape in green count?", close, CALIBRATION, "canvas")
    assert not lead_applies("space: hue in the yellow swatch, shape in the violet one. ok?", close, CALIBRATION, "canvas")
    french = Ranked(SPACE_FR, 0.95, 0.95, asked=0.97, own=0.97)
    assert not lead_applies(
        "pour Espace, une Teinte en rouge et une Forme en vert, ça compte ?", french, CALIBRATION, "canvas"
    )
    # Its own question, values and all, keeps its lead.
    assert lead_applies("does Space count a hue and a shape in neighbouring swatches?", close, CALIBRATION, "canvas")


def test_no_lead_for_another_hand_size_than_the_records_question():
    close = Ranked(FULL_HAND, 0.95, 0.95, asked=0.97, own=0.97)
    # With 3 or 4 cards in hand a card may be taken: "No." answers 5 only.
    assert not lead_applies("can I take a card with 4 cards in hand?", close, CALIBRATION, "canvas")
    assert not lead_applies("je peux prendre une carte avec 3 cartes en main ?", close, CALIBRATION, "canvas")
    assert lead_applies("can I still take a card with 5 cards in hand?", close, CALIBRATION, "canvas")


def test_the_lead_reads_the_closeness_to_the_records_own_question_not_a_paraphrase():
    # A paraphrase may ask a neighbouring case; only the record's own question is what its lead answers.
    via_paraphrase = Ranked(SPACE, 0.95, 0.95, asked=0.97, own=0.85)
    assert not lead_applies("does space count a hue and a shape side by side?", via_paraphrase, CALIBRATION, "canvas")
    own = Ranked(SPACE, 0.95, 0.95, asked=0.97, own=0.95)
    assert lead_applies("does space count a hue and a shape side by side?", own, CALIBRATION, "canvas")


def test_a_claim_gets_no_yes_or_no_lead():
    # Rulebook p. 3: the tokens on the card you take are yours. Each claim is close to "Do I get the tokens on the
    # card I take?" (lead "Yes."), yet states another outcome, which "Yes." would endorse.
    close = Ranked(TAKEN, 0.95, 0.95, asked=0.97, own=0.97)
    for claim in (
        "my friend says the tokens on the card I take go back to the box, right?",
        "someone told me the tokens on the card I take get discarded",
        "mon frère dit que les jetons sur la carte que je prends retournent dans la réserve, c'est ça ?",
    ):
        assert not lead_applies(claim, close, CALIBRATION, "canvas"), claim
    assert lead_applies("do i get the tokens on the card i take?", close, CALIBRATION, "canvas")
