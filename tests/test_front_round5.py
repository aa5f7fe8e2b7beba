"""The fifth blind round's front-door families, as mechanisms: chat shorthand written out once before a question
is read, another game's rules asked with a pointer back at it ("dans ce jeu-là"), printing or downloading
material, which thing to learn first (an opinion), a follow-up that only continues a near-domain question, and
the language of a follow-up or of a message with "fr" or borrowed game words.

The questions are new phrasings (none from an eval set). The oracles are what a person reads in each message:
the standard spelling of the shorthand, whether the message asks about Canvas or about something else, which
language its writer is using; and, through the bot, the rules as the rulebook states them (Canvas FACTS: a
hand holds at most 5 Art Cards; a Silver Ribbon is worth 2 points; a painting is exactly 3 Art Cards; the card
at the free end of the row costs nothing).
"""

import pytest

from rulesbot.lang import detect_lang
from rulesbot.scope import follow_up_out_of_scope, out_of_scope
from rulesbot.shorthand import normalise


def _reason(question: str) -> str | None:
    found = out_of_scope(question, "Canvas", "canvas")
    return found.reason if found else None


# Family: chat shorthand written out (the oracle: how the same words are spelled in full).


@pytest.mark.parametrize(
    ("question", "lang", "read"),
    [
        ("cb de jetons pour la 4e carte ?", "fr", "combien de jetons pour la 4e carte ?"),
        ("chui a 5 cartes, c mort ?", "fr", "je suis a 5 cartes, c'est mort ?"),
        ("g pris la gratos, koi ensuite ?", "fr", "j'ai pris la gratuite, quoi ensuite ?"),
        ("wsh on peut choper 2 cartes d'un coup ? tkt", "fr", "on peut prendre 2 cartes d'un coup ?"),
        ("jsuis perdu mdr, ya combien de rubans ?", "fr", "je suis perdu, y a combien de rubans ?"),
        ("ngl can u paint w only 2 cards fr", "en", "can you paint with only 2 cards"),
        ("do i keep the tokens n the card b4 scoring lol", "en", "do i keep the tokens and the card before scoring"),
        ("bro how many pts r silver ribbons", "en", "how many points are silver ribbons"),
    ],
)
def test_chat_shorthand_is_written_out(question, lang, read):
    assert normalise(question, lang).text == read


@pytest.mark.parametrize(
    ("question", "lang"),
    [
        # The rulebook's own letters, and a capital letter, are not chat.
        ("What goes on the table in step C?", "en"),
        ("à l'étape C on fait quoi ?", "fr"),
        ("Option C: is that allowed?", "en"),
        # An apostrophe typed as a space: "c est" already says "c'est".
        ("qui commence, c est le plus jeune ?", "fr"),
        # Plain words that look like shorthand elsewhere.
        ("combien de jetons au départ ?", "fr"),
        ("how many tokens do we start with?", "en"),
    ],
)
def test_standard_text_and_the_rulebooks_letters_are_left_as_typed(question, lang):
    assert normalise(question, lang).text == question


def test_a_word_said_to_the_reader_is_dropped_but_kept_as_a_noun_after_a_determiner():
    assert normalise("bro, can I skip two cards?", "en").text == "can I skip two cards?"
    assert normalise("my bro says you can skip two cards", "en").text == "my brother says you can skip two cards"


def test_the_written_out_text_points_back_at_the_words_as_typed():
    question = "wsh cb de rubans max sur Emphase ?"
    read = normalise(question, "fr")
    start = read.text.index("combien")
    assert question[slice(*read.original_span(start, start + len("combien")))] == "cb"
    start = read.text.index("Emphase")
    assert question[slice(*read.original_span(start, start + len("Emphase")))] == "Emphase"
    assert read.original_span(0, len(read.text)) == (question.index("cb"), len(question))


def test_reading_twice_changes_nothing_more():
    for question, lang in [("chui a 4 cartes c mort ?", "fr"), ("can u paint w 4 cards n a background", "en")]:
        once = normalise(question, lang).text
        assert normalise(once, lang).text == once


def test_a_span_outside_the_read_text_is_a_clear_error():
    with pytest.raises(ValueError, match="outside"):
        normalise("cb ?", "fr").original_span(0, 99)


# Through the bot: a slang question gets the rule its standard spelling gets (oracles: the rulebook's facts).


@pytest.mark.parametrize(
    ("question", "fact"),
    [
        ("cb de cartes max en main chui bloqué ?", "5"),
        ("g 0 jeton, je peux choper koi comme carte ?", "gratuite"),
        ("wsh cb de peintures pr finir la partie ?", "3"),
        ("cb de cartes dans la rangée au début tkt", "5"),
        ("wsh un ruban argent ça rapporte cb ?", "2"),
        ("can u paint w just 2 cards fr", "3"),
        ("ngl whats a silver ribbon worth at the end", "2"),
    ],
)
def test_a_slang_question_gets_the_rule(real_bot, question, fact):
    answer = real_bot.ask(question)
    assert answer.kind != "unknown" and fact in answer.answer
    # The answer keeps the question as typed.
    assert answer.question == question


