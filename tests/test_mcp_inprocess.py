"""The MCP server in process (the SDK's client over its in-memory transport), with fake cores.

What a real core cannot be made to do on demand: take `context=` or not, crash, fail to load, load slowly.
Each test is bounded in time.
"""

import logging
import threading

import anyio
import pytest
from fakes import FakeRulesbot
from mcp import Client

from rulesbot.errors import RulesbotError
from rulesbot.mcp_server import build_server

SECONDS = 20


def run_session(server, scenario):
    """Run `scenario(client)` against `server` over the SDK's in-memory transport, within SECONDS."""

    async def main():
        with anyio.fail_after(SECONDS):
            async with Client(server, mode="legacy") as client:
                return await scenario(client)

    return anyio.run(main)


class CanvasFake(FakeRulesbot):
    """The fake core, whose Canvas pack declares the Canvas engine (as the shipped pack does)."""

    def games(self):
        return [
            manifest.model_copy(update={"engine": "canvas"}) if manifest.game == "canvas" else manifest
            for manifest in super().games()
        ]


class ContextBot(FakeRulesbot):
    """A core that records the context each ask() was given."""

    def __init__(self):
        super().__init__()
        self.contexts = []

    def ask(self, question, lang=None, game=None, context=None):
        self.contexts.append(context)
        return super().ask(question, lang=lang, game=game)


class CrashingBot(FakeRulesbot):
    """A core with a bug: ask() raises something that is not a RulesbotError."""

    def ask(self, question, lang=None, game=None, context=None):
        if "crash" in question:
            raise ZeroDivisionError("a bug")
        return super().ask(question, lang=lang, game=game, context=context)


def test_context_is_passed_to_a_core_that_takes_it(hash_settings):
    bot = ContextBot()
    server = build_server(hash_settings, bot=bot)

    async def scenario(client):
        with_context = await client.call_tool(
            "ask_rules", {"question": "and with 5 cards?", "context": ["How many cards in hand?", "Can I pass?"]}
        )
        without = await client.call_tool("ask_rules", {"question": "and with 5 cards?"})
        return with_context, without

    with_context, without = run_session(server, scenario)
    assert not with_context.is_error and not without.is_error
    assert bot.contexts == [["How many cards in hand?", "Can I pass?"], None]


def test_a_crash_in_the_core_is_an_error_result_and_the_server_goes_on(hash_settings, caplog):
    server = build_server(hash_settings, bot=CrashingBot())

    async def scenario(client):
        crashed = await client.call_tool("ask_rules", {"question": "please crash"})
        after = await client.call_tool("ask_rules", {"question": "Can I pass?"})
        return crashed, after

    with caplog.at_level(logging.ERROR, logger="rulesbot.mcp"):
        crashed, after = run_session(server, scenario)
    assert crashed.is_error
    assert crashed.structured_content["error"] == {
        "code": "internal", "message": "ask_rules failed on the server (the error is in its log)"
    }
    assert "a bug" not in crashed.content[0].text  # the exception's text stays on the server
    assert any(record.exc_info and record.exc_info[0] is ZeroDivisionError for record in caplog.records)
    assert not after.is_error and after.structured_content["kind"] == "rule"


def test_a_failed_load_is_each_tools_error_message(hash_settings):
    def failing_loader(_settings):
        raise RulesbotError("the index is unreadable", code="invalid_index", status=500)

    server = build_server(hash_settings, loader=failing_loader)

    async def scenario(client):
        tools = await client.list_tools()
        results = [await client.call_tool("ask_rules", {"question": "Can I pass?"}),
                   await client.call_tool("list_games", {})]
        return tools, results

    tools, results = run_session(server, scenario)
    assert len(tools.tools) == 6
    for result in results:
        assert result.is_error
        assert result.structured_content["error"] == {"code": "invalid_index", "message": "the index is unreadable"}


