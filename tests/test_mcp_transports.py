"""`rulesbot mcp` as a process: stdout carries nothing but the protocol, streamable HTTP works, bad options fail.

Servers listen on 127.0.0.1 only, on a port the system picks; every process is bounded in time and stopped.
"""

import json
import queue
import re
import socket
import subprocess
import sys
import threading
import time

import anyio
import pytest
from mcp import Client
from mcp_helpers import rulesbot_command, server_env
from typer.testing import CliRunner

SECONDS = 60


def _request(number: int, method: str, params: dict | None = None) -> str:
    message = {"jsonrpc": "2.0", "id": number, "method": method}
    if params is not None:
        message["params"] = params
    return json.dumps(message) + "\n"


def test_stdout_carries_only_json_rpc_and_the_logs_go_to_stderr(tmp_path):
    """Raw JSON-RPC over the pipes (no SDK client to hide a stray line): every stdout line is a reply."""
    from mcp_types.version import LATEST_HANDSHAKE_VERSION

    messages = "".join([
        _request(1, "initialize", {
            "protocolVersion": LATEST_HANDSHAKE_VERSION, "capabilities": {},
            "clientInfo": {"name": "raw-test", "version": "0"},
        }),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n",
        "not JSON at all\n",  # a broken line is dropped; the session goes on
        _request(5, "tools/call", {"name": "ask_rules", "arguments": "not an object"}),
        _request(2, "tools/call", {"name": "ask_rules", "arguments": {"question": "Combien de cartes en main ?"}}),
        _request(3, "tools/call", {"name": "ask_rules", "arguments": {"question": ""}}),
        _request(4, "resources/read", {"uri": "rulesbot://canvas/page/3"}),
    ])
    # The answers must all be out before stdin closes: the server ends its session on end of input.
    process = subprocess.Popen(
        [rulesbot_command(), "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env=server_env(tmp_path / "data"), text=True, encoding="utf-8",
    )
    try:
        process.stdin.write(messages)
        process.stdin.flush()
        lines = []
        reader = threading.Thread(target=lambda: lines.extend(iter(process.stdout.readline, "")), daemon=True)
        reader.start()
        deadline = time.monotonic() + SECONDS
        while len(lines) < 5 and time.monotonic() < deadline:
            time.sleep(0.05)
        process.stdin.close()
        process.wait(timeout=SECONDS)
        reader.join(timeout=5)
        stderr = process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, stderr
    replies = [json.loads(line) for line in lines]  # every stdout line is JSON…
    assert all(reply["jsonrpc"] == "2.0" for reply in replies)  # …and JSON-RPC
    by_id = {reply["id"]: reply for reply in replies}
    assert sorted(by_id) == [1, 2, 3, 4, 5]
    assert by_id[5]["error"]["code"] == -32602  # malformed parameters: the protocol's invalid-params error
    assert by_id[1]["result"]["serverInfo"]["name"] == "rulesbot"
    assert by_id[2]["result"]["isError"] is False
    assert by_id[2]["result"]["structuredContent"]["lang"] == "fr"
    assert by_id[3]["result"]["isError"] is True
    assert by_id[4]["result"]["contents"][0]["uri"] == "rulesbot://canvas/page/3"
    assert "rulesbot mcp: loading the rules index (backend hash)" in stderr
    assert re.search(r"rulesbot mcp: ready in \d+\.\d s", stderr)


def test_streamable_http_on_a_free_local_port(tmp_path):
    process = subprocess.Popen(
        [rulesbot_command(), "mcp", "--http", "--port", "0"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, env=server_env(tmp_path / "data"), text=True,
    )
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stderr], daemon=True).start()
    try:
        url = None
        deadline = time.monotonic() + SECONDS
        while url is None and time.monotonic() < deadline and process.poll() is None:
            try:
                line = lines.get(timeout=0.5)
            except queue.Empty:
                continue
            match = re.search(r"serving streamable HTTP at (http://127\.0\.0\.1:(\d+)/mcp)", line)
            url = match.group(1) if match else None
        assert url, "the server never said where it listens"

        async def scenario():
            with anyio.fail_after(SECONDS):
                async with Client(url) as client:
                    tools = await client.list_tools()
                    answer = await client.call_tool("ask_rules", {"question": "How many cards can I hold?"})
                    error = await client.call_tool("ask_rules", {"question": "x", "lang": "de"})
                    page = await client.read_resource("rulesbot://canvas/page/3")
                    return tools, answer, error, page

        tools, answer, error, page = anyio.run(scenario)
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        output = process.stdout.read()
    assert len(tools.tools) == 6
    assert not answer.is_error and answer.structured_content["lang"] == "en"
    assert error.is_error and error.structured_content["error"]["message"].startswith("lang: Input should be")
    assert "# Canvas, rulebook page 3" in page.contents[0].text
    assert output == ""  # HTTP mode prints nothing on stdout either


def test_a_busy_port_is_one_clear_line(hash_env):
    from rulesbot.cli import app

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        result = CliRunner().invoke(app, ["mcp", "--http", "--port", str(port)])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [f"error: cannot listen on 127.0.0.1:{port}: Address already in use"]


def test_address_options_need_http(hash_env):
    from rulesbot.cli import app

    result = CliRunner().invoke(app, ["mcp", "--port", "9000"])
    assert result.exit_code == 2
    assert result.output.strip() == "error: --host and --port go with --http (stdio mode has no address)"


def test_without_the_sdk_the_command_says_which_extra_to_install(hash_env, monkeypatch):
    from rulesbot.cli import app

    monkeypatch.setitem(sys.modules, "mcp", None)  # `import mcp` now raises ImportError
    result = CliRunner().invoke(app, ["mcp"])
    assert result.exit_code == 1
    assert result.output.strip() == "error: the MCP server needs the mcp extra: pip install 'rulesbot[mcp]'"


@pytest.mark.parametrize("argument", [["--backend", "nope"]])
def test_a_bad_setting_is_one_line(hash_env, argument):
    from rulesbot.cli import app

    result = CliRunner().invoke(app, ["mcp", *argument])
    assert result.exit_code == 2
    assert result.output.startswith("error: invalid --backend: Input should be")
