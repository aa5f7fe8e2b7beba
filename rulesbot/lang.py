"""French/English detection of a short question: function words, accents and letter patterns, no dependency.

Rules questions are short ("main max ?", "tie break?", "Combien de jetons ?"), so statistical detectors are
unreliable; a few hundred characters of evidence is all there is. Each word votes by the lists below; an
accented letter or a French elision (l', d', qu') is strong evidence for French. When nothing decides, the
caller's default language wins (English unless configured otherwise).
"""

import re
import unicodedata

# Words that are (almost) only French or only English. Weights: 2 = function word, nearly decisive.
_FRENCH = {
    **dict.fromkeys(
        "le la les un une des du de au aux et ou est sont je tu il elle nous vous ils elles on que qui quoi "
        "quel quelle quels quelles combien comment pourquoi quand où ne pas peut peux puis dois doit faut "
        "en avec sans pour dans sur sous mon ma mes ton ta tes son sa ses leur leurs ce cette ces cet "
        "est-ce qu si oui non fin tour tours joueur joueurs jeton jetons carte cartes main "
        "tableau tableaux ruban rubans égalité points prendre piocher".split(),
        2,
    ),
    **dict.fromkeys(
        "mise toile toiles peinture peintures fond fonds objectif objectifs jeu partie règle règles premier première "
        "dernier dernière chaque plusieurs encore aussi alors donc mais très plus moins faire fait".split(),
        1,
    ),
}
_ENGLISH = {
    **dict.fromkeys(
        "the a an of to is are was be do does did can could should would will i you he she we they it my "
        "your his her our their what which who how when why many much with without for in on at from "
        "if yes not and or any there this that these those".split(),
        2,
    ),
    **dict.fromkeys(
        "card cards hand token tokens painting paintings ribbon ribbons tie break score scoring player "
        "players turn turns game end first last each take max limit background backgrounds art get "
        "happens allowed may must".split(),
        1,
    ),
}
# Shared spellings carry no vote ("points", "art", "max", "solo", "bonus", "a" as in "il y a" vs "a card").
_NEUTRAL = {"points", "max", "solo", "bonus", "vincent", "canvas", "a"}
_ELISION = re.compile(r"\b(?:l|d|j|qu|n|s|c|m|t)['’]\w", re.IGNORECASE)
_ACCENTED = re.compile(r"[àâäçéèêëîïôöùûüÿœæ]", re.IGNORECASE)
_ENGLISH_PATTERNS = re.compile(r"\w+(?:'s|n't|'re|'ll|'ve)\b|\b\w+(?:ing|ght|th)\b", re.IGNORECASE)
_WORD = re.compile(r"[\w'’-]+")

LANGS = ("en", "fr")


def detect_lang(text: str, default: str = "en") -> str:
    """"fr" or "en" for `text`; `default` when the evidence is even."""
    french, english = lang_scores(text)
    if french > english:
        return "fr"
    if english > french:
        return "en"
    return default if default in LANGS else "en"


def lang_scores(text: str) -> tuple[float, float]:
    """(French, English) evidence scores for `text` (exposed for tests and debugging)."""
    french = 3.0 * len(_ACCENTED.findall(text)) + 3.0 * len(_ELISION.findall(text))
    english = 1.5 * len(_ENGLISH_PATTERNS.findall(text))
    for raw in _WORD.findall(text.lower()):
        word = raw.replace("’", "'")
        # An elided article is already counted above; score the word after it.
        if "'" in word and not word.endswith(("'s", "n't", "'re", "'ll", "'ve")):
            word = word.split("'", 1)[1]
        if word in _NEUTRAL:
            continue
        french += _FRENCH.get(word, 0)
        english += _ENGLISH.get(word, 0)
        stripped = _strip_accents(word)
        if stripped != word and word not in _FRENCH:
            french += 1
    # French typography puts a space before ? and ! ("Combien de jetons ?").
    if re.search(r"\w\s[?!:;]\s*$", text):
        french += 1
    return french, english


def _strip_accents(word: str) -> str:
    folded = unicodedata.normalize("NFKD", word)
    return "".join(char for char in folded if not unicodedata.combining(char))
