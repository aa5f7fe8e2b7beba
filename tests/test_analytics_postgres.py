"""Issue 13: analytics in PostgreSQL when RULESBOT_DATABASE_URL is a postgres URL. A real server from the Debian
package (initdb + pg_ctl in a temp dir on 127.0.0.1 and a free port, as a non-root user when run as root); rows
written through the HTTP API are read back with psycopg directly (the oracle) and by `rulesbot report`."""

import json

import pytest
from fakes import FakeRulesbot
from fastapi.testclient import TestClient
from servers import PostgresServer
from typer.testing import CliRunner

from rulesbot.api import create_app
from rulesbot.cli import app as cli_app
from rulesbot.settings import Settings, analytics_url

pytest.importorskip("psycopg", reason="the `postgres` extra (psycopg[binary]) is not installed")


@pytest.fixture(scope="module")
def postgres():
    """One throwaway PostgreSQL for this module, stopped and removed at teardown."""
    server = PostgresServer()
    try:
        yield server.start()
    finally:
        server.stop()


def test_analytics_rows_land_in_postgres_and_the_report_reads_them(postgres, tmp_path, monkeypatch):
    import psycopg

    settings = Settings(
        analytics=True, database_url=postgres.url, data_dir=tmp_path, rate_limit_per_minute=10_000
    )
    with TestClient(create_app(settings, bot=FakeRulesbot())) as client:
        answer = client.post("/v1/ask", json={"question": "Combien de cartes en main ?"}).json()
        client.post("/v1/ask", json={"question": "Combien de cartes en main"})  # cached, recorded too
        client.post("/v1/ask", json={"question": "xyzzy plugh?"})  # the honest "I don't know"
        vote = client.post("/v1/feedback", json={"id": answer["id"], "vote": "down", "comment": "mauvaise page"})
        assert vote.status_code == 202
    assert not (tmp_path / "analytics.sqlite3").exists()  # nothing went to the default SQLite file
    with psycopg.connect(f"host=127.0.0.1 port={postgres.port} user=rulesbot dbname=postgres") as connection:
        answers = connection.execute("SELECT answer_id, lang, kind FROM answers ORDER BY at").fetchall()
        feedback = connection.execute("SELECT answer_id, vote, comment FROM feedback").fetchall()
    assert answers == [(answer["id"], "fr", "rule"), (answer["id"], "fr", "rule"), (answers[2][0], "en", "unknown")]
    assert feedback == [(answer["id"], "down", "mauvaise page")]

    monkeypatch.setenv("RULESBOT_DATABASE_URL", postgres.url)
    from rulesbot.settings import get_settings

    get_settings.cache_clear()
    result = CliRunner().invoke(cli_app, ["report", "--json"])
    get_settings.cache_clear()
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["totals"]["questions"] == 3 and data["totals"]["by_kind"] == {"rule": 2, "unknown": 1}
    assert data["totals"]["votes"] == {"up": 0, "down": 1}
    assert data["unanswered"][0]["question"] == "xyzzy plugh?"
    assert data["down_voted"][0]["comment"] == "mauvaise page"


def test_a_plain_postgres_url_uses_the_psycopg_driver():
    for given in ("postgresql://u@db/rules", "postgres://u@db/rules"):
        assert analytics_url(Settings(database_url=given)) == "postgresql+psycopg://u@db/rules"
    assert analytics_url(Settings(database_url="postgresql+psycopg://u@db/rules")) == "postgresql+psycopg://u@db/rules"
    assert analytics_url(Settings(database_url="sqlite:////tmp/a.db")) == "sqlite:////tmp/a.db"
