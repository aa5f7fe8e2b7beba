"""French/English detection of a short question: function words, accents and letter patterns, no dependency.

Rules questions are short ("main max ?", "tie break?", "Combien de jetons ?"), so statistical detectors are
unreliable; a few hundred characters of evidence is all there is. Each word votes by the lists below; an
accented letter or a French elision (l', d', qu') is strong evidence for French. A message mixing the two
languages is answered in the language of its grammar: when the function words (pronouns, articles,
prepositions, auxiliaries, question words) clearly lean one way, they decide, whatever game words the message
borrows from the other language ("vincent il garde les cards ?" is French, "only one carte per tour?" English).
When nothing decides, the caller's default language wins (English unless configured otherwise).
"""

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

# Function words (pronouns, articles, prepositions, auxiliaries, question words) that are (almost) only French or
# only English: the grammar a message is written in. Weight 2 each.
_FRENCH_GRAMMAR = dict.fromkeys(
    "le la les un une des du de au aux et ou est sont je tu il elle nous vous ils elles on que qui quoi "
    "quel quelle quels quelles combien comment pourquoi quand où ne pas peut peux puis dois doit faut "
    "en avec sans pour dans sur sous mon ma mes ton ta tes son sa ses leur leurs ce cette ces cet "
    "est-ce qu si oui non ça ca moi toi lui se te y par après apres avant comme aussi donc mais va vais vont "
    "ai avez avons ont suis es sommes êtes fais font veux tout tous toute toutes rien déjà deja jamais "
    "toujours lequel laquelle dont chez vers entre pendant depuis ensuite sinon ni voilà hein ouais nan".split(),
    2,
)
_ENGLISH_GRAMMAR = dict.fromkeys(
    "the a an of to is are was be do does did can could should would will i you he she we they it my "
    "your his her our their what which who how when why many much with without for in on at from "
    "if yes not and or any there this that these those so all just us them him has have had am been some "
    "than then where about after before into only also still again another one next other every same "
    "whats thats theres dont doesnt cant isnt im".split(),
    2,
)
# Game words and other content words: they vote too (a short "main max ?" has nothing else), but a message whose
# grammar is clearly one language keeps it whatever game words it borrows ("vincent il garde les cards ?").
_FRENCH_CONTENT = {
    **dict.fromkeys(
        "fin tour tours joueur joueurs jeton jetons carte cartes main tableau tableaux ruban rubans égalité points "
        "prendre piocher".split(),
        2,
    ),
    **dict.fromkeys(
        "mise toile toiles peinture peintures fond fonds objectif objectifs jeu partie règle règles premier première "
        "dernier dernière chaque plusieurs encore alors très plus moins faire fait "
        # Colour words ("1 rouge 4 verts 2 bleus 1 gris": a score list may have no other French word).
        "rouge rouges vert verts verte vertes bleu bleus bleue gris grise argent argentés jaune jaunes".split(),
        1,
    ),
}
_ENGLISH_CONTENT = dict.fromkeys(
    "card cards hand token tokens painting paintings ribbon ribbons tie break score scoring player "
    "players turn turns game end first last each take max limit background backgrounds art get "
    "happens allowed may must red green blue grey gray silver yellow purple".split(),
    1,
)
# How far apart the two grammars' scores must be for the grammar alone to decide (two function words' worth).
_GRAMMAR_MARGIN = 4.0
# Shared spellings carry no vote ("points", "art", "max", "solo", "bonus", "a" as in "il y a" vs "a card").
_NEUTRAL = {"points", "max", "solo", "bonus", "vincent", "canvas", "a"}
_ELISION = re.compile(r"\b(?:l|d|j|qu|n|s|c|m|t)['’]\w", re.IGNORECASE)
_ACCENTED = re.compile(r"[àâäçéèêëîïôöùûüÿœæ]", re.IGNORECASE)
_CONTRACTION = re.compile(r"\w+(?:'s|n't|'re|'ll|'ve)\b", re.IGNORECASE)
_ENGLISH_ENDINGS = re.compile(r"\b\w+(?:ing|ght|th)\b", re.IGNORECASE)
_WORD = re.compile(r"[\w'’-]+")

