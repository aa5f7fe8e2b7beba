"""`rulesbot mcp` end to end: the real command as a subprocess, driven by the MCP SDK's own client over stdio.

One session (initialize, list the tools, call each, bad arguments, a French question, resources, the prompt)
runs once per module and is bounded in time; the tests below read its transcript. The oracles are the core
and the engine called directly in this process (the server must be a thin adapter over them), the fixture
pack's own files, and the HTTP API's error messages. Fast: the `hash` backend over the fixture pack.
"""

import functools
import json
from itertools import permutations

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp_helpers import FIXTURE_KNOWLEDGE, rulesbot_command, server_env

# The whole stdio session (process start, SDK import, index build, ~40 calls) must end well within this.
SESSION_SECONDS = 120

EN_QUESTION = "How many Art Cards can I hold in my hand?"
FR_QUESTION = "Combien de cartes Art peut-on avoir en main ?"
HAND = ["Chosen", "View", "Game", "Truth"]


def structured(result) -> dict:
    """A tool result's structured content, checked against its text content (the same JSON)."""
    assert result.structured_content is not None
    if not result.is_error:
        assert json.loads(result.content[0].text) == result.structured_content
    return result.structured_content


# Tool calls of the session: label -> (tool, arguments). Errors are interleaved with good calls on purpose:
# the server must keep serving after each of them.
CALLS = {
    "ask_en": ("ask_rules", {"question": EN_QUESTION}),
    "ask_fr": ("ask_rules", {"question": FR_QUESTION}),
    "ask_fr_in_en": ("ask_rules", {"question": FR_QUESTION, "lang": "en"}),
    "ask_context": ("ask_rules", {"question": EN_QUESTION, "context": ["Can I pass my turn?"]}),
    "ask_empty": ("ask_rules", {"question": ""}),
    "ask_missing": ("ask_rules", {}),
    "ask_number": ("ask_rules", {"question": 42}),
    "ask_control": ("ask_rules", {"question": "hand\x00limit"}),
    "ask_bad_lang": ("ask_rules", {"question": EN_QUESTION, "lang": "de"}),
    "ask_unknown_argument": ("ask_rules", {"question": EN_QUESTION, "language": "fr"}),
    "ask_unknown_game": ("ask_rules", {"question": EN_QUESTION, "game": "chess"}),
    "ask_too_long": ("ask_rules", {"question": "x" * 600}),
    "ask_six_context": ("ask_rules", {"question": EN_QUESTION, "context": ["a?"] * 6}),
    "ask_after_errors": ("ask_rules", {"question": EN_QUESTION}),
    "claim_false": ("check_claim", {"claim": "3 green ribbons are worth 9 points"}),
    "claim_true": ("check_claim", {"claim": "3 green ribbons are worth 11 points, right?"}),
    "claim_fr": ("check_claim", {"claim": "3 rubans verts valent 9 points"}),
    "claim_fr_answer_en": ("check_claim", {"claim": "3 rubans verts valent 9 points", "lang": "en"}),
    "claim_as_question": ("check_claim", {"claim": "Does taking the fourth card cost 2 tokens?"}),
    "claim_not_checkable": ("check_claim", {"claim": "The sky over the museum is blue"}),
    "score_cards": ("score_painting", {"cards": ["Chosen", "View", "Game"], "scoring": "first-time-playing"}),
    "score_ids": ("score_painting", {"cards": [5, 55, 46]}),
    "score_swatches": (
        "score_painting",
        {"swatches": [["shape", "texture"], ["shape"], ["shape"], ["per-texture"], ["shape", "tone"]],
         "scoring": ["Variety", "Repetition"]},
    ),
    "score_both": ("score_painting", {"cards": ["Chosen", "View", "Game"], "swatches": [[]] * 5}),
    "score_unknown_card": ("score_painting", {"cards": ["Chosen", "Nope", "Game"]}),
    "score_two_cards": ("score_painting", {"cards": ["Chosen", "View"]}),
    "best": ("best_painting", {"hand": HAND, "scoring": "first-time-playing"}),
    "best_list": ("best_painting", {"hand": HAND, "scoring": ["Variety", "Repetition"]}),
    "best_six": ("best_painting", {"hand": [*HAND, "Bird", "Fork"], "scoring": ["Variety"]}),
    "best_two": ("best_painting", {"hand": HAND[:2], "scoring": ["Variety"]}),
    "best_unknown_scoring": ("best_painting", {"hand": HAND, "scoring": ["Varieté", "Nonsense"]}),
    "games": ("list_games", {}),
    "search": ("search_rulebook", {"query": "hand limit", "k": 2}),
    "search_fr_only": ("search_rulebook", {"query": "hand limit", "lang": "fr", "k": 3}),
    "search_k_zero": ("search_rulebook", {"query": "hand limit", "k": 0}),
    "unknown_tool": ("no_such_tool", {}),
    "games_at_the_end": ("list_games", {}),
}
ERROR_CALLS = {
    "ask_empty", "ask_missing", "ask_number", "ask_control", "ask_bad_lang", "ask_unknown_argument",
    "ask_unknown_game", "ask_too_long", "ask_six_context", "score_both", "score_unknown_card",
    "score_two_cards", "best_six", "best_two", "best_unknown_scoring", "search_k_zero", "unknown_tool",
}