# Family: another game's rules asked while talking about Canvas, pointed at as "that game".


@pytest.mark.parametrize(
    "question",
    [
        "We just came back from a Wingspan night. How do eggs score at the end in that game?",
        "on sort d'une partie de Cascadia, les habitats rapportent combien dans ce jeu-là ?",
        "Mon frère adore Azul. À ce jeu-là, on marque les points à quel moment ?",
        "I also play Splendor: in that game, how many gems can you hold?",
    ],
)
def test_another_games_rules_pointed_at_as_that_game_are_refused(question):
    assert _reason(question) == "other_game"


@pytest.mark.parametrize(
    "question",
    [
        "J'ai joué à Azul hier. Dans ce jeu-ci, qui commence ?",
        "Dans Wingspan les œufs valent un point chacun, les rubans argent valent combien ?",
        "In Splendor costs are printed. Why does the third card cost 2 here?",
    ],
)
def test_a_canvas_question_beside_another_game_is_still_answered(question):
    assert _reason(question) is None


# Family: printing or downloading material (score sheets, the rulebook file).


@pytest.mark.parametrize(
    "question",
    [
        "is there a printable score pad for Canvas somewhere?",
        "can I download the rulebook in French?",
        "on peut télécharger des cartes de score en pdf ?",
        "où trouver des feuilles de score pour noter les points ?",
        "il faut imprimer quelque chose avant de jouer ?",
    ],
)
def test_printing_or_downloading_material_is_near_domain(question):
    assert _reason(question) == "resources"


@pytest.mark.parametrize(
    "question",
    [
        "what is printed on the back of a scoring card?",
        "qu'est-ce qui est imprimé au dos des cartes de score ?",
        "how do we keep score, on a sheet or with the ribbons?",
        "where in the rulebook is the tie rule?",
    ],
)
def test_rules_questions_with_printed_or_score_words_stay_in_scope(question):
    assert _reason(question) is None


# Family: which thing to learn or prefer first, an opinion the rulebook does not give.


@pytest.mark.parametrize(
    "question",
    [
        "est-il préférable de jouer d'abord sans Vincent ?",
        "is it preferable to learn Solo Puzzle before the solo levels?",
        "c'est plus judicieux d'apprendre le jeu à deux d'abord ?",
        "which should we learn first, Solo Puzzle or Painting with Vincent?",
        "would it be better to skip the scenarios at the start?",
    ],
)
def test_which_thing_to_learn_or_prefer_first_is_an_opinion(question):
    assert _reason(question) == "opinion"


# Family: a follow-up that only continues a near-domain question.


@pytest.mark.parametrize(
    ("previous", "follow_up"),
    [
        ("what's the best scoring card?", "and the worst?"),
        ("c'est quoi la meilleure stratégie en solo ?", "et avec Vincent ?"),
        ("quelle carte de score est la plus forte ?", "et la moins forte ?"),
    ],
)
def test_a_follow_up_that_only_continues_a_near_domain_question_is_refused_too(real_bot, previous, follow_up):
    lang = detect_lang(follow_up, context=[previous])
    pack = real_bot.packs["canvas"]
    found = follow_up_out_of_scope(follow_up, lang, [previous], "Canvas", "canvas", pack)
    assert found is not None and found.reason == "opinion"
    assert real_bot.ask(follow_up, context=[previous]).kind == "unknown"


@pytest.mark.parametrize(
    ("previous", "follow_up"),
    [
        ("what's the best scoring card?", "and how many scoring cards are there?"),
        ("meilleure carte de score ?", "et combien de rubans max sur Emphase ?"),
        ("how many tokens does the third card cost?", "and the fourth?"),
    ],
)
def test_a_follow_up_asking_its_own_rule_or_following_a_rules_question_is_not(real_bot, previous, follow_up):
    lang = detect_lang(follow_up, context=[previous])
    assert follow_up_out_of_scope(follow_up, lang, [previous], "Canvas", "canvas", real_bot.packs["canvas"]) is None


# Family: the language of a follow-up, and of a message with "fr" or game words of the other language.