def test_the_server_answers_while_the_bot_loads(hash_settings):
    release = threading.Event()
    started = threading.Event()

    def slow_loader(_settings):
        started.set()
        assert release.wait(SECONDS), "never released"
        return FakeRulesbot()

    server = build_server(hash_settings, loader=slow_loader)

    async def scenario(client):
        # The handshake, the tool list and the resources need no bot: they answer while it loads.
        tools = await client.list_tools()
        resources = await client.list_resources()
        page = await client.read_resource("rulesbot://canvas/page/3")
        loading = not release.is_set()
        release.set()
        answer = await client.call_tool("ask_rules", {"question": "Can I pass?"})  # waits for the load
        return tools, resources, page, loading, answer

    tools, resources, page, loading, answer = run_session(server, scenario)
    assert started.is_set() and loading
    assert len(tools.tools) == 6 and resources.resources and page.contents[0].text.startswith("# Canvas")
    assert not answer.is_error


def test_the_bot_loads_once(hash_settings):
    loads = []

    def counting_loader(_settings):
        loads.append(1)
        return FakeRulesbot()

    server = build_server(hash_settings, loader=counting_loader)

    async def scenario(client):
        return [await client.call_tool(tool, arguments) for tool, arguments in (
            ("ask_rules", {"question": "Can I pass?"}),
            ("list_games", {}),
            ("search_rulebook", {"query": "hand"}),
            ("score_painting", {"cards": ["Chosen", "Game", "Truth"]}),
        )]

    results = run_session(server, scenario)
    assert [result.is_error for result in results] == [False] * 4
    assert loads == [1]


def test_best_painting_refuses_a_game_without_the_painting_engine(hash_settings):
    server = build_server(hash_settings, bot=CanvasFake(games=("canvas", "chess")))

    async def scenario(client):
        return (await client.call_tool("best_painting", {"hand": ["Chosen", "View", "Game"], "scoring": ["Variety"], "game": "chess"}),
                await client.call_tool("best_painting", {"hand": ["Chosen", "View", "Game"], "scoring": ["Variety"], "game": "go"}))

    no_engine, unknown = run_session(server, scenario)
    assert no_engine.structured_content["error"]["message"] == "Chess has no painting engine: no best painting to compute"
    assert unknown.structured_content["error"]["code"] == "unknown_game"


@pytest.mark.parametrize(
    ("scoring", "message"),
    [
        ("chill-mode", "scenario 'chill-mode' draws random Scoring Cards: name the cards instead"),
        ([], "scoring: name at least one Scoring Card or a scenario"),
    ],
)
def test_best_painting_scoring_must_name_cards(hash_settings, scoring, message):
    server = build_server(hash_settings, bot=CanvasFake())

    async def scenario(client):
        return await client.call_tool("best_painting", {"hand": ["Chosen", "View", "Game"], "scoring": scoring})

    result = run_session(server, scenario)
    assert result.structured_content["error"]["message"] == message


def test_a_single_scoring_card_name_is_one_card(hash_settings):
    from rulesbot.engine import canvas

    server = build_server(hash_settings, bot=FakeRulesbot())

    async def scenario(client):
        return await client.call_tool("score_painting", {"cards": ["Chosen", "View", "Game"], "scoring": "Répétition"})

    result = run_session(server, scenario)
    assert result.structured_content == canvas.score_request({"cards": ["Chosen", "View", "Game"], "scoring": ["repetition"]})


def test_lists_sent_as_json_text_are_read_as_lists(hash_settings):
    """Some clients send array arguments as JSON strings; the SDK parses them, and scenario names stay names."""
    from rulesbot.engine import canvas

    server = build_server(hash_settings, bot=CanvasFake())

    async def scenario(client):
        as_text = await client.call_tool(
            "best_painting", {"hand": '["Chosen", "View", "Game", "Truth"]', "scoring": "first-time-playing"}
        )
        as_list = await client.call_tool(
            "best_painting", {"hand": ["Chosen", "View", "Game", "Truth"], "scoring": list(canvas.scenario("first-time-playing").cards)}
        )
        return as_text, as_list

    as_text, as_list = run_session(server, scenario)
    assert not as_text.is_error
    assert as_text.structured_content == as_list.structured_content
