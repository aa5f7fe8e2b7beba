"""Schema-based fuzzing of the HTTP API: schemathesis generates valid and invalid requests from the app's own
/openapi.json and runs them in-process against the fake bot. No request may get a 5xx, and every 4xx must
be the one JSON error envelope. Bounded (a few dozen examples per operation) so it runs in well under a
minute; select it with `-m fuzz`.
"""

import pytest
import schemathesis
from fakes import FakeRulesbot
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance

from rulesbot.api import create_app
from rulesbot.settings import Settings

pytestmark = pytest.mark.fuzz

# A high limit: the fuzzer is one client sending hundreds of requests, and 429s would hide the real answers.
APP = create_app(
    Settings(rate_limit_per_minute=1_000_000, cors_origins=["https://rules.example"]), bot=FakeRulesbot()
)
SCHEMA = schemathesis.openapi.from_asgi("/openapi.json", APP)


STATUSES: list[int] = []


def error_envelope(_ctx, response, _case):
    """Every 4xx is exactly {"error": {"code": str, "message": str}}."""
    STATUSES.append(response.status_code)
    if 400 <= response.status_code < 500:
        body = response.json()
        assert set(body) == {"error"}, body
        assert set(body["error"]) == {"code", "message"}, body
        assert all(isinstance(body["error"][key], str) for key in ("code", "message")), body


@SCHEMA.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_api_fuzz(case):
    case.call_and_validate(
        checks=[not_a_server_error, content_type_conformance, response_schema_conformance, error_envelope]
    )


def test_the_fuzzer_sent_valid_and_invalid_requests():
    # Runs after test_api_fuzz (file order): an empty run or one with no rejected input would prove nothing.
    if not STATUSES:
        pytest.skip("run together with test_api_fuzz")
    assert any(status == 200 for status in STATUSES)
    assert any(400 <= status < 500 for status in STATUSES)
