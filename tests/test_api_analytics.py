"""Issue 11 in the API: votes (POST /v1/feedback), every answered /v1/ask recorded (cached ones too), the site
owner's report (GET /v1/report behind a bearer token), and a database that is locked or corrupt never failing an
answer. The oracle for what was stored is the SQLite file itself, read with sqlite3, and `rulesbot report`."""

import json
import logging
import sqlite3

import pytest
from fakes import FakeRulesbot
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from rulesbot.api import create_app
from rulesbot.cli import app as cli_app
from rulesbot.settings import Settings

TOKEN = "s3cret-report-token"
FORWARDED_CLIENT = "203.0.113.77"


def _settings(tmp_path, **overrides) -> Settings:
    values = {
        "rate_limit_per_minute": 10_000,
        "analytics": True,
        "data_dir": tmp_path,
        "report_token": TOKEN,
        "trusted_proxies": ["127.0.0.0/8"],
    }
    return Settings(**{**values, **overrides})


def _rows(tmp_path) -> dict[str, list[tuple]]:
    with sqlite3.connect(tmp_path / "analytics.sqlite3") as connection:
        return {
            table: connection.execute(f"SELECT * FROM {table}").fetchall()  # noqa: S608 - fixed table names
            for table in ("answers", "feedback")
        }


def _report(tmp_path, monkeypatch, *args) -> dict:
    monkeypatch.setenv("RULESBOT_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("RULESBOT_DATABASE_URL", raising=False)
    from rulesbot.settings import get_settings

    get_settings.cache_clear()
    result = CliRunner().invoke(cli_app, ["report", "--json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_feedback_reaches_sqlite_and_the_report(tmp_path, monkeypatch):
    question = "Combien de cartes puis-je avoir en main ?"
    with TestClient(create_app(_settings(tmp_path), bot=FakeRulesbot())) as client:
        first = client.post("/v1/ask", json={"question": question}).json()
        cached = client.post("/v1/ask", json={"question": question.upper()}).json()  # from the cache
        assert cached["id"] == first["id"]
        response = client.post("/v1/feedback", json={"id": first["id"], "vote": "down", "comment": " page fausse "})
        assert response.status_code == 202 and response.json() == {"status": "accepted"}
        assert client.post("/v1/feedback", json={"id": first["id"], "vote": "up"}).status_code == 202
    # Leaving the app flushed the queue: the rows are in the file.
    rows = _rows(tmp_path)
    assert len(rows["answers"]) == 2  # the cached answer is recorded too
    assert sorted((row[0], row[2], row[3]) for row in rows["feedback"]) == [
        (first["id"], "down", "page fausse"),
        (first["id"], "up", None),
    ]
    data = _report(tmp_path, monkeypatch)
    assert data["totals"]["questions"] == 2 and data["totals"]["votes"] == {"up": 1, "down": 1}
    (voted,) = data["down_voted"]
    assert voted["question"].casefold() == question.casefold()  # one spelling of the question the vote is on
    assert (voted["lang"], voted["down_votes"], voted["comment"]) == ("fr", 1, "page fausse")
    assert data["most_asked"][0]["count"] == 2


def test_answers_are_recorded_with_their_latency_and_no_address(tmp_path):
    with TestClient(create_app(_settings(tmp_path), bot=FakeRulesbot()), client=("127.0.0.1", 5000)) as client:
        headers = {"X-Forwarded-For": FORWARDED_CLIENT, "User-Agent": "agent-of-a-person/1.0"}
        answer = client.post("/v1/ask", json={"question": "How many cards in hand?"}, headers=headers).json()
        client.post("/v1/feedback", json={"id": answer["id"], "vote": "up"}, headers=headers)
    rows = _rows(tmp_path)
    (row,) = rows["answers"]
    assert row[0] == answer["id"] and row[6] >= 0  # answer_id ... latency_ms
    cells = [str(cell) for table in rows.values() for record in table for cell in record]
    for personal in (FORWARDED_CLIENT, "127.0.0.1", "testclient", "agent-of-a-person"):
        assert not any(personal in cell for cell in cells), personal
    with sqlite3.connect(tmp_path / "analytics.sqlite3") as connection:
        columns = {
            name
            for table in ("answers", "feedback")
            for _, name, *_ in connection.execute(f"PRAGMA table_info({table})")  # noqa: S608
        }
    assert not columns & {"ip", "address", "client", "user_agent", "headers"}


def test_feedback_when_analytics_are_off_is_a_clear_404(tmp_path):
    with TestClient(create_app(_settings(tmp_path, analytics=False), bot=FakeRulesbot())) as client:
        for body in ({"id": "0123456789abcdef", "vote": "up"}, {"id": "ans-1", "vote": "sideways"}, {}):
            # Off, the endpoint does not exist: 404 whatever the body (a widget then hides its buttons).
            response = client.post("/v1/feedback", json=body)
            assert response.status_code == 404
            assert response.json()["error"]["code"] == "analytics_disabled"
        assert client.post("/v1/ask", json={"question": "How many cards?"}).status_code == 200
    assert not (tmp_path / "analytics.sqlite3").exists()


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"vote": "up"}, "id: missing"),
        ({"id": "0123456789abcdef", "vote": "meh"}, "vote"),
        ({"id": "not hex!", "vote": "up"}, "id"),
        ({"id": "0123456789abcdef", "vote": "up", "email": "a@b.example"}, "email: unknown field"),
        ({"id": "0123456789abcdef", "vote": "up", "comment": "x" * 501}, "comment"),
        ({"id": "0123456789abcdef", "vote": "up", "comment": "bad\u0000byte"}, "comment"),
    ],
)
def test_bad_feedback_bodies_are_422(tmp_path, body, where):
    with TestClient(create_app(_settings(tmp_path), bot=FakeRulesbot())) as client:
        response = client.post("/v1/feedback", json=body)
    assert response.status_code == 422, response.text
    assert response.json()["error"]["message"].startswith(where)
    assert _rows(tmp_path)["feedback"] == []


