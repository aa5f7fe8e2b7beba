"""Request models shared by the HTTP API and the CLI's JSON Lines input: one validator for every adapter.

`POST /v1/ask` bodies and `rulesbot ask --jsonl` lines are the same object (`AskRequest`), checked the same way
(types, lengths, control characters); `validation_message` turns pydantic's errors into one "where: what" line.
"""

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictInt, model_validator

from rulesbot.models import MAX_CONTEXT
from rulesbot.settings import MAX_QUESTION_CHARS_CEILING

# C0/C1 control characters (tab and newlines are fine in a question) and lone surrogates, which JSON
# can smuggle in as "\ud800" and which cannot be encoded back to UTF-8.
_FORBIDDEN_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def _clean_text(value: str) -> str:
    if _FORBIDDEN_CHARS.search(value):
        raise ValueError("control characters are not allowed")
    value = value.strip()
    if not value:
        raise ValueError("must not be empty")
    return value


# Length limits first (cheap, and they reject a huge value before scanning it), then the text checks.
QuestionText = Annotated[
    str, Field(min_length=1, max_length=MAX_QUESTION_CHARS_CEILING), AfterValidator(_clean_text)
]
GameId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[a-z0-9][a-z0-9-]*$")]
ShortName = Annotated[str, Field(min_length=1, max_length=40), AfterValidator(_clean_text)]
# An art card by title (FR or EN) or by id; StrictInt so that `true` is not taken for card 1.
CardRef = ShortName | Annotated[StrictInt, Field(ge=0, le=100_000)]
Icon = Annotated[str, Field(min_length=1, max_length=24, pattern=r"^[a-z][a-z-]*$")]


# The longest list a request may carry (cards, swatches, icons in a swatch, scoring cards): a bound on work.
MAX_LIST_ITEMS = 32


class AskRequest(BaseModel):
    """The body of POST /v1/ask."""

    model_config = ConfigDict(extra="forbid")

    question: QuestionText
    lang: Literal["fr", "en"] | None = None
    game: GameId | None = None
    context: list[QuestionText] | None = Field(
        default=None,
        max_length=MAX_CONTEXT,
        description="The player's previous questions, newest last (a follow-up such as \"and with 4 ribbons?\" uses them).",
    )


class ScoreRequest(BaseModel):
    """The body of POST /v1/score: one painting as art cards (bottom first) or as its five swatches."""

    model_config = ConfigDict(extra="forbid")

    # Size guards only (this schema serves every game): the game's engine checks the exact counts (Canvas: 3
    # cards, 5 swatches) from its own data and answers 422 with its message.
    cards: list[CardRef] | None = Field(default=None, min_length=1, max_length=MAX_LIST_ITEMS)
    swatches: list[Annotated[list[Icon], Field(max_length=MAX_LIST_ITEMS)]] | None = Field(
        default=None, min_length=1, max_length=MAX_LIST_ITEMS
    )
    scoring: list[ShortName] | None = Field(
        default=None, max_length=MAX_LIST_ITEMS, description="Scoring cards by name (default: all of the game's)."
    )
    game: GameId | None = None

    @model_validator(mode="after")
    def _one_painting(self) -> "ScoreRequest":
        if (self.cards is None) == (self.swatches is None):
            raise ValueError('give exactly one of "cards" or "swatches"')
        return self


def validation_message(problems: list[dict]) -> str:
    """"where: what" for the first validation problem, in the caller's terms rather than pydantic's."""
    if not problems:
        return "body: invalid request"
    where = problem_where(problems[0])
    # A union (a card by title or by id) reports one problem per member, tagged in the location with pydantic's
    # internal type names: a member whose type matched says most (-1: "greater than or equal to 0"), else all do.
    same = [problem for problem in problems if problem_where(problem) == where]
    specific = [problem for problem in same if not str(problem.get("type", "")).endswith("_type")]
    chosen = specific[:1] or same
    # pydantic's message only (never its `input`, which would echo the caller's payload back).
    messages = [_problem_message(problem) for problem in chosen]
    message = messages[0] + "".join(" or " + text.removeprefix("Input should be ") for text in messages[1:])
    return f"{where}: {message}"


def problem_where(problem: dict) -> str:
    # Field names are identifiers and list positions ints; anything else is a union member's tag.
    parts = [str(part) for part in problem.get("loc", ()) if isinstance(part, int) or str(part).isidentifier()]
    return ".".join(part for part in parts if part != "body") or "body"


def _problem_message(problem: dict) -> str:
    # A missing field says so ("missing"), not pydantic's "Field required"; a forbidden extra field is named.
    if problem.get("type") == "missing":
        return "missing"
    if problem.get("type") == "extra_forbidden":
        return "unknown field"
    return str(problem.get("msg", "invalid request")).removeprefix("Value error, ")
