"""Passage-only packs read chat questions and rulebook lists the way players write and read them.

Three failure families seen on a rulebook written blind (eval/site-rulebook-dev2), each fixed generically and
checked here with questions and rulebook text of our own (a made-up game, Tidepool Traders, not a dev set's):
1. chat shorthand hid the question ("who starts?? lol", "do u", "b4", "pts", "strat"): it is written out before a
   user pack reads the question (rulesbot/glossary.json "chat"), so scope cues and coverage see plain words;
2. the question's type names the section that answers it ("who plays first" -> the first-player section, "what
   comes in the box" -> the components): the section title is a ranking signal (glossary.json "headings");
3. "...as soon as one of these things happens:" was answered without the list that says what happens: a
   paragraph ending with ":" stays with its list, list items are sentences, and such a sentence brings its list.
"""

import pytest

from rulesbot.extractive import (
    best_sentences,
    heading_cues,
    heading_match,
    normalise_chat,
    split_sentences,
)
from rulesbot.ingest import chunk_pages
from rulesbot.knowledge import Entry
from rulesbot.scope import out_of_scope

TITLE = "Tidepool Traders"


@pytest.mark.parametrize(
    ("question", "lang", "plain"),
    [
        ("do u draw b4 or after trading??", "en", "do you draw before or after trading?"),
        ("how many pts r shells worth lol", "en", "how many points are shells worth"),
        ("can i keep ur crab if u pass", "en", "can i keep your crab if you pass"),
        ("on marque combien de pts avec un crabe mdr", "fr", "on marque combien de points avec un crabe"),
        ("c koi l'appli officielle ??", "fr", "c'est quoi l'application officielle?"),
    ],
)
def test_chat_shorthand_is_written_out(question, lang, plain):
    assert normalise_chat(question, lang) == plain


def test_normalising_keeps_words_that_only_contain_shorthand():
    # "r", "u", "ur" are whole words only: "your", "rules", "turn" stay as they are.
    assert normalise_chat("your turn rules", "en") == "your turn rules"
    # A question that is nothing but noise is kept rather than emptied.
    assert normalise_chat("lol", "en") == "lol"


@pytest.mark.parametrize(
    "question",
    ["any good strat for the first round?", "best strats with 2 players", "une bonne strat pour gagner ?"],
)
def test_scope_cues_see_the_written_out_question(question):
    lang = "fr" if "pour" in question else "en"
    assert out_of_scope(question, TITLE) is None  # the shorthand alone hides the cue
    found = out_of_scope(normalise_chat(question, lang), TITLE)
    assert found is not None and found.reason == "opinion"


SECTIONS = ["Tidepool Traders", "Components", "Setup", "Who Plays First", "A Turn", "End of the Game", "Ties", "Scoring"]


@pytest.mark.parametrize(
    ("question", "section"),
    [
        ("who plays first in this game", "Who Plays First"),
        ("qui commence la partie ?", "Who Plays First"),
        ("what comes in the box", "Components"),
        ("y a combien de coquillages au total ?", "Components"),
        ("how many shells does everyone begin with", "Setup"),
        ("combien de crabes au début ?", "Setup"),
        ("what if two traders finish on the same score", "Ties"),
        ("comment on départage une égalité ?", "Ties"),
        ("when is the game over", "End of the Game"),
        ("c'est pour quel âge ?", "Tidepool Traders"),
    ],
)
def test_the_question_type_points_at_its_section(question, section):
    cues = heading_cues(question)
    scores = {title: heading_match(title, TITLE, cues) for title in SECTIONS}
    best = max(scores.values())
    assert best > 0 and [title for title, score in scores.items() if score == best] == [section], scores


def test_a_question_of_no_known_type_favours_no_section():
    cues = heading_cues("can a crab swim backwards")
    assert all(heading_match(title, TITLE, cues) == 0.0 for title in SECTIONS)


ENDING = (
    "The game ends at once when one of these things happens:\n\n"
    "- the shell bag is empty, or\n- a trader owns five crabs.\n\n"
    "Then every trader counts their pearls."
)


