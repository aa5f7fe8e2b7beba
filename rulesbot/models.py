"""The public answer contract shared by `rulesbot ask --json`, `ask --jsonl` and `POST /v1/ask`.

Keep these shapes exactly: other tools depend on them.
"""

from typing import Literal

from pydantic import BaseModel, Field

Lang = Literal["fr", "en"]
# The most previous questions an `ask` may carry as its context (newest last).
MAX_CONTEXT = 5
AnswerKind = Literal["rule", "computed", "claim", "unknown"]


class Citation(BaseModel):
    """One rulebook page an answer rests on, best first."""

    page: int
    section: str
    lang: str
    snippet: str
    id: str


class Alternative(BaseModel):
    """Another reading of the question ("If you meant …"): that concept's statement and its pages."""

    answer: str
    citations: list[Citation] = Field(default_factory=list)


class Answer(BaseModel):
    """An answer: always in `lang`, always with citations (empty only when nothing is even close)."""

    question: str
    answer: str
    lang: Lang
    kind: AnswerKind
    verdict: bool | None = None
    citations: list[Citation] = Field(default_factory=list)
    confidence: float
    # Optional: the engine computation behind a computed answer or claim (issue 4).
    engine: dict | None = None
    # Optional: when the two best concepts are close and say different things, the second one (issue 12).
    alternatives: list[Alternative] = Field(default_factory=list)
    # Issue 11, filled in by the core's last step (rulesbot.finishing): a stable id for one answer to one question
    # (votes name it) and the verdict, the result or the rule in one sentence.
    id: str | None = None
    headline: str | None = None

    def contract(self) -> dict:
        """The JSON object of the contract (the optional `engine`, `id`, `headline` and `alternatives` only when present)."""
        data = self.model_dump()
        for optional in ("engine", "id", "headline"):
            if data.get(optional) is None:
                data.pop(optional, None)
        if not data.get("alternatives"):
            data.pop("alternatives", None)
        return data


class SearchHit(BaseModel):
    """One retrieved knowledge record."""

    id: str
    concept_id: str
    game: str
    page: int
    section: str
    lang: str
    text: str
    score: float
