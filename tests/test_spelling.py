"""Misspelt words read as the pack's own words (rulesbot.spelling), and what is never touched."""

from types import SimpleNamespace

import pytest

from rulesbot.shorthand import normalise
from rulesbot.spelling import PackWords, correct, corrections, pack_words


def _pack(*texts):
    entries = [SimpleNamespace(text=text, section="Rules", question=None, paraphrases=[]) for text in texts]
    return SimpleNamespace(entries=entries)


# A made-up rulebook: the corrections come from its words, not from any list of Canvas words.
LIGHTHOUSE = _pack(
    "Each keeper starts with 2 lantern oil barrels. Refill the lantern oil at a harbour.",
    "A storm cracks one lens. Replace the lens at a harbour; the lantern then shines again.",
    "Keeper Marguerite always moves first. Marguerite pays no harbour fee.",
)


def _read(question, pack, lang="en"):
    return correct(normalise(question, lang), pack).text


def test_a_typo_of_a_pack_word_is_read_as_that_word():
    assert _read("how much lantren oil does a keper get", LIGHTHOUSE) == "how much lantern oil does a keeper get"
    assert _read("what does the storm crack, the lnes?", LIGHTHOUSE) == "what does the storm crack, the lens?"


def test_words_of_the_language_and_of_the_pack_stay_as_typed():
    # "lanterns" is English, "keepers" too: one edit from a pack word is not enough.
    assert _read("do the keepers share lanterns", LIGHTHOUSE) == "do the keepers share lanterns"
    assert _read("Refill the lantern", LIGHTHOUSE) == "Refill the lantern"


def test_short_words_and_words_with_digits_stay():
    assert _read("the len and oi2l", LIGHTHOUSE) == "the len and oi2l"


def test_a_name_inside_a_sentence_is_read_only_as_a_capitalised_pack_word():
    assert _read("then Margueritte moves", LIGHTHOUSE) == "then Marguerite moves"
    pack = _pack("Each harbour sells oil. Each harbour sells oil twice.")
    assert _read("I told Harbur to sell", pack) == "I told Harbur to sell"  # a capitalised word: a name, not "harbour"
    assert _read("the harbur sells oil", pack) == "the harbour sells oil"


def test_two_equally_close_and_common_candidates_leave_the_word_as_typed():
    pack = _pack("bolts bolts bolts bells bells bells")
    assert PackWords(["bolts bolts bells bells"]).candidate("bolls") is None
    assert _read("the bolls", pack) == "the bolls"


def test_the_read_text_points_back_at_the_question_as_asked():
    read = correct(normalise("the lnes cracks", "en"), LIGHTHOUSE)
    start = read.text.index("lens")
    assert read.original[slice(*read.original_span(start, start + 4))] == "lnes"


@pytest.mark.parametrize(("question", "lang", "expected"), [
    ("how many ribbns for emphasis", "en", "ribbons"),
    ("inspration tokens", "en", "Inspiration"),
    ("la pioshe est vide", "fr", "pioche"),
    ("j'ai fini mon tableua", "fr", "tableau"),
])
def test_canvas_typos_are_read_as_the_pack_words(question, lang, expected):
    from rulesbot.knowledge import load_packs

    pack = load_packs()["canvas"]
    found = corrections(normalise(question, lang, "canvas").text, pack_words(pack))
    assert [surface for _start, _end, surface in found] == [expected]


def test_canvas_questions_without_typos_are_untouched():
    from rulesbot.knowledge import load_packs

    pack = load_packs()["canvas"]
    for question, lang in [("it was taken by Marc and Jake, they argued", "en"),
                           ("ma fille montre tout à son frère, c'est permis ?", "fr"),
                           ("can we trade cards between players", "en")]:
        assert _read(question, pack, lang) == normalise(question, lang).text


def test_clipped_words_inflections_and_left_out_apostrophes_are_not_typos():
    from rulesbot.knowledge import load_packs

    pack = load_packs()["canvas"]
    for question, lang in [("theres a rule, isnt there? youre sure", "en"),  # apostrophes left out
                           ("how many comp points, and the intro game", "en"),  # clipped pack words
                           ("2 silvers and Vincents tokens", "en"),  # forms of pack words
                           ("les cartes empilées qu'on a proposées", "fr"),  # French inflections
                           ("ma sœur a 3 rubans répét", "fr")]:
        assert _read(question, pack, lang) == normalise(question, lang).text, question