def test_a_paragraph_ending_with_a_colon_stays_with_its_list():
    passages = chunk_pages([(3, "## End of the Game\n\n" + ENDING)], default_section=TITLE, max_chars=1500)
    assert passages[0].text.startswith("The game ends at once") and "a trader owns five crabs." in passages[0].text


def test_a_long_list_is_cut_between_its_items():
    items = "\n".join(f"- item {number} " + "word " * 20 for number in range(1, 9))
    passages = chunk_pages([(1, "## Components\n\n" + items)], default_section=TITLE, max_chars=5000)
    assert len(passages) > 1
    assert all(passage.text.startswith("- item ") for passage in passages)


def test_list_items_and_bold_case_titles_are_sentences():
    assert split_sentences("It ends when: - the bag is empty, or - a trader owns five crabs.") == [
        "It ends when:",
        "- the bag is empty, or",
        "- a trader owns five crabs.",
    ]
    assert split_sentences("Each turn: 1. **Draw.** Take a shell. 2. **Trade.** Swap one crab.") == [
        "Each turn:",
        "1. **Draw.** Take a shell.",
        "2. **Trade.** Swap one crab.",
    ]
    assert split_sentences("**The bag is empty.** Keep playing. Nobody draws.") == [
        "**The bag is empty.** Keep playing.",
        "Nobody draws.",
    ]
    # Neither a range ("2 - 3") nor a number ending a sentence ("space 5.") starts an item.
    assert split_sentences("Score 2 - 3 pearls. Move to space 5. Then stop.") == [
        "Score 2 - 3 pearls.",
        "Move to space 5.",
        "Then stop.",
    ]


def test_a_sentence_ending_with_a_colon_brings_its_list(hash_bot):
    entry = Entry(
        id="user.t.en.p3.1", concept_id="user.t.en.p3.1", lang="en", source="user", pages=[3],
        section="Low tide", text=" ".join(ENDING.split()),  # a title the question does not name (else: whole)
    )
    answer = best_sentences("when does the game end at once", "en", entry, hash_bot.retriever.embedder)
    assert answer.startswith("The game ends at once when one of these things happens:")
    assert "- the shell bag is empty, or" in answer and "- a trader owns five crabs." in answer
    assert "pearls" not in answer


RULEBOOK = """\
<!-- page 1 -->
# Tidepool Traders

A trading game of shells and crabs for 2 to 4 traders, ages 8 and up.

## Components

40 shell tokens, 12 crab cards, 4 trader boards and 1 cloth bag for the shells.

<!-- page 2 -->
## Strategy tips

Crabs are worth more late in the game, so a patient trader keeps some shells for the last round of trading.
"""


def _user_bot(hash_env, tmp_path, monkeypatch, text: str):
    from typer.testing import CliRunner

    from rulesbot.cli import app
    from rulesbot.core import Rulesbot
    from rulesbot.settings import Settings, get_settings

    path = tmp_path / "tidepool.md"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["ingest", str(path), "--game", "tidepool", "--lang", "en", "--title", TITLE])
    assert result.exit_code == 0, result.output
    monkeypatch.setenv("RULESBOT_DEFAULT_GAME", "tidepool")
    get_settings.cache_clear()
    return Rulesbot.load(Settings(), notify=lambda _message: None)


def test_a_user_pack_reads_shorthand_before_its_scope_cues(hash_env, tmp_path, monkeypatch):
    without_tips = RULEBOOK.split("<!-- page 2 -->")[0]
    bot = _user_bot(hash_env, tmp_path, monkeypatch, without_tips)
    pairs = [
        ("any good strat with 4 traders??", "any good strategy with 4 traders?"),
        ("une bonne strat pour débuter ?", "une bonne stratégie pour débuter ?"),
    ]
    for shorthand, plain in pairs:
        answer = bot.ask(shorthand)
        assert answer.kind == "unknown" and not answer.citations, (shorthand, answer.answer)
        assert answer.answer == bot.ask(plain).answer  # the opinion message, not a rule or "I don't know"