def test_feedback_is_rate_limited_like_the_other_v1_routes(tmp_path):
    with TestClient(create_app(_settings(tmp_path, rate_limit_per_minute=2), bot=FakeRulesbot())) as client:
        statuses = [
            client.post("/v1/feedback", json={"id": "0123456789abcdef", "vote": "up"}).status_code for _ in range(3)
        ]
    assert statuses == [202, 202, 429]


def test_the_report_endpoint_needs_the_token(tmp_path):
    with TestClient(create_app(_settings(tmp_path), bot=FakeRulesbot())) as client:
        client.post("/v1/ask", json={"question": "How many cards in hand?"})
        client.post("/v1/ask", json={"question": "Combien de cartes en main ?"})
        client.app.state.analytics.flush()
        assert client.get("/v1/report").status_code == 401
        wrong = client.get("/v1/report", headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "unauthorized"
        assert wrong.headers["www-authenticate"].startswith("Bearer")
        assert client.get("/v1/report", headers={"Authorization": TOKEN}).status_code == 401
        good = client.get("/v1/report?since=7d&lang=fr&limit=5", headers={"Authorization": f"Bearer {TOKEN}"})
        assert good.status_code == 200, good.text
        assert good.json()["totals"]["by_lang"] == {"fr": 1}
        bad = client.get("/v1/report?since=soon", headers={"Authorization": f"Bearer {TOKEN}"})
        assert bad.status_code == 422 and bad.json()["error"]["message"].startswith("since:")


def test_the_report_endpoint_is_404_without_a_configured_token(tmp_path):
    with TestClient(create_app(_settings(tmp_path, report_token=""), bot=FakeRulesbot())) as client:
        for headers in ({}, {"Authorization": "Bearer "}, {"Authorization": "Bearer anything"}):
            response = client.get("/v1/report", headers=headers)
            assert response.status_code == 404 and response.json()["error"]["code"] == "report_disabled"


def test_a_corrupt_database_at_start_up_is_one_warning_and_answers_go_on(tmp_path, caplog):
    (tmp_path / "analytics.sqlite3").write_bytes(b"not a database" * 1000)
    with caplog.at_level(logging.WARNING, logger="rulesbot.api"):
        with TestClient(create_app(_settings(tmp_path), bot=FakeRulesbot())) as client:
            for number in range(3):
                response = client.post("/v1/ask", json={"question": f"How many cards, take {number}?"})
                assert response.status_code == 200
            vote = client.post("/v1/feedback", json={"id": response.json()["id"], "vote": "up"})
            assert vote.status_code == 503 and vote.json()["error"]["code"] == "analytics_unavailable"
    warnings = [record for record in caplog.records if "analytics" in record.getMessage()]
    assert len(warnings) == 1
    assert (tmp_path / "analytics.sqlite3").read_bytes() == b"not a database" * 1000  # nothing overwritten


def test_a_locked_database_never_fails_an_answer(tmp_path):
    with TestClient(create_app(_settings(tmp_path), bot=FakeRulesbot())) as client:
        holder = sqlite3.connect(tmp_path / "analytics.sqlite3", isolation_level=None, check_same_thread=False)
        holder.execute("BEGIN EXCLUSIVE")
        try:
            statuses = [
                client.post("/v1/ask", json={"question": f"How many cards, variant {number}?"}).status_code
                for number in range(20)
            ]
            vote = client.post("/v1/feedback", json={"id": "0123456789abcdef", "vote": "down"}).status_code
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert client.app.state.analytics.flush(timeout=30)
    assert statuses == [200] * 20 and vote == 202
