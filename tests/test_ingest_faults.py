"""`rulesbot ingest` under faults, with real processes: kill -9, concurrent ingests, bombs, broken packs, read-only.

Every child runs `rulesbot` in its own process with the hash backend over the fixture pack and is bounded by a
timeout. Limits are made small through the environment (RULESBOT_INGEST_*), so the bombs stay small and fast.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
CLI = [sys.executable, "-c", "from rulesbot.cli import main; main()"]
TIMEOUT = 90  # seconds for any one child: a hang fails the test instead of stalling the run
CANVAS_QUESTION = "How many cards can I hold?"
CANVAS_ANSWER = "Five: your hand limit is five art cards."


def _env(data_dir: Path, **settings) -> dict:
    env = {key: value for key, value in os.environ.items() if not key.startswith("RULESBOT_")}
    env.update(
        RULESBOT_DATA_DIR=str(data_dir),
        RULESBOT_KNOWLEDGE_DIR=str(FIXTURES / "knowledge"),
        RULESBOT_BACKEND="hash",
        RULESBOT_LOCK_TIMEOUT="60",
    )
    env.update({f"RULESBOT_{key.upper()}": str(value) for key, value in settings.items()})
    return env


def _run(args: list[str], data_dir: Path, prefix: list[str] | None = None, **settings) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*(prefix or []), *CLI, *args],
        env=_env(data_dir, **settings),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        stdin=subprocess.DEVNULL,
    )


def _ingest(path: Path, data_dir: Path, game: str = "harbour", **settings) -> subprocess.CompletedProcess:
    return _run(["ingest", str(path), "--game", game, "--lang", "en"], data_dir, **settings)


def _rulebook(path: Path, pages: dict[int, str]) -> Path:
    path.write_text("".join(f"<!-- page {number} -->\n{text}\n\n" for number, text in pages.items()), encoding="utf-8")
    return path


def _snapshot(root: Path, skip_stale: bool = False) -> dict[str, object]:
    """Every file's bytes, every link's target and every folder under `root`.

    With `skip_stale`, hidden entries of packs/ that no game links to (an interrupted change's staging) are left out.
    """
    packs = root / "packs"
    live = {os.readlink(path) for path in packs.iterdir() if path.is_symlink()} if packs.is_dir() else set()

    def skipped(folder: Path, name: str) -> bool:
        return skip_stale and folder == packs and name.startswith(".") and name not in live

    found: dict[str, object] = {}
    for folder, folders, files in os.walk(root):
        here = Path(folder)
        for name in list(folders):
            path = here / name
            if skipped(here, name):
                folders.remove(name)
            else:
                found[str(path.relative_to(root))] = ("link", os.readlink(path)) if path.is_symlink() else "dir"
        for name in files:
            path = here / name
            if not skipped(here, name):
                found[str(path.relative_to(root))] = ("link", os.readlink(path)) if path.is_symlink() else path.read_bytes()
    return found


def _stale(packs: Path) -> list[str]:
    """The hidden entries of packs/ that no game links to: staging folders of changes not (yet) committed."""
    entries, live = list(packs.iterdir()), set()
    for path in entries:
        try:
            live.add(os.readlink(path))
        except OSError:
            continue  # not a link, or one renamed away meanwhile
    return sorted(path.name for path in entries if path.name.startswith(".") and path.name not in live)


def _sources(data_dir: Path) -> set[tuple[str, str]]:
    listed = _run(["ingest", "--list"], data_dir)
    assert listed.returncode == 0, listed.stderr
    return {tuple(line.split()[:2]) for line in listed.stdout.splitlines()[1:] if line.strip()}


def _ask(question: str, data_dir: Path, game: str | None = None) -> dict:
    args = ["ask", question, "--json"] + (["--game", game] if game else [])
    result = _run(args, data_dir)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def _load_in_process(data_dir: Path):
    from rulesbot.core import Rulesbot
    from rulesbot.settings import Settings

    settings = Settings(data_dir=data_dir, knowledge_dir=FIXTURES / "knowledge", backend="hash")
    return Rulesbot.load(settings, notify=lambda _m: None, warn=pytest.fail)


def _one_error_line(result: subprocess.CompletedProcess) -> str:
    assert result.returncode != 0
    assert "Traceback" not in result.stderr, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    return lines[0]


def _pdf_bomb(path: Path, characters: int) -> Path:
    """A one-page PDF whose deflated content stream draws one word of `characters` letters (a few KB on disk)."""
    content = b"BT /F1 12 Tf 72 720 Td (" + b"A" * characters + b") Tj ET"
    stream = zlib.compress(content, 9)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> "
        b"/Contents 4 0 R >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    path.write_bytes(bytes(out))
    return path


@pytest.fixture(scope="module")
def seeded_template(tmp_path_factory):
    """A data dir with one ingested rulebook (harbour, source "setup") and a built index, made once."""
    root = tmp_path_factory.mktemp("seeded")
    data_dir = root / "data"
    setup = _rulebook(root / "setup.md", {1: "# Setup\n\nPut the harbour board in the middle of the table."})
    result = _ingest(setup, data_dir)
    assert result.returncode == 0, result.stderr
    assert _ask("harbour board middle", data_dir, game="harbour")["citations"][0]["page"] == 1
    return data_dir


@pytest.fixture
def seeded(seeded_template, tmp_path):
    """A copy of the seeded data dir for one test (its links are relative, so the copy stands alone)."""
    data_dir = tmp_path / "data"
    shutil.copytree(seeded_template, data_dir, symlinks=True)
    return data_dir


def test_kill_9_while_staging_leaves_the_data_dir_as_it_was(seeded, tmp_path):
    before = _snapshot(seeded)
    # Big enough that staging and validating take a while, so the kill lands before the commit.
    pages = {number: f"Ships carry goods between harbours, page {number}. " * 80 for number in range(1, 401)}
    big = _rulebook(tmp_path / "goods.md", pages)
    packs = seeded / "packs"
    child = subprocess.Popen(
        [*CLI, "ingest", str(big), "--game", "harbour", "--lang", "en"],
        env=_env(seeded, ingest_max_passages=100000),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + TIMEOUT
        staged = False
        while time.monotonic() < deadline and child.poll() is None:
            if _stale(packs):
                staged = True
                break
            time.sleep(0.002)
        if child.poll() is None:
            os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait(timeout=TIMEOUT)
    assert staged, "the ingest finished before a staging folder was seen"
    assert child.returncode == -signal.SIGKILL
    # Everything that is read is as it was; only the hidden staging folder of the killed ingest remains.
    assert _snapshot(seeded, skip_stale=True) == before
    assert _ask(CANVAS_QUESTION, seeded)["answer"] == CANVAS_ANSWER
    assert _load_in_process(seeded).search("harbour board middle", game="harbour")[0].page == 1
    assert _sources(seeded) == {("harbour", "setup")}
    # The next ingest takes the stale staging folder away.
    small = _rulebook(tmp_path / "rules.md", {2: "# Goods\n\nShips carry goods between harbours."})
    assert _ingest(small, seeded).returncode == 0
    assert _stale(packs) == []
    assert _sources(seeded) == {("harbour", "setup"), ("harbour", "rules")}


def test_kill_9_after_the_commit_keeps_the_whole_rulebook(seeded, tmp_path):
    pages = {number: f"Ships carry goods between harbours, page {number}. " * 20 for number in range(1, 201)}
    big = _rulebook(tmp_path / "goods.md", pages)
    child = subprocess.Popen(
        [*CLI, "ingest", str(big), "--game", "harbour", "--lang", "en"],
        env=_env(seeded, ingest_max_passages=100000),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        first = child.stdout.readline()  # printed once the rulebook is committed, before the index is rebuilt
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait(timeout=TIMEOUT)
    assert first.startswith("ingested "), first
    assert _sources(seeded) == {("harbour", "setup"), ("harbour", "goods")}
    stored = (seeded / "packs" / "harbour" / "goods.jsonl").read_text(encoding="utf-8").splitlines()
    assert {json.loads(line)["pages"][0] for line in stored} == set(pages)
    assert _ask(CANVAS_QUESTION, seeded)["answer"] == CANVAS_ANSWER
    assert _load_in_process(seeded).search("harbour board middle", game="harbour")[0].page == 1


def test_concurrent_ingests_of_one_game_all_survive(seeded, tmp_path):
    words = ["lighthouse", "smuggler", "customs", "storm"]
    files = [
        _rulebook(tmp_path / f"{word}.md", {10 + number: f"# {word}\n\nThe {word} rule: " + f"{word} " * 60})
        for number, word in enumerate(words)
    ]
    children = [
        subprocess.Popen(
            [*CLI, "ingest", str(path), "--game", "harbour", "--lang", "en"],
            env=_env(seeded),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for path in files
    ]
    for child in children:
        out, err = child.communicate(timeout=TIMEOUT)
        assert child.returncode == 0, err
        assert out.startswith("ingested 1 passage"), out
    assert _sources(seeded) == {("harbour", "setup"), *(("harbour", word) for word in words)}
    bot = _load_in_process(seeded)
    for number, word in enumerate(words):
        assert bot.search(f"{word} rule", game="harbour")[0].page == 10 + number, word
    assert bot.search("harbour board middle", game="harbour")[0].page == 1


@pytest.mark.parametrize(
    ("suffix", "make", "settings", "limit"),
    [
        (".md", lambda p: p.write_text("[page 1]\n" + "a" * 200_000), {"ingest_max_text_chars": 50_000}, "RULESBOT_INGEST_MAX_TEXT_CHARS"),
        (".pdf", lambda p: _pdf_bomb(p, 2_000_000), {"ingest_max_text_chars": 50_000}, "RULESBOT_INGEST_MAX_TEXT_CHARS"),
        (
            ".md",
            lambda p: p.write_text("".join(f"[page {n}]\nShort rule number {n}.\n" for n in range(1, 41))),
            {"ingest_max_passages": 10},
            "RULESBOT_INGEST_MAX_PASSAGES",
        ),
        (
            ".md",
            lambda p: p.write_text("".join(f"[page {n}]\nRule {n}.\n" for n in range(1, 41))),
            {"ingest_max_pages": 20},
            "RULESBOT_INGEST_MAX_PAGES",
        ),
        (".md", lambda p: p.write_text("[page 1]\n" + "rule " * 10_000), {"ingest_max_file_mb": 0.01}, "RULESBOT_INGEST_MAX_FILE_MB"),
    ],
    ids=["huge-word", "pdf-bomb", "too-many-passages", "too-many-pages", "too-large"],
)
def test_bombs_are_refused_naming_the_limit_and_change_nothing(seeded, tmp_path, suffix, make, settings, limit):
    bomb = tmp_path / f"bomb{suffix}"
    make(bomb)
    before = _snapshot(seeded)
    started = time.monotonic()
    result = _ingest(bomb, seeded, **settings)
    line = _one_error_line(result)
    assert result.returncode == 2
    assert limit in line, line
    assert time.monotonic() - started < 30
    assert _snapshot(seeded) == before
    assert _load_in_process(seeded).ask(CANVAS_QUESTION).answer == CANVAS_ANSWER


@pytest.mark.parametrize(
    ("damage", "name"),
    [
        (lambda folder: (folder / "setup.jsonl").write_text('{"id": "user.setup.en.p1.1", "lang": \n'), "setup.jsonl"),
        (lambda folder: (folder / "pack.json").write_text("{not json"), "pack.json"),
    ],
    ids=["bad-jsonl", "bad-manifest"],
)
def test_a_corrupted_user_pack_is_skipped_with_one_warning(seeded, damage, name):
    folder = (seeded / "packs" / "harbour").resolve()
    damage(folder)
    result = _run(["ask", CANVAS_QUESTION], seeded)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == CANVAS_ANSWER
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1, result.stderr
    assert "harbour" in warnings[0] and name in warnings[0] and "skipped" in warnings[0]
    assert "Traceback" not in result.stderr


def _read_only_prefix(data_dir: Path) -> list[str]:
    """A command prefix under which `data_dir` is read-only (a private read-only bind mount when root)."""
    if os.geteuid() != 0:
        for folder, _folders, _files in os.walk(data_dir):
            os.chmod(folder, 0o555)
        return []
    if shutil.which("unshare") is None:
        pytest.skip("root without unshare: no way to make a read-only folder")
    prefix = ["unshare", "-m", "sh", "-c", 'mount -o bind,ro "$0" "$0" && exec "$@"', str(data_dir)]
    probe = subprocess.run([*prefix, "true"], capture_output=True, timeout=TIMEOUT)
    if probe.returncode != 0:
        pytest.skip(f"cannot make a read-only bind mount here: {probe.stderr.decode(errors='replace')[:200]}")
    return prefix


@pytest.mark.parametrize("first_time", [True, False], ids=["empty", "with-a-pack"])
def test_a_read_only_data_dir_gives_one_line(tmp_path, request, first_time):
    data_dir = tmp_path / "empty-data" if first_time else request.getfixturevalue("seeded")
    data_dir.mkdir(exist_ok=True)
    before = _snapshot(data_dir)
    rules = _rulebook(tmp_path / "rules.md", {2: "# Goods\n\nShips carry goods between harbours."})
    prefix = _read_only_prefix(data_dir)
    try:
        result = _run(["ingest", str(rules), "--game", "harbour", "--lang", "en"], data_dir, prefix=prefix)
    finally:
        if not prefix:
            for folder, _folders, _files in os.walk(data_dir):
                os.chmod(folder, 0o755)
    line = _one_error_line(result)
    assert result.returncode == 1
    assert str(data_dir) in line and "writable" in line, line
    assert _snapshot(data_dir) == before


def test_a_held_lock_gives_a_clear_error_after_the_timeout(seeded, tmp_path):
    from rulesbot.locking import data_dir_lock

    rules = _rulebook(tmp_path / "rules.md", {2: "# Goods\n\nShips carry goods between harbours."})
    with data_dir_lock(seeded, timeout=5):
        ingested = _ingest(rules, seeded, lock_timeout=1)
        built = _run(["index", "build", "--force"], seeded, lock_timeout=1)
    assert ingested.returncode == 1 and "Traceback" not in ingested.stderr, ingested.stderr
    waiting, line = ingested.stderr.splitlines()  # it says it waits, then gives up with one line
    assert waiting.startswith("waiting for another rulesbot ingest or index build"), waiting
    assert line.startswith("error: ") and str(seeded / ".lock") in line and "RULESBOT_LOCK_TIMEOUT" in line, line
    assert built.returncode == 1 and "RULESBOT_LOCK_TIMEOUT" in built.stderr, built.stderr
    assert _sources(seeded) == {("harbour", "setup")}
    assert _ingest(rules, seeded, lock_timeout=1).returncode == 0  # released: the next one goes through


def test_kill_9_at_any_moment_leaves_the_old_rulebooks_or_the_new_ones(seeded_template, tmp_path):
    pages = {number: f"Ships carry goods between harbours, page {number}. " * 40 for number in range(1, 201)}
    big = _rulebook(tmp_path / "goods.md", pages)
    outcomes = []
    for attempt, delay in enumerate((0.3, 0.5, 0.7, 0.9, 1.2)):
        data_dir = tmp_path / f"data-{attempt}"
        shutil.copytree(seeded_template, data_dir, symlinks=True)
        before = _snapshot(data_dir)
        child = subprocess.Popen(
            [*CLI, "ingest", str(big), "--game", "harbour", "--lang", "en"],
            env=_env(data_dir),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(delay)
        if child.poll() is None:
            os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=TIMEOUT)
        # Whatever the moment, the packs load without a warning (warn=pytest.fail) and hold the old
        # rulebook alone or the old one and the whole new one.
        bot = _load_in_process(data_dir)
        pages_found = {entry.page for entry in bot.packs["harbour"].entries if entry.id.startswith("user.goods.")}
        if pages_found:
            assert pages_found == set(pages)
            outcomes.append("new")
        else:
            assert _snapshot(data_dir, skip_stale=True) == before
            outcomes.append("old")
        assert bot.search("harbour board middle", game="harbour")[0].page == 1
    assert len(outcomes) == 5, outcomes