async def _session(params: StdioServerParameters) -> dict:
    transcript: dict = {"calls": {}}
    # mode="legacy": the initialize handshake, as chat clients (Claude Desktop, …) do it.
    async with Client(params, mode="legacy", read_timeout_seconds=60) as client:
        transcript["server_info"] = client.server_info
        transcript["capabilities"] = client.server_capabilities
        transcript["instructions"] = client.instructions
        transcript["tools"] = (await client.list_tools()).tools
        for label, (tool, arguments) in CALLS.items():
            transcript["calls"][label] = await client.call_tool(tool, arguments)
        transcript["resources"] = (await client.list_resources()).resources
        transcript["templates"] = (await client.list_resource_templates()).resource_templates
        transcript["page_3"] = await client.read_resource("rulesbot://canvas/page/3")
        transcript["page_3_by_template"] = await client.read_resource("rulesbot://canvas/page/03")
        for label, uri in (("page_99", "rulesbot://canvas/page/99"), ("chess_page", "rulesbot://chess/page/1")):
            try:
                transcript[label] = await client.read_resource(uri)
            except MCPError as error:
                transcript[label] = error
        transcript["prompts"] = (await client.list_prompts()).prompts
        transcript["prompt"] = await client.get_prompt(
            "answer_from_rules", {"question": FR_QUESTION, "lang": "fr"}
        )
        transcript["prompt_errors"] = []
        for arguments in ({"question": " "}, {"question": "Can I pass?", "game": "chess"},
                          {"question": "Can I pass?", "lang": "de"}):
            try:
                await client.get_prompt("answer_from_rules", arguments)
            except MCPError as error:
                transcript["prompt_errors"].append(str(error))
        transcript["ask_after_resources"] = await client.call_tool("ask_rules", {"question": FR_QUESTION})
    return transcript


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    """The transcript of one stdio session with `rulesbot mcp` (bounded in time)."""
    data_dir = tmp_path_factory.mktemp("mcp-data")
    params = StdioServerParameters(command=rulesbot_command(), args=["mcp"], env=server_env(data_dir))

    async def bounded():
        with anyio.fail_after(SESSION_SECONDS):
            return await _session(params)

    return anyio.run(bounded)


@pytest.fixture(scope="module")
def core(tmp_path_factory):
    """The core itself, loaded like the server's (the oracle for the adapter's results)."""
    from rulesbot.core import Rulesbot
    from rulesbot.settings import Settings

    settings = Settings(
        backend="hash", data_dir=tmp_path_factory.mktemp("core-data"), knowledge_dir=FIXTURE_KNOWLEDGE
    )
    return Rulesbot.load(settings, notify=lambda _message: None)


def call(session, label: str):
    return session["calls"][label]


def error_message(result) -> str:
    assert result.is_error, result
    return result.structured_content["error"]["message"]


# ---------------------------------------------------------------------------------------------- handshake


def test_initialize_names_the_server_and_its_capabilities(session):
    assert session["server_info"].name == "rulesbot"
    capabilities = session["capabilities"]
    assert capabilities.tools is not None and capabilities.resources is not None and capabilities.prompts is not None
    assert "cite" in session["instructions"]


