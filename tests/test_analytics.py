"""Analytics: what is stored (never an address), the report's tables, retention, and a database that fails.

A locked or corrupt database must never block or break an answer: writes are queued and their failures only
counted and logged once.
"""

import json
import sqlite3
import threading
import time

import pytest
from typer.testing import CliRunner

from rulesbot.analytics import LOW_CONFIDENCE, Analytics, AnalyticsError, normalise_question, sqlite_url
from rulesbot.cli import app
from rulesbot.commands.report import parse_since


def _answer(question, lang="en", kind="rule", confidence=0.9, answer_id=None):
    return {
        "id": answer_id or f"id-{normalise_question(question)}-{lang}",
        "question": question,
        "answer": "…",
        "lang": lang,
        "kind": kind,
        "verdict": None,
        "citations": [],
        "confidence": confidence,
    }


@pytest.fixture
def store(tmp_path):
    # A fresh SQLite file per test; closed (writer thread stopped) at teardown.
    opened = Analytics.open(sqlite_url(tmp_path / "analytics.sqlite3"), retention_days=30)
    yield opened
    opened.close()


def test_report_tables_hand_derived(store):
    for _ in range(3):
        store.record_answer(_answer("How many cards in hand?"), game="canvas", latency_ms=12)
    store.record_answer(_answer("how many cards in hand"), game="canvas", latency_ms=10)  # same question, normalised
    store.record_answer(_answer("Combien de jetons ?", lang="fr"), game="canvas", latency_ms=9)
    store.record_answer(_answer("castling?", kind="unknown", confidence=0.1), game="canvas", latency_ms=5)
    store.record_answer(_answer("tie?", confidence=LOW_CONFIDENCE - 0.1), game="canvas", latency_ms=5)
    store.record_feedback(_answer("tie?")["id"], "down", "wrong page")
    store.record_feedback(_answer("tie?")["id"], "down")
    store.record_feedback(_answer("How many cards in hand?")["id"], "up")
    assert store.flush()
    data = store.report()
    assert data["totals"]["questions"] == 7
    assert data["totals"]["by_lang"] == {"en": 6, "fr": 1}
    assert data["totals"]["by_kind"] == {"rule": 6, "unknown": 1}
    assert data["totals"]["votes"] == {"up": 1, "down": 2}
    top = data["most_asked"][0]
    assert top["count"] == 4 and top["lang"] == "en" and normalise_question(top["question"]) == "how many cards in hand"
    assert [row["question"] for row in data["unanswered"]] == ["castling?"]
    assert [row["question"] for row in data["low_confidence"]] == ["tie?"]  # the unknown one is not listed twice
    assert data["down_voted"] == [{"question": "tie?", "lang": "en", "down_votes": 2, "comment": "wrong page"}]
    assert store.report(lang="fr")["totals"]["questions"] == 1
    assert store.report(since=time.time() + 60)["totals"]["questions"] == 0


def test_no_address_or_identifier_of_the_asker_is_stored(store, tmp_path):
    store.record_answer(_answer("hand limit?"), game="canvas", latency_ms=3)
    assert store.flush()
    with sqlite3.connect(tmp_path / "analytics.sqlite3") as connection:
        columns = {
            row[1]
            for table in ("answers", "feedback")
            for row in connection.execute(f"PRAGMA table_info({table})")
        }
    assert not columns & {"ip", "address", "client", "host", "user_agent", "headers", "user", "session"}


def test_retention_deletes_old_rows(store, tmp_path):
    store.record_answer(_answer("old question"), game="canvas", latency_ms=1)
    store.record_answer(_answer("new question"), game="canvas", latency_ms=1)
    assert store.flush()
    with sqlite3.connect(tmp_path / "analytics.sqlite3") as connection:
        connection.execute("UPDATE answers SET at = at - 31 * 86400 WHERE question = 'old question'")
    assert store.prune() == 1
    assert [row["question"] for row in store.report()["most_asked"]] == ["new question"]