LANGS = ("en", "fr")
# How much the newest previous question of a conversation weighs beside the follow-up's own words.
CONTEXT_WEIGHT = 0.5
# A chat shorthand word only one language's table lists ("chui", "cb"; "ngl", "ur"): a function word's vote; a
# lone letter of one table ("c", "g"; "u", "w") a content word's.
_SHORTHAND_WEIGHT = 2.0
_LETTER_WEIGHT = 1.0


def detect_lang(text: str, default: str = "en", context: Sequence[str] = ()) -> str:
    """"fr" or "en" for `text`; `default` when the evidence is even.

    The grammar decides when it clearly leans one way (function words, elisions, contractions); otherwise all the
    evidence counts, game words, chat shorthand and letter patterns included. `context` (the player's previous
    questions, newest last) is the conversation a follow-up belongs to: the newest previous question's evidence
    counts too, at CONTEXT_WEIGHT, so "et en master ?" after an English question stays English while a follow-up
    written in a language of its own ("and what about the second one?") keeps it.
    """
    previous = next((item for item in reversed(list(context)) if isinstance(item, str) and item.strip()), None)
    grammar_french, grammar_english = grammar_scores(text)
    if previous is not None:
        french_before, english_before = grammar_scores(previous)
        grammar_french += CONTEXT_WEIGHT * french_before
        grammar_english += CONTEXT_WEIGHT * english_before
    if abs(grammar_french - grammar_english) >= _GRAMMAR_MARGIN:
        return "fr" if grammar_french > grammar_english else "en"
    french, english = lang_scores(text)
    if previous is not None:
        french_before, english_before = lang_scores(previous)
        french += CONTEXT_WEIGHT * french_before
        english += CONTEXT_WEIGHT * english_before
    if french > english:
        return "fr"
    if english > french:
        return "en"
    return default if default in LANGS else "en"


def _words(text: str) -> list[str]:
    # An elided article is counted on its own; the word after it is scored.
    words = []
    for raw in _WORD.findall(text.lower()):
        word = raw.replace("’", "'")
        if "'" in word and not word.endswith(("'s", "n't", "'re", "'ll", "'ve")):
            word = word.split("'", 1)[1]
        if word not in _NEUTRAL:
            words.append(word)
    return words


def grammar_scores(text: str) -> tuple[float, float]:
    """(French, English) scores of `text`'s grammar alone: function words, elisions and contractions."""
    french = 3.0 * len(_ELISION.findall(text))
    english = 1.5 * len(_CONTRACTION.findall(text))
    shorthand = _shorthand_words()
    for word in _words(text):
        french += _FRENCH_GRAMMAR.get(word, 0)
        english += _ENGLISH_GRAMMAR.get(word, 0)
        if len(word) > 1:
            # Chat shorthand is mostly little words written short ("chui", "koi", "pk"; "ur", "b4"): grammar.
            french += _SHORTHAND_WEIGHT * (word in shorthand["fr"])
            english += _SHORTHAND_WEIGHT * (word in shorthand["en"])
    return french, english


def lang_scores(text: str) -> tuple[float, float]:
    """(French, English) evidence scores for `text`, grammar and content (exposed for tests and debugging)."""
    french, english = grammar_scores(text)
    french += 3.0 * len(_ACCENTED.findall(text))
    english += 1.5 * len(_ENGLISH_ENDINGS.findall(text))
    shorthand = _shorthand_words()
    for word in _words(text):
        french += _FRENCH_CONTENT.get(word, 0)
        english += _ENGLISH_CONTENT.get(word, 0)
        if len(word) == 1:
            # A lone letter ("c", "u") is weaker evidence: it may be a label ("step C").
            french += _LETTER_WEIGHT * (word in shorthand["fr"])
            english += _LETTER_WEIGHT * (word in shorthand["en"])
        stripped = _strip_accents(word)
        if stripped != word and word not in _FRENCH_GRAMMAR and word not in _FRENCH_CONTENT:
            french += 1
    # French typography puts a space before ? and ! ("Combien de jetons ?").
    if re.search(r"\S\s[?!:;]\s*$", text):
        french += 1
    return french, english


def _strip_accents(word: str) -> str:
    folded = unicodedata.normalize("NFKD", word)
    return "".join(char for char in folded if not unicodedata.combining(char))


@lru_cache(maxsize=1)
def _shorthand_words() -> dict[str, frozenset[str]]:
    # The chat tables (rulesbot/shorthand.json) say which shorthand belongs to one language only.
    from rulesbot.shorthand import language_words

    return language_words()