def test_every_tool_is_listed_with_a_description_and_a_schema(session):
    tools = {tool.name: tool for tool in session["tools"]}
    assert set(tools) == {"ask_rules", "score_painting", "check_claim", "best_painting", "list_games", "search_rulebook"}
    for tool in tools.values():
        assert len(tool.description) > 80, tool.name
        assert tool.input_schema["type"] == "object"
        assert tool.annotations.read_only_hint is True
        for name, schema in tool.input_schema.get("properties", {}).items():
            assert schema.get("description"), f"{tool.name}.{name} has no description"
    assert tools["ask_rules"].input_schema["required"] == ["question"]
    assert set(tools["ask_rules"].input_schema["properties"]) == {"question", "lang", "game", "context"}
    assert tools["check_claim"].input_schema["required"] == ["claim"]
    assert sorted(tools["best_painting"].input_schema["required"]) == ["hand", "scoring"]
    assert tools["search_rulebook"].input_schema["properties"]["k"]["maximum"] == 20


def test_descriptions_name_the_engines_own_cards(session):
    from rulesbot.engine import canvas

    described = {tool.name: tool.description for tool in session["tools"]}
    for scoring_card in canvas.SCORING_CARDS:
        assert scoring_card.name_en in described["best_painting"]
    for icon in canvas.ICONS:
        assert icon in described["score_painting"]


# ---------------------------------------------------------------------------------------------- ask_rules


def test_ask_rules_returns_the_ask_object_of_the_core(session, core):
    assert structured(call(session, "ask_en")) == core.ask(EN_QUESTION).contract()
    assert not call(session, "ask_en").is_error


def test_a_french_question_is_answered_in_french_with_the_page(session, core):
    answer = structured(call(session, "ask_fr"))
    assert answer == core.ask(FR_QUESTION).contract()
    assert answer["lang"] == "fr" and answer["kind"] == "rule"
    assert 3 in {citation["page"] for citation in answer["citations"]}
    assert all(citation["lang"] == "fr" for citation in answer["citations"])


def test_lang_forces_the_answer_language(session, core):
    answer = structured(call(session, "ask_fr_in_en"))
    assert answer["lang"] == "en"
    assert answer == core.ask(FR_QUESTION, lang="en").contract()


def test_context_is_accepted(session, core):
    # Whether the core reads it or not (see tests/test_mcp_inprocess.py), a follow-up is answered.
    answer = structured(call(session, "ask_context"))
    assert answer["question"] == EN_QUESTION and answer["kind"] == core.ask(EN_QUESTION).kind


# ---------------------------------------------------------------------------------------------- errors


@functools.cache
def api_error(body_json: str, path: str = "/v1/ask") -> str:
    """The HTTP API's error message for the same request (the MCP tools must say the same)."""
    from fakes import FakeRulesbot
    from fastapi.testclient import TestClient

    from rulesbot.api import create_app

    with TestClient(create_app(bot=FakeRulesbot())) as client:
        response = client.post(path, content=body_json, headers={"Content-Type": "application/json"})
    assert 400 <= response.status_code < 500
    return response.json()["error"]["message"]


@pytest.mark.parametrize(
    ("label", "body"),
    [
        ("ask_empty", {"question": ""}),
        ("ask_missing", {}),
        ("ask_number", {"question": 42}),
        ("ask_control", {"question": "hand\x00limit"}),
        ("ask_bad_lang", {"question": EN_QUESTION, "lang": "de"}),
    ],
)
def test_bad_arguments_get_the_api_message(session, label, body):
    message = api_error(json.dumps(body))
    assert error_message(call(session, label)) == message
    assert call(session, label).structured_content["error"]["code"] == "bad_input"
    assert call(session, label).content[0].text == f"error: {message}"


def test_unknown_card_gets_the_api_message_and_the_cores_code(session, core):
    from rulesbot.errors import RulesbotError

    body = {"cards": ["Chosen", "Nope", "Game"]}
    assert error_message(call(session, "score_unknown_card")) == api_error(json.dumps(body), "/v1/score")
    with pytest.raises(RulesbotError) as raised:
        core.score(body)
    assert call(session, "score_unknown_card").structured_content["error"]["code"] == raised.value.code


