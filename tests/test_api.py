"""The HTTP API (issue 5) with FastAPI's test client and the fake bot: every endpoint, every bad input,
the one error envelope, rate limit, CORS, health while loading, security headers, the answer cache."""

import json
import re
import threading
from html.parser import HTMLParser

import pytest
from fakes import FakeRulesbot
from fastapi.testclient import TestClient

from rulesbot.api import DEMO_CSP, MAX_BODY_BYTES, TokenBucketLimiter, create_app, get_bot
from rulesbot.errors import BadInput
from rulesbot.models import Answer
from rulesbot.settings import Settings

ALLOWED_ORIGIN = "https://rules.example"


def _settings(**overrides) -> Settings:
    values = {"rate_limit_per_minute": 10_000, "cors_origins": [ALLOWED_ORIGIN]}
    return Settings(**{**values, **overrides})


@pytest.fixture
def bot():
    """A fresh fake per test (function scope: call counts start at zero)."""
    return FakeRulesbot()


@pytest.fixture
def client(bot):
    """A client on an app built around the fake bot (the lifespan runs, loads nothing)."""
    with TestClient(create_app(_settings(), bot=bot)) as test_client:
        yield test_client


def assert_error(response, status: int, code: str | None = None) -> dict:
    """The one error shape: exactly {"error": {"code": str, "message": str}}."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message"}
    assert isinstance(body["error"]["code"], str) and body["error"]["code"]
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    if code is not None:
        assert body["error"]["code"] == code
    return body["error"]


# --- endpoints ---------------------------------------------------------------------------------------


def test_ask_returns_exactly_the_answer_contract(client):
    question = "Combien de cartes puis-je avoir en main ?"
    response = client.post("/v1/ask", json={"question": question})
    assert response.status_code == 200
    expected = FakeRulesbot().ask(question).contract()
    assert response.json() == expected
    assert set(response.json()) == set(Answer.model_fields) - {"engine", "alternatives"}
    assert response.json()["lang"] == "fr"
    assert response.json()["citations"][0]["page"] == 3


def test_ask_passes_lang_and_game_and_keeps_the_engine_object(client):
    response = client.post(
        "/v1/ask", json={"question": "Chosen, Game, Truth?", "lang": "fr", "game": "canvas"}
    )
    body = response.json()
    assert response.status_code == 200
    assert body["lang"] == "fr" and body["kind"] == "computed"
    assert len(body["engine"]["visible"]) == 5


def test_ask_claim_has_a_verdict(client):
    body = client.post("/v1/ask", json={"question": "Vrai ou faux : la première carte est gratuite ?"}).json()
    assert body["kind"] == "claim" and body["verdict"] is True


def test_repeated_questions_are_answered_from_the_cache(client, bot):
    first = client.post("/v1/ask", json={"question": "How many cards in hand?"}).json()
    again = client.post("/v1/ask", json={"question": "  how   MANY cards in hand  "}).json()
    assert bot.calls["ask"] == 1
    # The caller's own spelling is echoed back, the rest is the cached answer.
    assert again["question"] == "how   MANY cards in hand"
    assert {**again, "question": first["question"]} == first
    # Another language or game is another entry.
    client.post("/v1/ask", json={"question": "How many cards in hand?", "lang": "fr"})
    assert bot.calls["ask"] == 2


def test_score_with_cards_and_with_swatches(client):
    by_cards = client.post(
        "/v1/score", json={"cards": ["Chosen", "Game", "Truth"], "scoring": ["Repetition"]}
    )
    assert by_cards.status_code == 200
    body = by_cards.json()
    assert set(body) == {"visible", "title", "ribbons", "bonus"}
    assert len(body["visible"]) == 5 and body["ribbons"] == {"repetition": 2}
    by_swatches = client.post("/v1/score", json={"swatches": body["visible"], "game": "canvas"})
    assert by_swatches.status_code == 200
    assert by_swatches.json()["visible"] == body["visible"]


def test_search_returns_hits(client):
    response = client.get("/v1/search", params={"q": "hand limit", "lang": "en", "k": 3})
    assert response.status_code == 200
    results = response.json()["results"]
    assert len(results) == 3
    assert {"id", "page", "section", "lang", "score"} <= set(results[0])


@pytest.mark.parametrize("k", [1, 20])
def test_search_k_bounds_are_inclusive(client, k):
    assert len(client.get("/v1/search", params={"q": "hand", "k": k}).json()["results"]) == k


def test_games_lists_the_packs(client):
    response = client.get("/v1/games")
    assert response.status_code == 200
    assert [game["game"] for game in response.json()["games"]] == ["canvas"]


def test_healthz_ready(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["status"] == "ready" and response.json()["games"] == ["canvas"]


def test_openapi_and_docs(client):
    schema = client.get("/openapi.json").json()
    assert {"/v1/ask", "/v1/score", "/v1/search", "/v1/games", "/healthz"} <= set(schema["paths"])
    docs = client.get("/docs")
    assert docs.status_code == 200
    # Served offline: every script and stylesheet is ours, under a CSP that allows the one inline script by hash.
    assert "https://" not in docs.text and "/docs/assets/swagger-ui-bundle.js" in docs.text
    assert "script-src 'self' 'sha256-" in docs.headers["content-security-policy"]
    bundle = client.get("/docs/assets/swagger-ui-bundle.js")
    assert bundle.status_code == 200 and bundle.headers["content-type"].startswith("text/javascript")
    assert client.get("/redoc").status_code == 404


def test_widget_and_demo_page_are_served(client):
    widget = client.get("/widget.js")
    assert widget.status_code == 200 and widget.headers["content-type"].startswith("text/javascript")
    assert "rulesbot-chat" in widget.text
    assert client.get("/widget.js", headers={"If-None-Match": widget.headers["etag"]}).status_code == 304
    demo = client.get("/")
    assert demo.status_code == 200 and demo.headers["content-type"].startswith("text/html")
    assert 'src="/widget.js"' in demo.text
    assert client.get("/demo.css").status_code == 200 and client.get("/demo.js").status_code == 200


@pytest.mark.parametrize("path", ["/healthz", "/", "/widget.js", "/v1/games", "/docs", "/openapi.json"])
def test_head_is_answered_like_get_without_a_body(client, path):
    get = client.get(path)
    head = client.head(path)
    assert head.status_code == get.status_code == 200
    assert head.content == b""
    assert head.headers["content-type"] == get.headers["content-type"]
    assert head.headers["content-length"] == str(len(get.content))


def test_head_on_a_post_route_is_still_405(client):
    assert client.head("/v1/ask").status_code == 405


def test_dependency_override_swaps_the_bot(bot):
    app = create_app(_settings(), bot=bot)
    other = FakeRulesbot(games=("other",))
    app.dependency_overrides[get_bot] = lambda: other
    with TestClient(app) as test_client:
        assert test_client.get("/v1/games").json()["games"][0]["game"] == "other"


# --- bad input: always 4xx, always the one envelope ------------------------------------------------------

BAD_ASK_BODIES = [
    pytest.param({}, 422, "bad_input", id="missing-question"),
    pytest.param({"question": ""}, 422, "bad_input", id="empty"),
    pytest.param({"question": "   \n\t "}, 422, "bad_input", id="blank"),
    pytest.param({"question": "x" * 501}, 422, "bad_input", id="too-long"),
    pytest.param({"question": 42}, 422, "bad_input", id="question-not-a-string"),
    pytest.param({"question": ["a"]}, 422, "bad_input", id="question-a-list"),
    pytest.param({"question": None}, 422, "bad_input", id="question-null"),
    pytest.param({"question": "ok", "lang": "de"}, 422, "bad_input", id="unknown-lang"),
    pytest.param({"question": "ok", "lang": 1}, 422, "bad_input", id="lang-not-a-string"),
    pytest.param({"question": "ok", "game": 5}, 422, "bad_input", id="game-not-a-string"),
    pytest.param({"question": "ok", "game": "Not A Game!"}, 422, "bad_input", id="malformed-game"),
    pytest.param({"question": "ok", "game": "monopoly"}, 404, "unknown_game", id="unknown-game"),
    pytest.param({"question": "ok", "extra": 1}, 422, "bad_input", id="extra-field"),
    pytest.param({"question": "a\x00b"}, 422, "bad_input", id="nul"),
    pytest.param({"question": "bell\x07"}, 422, "bad_input", id="control-char"),
    pytest.param({"question": "c1\x85"}, 422, "bad_input", id="c1-control"),
    pytest.param({"question": "\ud800"}, 422, "bad_input", id="lone-surrogate"),
]


@pytest.mark.parametrize(("body", "status", "code"), BAD_ASK_BODIES)
def test_bad_ask_bodies(client, body, status, code):
    # json.dumps escapes to ASCII, so a lone surrogate travels as the JSON text "\ud800".
    response = client.post("/v1/ask", content=json.dumps(body), headers={"Content-Type": "application/json"})
    assert_error(response, status, code)


def test_the_question_limit_is_500_characters(client):
    assert client.post("/v1/ask", json={"question": "x" * 500}).status_code == 200
    error = assert_error(client.post("/v1/ask", json={"question": "x" * 501}), 422, "bad_input")
    assert error["message"] == "question: at most 500 characters"


def test_a_larger_configured_limit_is_honoured_up_to_the_ceiling(bot):
    with TestClient(create_app(_settings(max_question_chars=2000), bot=bot)) as test_client:
        assert test_client.post("/v1/ask", json={"question": "x" * 1500}).status_code == 200
        assert_error(test_client.post("/v1/ask", json={"question": "x" * 2001}), 422, "bad_input")


def test_a_smaller_configured_limit_is_enforced(bot):
    with TestClient(create_app(_settings(max_question_chars=10), bot=bot)) as test_client:
        assert_error(test_client.post("/v1/ask", json={"question": "x" * 11}), 422, "bad_input")
        assert_error(test_client.get("/v1/search", params={"q": "x" * 11}), 422, "bad_input")


@pytest.mark.parametrize(
    "raw",
    [b"{bad json", b'{"question": "unterminated', b"", b"null", b"[]", b'"just a string"', b"\xff\xfe\x00"],
    ids=["garbage", "unterminated", "empty", "null", "array", "string", "binary"],
)
def test_invalid_json_bodies(client, raw):
    response = client.post("/v1/ask", content=raw, headers={"Content-Type": "application/json"})
    assert_error(response, response.status_code)
    assert response.status_code in (400, 422)


def test_non_json_content_type_is_refused(client):
    response = client.post("/v1/ask", content=b"question=hi", headers={"Content-Type": "text/plain"})
    assert_error(response, 422, "bad_input")


def test_oversized_body_by_content_length(client, bot):
    body = json.dumps({"question": "x" * (MAX_BODY_BYTES + 10)})
    assert_error(
        client.post("/v1/ask", content=body, headers={"Content-Type": "application/json"}),
        413,
        "payload_too_large",
    )
    assert bot.calls["ask"] == 0


def test_oversized_body_streamed_without_content_length(client, bot):
    def chunks():
        for _ in range(40):
            yield b"x" * 1024

    response = client.post("/v1/ask", content=chunks(), headers={"Content-Type": "application/json"})
    assert "content-length" not in response.request.headers
    assert_error(response, 413, "payload_too_large")
    assert bot.calls["ask"] == 0


def test_invalid_content_length(client):
    response = client.post(
        "/v1/ask", content=b"{}", headers={"Content-Type": "application/json", "Content-Length": "abc"}
    )
    assert_error(response, 400)


BAD_SCORE_BODIES = [
    pytest.param({}, 422, "bad_input", id="neither"),
    pytest.param({"cards": ["Chosen", "Game", "Truth"], "swatches": [[]] * 5}, 422, "bad_input", id="both"),
    pytest.param({"cards": ["Chosen", "Game", "Nope"]}, 422, "unknown_card", id="unknown-card"),
    pytest.param({"cards": [1, 2, 999]}, 422, "unknown_card", id="unknown-card-id"),
    pytest.param({"cards": ["Chosen", "Game"]}, 422, "bad_input", id="two-cards"),
    pytest.param({"cards": ["Chosen", "Chosen", "Game"]}, 422, "bad_input", id="repeated-card"),
    pytest.param({"cards": [True, 2, 3]}, 422, "bad_input", id="boolean-card"),
    pytest.param({"cards": "Chosen"}, 422, "bad_input", id="cards-not-a-list"),
    pytest.param({"cards": []}, 422, "bad_input", id="no-cards"),
    pytest.param({"cards": ["Cho\x00sen", "Game", "Truth"]}, 422, "bad_input", id="control-char"),
    pytest.param({"swatches": [[]] * 4}, 422, "bad_input", id="four-swatches"),
    pytest.param({"swatches": [["hue"], ["sparkle"], [], [], []]}, 422, "bad_input", id="unknown-icon"),
    pytest.param({"swatches": [[1], [], [], [], []]}, 422, "bad_input", id="icon-not-a-string"),
    pytest.param({"cards": [1, 2, 3], "scoring": ["Nope"]}, 422, "bad_input", id="unknown-scoring-card"),
    pytest.param({"cards": [1, 2, 3], "scoring": "variety"}, 422, "bad_input", id="scoring-not-a-list"),
    pytest.param({"cards": [1, 2, 3], "game": "monopoly"}, 404, "unknown_game", id="unknown-game"),
    pytest.param({"cards": [1, 2, 3], "extra": True}, 422, "bad_input", id="extra-field"),
]


@pytest.mark.parametrize(("body", "status", "code"), BAD_SCORE_BODIES)
def test_bad_score_bodies(client, body, status, code):
    assert_error(client.post("/v1/score", json=body), status, code)


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ([-1, 2, 3], "cards.0: Input should be greater than or equal to 0"),
        ([1.5, 2, 3], "cards.0: Input should be a valid string or a valid integer"),
    ],
)
def test_card_validation_messages_name_no_pydantic_internals(client, cards, message):
    assert assert_error(client.post("/v1/score", json={"cards": cards}), 422, "bad_input")["message"] == message


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"q": ""},
        {"q": "   "},
        {"q": "x" * 501},
        {"q": "a\x00b"},
        {"q": "hand", "k": 0},
        {"q": "hand", "k": 21},
        {"q": "hand", "k": "many"},
        {"q": "hand", "lang": "de"},
        {"q": "hand", "game": "Bad Game"},
    ],
    ids=["no-q", "empty", "blank", "too-long", "nul", "k0", "k21", "k-text", "lang", "malformed-game"],
)
def test_bad_search_queries(client, params):
    assert_error(client.get("/v1/search", params=params), 422, "bad_input")


def test_search_unknown_game(client):
    assert_error(client.get("/v1/search", params={"q": "hand", "game": "monopoly"}), 404, "unknown_game")


def test_unknown_route_and_wrong_method(client):
    assert_error(client.get("/v1/nothing"), 404, "not_found")
    assert_error(client.get("/v1/ask"), 405, "method_not_allowed")
    assert_error(client.delete("/v1/score"), 405, "method_not_allowed")


def test_an_unexpected_error_is_a_json_500(bot):
    class Broken(FakeRulesbot):
        def search(self, *_args, **_kwargs):
            raise RuntimeError("boom")

    with TestClient(create_app(_settings(), bot=Broken()), raise_server_exceptions=False) as test_client:
        error = assert_error(test_client.get("/v1/search", params={"q": "hand"}), 500, "internal_error")
        assert "boom" not in error["message"]


def test_engine_value_errors_are_bad_input(bot):
    class Strict(FakeRulesbot):
        def score(self, payload, game=None):
            raise ValueError("expected 3 cards, got 2")

    with TestClient(create_app(_settings(), bot=Strict())) as test_client:
        assert_error(test_client.post("/v1/score", json={"cards": [1, 2]}), 422, "bad_input")


def test_domain_errors_map_to_their_status(bot):
    class Picky(FakeRulesbot):
        def ask(self, question, lang=None, game=None):
            raise BadInput("that is not a rules question")

    with TestClient(create_app(_settings(), bot=Picky())) as test_client:
        error = assert_error(test_client.post("/v1/ask", json={"question": "hi"}), 422, "bad_input")
        assert error["message"] == "that is not a rules question"


# --- rate limit ----------------------------------------------------------------------------------------


def test_rate_limit_answers_429_with_retry_after(bot):
    with TestClient(create_app(_settings(rate_limit_per_minute=3), bot=bot)) as test_client:
        for _ in range(3):
            assert test_client.get("/v1/games").status_code == 200
        response = test_client.post("/v1/ask", json={"question": "one more?"})
        assert_error(response, 429, "rate_limited")
        assert int(response.headers["retry-after"]) >= 1
        # Health, the widget and the demo page are not rate limited.
        assert test_client.get("/healthz").status_code == 200
        assert test_client.get("/widget.js").status_code == 200


def test_token_bucket_refills_per_client():
    now = [0.0]
    limiter = TokenBucketLimiter(60, clock=lambda: now[0])
    assert all(limiter.take("a") == 0 for _ in range(60))
    assert limiter.take("a") == pytest.approx(1.0)
    assert limiter.take("b") == 0  # another client has its own bucket
    now[0] += 2.0
    assert limiter.take("a") == 0


class _CostlyBot(FakeRulesbot):
    """Each new question costs `seconds` on a fake clock (the one the answer worker and the limiter read)."""

    def __init__(self, seconds: float):
        super().__init__()
        self.seconds = seconds
        self.now = 1000.0

    def clock(self) -> float:
        """The fake time."""
        return self.now

    def ask(self, question, lang=None, game=None):
        self.now += self.seconds
        return super().ask(question, lang, game)


def test_the_rate_limit_weighs_computation_not_only_requests():
    """0.4 s of computation a minute, 0.25 s a question: the third costly question is refused (429) though the
    request limit is far off; the same client's cached answers and another client's questions still pass."""
    bot = _CostlyBot(0.25)
    app = create_app(_settings(rate_limit_work_seconds_per_minute=0.4), bot=bot)
    app.state.answers.clock = app.state.work_limiter.clock = bot.clock
    with TestClient(app) as costly, TestClient(app, client=("203.0.113.7", 4000)) as other:
        assert costly.post("/v1/ask", json={"question": "first costly?"}).status_code == 200
        assert costly.post("/v1/ask", json={"question": "second costly?"}).status_code == 200
        refused = costly.post("/v1/ask", json={"question": "third costly?"})
        assert_error(refused, 429, "rate_limited")
        # 0.1 s of debt at 0.4 s a minute: 15 s to wait.
        assert refused.headers["retry-after"] == "15"
        assert costly.post("/v1/ask", json={"question": "first costly?"}).status_code == 200  # cached
        assert other.post("/v1/ask", json={"question": "third costly?"}).status_code == 200
        assert bot.calls["ask"] == 3


def test_the_work_bucket_is_charged_after_the_fact_and_refills():
    now = [0.0]
    limiter = TokenBucketLimiter(6.0, clock=lambda: now[0])  # 6 s of computation a minute: 0.1 s per second
    assert limiter.take("a", 0) == 0
    limiter.charge("a", 7.0)  # one call took more than the whole bucket: 1 s of debt
    assert limiter.take("a", 0) == pytest.approx(10.0)
    assert limiter.take("b", 0) == 0
    now[0] += 10.0
    assert limiter.take("a", 0) == 0
    limiter.charge("a", 1000.0)  # the debt is bounded by a bucket's worth
    assert limiter.take("a", 0) == pytest.approx(60.0)


# --- X-Forwarded-For: only from trusted proxies ----------------------------------------------------------


def test_x_forwarded_for_is_ignored_from_an_untrusted_peer(bot):
    app = create_app(_settings(rate_limit_per_minute=2, trusted_proxies=["10.0.0.0/8"]), bot=bot)
    with TestClient(app, client=("203.0.113.5", 4000)) as test_client:
        statuses = [
            test_client.get("/v1/games", headers={"X-Forwarded-For": f"198.51.100.{index}"}).status_code
            for index in range(3)
        ]
    assert statuses == [200, 200, 429]


def test_x_forwarded_for_names_the_client_behind_a_trusted_proxy(bot):
    app = create_app(_settings(rate_limit_per_minute=2, trusted_proxies=["10.0.0.0/8"]), bot=bot)
    with TestClient(app, client=("10.1.2.3", 4000)) as proxy:

        def status(forwarded: str) -> int:
            return proxy.get("/v1/games", headers={"X-Forwarded-For": forwarded}).status_code

        assert [status("198.51.100.1"), status("198.51.100.1"), status("198.51.100.1")] == [200, 200, 429]
        assert status("198.51.100.2") == 200  # another visitor behind the same proxy has their own bucket
        # What a client writes left of the proxy's entry changes nothing: the right-most untrusted hop counts.
        assert status("192.0.2.99, 198.51.100.1") == 429
        # A chain of trusted proxies is walked through.
        assert status("198.51.100.1, 10.9.9.9") == 429


def test_client_address_rules():
    import ipaddress

    from rulesbot.api import client_address

    trusted = (ipaddress.ip_network("127.0.0.1/32"), ipaddress.ip_network("10.0.0.0/8"))

    def scope(peer: str, *forwarded: bytes) -> dict:
        return {"client": (peer, 1), "headers": [(b"x-forwarded-for", value) for value in forwarded]}

    assert client_address(scope("203.0.113.1", b"1.2.3.4"), trusted) == "203.0.113.1"
    assert client_address(scope("127.0.0.1", b"1.2.3.4"), ()) == "127.0.0.1"
    assert client_address(scope("127.0.0.1", b"1.2.3.4"), trusted) == "1.2.3.4"
    assert client_address(scope("127.0.0.1", b"9.9.9.9, 1.2.3.4", b"10.0.0.1"), trusted) == "1.2.3.4"
    assert client_address(scope("127.0.0.1"), trusted) == "127.0.0.1"
    assert client_address(scope("127.0.0.1", b"10.0.0.2"), trusted) == "10.0.0.2"


# --- CORS ----------------------------------------------------------------------------------------------


def test_cors_allowed_origin(client):
    preflight = client.options(
        "/v1/ask",
        headers={
            "Origin": ALLOWED_ORIGIN,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
        },
    )
    assert preflight.status_code == 200
    assert preflight.headers["access-control-allow-origin"] == ALLOWED_ORIGIN
    response = client.post("/v1/ask", json={"question": "hand?"}, headers={"Origin": ALLOWED_ORIGIN})
    assert response.headers["access-control-allow-origin"] == ALLOWED_ORIGIN


def test_cors_denied_origin(client):
    preflight = client.options(
        "/v1/ask", headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"}
    )
    assert_error(preflight, 400, "cors_denied")
    assert "access-control-allow-origin" not in preflight.headers
    response = client.post("/v1/ask", json={"question": "hand?"}, headers={"Origin": "https://evil.example"})
    assert "access-control-allow-origin" not in response.headers


def test_cors_has_no_wildcard_by_default(bot):
    assert Settings().cors_origins == []
    with TestClient(create_app(Settings(), bot=bot)) as test_client:
        response = test_client.get("/v1/games", headers={"Origin": "https://anywhere.example"})
        assert "access-control-allow-origin" not in response.headers


@pytest.mark.parametrize(
    ("value", "origins"),
    [
        ("https://a.example", ["https://a.example"]),
        ("https://a.example/", ["https://a.example"]),
        ("https://a.example/, http://b.example:8080", ["https://a.example", "http://b.example:8080"]),
        ('["https://a.example/", "https://b.example"]', ["https://a.example", "https://b.example"]),
        ("", []),
    ],
    ids=["one", "trailing-slash", "comma-separated", "json-list", "empty"],
)
def test_cors_origins_setting_forms(monkeypatch, value, origins):
    monkeypatch.setenv("RULESBOT_CORS_ORIGINS", value)
    assert Settings().cors_origins == origins


@pytest.mark.parametrize(
    "value", ["rules.example", "https://a.example/path", "*", '["https://a.example"', "[1]", "https://a b"]
)
def test_a_bad_cors_origins_setting_is_a_validation_error_naming_it(monkeypatch, value):
    from pydantic import ValidationError

    monkeypatch.setenv("RULESBOT_CORS_ORIGINS", value)
    with pytest.raises(ValidationError) as raised:
        Settings()
    assert raised.value.errors()[0]["loc"] == ("cors_origins",)


def test_trusted_proxies_setting(monkeypatch):
    from pydantic import ValidationError

    monkeypatch.setenv("RULESBOT_TRUSTED_PROXIES", "127.0.0.1, 10.0.0.0/8,::1")
    assert Settings().trusted_proxies == ["127.0.0.1", "10.0.0.0/8", "::1"]
    assert Settings.model_fields["trusted_proxies"].default_factory() == []
    monkeypatch.setenv("RULESBOT_TRUSTED_PROXIES", "proxy.example")
    with pytest.raises(ValidationError):
        Settings()


# --- health while loading --------------------------------------------------------------------------------


def test_healthz_says_loading_until_the_bot_is_loaded():
    release = threading.Event()
    loaded = threading.Event()

    def slow_loader(_settings):
        release.wait(10)
        loaded.set()
        return FakeRulesbot()

    app = create_app(_settings(), loader=slow_loader)
    with TestClient(app) as test_client:
        response = test_client.get("/healthz")
        assert response.status_code == 503 and response.json()["status"] == "loading"
        busy = test_client.post("/v1/ask", json={"question": "hand?"})
        assert_error(busy, 503, "loading")
        assert busy.headers["retry-after"]
        release.set()
        assert loaded.wait(10)
        for _ in range(100):  # the loader thread sets app.state.bot right after returning
            if test_client.get("/healthz").status_code == 200:
                break
            threading.Event().wait(0.01)
        assert test_client.get("/healthz").json()["status"] == "ready"
        assert test_client.post("/v1/ask", json={"question": "hand?"}).status_code == 200


def test_healthz_reports_a_failed_load():
    def failing_loader(_settings):
        raise RuntimeError("no index")

    app = create_app(_settings(), loader=failing_loader)
    with TestClient(app) as test_client:
        for _ in range(200):
            if app.state.load_error is not None:
                break
            threading.Event().wait(0.01)
        response = test_client.get("/healthz")
        assert response.status_code == 503 and response.json()["status"] == "error"
        assert_error(test_client.get("/v1/games"), 503, "loading")


# --- security headers and the demo page --------------------------------------------------------------


def test_demo_page_has_the_strict_csp(client):
    response = client.get("/")
    assert response.headers["content-security-policy"] == DEMO_CSP
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"


def test_api_responses_have_security_headers(client):
    for response in (client.get("/v1/games"), client.get("/widget.js"), client.post("/v1/ask", json={})):
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["content-security-policy"] == "default-src 'none'; frame-ancestors 'none'"


class _PageAudit(HTMLParser):
    """Collects what a strict CSP would block: inline scripts, inline styles, external resources."""

    def __init__(self):
        super().__init__()
        self.problems: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if "style" in attributes or any(name.startswith("on") for name in attributes):
            self.problems.append(f"inline style or handler on <{tag}>")
        if tag == "style":
            self.problems.append("<style> element")
        if tag == "script":
            self._in_script = True
            if not attributes.get("src"):
                self.problems.append("inline <script>")
        for name in ("src", "href"):
            value = attributes.get(name) or ""
            if re.match(r"^(https?:)?//", value):
                self.problems.append(f"external {name}={value}")

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False


def test_demo_page_has_no_inline_script_or_style_or_third_party_resource(client):
    audit = _PageAudit()
    audit.feed(client.get("/").text)
    assert audit.problems == []


def test_widget_swatch_colours_are_the_engines(client):
    from rulesbot.engine.canvas import SWATCH_COLOURS

    declared = re.search(r"var SWATCH_COLOURS = (\[[^\]]*\]);", client.get("/widget.js").text)
    assert declared is not None and tuple(json.loads(declared.group(1))) == SWATCH_COLOURS


def test_widget_source_avoids_unsafe_apis(client):
    source = client.get("/widget.js").text
    code = re.sub(r"/\*.*?\*/", "", source, flags=re.DOTALL)  # the header comment shows an example URL
    for forbidden in (
        "innerHTML",
        "outerHTML",
        "insertAdjacentHTML",
        "eval(",
        "new Function",
        "localStorage",  # the conversation lives in sessionStorage (this tab only, opt-out data-history="off")
        "document.cookie",
        "document.write",
        'setAttribute("style"',
    ):
        assert forbidden not in code, forbidden
    # The only absolute URL is the SVG namespace: no third-party requests.
    assert re.findall(r"https?://[^\s\"']+", code) == ["http://www.w3.org/2000/svg"]


def test_a_stalled_body_times_out_with_408(monkeypatch):
    """A client that announces a body and never sends it gets a 408, not a hung worker."""
    import asyncio

    from rulesbot.api import limits

    monkeypatch.setattr(limits, "BODY_READ_TIMEOUT_SECONDS", 0.05)
    app = create_app(_settings(), bot=FakeRulesbot())
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/v1/ask",
        "raw_path": b"/v1/ask",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"content-type", b"application/json"), (b"content-length", b"20")],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
    }
    sent: list[dict] = []

    async def receive():
        await asyncio.sleep(3600)

    async def send(message):
        sent.append(message)

    asyncio.run(asyncio.wait_for(app(scope, receive, send), 5))
    assert sent[0]["status"] == 408
    assert json.loads(sent[1]["body"]) == {
        "error": {"code": "request_timeout", "message": "the request body took too long"}
    }


def test_serve_imports_no_web_stack_at_module_level():
    """`rulesbot --help` stays fast: uvicorn and FastAPI load only when `serve` runs."""
    import subprocess
    import sys

    code = "import sys, rulesbot.cli; print('uvicorn' in sys.modules, 'fastapi' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["False", "False"]


def test_rulesbot_serve_end_to_end(hash_env):
    """The real command on a loopback port (hash backend, fixture pack): loading, then ready, then answers."""
    import os
    import signal
    import socket
    import subprocess
    import sys
    import time

    import httpx

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    command = [sys.executable, "-c", "from rulesbot.cli import main; main()", "serve", "--port", str(port)]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        assert f"http://127.0.0.1:{port}/" in server.stdout.readline()
        deadline = time.monotonic() + 120
        status = None
        while time.monotonic() < deadline and status != "ready":
            try:
                status = httpx.get(base + "/healthz", timeout=2).json()["status"]
            except httpx.HTTPError:
                pass
            assert status != "error"
            time.sleep(0.2)
        assert status == "ready"
        response = httpx.post(base + "/v1/ask", json={"question": "Combien de cartes en main ?"}, timeout=30)
        assert response.status_code == 200
        assert set(response.json()) >= {"question", "answer", "lang", "kind", "citations", "confidence"}
        assert_error(httpx.post(base + "/v1/ask", json={"question": ""}, timeout=30), 422, "bad_input")
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(20)


def test_swatch_and_card_counts_are_the_engines_not_the_schemas(client):
    """The API schema only bounds sizes; the exact counts (and their message) come from the game's engine data."""
    from rulesbot.engine.canvas.data import SWATCH_COUNT

    body = assert_error(client.post("/v1/score", json={"swatches": [[]] * (SWATCH_COUNT - 1)}), 422, "bad_input")
    assert body["message"] == f"expected {SWATCH_COUNT} swatches, got {SWATCH_COUNT - 1}"
    too_many = assert_error(client.post("/v1/score", json={"swatches": [[]] * 33}), 422, "bad_input")
    assert "at most 32" in too_many["message"]


def test_a_cached_answer_keeps_its_id(client, bot):
    """Issue 11: the id names one answer to one question, so the cache's copy has the same one."""
    first = client.post("/v1/ask", json={"question": "How many cards in hand?"}).json()
    again = client.post("/v1/ask", json={"question": "how many cards in hand"}).json()
    assert bot.calls["ask"] == 1
    assert again["id"] == first["id"] and again["headline"] == first["headline"]
    assert again["question"] == "how many cards in hand"
