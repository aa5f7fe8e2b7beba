"""The data dir under real processes: `rulesbot ask` and `rulesbot index build` run as subprocesses against a
data dir that cannot be written, and a build killed with SIGKILL at chosen points of its save.

How "cannot be written" is made real for root (tests run as root here, and chmod does not stop root):
- a data dir whose parent is a regular file: mkdir fails with ENOTDIR for every user;
- a read-only bind mount: the command runs under `unshare -rm` (a user and mount namespace of its own, no
  privilege needed) after `mount --bind DIR DIR && mount -o remount,bind,ro DIR`, so every write in DIR fails with
  EROFS, root included. Without user namespaces, a non-root run uses chmod instead, and a root run skips.

Every process is bounded in time (timeout), and uses the hash backend on the fixture pack (no model).
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import FIXTURES

QUESTION = "How many cards can I hold?"
TIMEOUT = 60


def _rulesbot() -> list[str]:
    script = Path(sys.executable).with_name("rulesbot")
    return [str(script)] if script.exists() else [sys.executable, "-c", "from rulesbot.cli import main; main()"]


def _env(data_dir: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("RULESBOT_")}
    env.update(
        RULESBOT_DATA_DIR=str(data_dir), RULESBOT_KNOWLEDGE_DIR=str(FIXTURES / "knowledge"), RULESBOT_BACKEND="hash"
    )
    return env


def _run(args: list[str], data_dir: Path, prefix: list[str] = ()) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*prefix, *_rulesbot(), *args], env=_env(data_dir), capture_output=True, text=True, timeout=TIMEOUT
    )


@pytest.fixture
def expected_answer(hash_env, tmp_path_factory) -> dict:
    """The `ask --json` object from a data dir that works (the oracle)."""
    from rulesbot.core import Rulesbot
    from rulesbot.settings import Settings

    bot = Rulesbot.load(Settings(data_dir=tmp_path_factory.mktemp("writable")), notify=lambda _m: None)
    answer = bot.ask(QUESTION).contract()
    assert answer["kind"] == "rule"
    return answer


def _load(data_dir: Path, **options):
    """The same load `rulesbot ask` does, in this process (to prepare or inspect a data dir quickly)."""
    from rulesbot.core import Rulesbot
    from rulesbot.settings import Settings

    messages: list[str] = []
    return Rulesbot.load(Settings(data_dir=data_dir), notify=messages.append, **options), messages


def _lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


def _assert_one_line(stderr: str, start: str, *parts: str) -> None:
    lines = _lines(stderr)
    assert len(lines) == 1, stderr
    assert lines[0].startswith(start), stderr
    for part in parts:
        assert part in lines[0], stderr
    assert "Traceback" not in stderr


def test_a_data_dir_under_a_regular_file(tmp_path, expected_answer):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    data_dir = blocker / "data"
    where = str(data_dir / "index")

    asked = _run(["ask", QUESTION, "--json"], data_dir)
    assert asked.returncode == 0, asked.stderr
    assert json.loads(asked.stdout) == expected_answer  # answered from an index built in memory
    _assert_one_line(asked.stderr, "warning: cannot save the search index in", where, "Not a directory", "RULESBOT_DATA_DIR")

    built = _run(["index", "build"], data_dir)
    assert built.returncode == 1
    _assert_one_line(built.stderr, "error: cannot save the search index in", where, "Not a directory", "RULESBOT_DATA_DIR")


def _read_only_prefix(folder: Path) -> list[str]:
    """A command prefix under which `folder` is read-only, for root too (or [] after a chmod, for non-root)."""
    if os.geteuid() != 0:
        for path in [folder, *folder.rglob("*")]:
            if path.is_dir():
                path.chmod(0o555)
        return []
    script = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"'
    prefix = ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", script, str(folder)]
    if shutil.which("unshare") is None:
        pytest.skip("needs unshare (util-linux) to make a folder read-only for root")
    probe = subprocess.run([*prefix, "sh", "-c", f'! touch "{folder}/probe"'], capture_output=True, timeout=TIMEOUT)
    if probe.returncode != 0:
        pytest.skip(f"cannot make a read-only mount here: {probe.stderr.decode(errors='replace').strip()}")
    return prefix


@pytest.fixture
def read_only(tmp_path):
    """Make a folder read-only for the commands run with the returned prefix; writable again afterwards."""
    made = []

    def make(folder: Path) -> list[str]:
        made.append(folder)
        return _read_only_prefix(folder)

    yield make
    for folder in made:
        for path in [folder, *folder.rglob("*")]:
            if path.is_dir():
                path.chmod(0o755)


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def test_a_read_only_data_dir_without_an_index(tmp_path, read_only, expected_answer):
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    prefix = read_only(data_dir)

    asked = _run(["ask", QUESTION, "--json"], data_dir, prefix)
    assert asked.returncode == 0, asked.stderr
    assert json.loads(asked.stdout) == expected_answer
    _assert_one_line(asked.stderr, "warning: cannot save the search index in", str(data_dir), "RULESBOT_DATA_DIR")

    built = _run(["index", "build"], data_dir, prefix)
    assert built.returncode == 1
    _assert_one_line(built.stderr, "error: cannot save the search index in", str(data_dir), "RULESBOT_DATA_DIR")
    assert _snapshot(data_dir) == {}


def test_a_read_only_data_dir_with_a_valid_index_still_answers(tmp_path, read_only, expected_answer):
    data_dir = tmp_path / "data"
    _load(data_dir)[0].ask(QUESTION)  # builds the index and the lexical cache
    before = _snapshot(data_dir)
    prefix = read_only(data_dir)

    asked = _run(["ask", QUESTION, "--json"], data_dir, prefix)
    assert asked.returncode == 0, asked.stderr
    assert json.loads(asked.stdout) == expected_answer
    assert asked.stderr == ""  # nothing to save, nothing to warn about

    built = _run(["index", "build"], data_dir, prefix)  # up to date: nothing to write
    assert built.returncode == 0, built.stderr
    assert "index ready: 16 vectors" in built.stdout

    forced = _run(["index", "build", "--force"], data_dir, prefix)
    assert forced.returncode == 1
    _assert_one_line(forced.stderr, "error: cannot save the search index in", str(data_dir), "RULESBOT_DATA_DIR")
    assert _snapshot(data_dir) == before


# Runs the CLI with one os function patched to stop at its n-th call: it writes a marker file, then waits to be
# killed. So the SIGKILL lands at a known point of the save, not at a random time.
_STOPPING_CLI = """
import os, sys, time
marker, name, nth = sys.argv[1], sys.argv[2], int(sys.argv[3])
real = getattr(os, name)
calls = 0
def stopping(*args, **kwargs):
    global calls
    calls += 1
    if calls == nth:
        with open(marker, "w") as handle:
            handle.write(str(os.getpid()))
        time.sleep(120)
    return real(*args, **kwargs)
