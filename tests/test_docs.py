"""The README stays true: every setting, command and endpoint is documented, and its examples are real output."""

import json
import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def _console_examples() -> list[tuple[str, str]]:
    """(command line, expected output) for every `$ rulesbot …` in the README's console blocks."""
    examples = []
    for block in re.findall(r"```console\n(.*?)```", README, flags=re.S):
        lines = block.splitlines()
        for index, line in enumerate(lines):
            if line.startswith("$ "):
                output = []
                for following in lines[index + 1 :]:
                    if following.startswith("$ "):
                        break
                    output.append(following)
                examples.append((line[2:], "\n".join(output)))
    return examples


def test_every_setting_is_documented_with_its_description():
    from rulesbot.settings import Settings

    for name, field in Settings.model_fields.items():
        variable = f"RULESBOT_{name.upper()}"
        row = next((line for line in README.splitlines() if line.startswith(f"| `{variable}`")), None)
        assert row is not None, f"{variable} is not in the README's settings table"
        assert field.description in row, f"{variable}: the README's description differs from settings.py"


def test_every_command_is_documented():
    from rulesbot.cli import app

    names = [command.name for command in app.registered_commands]
    names += [f"{group.name} {command.name}" for group in app.registered_groups for command in group.typer_instance.registered_commands]
    assert len(names) >= 8
    for name in names:
        assert f"rulesbot {name}" in README, f"`rulesbot {name}` is not in the README"


def test_every_endpoint_is_documented():
    from fakes import FakeRulesbot

    from rulesbot.api import create_app

    app = create_app(bot=FakeRulesbot())
    paths = {route.path for route in app.routes if getattr(route, "include_in_schema", False)}
    paths |= {"/widget.js", "/", "/openapi.json", "/docs"}
    assert "/v1/ask" in paths
    for path in paths:
        assert re.search(rf"`(GET|POST) {re.escape(path)}[`?]", README), f"{path} is not in the README's endpoint table"


def test_score_jsonl_example_is_real_output():
    from rulesbot.cli import app

    (command, expected), = [(c, o) for c, o in _console_examples() if "score --jsonl" in c]
    inputs = [shlex.split(command.split("|")[0])[2:]][0]
    result = CliRunner().invoke(app, ["score", "--jsonl"], input="\n".join(inputs) + "\n")
    assert result.exit_code == 2  # the second line is a repeated card
    assert result.output.strip() == expected.strip()


def test_verify_example_lines_are_real_output():
    from rulesbot.cli import app

    (_command, expected), = [(c, o) for c, o in _console_examples() if c == "rulesbot verify"]
    result = CliRunner().invoke(app, ["verify"])
    assert result.exit_code == 0
    for line in expected.splitlines():
        if line != "…":
            assert line in result.output.splitlines()


@pytest.mark.slow
def test_ask_examples_are_real_output(real_bot):
    # Examples with --game ask an ingested rulebook: test_ingest.py replays those.
    examples = [(c, o) for c, o in _console_examples() if c.startswith("rulesbot ask ") and "--game" not in c]
    assert len(examples) >= 4
    for command, expected in examples:
        words = shlex.split(command)
        context = [words[index + 1] for index, word in enumerate(words) if word == "--context"]
        answer = real_bot.ask(words[2], context=context or None)
        if "--json" in words:
            assert answer.contract() == json.loads(expected), command
        else:
            assert expected.splitlines()[0] == answer.answer, command
            pages = [line.strip() for line in expected.splitlines()[1:]]
            shown = list(dict.fromkeys(f"p. {c.page} — {c.section}" for c in answer.citations))
            assert pages == shown, command
