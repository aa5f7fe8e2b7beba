"""The one core API. The CLI and the HTTP API are thin adapters over `Rulesbot`.

    bot = Rulesbot.load(settings)          # loads packs, the embedder and the index once
    bot.ask("Combien de cartes en main ?")  # -> Answer (the `rulesbot ask --json` contract)
    bot.search("hand limit", lang="en", k=5)  # -> list[SearchHit]
    bot.score({"cards": ["Chosen", "Game", "Truth"]})  # -> the `rulesbot score` object
    bot.games()                             # -> list[PackManifest]

Errors are RulesbotError subclasses (rulesbot.errors) with a code and an HTTP status.
"""

from rulesbot.knowledge import PackManifest
from rulesbot.models import Answer, SearchHit
from rulesbot.settings import Settings


class Rulesbot:
    """The loaded assistant: knowledge packs, embedder, index, engine hooks."""

    @classmethod
    def load(cls, settings: Settings | None = None) -> "Rulesbot":
        """Load packs, embedder and index (building or rebuilding the index when needed)."""
        raise NotImplementedError

    def ask(self, question: str, lang: str | None = None, game: str | None = None) -> Answer:
        """Answer one question; `lang` forces the answer language, `game` picks the pack."""
        raise NotImplementedError

    def search(self, query: str, lang: str | None = None, k: int = 5, game: str | None = None) -> list[SearchHit]:
        """The k best knowledge records for `query`."""
        raise NotImplementedError

    def score(self, payload: dict, game: str | None = None) -> dict:
        """The `rulesbot score` object for one painting (raises BadInput / UnknownCard)."""
        raise NotImplementedError

    def games(self) -> list[PackManifest]:
        """The loaded knowledge packs."""
        raise NotImplementedError
