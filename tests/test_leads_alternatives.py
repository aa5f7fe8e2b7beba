"""FAQ leads only for the record's own question (close, same polarity, same form); "did you mean" alternatives."""

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