setattr(os, name, stopping)
from rulesbot.cli import app
app(args=sys.argv[4:], prog_name="rulesbot")
"""


def _hidden(data_dir: Path) -> list[str]:
    return sorted(
        str(path.relative_to(data_dir))
        # Temporaries sit beside what they replace: a game's index folder is under <index>/<backend-model>/.
        for folder in (data_dir / "index", *(data_dir / "index").glob("*/"), data_dir / "embeddings")
        if folder.is_dir()
        for path in folder.iterdir()
        if path.name.startswith(".")
    )


# A forced rebuild calls fsync for: the embedding cache's temporary (1) and its folder (2), then vectors.faiss (3),
# rows.json (4) and manifest.json (5) in the staging folder; rename moves the old index aside (1), then the new
# one in (2).
KILL_POINTS = [("fsync", 1), ("fsync", 4), ("rename", 1), ("rename", 2)]


@pytest.mark.parametrize(("operation", "nth"), KILL_POINTS, ids=[f"{op}-{nth}" for op, nth in KILL_POINTS])
def test_a_build_killed_mid_save_then_ask_answers_and_the_next_build_cleans_up(
    tmp_path, expected_answer, operation, nth
):
    data_dir = tmp_path / "data"
    _load(data_dir)  # a good index to start from
    marker = tmp_path / "stopped"
    process = subprocess.Popen(
        [sys.executable, "-c", _STOPPING_CLI, str(marker), operation, str(nth), "index", "build", "--force"],
        env=_env(data_dir),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + TIMEOUT
        while not marker.exists() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert marker.exists(), f"the build never reached {operation} #{nth}: {process.stderr.read()!r}"
        os.kill(process.pid, signal.SIGKILL)
        assert process.wait(timeout=TIMEOUT) == -signal.SIGKILL
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=TIMEOUT)
        process.stderr.close()
    assert _hidden(data_dir), "the kill left no temporary: it did not land mid-save"

    asked = _run(["ask", QUESTION, "--json"], data_dir)
    assert asked.returncode == 0, asked.stderr
    assert json.loads(asked.stdout) == expected_answer
    assert "Traceback" not in asked.stderr

    _load(data_dir, force_rebuild=True)  # the next build (what `rulesbot index build --force` runs, in this process)
    assert _hidden(data_dir) == []  # the killed build's temporaries are gone
    bot, messages = _load(data_dir)
    assert messages == [] and bot.ask(QUESTION).contract() == expected_answer  # and the index on disk is good


def _without_privileges() -> list[str]:
    """A command prefix under which file modes bind the process (for root: a user namespace without a mapping)."""
    if os.geteuid() != 0:
        return []
    prefix = ["unshare", "--user"]
    if shutil.which("unshare") is None or subprocess.run([*prefix, "true"], timeout=TIMEOUT).returncode != 0:
        pytest.skip("needs unshare --user to drop root's file-access override")
    return prefix


def test_a_data_dir_that_cannot_even_be_read(tmp_path):
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    data_dir.chmod(0)
    try:
        for command in (["ask", QUESTION], ["index", "build"]):
            result = _run(command, data_dir, _without_privileges())
            assert result.returncode == 1, result.stderr
            # The ingested rulebooks under it are unreadable too, and `ask` says it skips them before failing.
            errors = "\n".join(line for line in _lines(result.stderr) if not line.startswith("warning: skipped the ingested"))
            _assert_one_line(errors, f"error: cannot use {data_dir}", "Permission denied", "RULESBOT_DATA_DIR")
    finally:
        data_dir.chmod(0o755)


def test_any_command_turns_a_file_system_error_into_one_line(tmp_path):
    """The console script's last net: `rulesbot ingest` writes the user's pack under the data dir."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    rulebook = tmp_path / "rulebook.md"
    rulebook.write_text("<!-- page 1 -->\nEach player draws two cards.\n")
    result = _run(["ingest", str(rulebook), "--game", "canvas", "--lang", "en"], blocker / "data")
    assert result.returncode == 1
    _assert_one_line(result.stderr, "error: cannot ", str(blocker / "data"), "Not a directory", "RULESBOT_DATA_DIR")
