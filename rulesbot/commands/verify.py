"""`rulesbot verify`: run the rulebook's worked examples against the Canvas rules engine.

Prints each example with its rulebook page and PASS/FAIL (exit status 1 if any fails); `--json` prints
{"examples": [{"id", "page", "claim", "claim_fr", "passed", "detail"}, ...]}.
Only Typer is imported at module level so `rulesbot --help` stays fast.
"""

from typing import Annotated

import typer


def verify(
    json_output: Annotated[
        bool, typer.Option("--json", help="Print the results as one JSON object.")
    ] = False,
) -> None:
    """Verify the rulebook's examples by simulation; exit 1 if any fails."""
    import json

    from rulesbot.engine.canvas import RULES_VERSION
    from rulesbot.engine.canvas.verify import run_examples

    results = run_examples()
    failed = [result for result in results if not result["passed"]]
    if json_output:
        typer.echo(
            json.dumps({"rules_version": RULES_VERSION, "examples": results}, ensure_ascii=False, indent=1)
        )
    else:
        for result in results:
            status = "PASS" if result["passed"] else "FAIL"
            typer.echo(f"{status}  p.{result['page']}  {result['id']}: {result['claim']}")
            if not result["passed"]:
                typer.echo(f"      {result['detail']}")
        typer.echo(f"{len(results) - len(failed)}/{len(results)} examples pass ({RULES_VERSION})")
    if failed:
        raise typer.Exit(1)