def test_a_cue_the_rulebook_itself_uses_is_a_rules_word_there(hash_env, tmp_path, monkeypatch):
    bot = _user_bot(hash_env, tmp_path, monkeypatch, RULEBOOK)
    answer = bot.ask("what strategy tips does the rulebook give for crabs?")
    assert answer.kind == "rule" and answer.citations[0].page == 2, answer.answer
    # Money words never yield: a rulebook's own prices are not the box's price.
    assert bot.ask("how much does the game cost in shops?").kind == "unknown"


WORDS = {"lantern": "lantern", "heron": "herons", "group": "group", "tile": "tile", "player": "players"}


@pytest.mark.parametrize(
    ("question", "english"),
    [
        ("où est-ce que je mets ma lanterne ?", "lantern"),
        ("le héron rapporte combien ?", "herons"),
        ("un groupe sans personne ça compte ?", "group"),
    ],
)
def test_a_french_word_spelt_like_a_rulebook_word_brings_it(question, english):
    from rulesbot.extractive import dense_query, glosses

    assert (english,) in glosses(question, "fr", "en", WORDS)
    assert english in dense_query(question, "fr", "en", WORDS)
    # Without the rulebook's words there is nothing to be a cognate of.
    assert (english,) not in glosses(question, "fr", "en")


def test_a_french_word_unlike_any_rulebook_word_brings_nothing():
    from rulesbot.extractive import cognates
    from rulesbot.retrieval import tokens

    # "brouillard" (fog) and "tuile" (tile) are not spelt like their English words; "lanterne" is.
    for word, found in (("brouillard", []), ("tuile", []), ("lanterne", ["lantern"])):
        assert cognates(tokens(word, "fr")[0], f"une {word} ?", WORDS) == found


def test_a_french_question_finds_its_passage_by_its_glossed_words(hash_env, tmp_path, monkeypatch):
    from rulesbot.extractive import glossed_lexical, rulebook_words

    bot = _user_bot(hash_env, tmp_path, monkeypatch, RULEBOOK)
    pack = bot.packs["tidepool"]
    scores = glossed_lexical(bot.retriever, pack, "c'est quoi le matériel dans la boîte ?", "fr", rulebook_words(pack))
    best = max(scores, key=scores.get)
    assert pack.by_id[best].section == "Components"
    # A question in the rulebook's own language has its BM25 in the first stage already.
    assert glossed_lexical(bot.retriever, pack, "what is in the box?", "en", rulebook_words(pack)) == {}


TIES = (
    "When traders have the same number of pearls, the one with more crabs wins. If that is still equal, the "
    "trader with more shells left wins. If they are still level, they share the victory."
)


@pytest.mark.parametrize("question", ["tiebreak??", "what if we both end on the same score", "égalité, on fait quoi ?"])
def test_a_short_section_the_question_names_is_answered_whole(hash_bot, question):
    entry = Entry(id="user.t.en.p4.1", concept_id="user.t.en.p4.1", lang="en", source="user", pages=[4], section="Ties", text=TIES)
    lang = "fr" if "égalité" in question else "en"
    assert best_sentences(question, lang, entry, hash_bot.retriever.embedder) == TIES
    # The same question about a passage of another section gets its closest sentences only.
    other = entry.model_copy(update={"section": "Pearls"})
    assert best_sentences(question, lang, other, hash_bot.retriever.embedder) != TIES


def test_a_cue_written_in_shorthand_still_fires_on_the_question_as_asked(hash_env, tmp_path, monkeypatch):
    import copy

    import rulesbot.scope as scope

    data = copy.deepcopy(scope.scope_data())
    data["rules"].insert(0, {"reason": "opinion", "groups": [["une appli"]]})
    monkeypatch.setattr(scope, "scope_data", lambda: data)
    # The compiled rules are cached per title: rebuild them from the patched data now and from the real data after.
    scope._compiled_rules.cache_clear()
    try:
        bot = _user_bot(hash_env, tmp_path, monkeypatch, RULEBOOK)
        # Read as "une application", the question would miss the cue written as players write it.
        answer = bot.ask("y a une appli pour les crabes ?")
        assert answer.kind == "unknown" and answer.answer == scope.scope_message("opinion", "fr", TITLE)
    finally:
        scope._compiled_rules.cache_clear()
