"""Round 9, ingested rulebooks (rulesbot/extractive.py, rulesbot/glossary.json): a French question's accented
words reach the glossary however Snowball stems them, game-length cues no longer claim every "how long" question,
and chat's "rep", "mins", "guy", "cash" are the rulebook's words."""

from rulesbot.extractive import (
    content_terms,
    evidence_groups,
    glossary,
    glosses,
    heading_cues,
)
from rulesbot.retrieval import tokens


def test_an_accented_word_reaches_the_glossary_as_the_question_stems_it():
    # content_terms folds the question before stemming: "égalité" is then "egalit", where the glossary's own
    # spelling stems to "egal". Both spellings are keys.
    for word in ("égalité", "pénalité", "durée"):
        for stem in content_terms(f"une {word} ?", "fr"):
            assert stem in glossary(), (word, stem)
    found = {english for group in glosses("Égalité de points à la fin, on départage comment ?", "fr", "en") for english in group}
    assert {"tie", "tied"} <= found


def test_how_long_names_the_games_length_only_when_it_asks_about_the_game():
    opening = [title for _words, title in heading_cues("how long does a game take?")]
    assert any(opening)
    assert not any(title for _words, title in heading_cues("how long will a customer sit on the counter before they leave?"))
    assert any(title for _words, title in heading_cues("combien de temps dure une partie ?"))
    assert not any(title for _words, title in heading_cues("combien de temps un client attend au comptoir ?"))


def test_chat_words_are_the_rulebooks_words():
    groups = evidence_groups("if our rep drops to zero does the guy with the most craft win", "en", {"en"})
    assert any(set(tokens("reputation", "en")) <= group for group in groups)
    assert any(set(tokens("player", "en")) <= group for group in groups)
    assert any(set(tokens("minutes", "en")) & group for group in evidence_groups("we have 40 mins", "en", {"en"}))
    assert any(set(tokens("money", "en")) & group for group in evidence_groups("is leftover cash worth anything", "en", {"en"}))
    # Filler ("nah", "lol") is no evidence either way.
    assert evidence_groups("nah lol", "en", {"en"}) == []


def test_hidden_is_hidden_and_face_down_needs_its_face():
    # Before the accent fix "cachées" reached no gloss; its gloss "face down" then covered any passage saying
    # "down" or "face" ("place them face down" of the weather cards for "do coins stay hidden?"). The French
    # phrase for face down, "face cachée", brings "face" through its own word.
    alone = {english for group in glosses("est-ce que les pièces restent cachées ?", "fr", "en") for english in group}
    assert "hidden" in alone and "face down" not in alone
    phrase = {english for group in glosses("la carte est posée face cachée ?", "fr", "en") for english in group}
    assert {"face", "hidden"} <= phrase
