"""The `rulesbot` command line: one thin Typer app; each command lives in its own module under commands/.

Command modules import only Typer at module level and import the heavy parts (engine, embeddings, FAISS,
FastAPI) inside the command body, so `rulesbot --help` stays fast.
"""

import typer
import typer.core

from rulesbot.commands import ask, eval_cmd, index, ingest, mcp, report, score, serve, verify

app = typer.Typer(
    name="rulesbot",
    help=(
        "Board-game rules assistant: answers rules questions in French or English, cites the rulebook page, "
        "and checks computable claims (points, paintings, costs, legality) with an executable rules engine."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

app.command("ask")(ask.ask)
app.command("score")(score.score)
app.command("verify")(verify.verify)
app.add_typer(index.app, name="index")
app.command("ingest")(ingest.ingest)
app.command("eval")(eval_cmd.eval_command)
app.command("serve")(serve.serve)
app.command("report")(report.report)
app.command("mcp")(mcp.mcp)


def _flags_without_type_placeholder() -> None:
    """Show on/off flags (--json, --force, --help) without a `<bool>` type placeholder in `--help`.

    Typer labels every option with its type; for a flag, which takes no value, `<bool>` reads as if it wanted
    one. Options that take a value keep their label.
    """
    option = typer.core.TyperOption
    labelled = option.display_type_rich

    def display_type_rich(self, ctx):
        return None if self.is_flag else labelled(self, ctx)

    option.display_type_rich = display_type_rich


_flags_without_type_placeholder()


def main() -> None:
    """Console-script entry point: a file-system error no command handled becomes one line and exit 1, not a traceback."""
    try:
        app()
    except OSError as error:
        import sys

        from rulesbot.commands._common import os_error_line

        sys.stderr.write(os_error_line(error) + "\n")
        sys.exit(1)