def test_other_errors_are_clear(session):
    assert error_message(call(session, "ask_unknown_argument")).startswith("language: unknown argument")
    assert error_message(call(session, "ask_unknown_game")) == "unknown game 'chess'; known games: canvas"
    assert "too long" in error_message(call(session, "ask_too_long"))
    assert error_message(call(session, "ask_six_context")).startswith("context: List should have at most 5 items")
    assert error_message(call(session, "score_both")) == 'arguments: give exactly one of "cards" or "swatches"'
    assert "3 Art Cards" in error_message(call(session, "score_two_cards"))
    assert error_message(call(session, "best_six")).startswith("hand: a hand holds at most 5 Art Cards (rulebook p. 3)")
    assert error_message(call(session, "best_two")).startswith("hand: expected at least 3 different Art Cards")
    assert "Nonsense" in error_message(call(session, "best_unknown_scoring"))
    assert error_message(call(session, "search_k_zero")) == "k: Input should be greater than or equal to 1"
    assert error_message(call(session, "unknown_tool")).startswith("unknown tool 'no_such_tool'; tools: ask_rules, ")
    assert call(session, "unknown_tool").structured_content["error"]["code"] == "unknown_tool"


def test_every_error_is_an_error_result_and_the_server_keeps_serving(session):
    for label in CALLS:
        assert call(session, label).is_error == (label in ERROR_CALLS), label
    assert structured(call(session, "ask_after_errors")) == structured(call(session, "ask_en"))
    assert structured(call(session, "games_at_the_end")) == structured(call(session, "games"))
    assert structured(session["ask_after_resources"]) == structured(call(session, "ask_fr"))


def test_no_error_message_echoes_a_traceback(session):
    for label in ERROR_CALLS:
        text = call(session, label).content[0].text
        assert "Traceback" not in text and "validation error for" not in text and "pydantic" not in text, label


# ---------------------------------------------------------------------------------------------- check_claim


def test_a_wrong_claim_gets_false_and_the_engines_value(session):
    from rulesbot.engine import canvas

    result = structured(call(session, "claim_false"))
    points = canvas.points_for("repetition", 3)  # green = Repetition on the first-game mat (the stated assumption)
    assert result["checkable"] is True and result["verdict"] is False
    assert result["correct_value"] == f"{points} points"
    assert result["trace"] and str(points) in result["trace"]
    assert 4 in result["pages"] and result["pages"] == sorted({c["page"] for c in result["citations"]})
    assert result["engine"]["points"] == points
    assert result["lang"] == "en"


def test_a_right_claim_gets_true(session):
    result = structured(call(session, "claim_true"))
    assert result["checkable"] is True and result["verdict"] is True
    assert result["correct_value"] is None
    assert result["trace"]


def test_a_french_claim_is_checked_in_french(session):
    result = structured(call(session, "claim_fr"))
    assert result["lang"] == "fr" and result["verdict"] is False
    assert result["correct_value"] == "11 points"
    assert result["explanation"].startswith("Faux")


def test_text_that_is_no_claim_gets_no_verdict(session):
    result = structured(call(session, "claim_not_checkable"))
    assert result["checkable"] is False and result["verdict"] is None and result["correct_value"] is None
    assert "no verdict" in result["reason"]


# ---------------------------------------------------------------------------------------------- engine tools


def test_score_painting_is_the_engines_score_object(session):
    from rulesbot.engine import canvas

    first_game = list(canvas.scenario("first-time-playing").cards)
    expected = canvas.score_request({"cards": ["Chosen", "View", "Game"], "scoring": first_game})
    assert structured(call(session, "score_cards")) == expected
    assert structured(call(session, "score_ids")) == canvas.score_request({"cards": [5, 55, 46]})
    swatches = CALLS["score_swatches"][1]
    assert structured(call(session, "score_swatches")) == canvas.score_request(swatches)


def _brute_force_best(hand: list[str], slugs: list[str]) -> int:
    """The best value of an ordered triple, scored painting by painting (independent of best_painting)."""
    from rulesbot.engine import canvas

    best = -1
    for triple in permutations(hand, 3):
        score = canvas.score_painting(canvas.Painting.from_cards(list(triple)), slugs)
        value = sum(canvas.points_for(slug, count) for slug, count in score.ribbons.items())
        best = max(best, value + canvas.SILVER_POINTS * score.bonus)
    return best


