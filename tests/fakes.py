"""A fake `Rulesbot` for API, widget and CLI tests: instant, deterministic, no model and no index.

It honours the core interface (`load`, `ask`, `search`, `score`, `games`) and its errors: an unknown game
raises UnknownGame, an unknown card raises UnknownCard. `score` is the real (pure, fast) Canvas engine.
Questions are routed by keywords, so tests can ask for each answer kind:

- a question with "xyzzy"                         -> kind "unknown" (the honest "I don't know")
- "true"/"vrai"/"false"/"faux"                    -> kind "claim"; the verdict is True when the question
                                                     says the first card is free ("free"/"gratuite")
- names the cards Chosen, Game and Truth          -> kind "computed", with the engine's painting
- anything else                                   -> kind "rule": the hand limit, p. 3
"""

import re
from collections import Counter

from rulesbot.errors import BadInput, UnknownCard, UnknownGame
from rulesbot.finishing import finish_answer
from rulesbot.knowledge import PackManifest
from rulesbot.models import Answer, Citation, SearchHit

FAKE_GAMES = ("canvas",)
# Words that mark a question as French when no language is forced.
_FRENCH = re.compile(
    r"[àâçéèêëîïôûùüÿœ]|\b(combien|quel(le)?s?|est-ce|tableau|peut|puis|je|les|une|des|cartes?|main|tour|vrai|faux)\b",
    re.IGNORECASE,
)
_PAINTING = ("chosen", "game", "truth")

_TEXT = {
    "rule": {
        "en": ("You may hold at most 5 Art Cards; with 5 in hand you must complete a painting.", "Turn"),
        "fr": (
            "Vous pouvez avoir au plus 5 cartes Art en main ; à 5 cartes, vous devez peindre.",
            "Tour de jeu",
        ),
    },
    "claim_true": {
        "en": ("True: the card farthest from the deck is free.", "Taking an Art Card"),
        "fr": ("Vrai : la carte la plus éloignée de la pioche est gratuite.", "Prendre une carte Art"),
    },
    "claim_false": {
        "en": ("False: each skipped card costs one Inspiration Token.", "Taking an Art Card"),
        "fr": ("Faux : chaque carte passée coûte un jeton Inspiration.", "Prendre une carte Art"),
    },
    "computed": {
        "en": ("Chosen, Game and Truth make the painting “Chosen Truth”.", "Completing a painting"),
        "fr": ("Chosen, Game et Truth donnent le tableau « Chosen Truth ».", "Terminer un tableau"),
    },
    "unknown": {
        "en": ("I don't know: the rulebook does not cover that.", ""),
        "fr": ("Je ne sais pas : le livret n'en parle pas.", ""),
    },
}


class FakeRulesbot:
    """An instant stand-in for `rulesbot.core.Rulesbot`; `calls` counts the calls per method."""

    def __init__(self, games: tuple[str, ...] = FAKE_GAMES):
        self._games = games
        self.calls: Counter[str] = Counter()

    @classmethod
    def load(cls, _settings=None) -> "FakeRulesbot":
        """Like `Rulesbot.load`, without loading anything."""
        return cls()

    def ask(self, question: str, lang: str | None = None, game: str | None = None, context=None) -> Answer:
        """A canned answer of the kind the question's keywords ask for."""
        self.calls["ask"] += 1
        self._check_game(game)
        if not question or not question.strip():
            raise BadInput("question: must not be empty")
        lang = lang or ("fr" if _FRENCH.search(question) else "en")
        text = question.casefold()
        verdict = None
        engine = None
        if "xyzzy" in text:
            kind, key = "unknown", "unknown"
        elif re.search(r"\b(true|vrai|false|faux)\b", text):
            verdict = "free" in text or "gratuite" in text
            kind, key = "claim", "claim_true" if verdict else "claim_false"
        elif all(name in text for name in _PAINTING):
            kind, key = "computed", "computed"
            engine = self.score({"cards": ["Chosen", "Game", "Truth"]})
        else:
            kind, key = "rule", "rule"
        answer_text, section = _TEXT[key][lang]
        citations = [] if kind == "unknown" else [_citation(3, section, lang, answer_text)]
        if kind == "computed":
            citations.append(_citation(4, section, lang, answer_text))
        answer = Answer(
            question=question,
            answer=answer_text,
            lang=lang,
            kind=kind,
            verdict=verdict,
            citations=citations,
            confidence=0.2 if kind == "unknown" else 0.9,
            engine=engine,
        )
        # The core's own last step, so adapters see the id and headline they get from the real core.
        return finish_answer(answer, game=game or FAKE_GAMES[0])

    def search(
        self, query: str, lang: str | None = None, k: int = 5, game: str | None = None
    ) -> list[SearchHit]:
        """k made-up passages, best first."""
        self.calls["search"] += 1
        game = self._check_game(game)
        lang = lang or ("fr" if _FRENCH.search(query) else "en")
        return [
            SearchHit(
                id=f"{game}.rulebook.{lang}.{rank}",
                concept_id=f"{game}.concept.{rank}",
                game=game,
                page=1 + rank % 8,
                section="Turn" if lang == "en" else "Tour de jeu",
                lang=lang,
                text=f"Passage {rank} about {query[:40]}",
                score=round(1.0 - rank / 50, 4),
            )
            for rank in range(k)
        ]

    def score(self, payload: dict, game: str | None = None) -> dict:
        """The real Canvas engine's `score` object; unknown cards raise UnknownCard."""
        from rulesbot.engine.canvas.api import ScoreInputError, score_request

        self.calls["score"] += 1
        self._check_game(game)
        try:
            return score_request(payload)
        except ScoreInputError as error:
            if "unknown Art Card" in str(error):
                raise UnknownCard(str(error)) from None
            raise BadInput(str(error)) from None

    def games(self) -> list[PackManifest]:
        """One manifest per fake game."""
        return [
            PackManifest(game=game, title=game.title(), languages=["en", "fr"], pages=8, rules_version="test")
            for game in self._games
        ]

    def _check_game(self, game: str | None) -> str:
        game = game or self._games[0]
        if game not in self._games:
            raise UnknownGame(f"unknown game {game!r}; known: {', '.join(self._games)}")
        return game


def _citation(page: int, section: str, lang: str, snippet: str) -> Citation:
    return Citation(
        page=page, section=section or "Rules", lang=lang, snippet=snippet[:80], id=f"canvas.p{page}.{lang}"
    )