@pytest.mark.parametrize(
    ("previous", "follow_up", "lang"),
    [
        # A short follow-up borrowing the other language's little words stays in the conversation's language.
        ("what does the Master level need?", "et Expert?", "en"),
        ("quel score pour le niveau Master ?", "and Expert?", "fr"),
        ("how many cards can i hold?", "ok et avec Vincent?", "en"),
        ("combien de jetons au début de la partie ?", "and in solo puzzle ?", "fr"),
        # A follow-up written in a language of its own keeps it.
        ("how many cards can i hold?", "et combien de jetons a-t-on au début de la partie ?", "fr"),
        ("combien de jetons au début ?", "and how many tokens does each player start with?", "en"),
    ],
)
def test_a_follow_up_is_read_in_its_conversations_language(previous, follow_up, lang):
    assert detect_lang(follow_up, context=[previous]) == lang


@pytest.mark.parametrize(
    ("question", "lang"),
    [
        # "fr" for "for real" in English, or for "frère" in French: neither language's vote.
        ("can i take the 2nd card w 1 token fr", "en"),
        ("do bonus icons count for composition fr?", "en"),
        ("fr je peux prendre la 3e carte avec 2 jetons ?", "fr"),
        # Shorthand only one language uses.
        ("cb pour Emphasis ?", "fr"),
        ("chui a 4 cards", "fr"),
        ("u get 2 for silver?", "en"),
        # Game words of the other language.
        ("les ribbons silver ça vaut cb ?", "fr"),
        ("c quoi le hand limit", "fr"),
        ("how many jetons do u start w?", "en"),
        # Nothing but a name and French typography.
        ("Emphase = ?", "fr"),
    ],
)
def test_fr_shorthand_and_borrowed_words_keep_the_writers_language(question, lang):
    assert detect_lang(question) == lang


def test_a_computed_answer_to_a_slang_question_is_in_the_writers_language(real_bot):
    answer = real_bot.ask("j'ai 1 jeton, cb coûte la 2e carte fr ?")
    assert answer.lang == "fr"
    answer = real_bot.ask("i got 1 token, can i grab the 2nd card fr?")
    assert answer.lang == "en"


# Family: who made the game, videos, popularity, the assistant's own play: nothing a rulebook says.


@pytest.mark.parametrize(
    ("question", "reason"),
    [
        ("who drew the pictures on the art cards?", "credits"),
        ("c'est qui l'illustratrice des cartes ?", "credits"),
        ("which company is the publisher of the French edition?", "credits"),
        ("tu connais une bonne vidéo pour apprendre à jouer ?", "resources"),
        ("is there any tutorial on youtube for the solo mode?", "resources"),
        ("which Scoring Card is the most popular with players?", "opinion"),
        ("la plupart des gens jouent avec quel scénario ?", "opinion"),
        ("have you ever played a full game?", "chat"),
        ("et toi, tu joues souvent à Canvas toi ?", "chat"),
    ],
)
def test_credits_videos_popularity_and_the_assistants_own_play_are_near_domain(question, reason):
    assert _reason(question) == reason


@pytest.mark.parametrize(
    "question",
    [
        # A video told as the source of a claim asks the rules.
        "a video showed someone taking two cards in one turn, is that allowed?",
        "dans la vidéo ils posaient un jeton sur chaque carte sautée, c'est la règle ?",
        # The designers' top score is an achievement's condition.
        "how much do I need to beat the designers' best score?",
        # A component running out mid-game asks the rules' substitute.
        "plus de rubans bleus, rupture de stock en pleine partie, on fait quoi ?",
        "we're out of stock on green ribbons during the game, what do we do?",
        # "you" in a rule.
        "do you play clockwise or counter-clockwise?",
    ],
)
def test_rules_questions_near_those_cues_stay_in_scope(question):
    assert _reason(question) is None


@pytest.mark.parametrize(
    ("question", "lang", "read"),
    [
        # A shorthand word right after an elision is still read ("l'appli", "d'infos"), as a whole word only.
        ("elle est où l'appli ?", "fr", "elle est où l'application ?"),
        ("y a pas d'applis pour compter ?", "fr", "y a pas d'applications pour compter ?"),
        # An elision's letter is not a shorthand key of its own, and a word inside another is left alone.
        ("l'u de la carte", "fr", "l'u de la carte"),
        ("l'application", "fr", "l'application"),
    ],
)
def test_shorthand_after_an_elision_is_read(question, lang, read):
    assert normalise(question, lang).text == read


def test_one_chat_table_per_word():
    """rulesbot/shorthand.json is the shorthand every question is read with; glossary.json "chat" only adds to it."""
    import json
    from importlib import resources

    shorthand = json.loads(resources.files("rulesbot").joinpath("shorthand.json").read_text(encoding="utf-8"))
    glossary = json.loads(resources.files("rulesbot").joinpath("glossary.json").read_text(encoding="utf-8"))
    for lang, extras in glossary["chat"].items():
        assert not {word.lower() for word in extras} & {word.lower() for word in shorthand[lang]}, lang