def test_a_locked_database_never_blocks_the_caller(store, tmp_path):
    holder = sqlite3.connect(tmp_path / "analytics.sqlite3", isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        returned = threading.Event()

        def ask_many():
            for number in range(50):
                store.record_answer(_answer(f"question {number}"), game="canvas", latency_ms=1)
            returned.set()

        worker = threading.Thread(target=ask_many)
        worker.start()
        # The writer thread waits on the lock (busy timeout); the callers never do.
        assert returned.wait(timeout=1.0)
        worker.join()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert store.flush(timeout=30)
    status = store.status()
    assert status.written + status.failed == 50
    # Whatever the lock cost, the rows written after it are readable.
    assert store.report()["totals"]["questions"] == status.written


def test_a_failing_database_is_counted_and_logged_once(store, tmp_path, caplog):
    with sqlite3.connect(tmp_path / "analytics.sqlite3") as connection:
        connection.execute("DROP TABLE answers")  # every later write fails
    with caplog.at_level("WARNING", logger="rulesbot.analytics"):
        for number in range(5):
            store.record_answer(_answer(f"q{number}"), game="canvas", latency_ms=1)
            assert store.flush()
    status = store.status()
    assert status.failed == 5 and status.written == 0 and "answers" in status.last_error
    assert len([record for record in caplog.records if "analytics" in record.getMessage()]) == 1


def test_a_corrupt_database_file_is_a_clear_error(tmp_path):
    path = tmp_path / "analytics.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(AnalyticsError, match="analytics database"):
        Analytics.open(sqlite_url(path))


def test_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "analytics.sqlite3"
    Analytics.open(sqlite_url(path)).close()
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE schema_info SET version = 99")
    with pytest.raises(AnalyticsError, match="schema version 99"):
        Analytics.open(sqlite_url(path))


def test_bad_vote_is_refused(store):
    with pytest.raises(ValueError, match="up, down"):
        store.record_feedback("x", "sideways")


def test_parse_since():
    now = 1_000_000.0
    assert parse_since(None, now=now) is None
    assert parse_since("7d", now=now) == now - 7 * 86400
    assert parse_since("24h", now=now) == now - 86400
    assert parse_since("2w", now=now) == now - 14 * 86400
    assert parse_since("1970-01-02", now=now) == 86400
    with pytest.raises(ValueError, match="duration"):
        parse_since("last tuesday", now=now)


def test_report_command_json_and_tables(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESBOT_DATA_DIR", str(tmp_path))
    store = Analytics.open(sqlite_url(tmp_path / "analytics.sqlite3"))
    store.record_answer(_answer("Combien de cartes en main ?", lang="fr"), game="canvas", latency_ms=4)
    store.record_answer(_answer("chess?", kind="unknown", confidence=0.0), game="canvas", latency_ms=4)
    store.close()
    runner = CliRunner()
    result = runner.invoke(app, ["report", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["totals"]["questions"] == 2 and data["unanswered"][0]["question"] == "chess?"
    result = runner.invoke(app, ["report"], env={"COLUMNS": "120"})
    assert result.exit_code == 0
    assert "Most asked" in result.stdout and "Combien de cartes en main ?" in result.stdout
    assert "Unanswered" in result.stdout and "chess?" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--since", "soon"], "--since"), (["--lang", "de"], "--lang")],
)
def test_report_command_bad_options(tmp_path, monkeypatch, args, message):
    monkeypatch.setenv("RULESBOT_DATA_DIR", str(tmp_path))
    result = CliRunner().invoke(app, ["report", *args])
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output


def test_report_command_on_a_corrupt_database_is_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESBOT_DATA_DIR", str(tmp_path))
    (tmp_path / "analytics.sqlite3").write_bytes(b"garbage" * 1000)
    result = CliRunner().invoke(app, ["report"])
    assert result.exit_code == 1
    assert result.output.startswith("error: analytics database") and len(result.output.strip().splitlines()) == 1