def test_best_painting_is_the_best_of_every_arrangement(session):
    from rulesbot.engine import canvas

    result = structured(call(session, "best"))
    slugs = list(canvas.scenario("first-time-playing").cards)
    assert sorted(result["scoring"]) == sorted(slugs)
    assert result["points"] == _brute_force_best(HAND, slugs)
    # The cards it names do make a painting worth that much.
    score = canvas.score_painting(canvas.Painting.from_cards(result["cards"]), slugs)
    value = sum(canvas.points_for(slug, count) for slug, count in score.ribbons.items())
    assert value + canvas.SILVER_POINTS * score.bonus == result["points"]
    assert result["ribbons"] == dict(score.ribbons) and result["bonus"] == score.bonus
    assert set(result["cards"]) <= set(HAND) and len(set(result["cards"])) == 3
    assert result["pages"] and result["rules_version"] == canvas.RULES_VERSION
    listed = structured(call(session, "best_list"))
    assert listed["points"] == _brute_force_best(HAND, ["variety", "repetition"])


def test_list_games_and_search(session, core):
    assert structured(call(session, "games")) == {"games": [manifest.model_dump() for manifest in core.games()]}
    assert structured(call(session, "search")) == {
        "results": [hit.model_dump() for hit in core.search("hand limit", k=2)]
    }
    french = structured(call(session, "search_fr_only"))["results"]
    assert french and all(hit["lang"] == "fr" for hit in french)


# ---------------------------------------------------------------------------------------------- resources, prompt


def _fixture_entries(page: int) -> list[dict]:
    entries = []
    for path in sorted((FIXTURE_KNOWLEDGE / "canvas").glob("rulebook.*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            if page in entry["pages"]:
                entries.append(entry)
    return entries


def test_rulebook_pages_are_listed_and_read(session):
    uris = {str(resource.uri) for resource in session["resources"]}
    pages = {page for path in (FIXTURE_KNOWLEDGE / "canvas").glob("rulebook.*.jsonl")
             for line in path.read_text(encoding="utf-8").splitlines() for page in json.loads(line)["pages"]}
    assert uris == {f"rulesbot://canvas/page/{page}" for page in pages}
    assert [template.uri_template for template in session["templates"]] == ["rulesbot://{game}/page/{page}"]
    (content,) = session["page_3"].contents
    assert content.mime_type == "text/markdown"
    entries = _fixture_entries(3)
    assert entries
    for entry in entries:
        assert entry["text"] in content.text and entry["id"] in content.text
    assert {"English", "Français"} <= {line.removeprefix("## ") for line in content.text.splitlines()}
    # "03" is not a listed resource: the template reads it.
    assert session["page_3_by_template"].contents[0].text == content.text


def test_a_missing_page_or_game_is_a_protocol_error(session):
    assert isinstance(session["page_99"], MCPError)
    assert "no rulebook passage on page 99" in str(session["page_99"])
    assert isinstance(session["chess_page"], MCPError)
    assert "unknown game 'chess'" in str(session["chess_page"])


def test_the_prompt_asks_for_rules_answers_with_pages(session):
    (prompt,) = session["prompts"]
    assert prompt.name == "answer_from_rules"
    assert [(argument.name, argument.required) for argument in prompt.arguments] == [
        ("question", True), ("game", False), ("lang", False)
    ]
    (message,) = session["prompt"].messages
    text = message.content.text
    assert message.role == "user" and FR_QUESTION in text
    assert "ask_rules" in text and 'lang "fr"' in text and "p. 3" in text and "never guess" in text


def test_bad_prompt_arguments_are_clear_protocol_errors(session):
    assert session["prompt_errors"] == [
        "question: must not be empty",
        "unknown game 'chess'; known games: canvas",
        "lang: expected fr or en, got 'de'",
    ]


def test_a_claim_in_any_form_or_answer_language_is_checked(session):
    from rulesbot.engine import canvas

    french_in_english = structured(call(session, "claim_fr_answer_en"))
    assert french_in_english["lang"] == "en" and french_in_english["verdict"] is False
    assert french_in_english["correct_value"] == "11 points"
    question = structured(call(session, "claim_as_question"))
    cost, _gain = canvas.take_cost(4)
    assert question["checkable"] is True and question["verdict"] is (cost == 2)
    assert question["correct_value"] == f"{cost} tokens"
