"""The widget end to end in real headless Chromium (Playwright for Python, the system /usr/bin/chromium).

Servers, the test bot and page helpers are in widget_harness.py: a real uvicorn server with the API, the widget
and the demo page; third-party rules sites that embed it with one tag under a strict Content-Security-Policy.
Any CSP violation or console error fails a test that calls `assert_clean`. Never runs `playwright install`:
without /usr/bin/chromium the tests skip. Accessibility (axe-core) and most screenshots are in
test_widget_a11y.py.
"""

import json
import os
import re
import time

import httpx
import pytest
from playwright.sync_api import expect
from widget_harness import (
    ANSWERS,
    ARTIFACTS,
    CHROMIUM,
    CHROMIUM_ARGS,
    CLAIM_QUESTION,
    INPUT,
    LAUNCHER,
    LOG,
    PAINTING_QUESTION,
    PANEL,
    RULE_QUESTION,
    RULEBOOK_URL,
    SEND,
    UNKNOWN_QUESTION,
    AskRecorder,
    EngineFakeBot,
    Watch,
    ask,
    canvas_pack,
    enrich_answers,
    free_port,
    serve,
    shadow_focus,
    site_app,
    tab_to,
)

# How long the slow test waits for the real model and index to load (a fresh data dir builds the index).
REAL_BOT_LOAD_SECONDS = 900

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)"
    ),
]
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="the browser extra (playwright) is not installed"
)


class Servers:
    """Base URLs of the API, the allowed site, a site with options, a site the CORS list refuses; the stub."""

    def __init__(self, api, site, options_site, stranger, stub):
        self.api, self.site, self.options_site, self.stranger, self.stub = api, site, options_site, stranger, stub


@pytest.fixture(scope="module")
def servers():
    """The rulesbot app (test bot, follow-up stub) and three sites, two of them allowed by its CORS list."""
    from rulesbot.api import create_app
    from rulesbot.settings import Settings

    api_port, site_port, options_port, stranger_port = (free_port() for _ in range(4))
    allowed = [f"http://127.0.0.1:{site_port}", f"http://127.0.0.1:{options_port}"]
    # Module scope: the servers are read-only for these tests. A high limit: the tests ask many questions.
    settings = Settings(rate_limit_per_minute=100_000, cors_origins=allowed)
    bot = EngineFakeBot()
    # Load the pack and the compute layer now, not inside the first test's 10 s wait (slow on a loaded machine).
    bot.ask(CLAIM_QUESTION)
    stub = AskRecorder(create_app(settings, bot=bot))
    with serve(stub, api_port) as api:
        site = site_app(api, 'data-game="canvas" data-lang="fr" data-max-chars="300"')
        options = site_app(
            api, f'data-game="canvas" data-rulebook-url="{RULEBOOK_URL}" data-history="off" data-theme="dark"'
        )
        stranger = site_app(api, 'data-game="canvas"')
        with serve(site, site_port) as site_url, serve(options, options_port) as options_url:
            with serve(stranger, stranger_port) as stranger_url:
                yield Servers(api, site_url, options_url, stranger_url, stub)


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for the module (launching it is the slow part)."""
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def context(browser):
    """A fresh context per test (no shared state), English locale, desktop size."""
    new_context = browser.new_context(locale="en-US", viewport={"width": 1200, "height": 820})
    yield new_context
    new_context.close()


@pytest.fixture
def page(context):
    """A page of that context, watched for console errors and CSP violations."""
    new_page = context.new_page()
    new_page.set_default_timeout(10_000)
    new_page.watch = Watch(new_page)
    return new_page


def _open(page, url):
    page.goto(url)
    page.locator(LAUNCHER).click()
    page.locator(INPUT).wait_for()


def _in_shadow(page, script: str):
    """Evaluate `script` (a function of the widget's shadow root) in the page."""
    return page.evaluate(f"() => {{ const root = document.querySelector('rulesbot-chat').shadowRoot; return ({script})(root); }}")


def _painting_root(answer):
    """Evaluate helpers on the <rulesbot-painting> inside an answer."""
    return answer.locator("rulesbot-painting")


# --- the basics --------------------------------------------------------------------------------------


def test_demo_page_french_question_gets_a_french_answer_with_its_page_chip(page, servers):
    response = page.goto(servers.api + "/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.locator(LAUNCHER).click()
    # Without data-max-chars the widget counts to the server's default limit.
    from rulesbot.settings import Settings

    default_limit = Settings.model_fields["max_question_chars"].default
    page.locator(INPUT).fill("a" * (default_limit - 10))
    assert page.locator("rulesbot-chat .counter").inner_text() == f"{default_limit - 10} / {default_limit}"
    answer = ask(page, "Combien de cartes puis-je avoir en main ?")
    assert "cartes Art en main" in answer.locator(".headline").inner_text()
    assert answer.get_attribute("lang") == "fr"
    assert answer.locator(".chip").all_inner_texts() == ["p. 3"]
    assert answer.get_attribute("data-kind") == "rule"
    page.watch.assert_clean()


def test_third_party_site_with_a_strict_csp_embeds_it_with_one_tag(page, servers):
    page.goto(servers.site + "/")
    launcher = page.locator(LAUNCHER)
    launcher.wait_for()
    # Themed by the site's custom property; untouched by the site's CSS (the theme is applied once the widget has
    # read and validated the property: wait for it rather than race it).
    expect(launcher).to_have_css("background-color", "rgb(200, 0, 0)")
    # data-lang="fr": French interface on an English page, and French answers.
    assert launcher.get_attribute("aria-label") == "Poser une question de règles"
    launcher.click()
    answer = ask(page, "How many cards can I hold?")
    assert answer.get_attribute("lang") == "fr"
    assert answer.locator(".chip").all_inner_texts() == ["p. 3"]
    assert page.evaluate("document.cookie") == ""
    assert page.evaluate("localStorage.length") == 0
    page.watch.assert_clean()


def test_api_docs_render_offline_under_their_csp(page, servers):
    page.goto(servers.api + "/docs")
    # Swagger UI draws the API's title and its endpoints from /openapi.json, with no CDN and no CSP violation.
    page.locator(".swagger-ui .info .title").wait_for()
    assert "rulesbot" in page.locator(".swagger-ui .info .title").inner_text()
    page.locator(".opblock-summary-path", has_text="/v1/ask").first.wait_for()
    page.watch.assert_clean()


def test_dark_color_scheme_and_data_theme(browser, servers):
    for scheme, url, expected in (
        ("dark", servers.api + "/", "rgb(28, 26, 35)"),  # follows the system in auto mode
        ("light", servers.options_site + "/", "rgb(28, 26, 35)"),  # data-theme="dark" wins over a light system
        ("light", servers.site + "/", "rgb(255, 255, 255)"),
    ):
        context = browser.new_context(color_scheme=scheme)
        page = context.new_page()
        _open(page, url)
        assert page.locator(PANEL).evaluate("node => getComputedStyle(node).backgroundColor") == expected, url
        context.close()


# --- answers at a glance -----------------------------------------------------------------------------


def test_citations_are_sorted_buttons_that_open_the_cited_passage(page, servers):
    _open(page, servers.api + "/")
    answer = ask(page, PAINTING_QUESTION)  # cited p. 4, p. 3, p. 4: shown p. 3, p. 4
    chips = answer.locator(".chip")
    assert chips.all_inner_texts() == ["p. 3", "p. 4"]
    page_four = chips.nth(1)
    passage_id = page_four.get_attribute("aria-controls")
    passage = answer.locator(f"#{passage_id}")
    assert page_four.get_attribute("aria-expanded") == "false" and passage.is_hidden()
    page_four.click()
    assert page_four.get_attribute("aria-expanded") == "true" and passage.is_visible()
    # Both citations of page 4, with their section and snippet, in the answer's language.
    assert passage.locator("h3").all_inner_texts() == ["Complete a Painting", "Scoring Cards"]
    assert passage.locator("blockquote").nth(1).inner_text() == "Ribbons."
    assert passage.locator("blockquote").first.get_attribute("lang") == "en"
    assert passage.locator("a").count() == 0  # the demo page gives no rulebook URL
    chips.nth(0).click()  # one passage open at a time
    assert passage.is_hidden() and answer.locator(f"#{chips.nth(0).get_attribute('aria-controls')}").is_visible()
    page.watch.assert_clean()


def test_a_rulebook_url_links_each_page_to_the_sites_rulebook(page, servers):
    _open(page, servers.options_site + "/")
    answer = ask(page, PAINTING_QUESTION)
    answer.locator(".chip", has_text="p. 4").click()
    link = answer.locator(".passage:visible a")
    assert link.get_attribute("href") == RULEBOOK_URL + "#page=4"
    assert link.get_attribute("rel") == "noopener noreferrer"
    assert link.inner_text() == "Open page 4 of the rulebook"
    page.watch.assert_clean()


def test_a_computed_answer_gives_its_number_first_and_folds_the_details(page, servers):
    from rulesbot.compute import answer_computed

    _open(page, servers.api + "/")
    answer = ask(page, PAINTING_QUESTION)
    full = answer_computed(None, PAINTING_QUESTION, "en", canvas_pack())
    points = full.engine["points"]
    headline = answer.locator(".headline").inner_text()
    assert headline == f"On its own the painting is worth {points} points."
    details = answer.locator("details")
    assert details.get_attribute("open") is None  # folded
    assert not answer.locator(".rest").is_visible()
    details.locator("summary").click()
    rest = answer.locator(".rest").inner_text()
    # Every other sentence of the engine's answer is in the details, none lost, the headline not repeated.
    assert "Assumption: the first-game Scoring Cards" in rest and "Computation: layers" in rest
    assert headline not in rest
    words = lambda text: re.findall(r"\w+", text)  # noqa: E731
    assert sorted(words(headline + " " + rest)) == sorted(words(full.answer))
    page.watch.assert_clean()


def test_a_claim_says_its_verdict_once(page, servers):
    _open(page, servers.api + "/")
    answer = ask(page, CLAIM_QUESTION)  # the engine: "False: it is 11 points, not 9. ..."
    assert answer.locator(".badge.false").inner_text() == "False"
    headline = answer.locator(".headline").inner_text()
    assert headline == "False It is 11 points, not 9."
    assert answer.inner_text().count("False") == 1
    page.watch.assert_clean()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_i_dont_know_is_said_once_and_the_closest_pages_stay_in_view(page, servers, lang):
    from rulesbot.answer import CLOSEST, UNKNOWN

    text = UNKNOWN[lang].format(title="Canvas") + " " + CLOSEST[lang].format(pages="3, 4")
    enrich_answers(page, answer=text, lang=lang)
    page.goto(servers.api + "/")
    if lang == "fr":
        page.locator("button[data-set-lang=fr]").click()
    page.locator(LAUNCHER).click()
    answer = ask(page, UNKNOWN_QUESTION)
    said = answer.inner_text().casefold()
    assert said.count("know" if lang == "en" else "sais pas") == 1
    assert answer.locator(".label").inner_text().casefold() == ("i don't know" if lang == "en" else "je ne sais pas")
    assert answer.locator(".rest").is_visible() and "3, 4" in answer.locator(".rest").inner_text()
    assert answer.locator("details").count() == 0


def test_the_api_headline_is_used_when_present(page, servers):
    enrich_answers(page, headline="Nine points.")
    _open(page, servers.api + "/")
    answer = ask(page, PAINTING_QUESTION)
    assert answer.locator(".headline").inner_text() == "Nine points."
    answer.locator("summary").click()
    assert "On its own the painting is worth" in answer.locator(".rest").inner_text()


def test_a_new_answer_shows_its_top_not_its_bottom(browser, servers):
    context = browser.new_context(viewport={"width": 390, "height": 420})  # a small phone screen
    page = context.new_page()
    other = {"answer": "Another reading of the question, with its own page.", "citations": []}
    enrich_answers(page, alternatives=[other] * 6)  # a tall answer: six "did you mean" chips
    _open(page, servers.api + "/")
    ask(page, UNKNOWN_QUESTION)
    answer = ask(page, PAINTING_QUESTION)
    page.wait_for_timeout(700)  # smooth scrolling
    log_box = page.locator(LOG).bounding_box()
    answer_box = answer.bounding_box()
    assert answer_box["height"] > log_box["height"]  # taller than the log: its bottom would hide its top
    assert log_box["y"] - 1 <= answer_box["y"] <= log_box["y"] + 20
    context.close()


def test_alternatives_are_chips_that_reveal_their_answer_by_keyboard(page, servers):
    long_reading = "You may paint when you hold three cards or more, " * 3 + "whatever the row shows."
    alternatives = [
        {"answer": "A painting uses 3 Art Cards. Stack them on a Background.", "citations": [
            {"page": 4, "section": "Complete a Painting", "lang": "en", "snippet": "Three cards.", "id": "a"}]},
        {"answer": "You hold at most 5 cards.", "citations": [
            {"page": 3, "section": "Hand limit", "lang": "en", "snippet": "Five cards.", "id": "b"}]},
        {"answer": long_reading, "citations": []},
    ]
    enrich_answers(page, alternatives=alternatives)
    _open(page, servers.api + "/")
    answer = ask(page, RULE_QUESTION)
    chips = answer.locator(".alts .alt")
    labels = chips.all_inner_texts()
    assert labels[:2] == ["A painting uses 3 Art Cards.", "You hold at most 5 cards."]
    assert labels[2].endswith("…") and len(labels[2]) <= 81 and long_reading.startswith(labels[2][:-1])
    assert answer.locator(".alts .label").inner_text().lower() == "did you mean"
    tab_to(page, "alt")
    page.keyboard.press("ArrowRight")  # arrows move along the row
    assert page.evaluate(
        "document.querySelector('rulesbot-chat').shadowRoot.activeElement.textContent"
    ) == "You hold at most 5 cards."
    page.keyboard.press("Enter")
    second = answer.locator(f"#{chips.nth(1).get_attribute('aria-controls')}")
    assert chips.nth(1).get_attribute("aria-expanded") == "true" and second.is_visible()
    assert second.locator(".chip").all_inner_texts() == ["p. 3"]
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Space")
    assert answer.locator(f"#{chips.nth(0).get_attribute('aria-controls')}").is_visible()
    page.watch.assert_clean()


# --- follow-ups, history, suggestions, copy ----------------------------------------------------------


def test_follow_ups_send_the_last_five_questions_newest_last(page, servers):
    _open(page, servers.api + "/")
    questions = [f"How many cards can I hold, take {number}?" for number in range(7)]
    start = len(servers.stub.bodies)
    for question in questions:
        ask(page, question)
    bodies = servers.stub.bodies[start:]
    assert [body["question"] for body in bodies] == questions
    assert "context" not in bodies[0]  # nothing to follow: no field
    assert bodies[1]["context"] == questions[:1]
    assert bodies[6]["context"] == questions[1:6]
    page.watch.assert_clean()


def test_an_elliptical_follow_up_is_answered_in_context(page, servers):
    """The widget's context reaches the core: "and with four?" after a ribbon question scores four ribbons."""
    from rulesbot.engine import canvas

    _open(page, servers.api + "/")
    ask(page, "How many points are 2 Repetition ribbons?")
    follow_up = ask(page, "and with four?")
    expected = canvas.points_for("repetition", 4)
    assert f"{expected} points" in follow_up.locator(".headline").inner_text()
    assert follow_up.get_attribute("data-kind") == "computed"
    page.watch.assert_clean()


def test_a_server_without_follow_ups_still_answers(page, servers):
    """Today's API refuses `context` (422): the widget asks again without it, and stops sending it."""
    seen = []

    def old_server(route):
        body = json.loads(route.request.post_data)
        seen.append(body)
        if "context" in body:
            error = {"error": {"code": "bad_input", "message": "context: unknown field"}}
            route.fulfill(status=422, content_type="application/json", body=json.dumps(error))
        else:
            route.continue_()

    page.route("**/v1/ask", old_server)
    _open(page, servers.api + "/")
    for question in ("How many cards can I hold?", "And with 5 cards?", "And in the last round?"):
        answer = ask(page, question)
        assert answer.get_attribute("data-kind") == "rule"
    assert ["context" in body for body in seen] == [False, True, False, False]
    assert page.locator("rulesbot-chat .msg.error").count() == 0


def test_history_survives_a_reload_and_new_conversation_clears_it(page, servers):
    _open(page, servers.api + "/")
    ask(page, RULE_QUESTION)
    ask(page, CLAIM_QUESTION)
    before = page.locator(LOG).inner_text()
    page.reload()
    page.locator(LAUNCHER).click()
    assert page.locator(ANSWERS).count() == 2
    assert page.locator(LOG).inner_text() == before
    assert page.locator("rulesbot-chat .suggestions").is_hidden()
    # The restored questions are the follow-up context of the next one.
    start = len(servers.stub.bodies)
    ask(page, "And with 5 cards?")
    assert servers.stub.bodies[start]["context"] == [RULE_QUESTION, CLAIM_QUESTION]
    page.locator("rulesbot-chat button.fresh").click()
    assert page.locator(ANSWERS).count() == 0
    assert page.locator("rulesbot-chat .suggestions").is_visible()
    assert shadow_focus(page) == "rulesbot-input"
    page.reload()
    page.locator(LAUNCHER).click()
    assert page.locator(ANSWERS).count() == 0
    assert page.evaluate("sessionStorage.length") == 0
    page.watch.assert_clean()


def test_history_off_keeps_nothing(page, servers):
    _open(page, servers.options_site + "/")  # data-history="off"
    ask(page, RULE_QUESTION)
    assert page.evaluate("sessionStorage.length") == 0
    page.reload()
    page.locator(LAUNCHER).click()
    assert page.locator(ANSWERS).count() == 0
    page.watch.assert_clean()


def test_suggested_questions_in_the_interface_language(page, servers):
    _open(page, servers.api + "/")
    suggestions = page.locator("rulesbot-chat .suggestion")
    english = suggestions.all_inner_texts()
    assert 3 <= len(english) <= 4
    page.locator(LAUNCHER).click()
    page.locator("button[data-set-lang=fr]").click()
    page.locator(LAUNCHER).click()
    french = suggestions.all_inner_texts()
    assert len(french) == len(english) and set(french).isdisjoint(english)
    suggestions.first.click()
    answer = page.locator(ANSWERS).first
    answer.wait_for()
    assert page.locator("rulesbot-chat .msg.user").first.inner_text().endswith(french[0])
    assert suggestions.first.is_hidden()
    page.watch.assert_clean()


def test_copy_puts_the_answer_and_its_pages_on_the_clipboard(browser, servers):
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    _open(page, servers.api + "/")
    answer = ask(page, RULE_QUESTION)
    answer.locator("button.copy").click()
    answer.locator("button.copy", has_text="Copied").wait_for()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == "You may hold at most 5 Art Cards; with 5 in hand you must complete a painting.\np. 3 — Turn"
    context.close()


# --- feedback ----------------------------------------------------------------------------------------


def test_feedback_votes_post_the_answer_id(page, servers):
    posted = []

    def feedback(route):
        posted.append(json.loads(route.request.post_data))
        route.fulfill(status=200, content_type="application/json", body='{"ok": true}')

    enrich_answers(page, id=lambda body: "ans-" + str(len(body["question"])))
    page.route("**/v1/feedback", feedback)
    _open(page, servers.api + "/")
    first = ask(page, RULE_QUESTION)
    first.locator("button.vote.up").click()
    first.locator(".thanks", has_text="Thanks").wait_for()
    assert first.locator("button.vote.up").get_attribute("aria-pressed") == "true"
    second = ask(page, CLAIM_QUESTION)
    second.locator("button.vote.down").click()
    assert shadow_focus(page).startswith("rb-comment-")  # focus went into the optional comment field
    comment = second.locator(".comment input")
    comment.fill("It should cite page 4.")
    comment.press("Enter")
    second.locator(".thanks", has_text="Thanks").wait_for()
    assert posted == [
        {"id": f"ans-{len(RULE_QUESTION)}", "vote": "up"},
        {"id": f"ans-{len(CLAIM_QUESTION)}", "vote": "down", "comment": "It should cite page 4."},
    ]
    page.watch.assert_clean()


def test_a_vote_in_the_widget_reaches_sqlite_and_the_site_owners_report(page, tmp_path, monkeypatch):
    """End to end: a real app with analytics on, a thumbs-down with a comment, then `rulesbot report`."""
    from typer.testing import CliRunner

    from rulesbot.api import create_app
    from rulesbot.cli import app as cli
    from rulesbot.settings import Settings

    settings = Settings(data_dir=tmp_path, analytics=True, rate_limit_per_minute=100_000)
    port = free_port()
    with serve(create_app(settings, bot=EngineFakeBot()), port) as api:
        _open(page, api + "/")
        answer = ask(page, CLAIM_QUESTION)
        with page.expect_response("**/v1/feedback") as response:
            answer.locator("button.vote.down").click()
            comment = answer.locator(".comment input")
            comment.fill("Wrong page cited.")
            comment.press("Enter")
        assert response.value.status == 202
        answer.locator(".thanks").wait_for()
    # The server has stopped (its analytics flushed and closed): the site owner reads the report.
    monkeypatch.setenv("RULESBOT_DATA_DIR", str(tmp_path))
    result = CliRunner().invoke(cli, ["report", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["totals"]["questions"] == 1 and report["totals"]["votes"] == {"up": 0, "down": 1}
    assert report["down_voted"] == [
        {"question": CLAIM_QUESTION, "lang": "en", "down_votes": 1, "comment": "Wrong page cited."}
    ]
    # Nothing about the asker: no address in any stored cell.
    import sqlite3

    with sqlite3.connect(tmp_path / "analytics.sqlite3") as connection:
        cells = [str(cell) for table in ("answers", "feedback") for row in connection.execute(f"SELECT * FROM {table}") for cell in row]
    assert not any("127.0.0.1" in cell for cell in cells)


def test_feedback_buttons_go_away_quietly_without_the_endpoint(page, servers):
    enrich_answers(page, id="ans-1")
    _open(page, servers.api + "/")  # the real server: no /v1/feedback yet (404)
    first = ask(page, RULE_QUESTION)
    ask(page, CLAIM_QUESTION)
    assert page.locator("rulesbot-chat button.vote").count() == 4
    with page.expect_response("**/v1/feedback") as response:
        first.locator("button.vote.up").click()
    assert response.value.status == 404
    page.locator("rulesbot-chat button.vote").first.wait_for(state="detached")
    assert page.locator("rulesbot-chat button.vote").count() == 0
    assert page.locator("rulesbot-chat .msg.error").count() == 0
    assert ask(page, RULE_QUESTION).locator("button.vote").count() == 0


# --- errors ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("status", [429, 503])
def test_a_busy_server_shows_a_countdown_and_keeps_the_question(page, servers, status):
    calls = []

    def busy(route):
        calls.append(time.monotonic())
        body = {"error": {"code": "rate_limited", "message": "too many requests: slow down"}}
        route.fulfill(status=status, content_type="application/json", body=json.dumps(body),
                      headers={"Retry-After": "2"})

    page.route("**/v1/ask", busy)
    _open(page, servers.api + "/")
    page.locator(INPUT).fill("How many cards?")
    page.locator(INPUT).press("Enter")
    error = page.locator("rulesbot-chat .msg.error")
    error.wait_for()
    assert ("Too many questions" if status == 429 else "starting up") in error.inner_text()
    assert page.locator(INPUT).input_value() == "How many cards?"  # the question is kept
    retry = error.locator("button.retry")
    assert error.locator(".countdown").inner_text() == "You can retry in 2 s."
    assert retry.is_disabled() and page.locator(SEND).is_disabled()
    page.locator(INPUT).press("Enter")  # no new request during the wait
    error.locator(".countdown").wait_for(state="detached", timeout=4000)
    assert len(calls) == 1
    assert retry.is_enabled() and page.locator(SEND).is_enabled()
    page.unroute("**/v1/ask")
    retry.click()
    page.locator(ANSWERS).first.wait_for()
    assert page.locator("rulesbot-chat .msg.error").count() == 0
    assert page.locator(INPUT).input_value() == ""  # the retried question left the field


@pytest.mark.parametrize(
    ("status", "expected"),
    [(422, "couldn't take that question (question: too odd)"), (500, "went wrong"), (0, "can't reach")],
    ids=["bad-input", "server", "network"],
)
def test_api_errors_are_friendly_keep_the_question_and_offer_a_retry(page, servers, status, expected):
    def fail(route):
        if status == 0:
            route.abort()
        else:
            body = {"error": {"code": "x", "message": "question: too odd"}}
            route.fulfill(status=status, content_type="application/json", body=json.dumps(body))

    page.route("**/v1/ask", fail)
    _open(page, servers.api + "/")
    page.locator(INPUT).fill("How many cards?")
    page.locator(SEND).click()
    error = page.locator("rulesbot-chat .msg.bot.error")
    error.wait_for()
    assert expected in error.inner_text()
    assert page.locator(INPUT).input_value() == "How many cards?"
    assert page.locator(SEND).is_enabled()  # ready for the next question
    page.unroute("**/v1/ask")
    error.locator("button.retry").click()
    assert "at most 5 Art Cards" in page.locator(ANSWERS).first.inner_text()


def test_a_long_question_is_counted_not_cut(page, servers):
    page.goto(servers.site + "/")  # data-max-chars="300"
    page.locator(LAUNCHER).click()
    counter = page.locator("rulesbot-chat .counter")
    page.locator(INPUT).fill("a" * 200)
    assert counter.is_hidden()
    page.locator(INPUT).fill("a" * 250)
    assert counter.inner_text() == "250 / 300" and "over" not in counter.get_attribute("class")
    pasted = "b" * 420
    page.locator(INPUT).fill(pasted)
    assert page.locator(INPUT).input_value() == pasted  # nothing cut silently
    assert counter.inner_text() == "420 / 300" and "over" in counter.get_attribute("class")
    assert page.locator(INPUT).get_attribute("aria-invalid") == "true"
    page.locator(INPUT).press("Enter")
    assert "300" in page.locator("rulesbot-chat .msg.error").inner_text()
    assert page.locator(INPUT).input_value() == pasted
    page.watch.assert_clean()


def test_a_growing_field_keeps_the_last_message_in_view(page, servers):
    _open(page, servers.api + "/")
    ask(page, RULE_QUESTION)
    last = ask(page, UNKNOWN_QUESTION)
    page.wait_for_timeout(700)  # smooth scrolling
    page.locator(INPUT).fill("How many cards? " * 30)
    page.wait_for_timeout(700)
    log_box = page.locator(LOG).bounding_box()
    last_box = last.bounding_box()
    assert last_box["y"] + last_box["height"] <= log_box["y"] + log_box["height"] + 1


def test_a_cors_refusal_gets_its_own_console_warning(page, servers):
    page.goto(servers.stranger + "/")  # an origin the API's RULESBOT_CORS_ORIGINS does not list
    page.locator(LAUNCHER).click()
    page.locator(INPUT).fill(RULE_QUESTION)
    page.locator(INPUT).press("Enter")
    page.locator("rulesbot-chat .msg.error").wait_for()
    deadline = time.monotonic() + 5
    while not any("RULESBOT_CORS_ORIGINS" in text for text in page.watch.warnings):
        assert time.monotonic() < deadline, page.watch.warnings
        page.wait_for_timeout(50)
    warning = next(text for text in page.watch.warnings if "RULESBOT_CORS_ORIGINS" in text)
    assert servers.stranger in warning


def test_a_network_failure_is_not_called_cors(page, servers):
    page.route("**/v1/ask", lambda route: route.abort())
    page.route("**/healthz", lambda route: route.abort())
    page.goto(servers.stranger + "/")
    page.locator(LAUNCHER).click()
    page.locator(INPUT).fill(RULE_QUESTION)
    page.locator(INPUT).press("Enter")
    page.locator("rulesbot-chat .msg.error").wait_for()
    page.wait_for_timeout(300)
    assert not any("CORS" in text for text in page.watch.warnings)


# --- keyboard, screen readers, phones --------------------------------------------------------------


def test_keyboard_only(page, servers):
    page.goto(servers.api + "/")
    page.locator(LAUNCHER).wait_for()
    tab_to(page, "launcher")
    launcher = page.locator(LAUNCHER)
    assert launcher.get_attribute("aria-expanded") == "false"
    page.keyboard.press("Enter")
    assert launcher.get_attribute("aria-expanded") == "true"
    assert page.locator(PANEL).is_visible()
    assert shadow_focus(page) == "rulesbot-input"  # focus moved into the panel
    assert page.locator("rulesbot-chat label[for=rulesbot-input]").inner_text() == "Your rules question"

    # Ask with Enter.
    page.keyboard.type(RULE_QUESTION)
    page.keyboard.press("Enter")
    page.locator(ANSWERS).first.wait_for()
    assert "at most 5 Art Cards" in page.locator(ANSWERS).first.inner_text()
    assert shadow_focus(page) == "rulesbot-input"

    # Ask with the Send button: focus comes back to the field, not to the page.
    page.keyboard.type(PAINTING_QUESTION)
    tab_to(page, "send")
    page.keyboard.press("Enter")
    page.locator(ANSWERS).nth(1).wait_for()
    assert shadow_focus(page) == "rulesbot-input"
    page.keyboard.type(CLAIM_QUESTION)
    tab_to(page, "send")
    page.keyboard.press("Space")
    page.locator(ANSWERS).nth(2).wait_for()
    assert shadow_focus(page) == "rulesbot-input"

    # Open a citation.
    tab_to(page, "chip")
    chip_id = _in_shadow(page, "root => root.activeElement.getAttribute('aria-controls')")
    page.keyboard.press("Enter")
    assert _in_shadow(page, f"root => !root.getElementById('{chip_id}').hidden")

    # The log scrolls from the keyboard: it takes focus, and the arrow keys move it.
    page.locator(LOG).focus()
    top = page.locator(LOG).evaluate("node => node.scrollTop")
    page.keyboard.press("Home")
    page.wait_for_timeout(400)
    assert page.locator(LOG).evaluate("node => node.scrollTop") < top
    assert page.locator(LOG).get_attribute("tabindex") == "0"

    page.keyboard.press("Escape")
    assert not page.locator(PANEL).is_visible()
    assert launcher.get_attribute("aria-expanded") == "false"
    assert shadow_focus(page) == "launcher"  # focus came back to the button
    page.watch.assert_clean()


def test_the_log_is_reached_with_tab(page, servers):
    _open(page, servers.api + "/")
    page.keyboard.press("Shift+Tab")
    for _ in range(6):
        if shadow_focus(page) == "log":
            break
        page.keyboard.press("Shift+Tab")
    assert shadow_focus(page) == "log"
    assert page.locator(LOG).get_attribute("aria-label") == "Conversation"


def test_screen_readers_hear_the_answer_once_the_log_is_no_longer_busy(page, servers):
    _open(page, servers.api + "/")
    _in_shadow(
        page,
        "root => { window.__said = []; const log = root.querySelector('.log');"
        " new MutationObserver(() => { const text = root.querySelector('.announcer').textContent;"
        " if (text) window.__said.push([text, log.getAttribute('aria-busy')]); })"
        ".observe(root.querySelector('.announcer'), {childList: true, characterData: true, subtree: true}); }",
    )
    ask(page, CLAIM_QUESTION)
    page.wait_for_function("() => window.__said.length > 0")
    assert page.evaluate("window.__said") == [["Answer: False. It is 11 points, not 9.", "false"]]
    assert page.locator("rulesbot-chat .announcer").get_attribute("role") == "status"
    assert page.locator(LOG).get_attribute("aria-live") == "off"  # the log itself does not speak twice


def test_on_a_phone_the_chat_is_full_screen_with_a_16px_field(browser, servers):
    context = browser.new_context(viewport={"width": 375, "height": 667}, is_mobile=True, has_touch=True)
    page = context.new_page()
    _open(page, servers.api + "/")
    page.wait_for_timeout(300)  # the opening animation
    box = page.locator(PANEL).bounding_box()
    assert (box["x"], box["y"], box["width"], box["height"]) == (0, 0, 375, 667)
    field = page.locator(INPUT)
    assert float(field.evaluate("node => getComputedStyle(node).fontSize").removesuffix("px")) >= 16
    # The placeholder fits in the field.
    fits = field.evaluate(
        "node => { const style = getComputedStyle(node); const context = document.createElement('canvas')"
        ".getContext('2d'); context.font = style.font; const room = node.clientWidth"
        " - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);"
        " return context.measureText(node.placeholder).width <= room; }"
    )
    assert fits
    assert page.locator(PANEL).get_attribute("aria-modal") == "true"
    # Tab cycles inside the full-screen chat: from the last control (Send) back to the first (new conversation).
    page.locator(INPUT).fill("How many cards?")
    tab_to(page, "send")
    page.keyboard.press("Tab")
    assert shadow_focus(page) == "fresh"
    page.keyboard.press("Shift+Tab")
    assert shadow_focus(page) == "send"
    assert page.locator(LAUNCHER).is_hidden()  # the close button in the header closes it
    page.locator("rulesbot-chat button.close").click()
    assert page.locator(LAUNCHER).is_visible() and shadow_focus(page) == "launcher"
    context.close()


def test_font_size_follows_the_users_default_not_the_pages_root(page, servers):
    page.goto(servers.site + "/hostile")  # html { font-size: 30px !important }
    page.locator(LAUNCHER).click()
    size = lambda: page.locator("rulesbot-chat .rb").evaluate("node => getComputedStyle(node).fontSize")  # noqa: E731
    assert size() == "15px"  # 0.9375 of the browser's default 16 px
    session = page.context.new_cdp_session(page)
    session.send("Page.setFontSizes", {"fontSizes": {"standard": 24}})
    page.reload()
    page.locator(LAUNCHER).click()
    assert size() == "22.5px"


def test_motion_is_dropped_for_users_who_ask(browser, servers):
    for motion, expected in (("reduce", "none"), ("no-preference", "rb-in")):
        context = browser.new_context(reduced_motion=motion)
        page = context.new_page()
        _open(page, servers.api + "/")
        assert page.locator(PANEL).evaluate("node => getComputedStyle(node).animationName") == expected
        context.close()


# --- isolation from the page -------------------------------------------------------------------------

_STYLE_SNAPSHOT = """
() => {
  const props = ['position', 'display', 'font-size', 'font-family', 'font-style', 'line-height', 'letter-spacing',
    'word-spacing', 'text-transform', 'text-align', 'color', 'background-color', 'box-sizing', 'width', 'height',
    'padding-top', 'margin-top', 'border-top-width', 'border-top-style', 'border-radius', 'opacity', 'transform',
    'filter', 'visibility', 'direction', 'white-space', 'cursor', 'z-index'];
  const host = document.querySelector('rulesbot-chat');
  const out = [];
  const walk = (root, path) => root.querySelectorAll('*').forEach((node, index) => {
    const style = getComputedStyle(node);
    out.push([path + node.tagName + '.' + (node.getAttribute('class') || '') + '#' + index,
      props.map(name => style.getPropertyValue(name))]);
    if (node.shadowRoot) walk(node.shadowRoot, path + node.tagName + '>');
  });
  const hostStyle = getComputedStyle(host);
  out.push(['host', props.map(name => hostStyle.getPropertyValue(name))]);
  const box = host.getBoundingClientRect();
  out.push(['host-box', [box.x, box.y, box.width, box.height].map(Math.round)]);
  walk(host.shadowRoot, '');
  return out;
}
"""


def test_a_hostile_pages_css_leaves_the_widget_unchanged(browser, servers):
    snapshots = []
    for path in ("/", "/hostile"):
        context = browser.new_context(viewport={"width": 1200, "height": 820})
        page = context.new_page()
        watch = Watch(page)
        _open(page, servers.site + path)
        answer = ask(page, PAINTING_QUESTION)
        answer.locator("summary").click()
        answer.locator(".chip").first.click()
        page.locator(INPUT).fill("Une question")
        page.wait_for_timeout(250)  # the opening animation is over
        snapshots.append(page.evaluate(_STYLE_SNAPSHOT))
        watch.assert_clean()
        context.close()
    plain, hostile = snapshots
    assert len(plain) > 100
    assert [name for name, _ in plain] == [name for name, _ in hostile]
    differences = [(name, a, b) for (name, a), (_, b) in zip(plain, hostile, strict=True) if a != b]
    assert differences == []


def test_theme_variables_are_validated(browser, servers):
    """A theme value that is not a colour is ignored; a light accent gets dark text (AA contrast)."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(servers.api + "/")
    page.locator(LAUNCHER).wait_for()
    page.evaluate(
        "() => { const host = document.querySelector('rulesbot-chat');"
        " host.style.setProperty('--rulesbot-accent', '#ffd54f'); host.style.setProperty('--rulesbot-fg', 'nope'); }"
    )
    launcher = page.locator(LAUNCHER)
    launcher.click()  # opening re-reads the theme (a site may switch its own theme at any time)
    assert launcher.evaluate("node => getComputedStyle(node).backgroundColor") == "rgb(255, 213, 79)"
    assert launcher.evaluate("node => getComputedStyle(node).color") == "rgb(20, 18, 28)"
    assert page.locator("rulesbot-chat .rb").evaluate("node => getComputedStyle(node).color") == "rgb(31, 27, 45)"
    context.close()


# --- the painting ------------------------------------------------------------------------------------


def _painting_facts(answer):
    return _painting_root(answer).evaluate(
        "node => { const root = node.shadowRoot;"
        " return { swatches: [...root.querySelectorAll('g[data-swatch]')].map(g => ({"
        "   colour: g.dataset.swatch, layer: g.dataset.layer,"
        "   icons: [...g.querySelectorAll('[data-icon]')].map(icon => icon.dataset.icon) })),"
        "  legendIcons: [...root.querySelectorAll('[data-legend-icon]')].map(li => li.textContent),"
        "  layers: [...root.querySelectorAll('.legend li[data-layer] span')].map(span => span.textContent),"
        "  spoken: [...root.querySelectorAll('ul.sr-only li')].map(li => li.textContent),"
        "  caption: root.querySelector('figcaption').textContent }; }"
    )


def test_the_painting_shows_each_cards_stripes_where_the_engine_layers_them(page, servers):
    from rulesbot.engine.canvas import SWATCH_COLOURS, Painting
    from rulesbot.engine.canvas.data import ELEMENT_NAMES

    cards = ["Chosen", "Game", "Truth"]
    painting = Painting.from_cards(cards)
    layer_of = {card_id: str(index + 1) for index, card_id in enumerate(painting.cards)}
    page.goto(servers.api + "/")
    page.locator("button[data-set-lang=fr]").click()
    page.locator(LAUNCHER).click()
    answer = ask(page, "Quel tableau donnent Chosen, Game et Truth ?")
    answer.locator("summary").click()
    facts = _painting_facts(answer)
    assert [swatch["colour"] for swatch in facts["swatches"]] == list(SWATCH_COLOURS)
    assert [swatch["icons"] for swatch in facts["swatches"]] == [list(icons) for icons in painting.visible]
    assert [swatch["layer"] for swatch in facts["swatches"]] == [
        layer_of[card_id] if card_id else "" for card_id in painting.shown_by
    ]
    # The legend names the cards bottom to top and every visible icon, in French (the engine's own names).
    assert facts["layers"] == ["1 · Chosen (dessous)", "2 · Game", "3 · Truth (dessus)"]
    visible_elements = {icon for icons in painting.visible for icon in icons}
    assert sorted(facts["legendIcons"]) == sorted(ELEMENT_NAMES[icon]["fr"].lower() for icon in visible_elements)
    assert facts["spoken"][0] == "rouge: forme, texture (montré par Chosen)"
    assert facts["caption"] == "Le tableau : Chosen Truth"
    page.watch.assert_clean()


def test_the_painting_stays_readable_in_forced_colours(browser, servers):
    context = browser.new_context(forced_colors="active")
    page = context.new_page()
    _open(page, servers.api + "/")
    answer = ask(page, PAINTING_QUESTION)
    answer.locator("summary").click()
    looks = _painting_root(answer).evaluate(
        "node => { const root = node.shadowRoot; const style = el => getComputedStyle(el);"
        " const stripe = root.querySelector('.stripe'); const cell = root.querySelector('.cell');"
        " const disc = root.querySelector('.disc'); const glyph = root.querySelector('.glyph');"
        " const tag = root.querySelector('.tag-text');"
        " return { stripeFill: style(stripe).fill, stripeStroke: style(stripe).stroke, cellFill: style(cell).fill,"
        "  cellStroke: style(cell).stroke, discFill: style(disc).fill, glyphStroke: style(glyph).stroke,"
        "  tagFill: style(tag).fill, hatch: root.querySelectorAll('pattern path').length }; }"
    )
    # Every shape keeps an outline in the text colour on the background colour, and the layers keep their
    # hatching and numbers: nothing depends on the swatch colours any more.
    assert looks["stripeFill"] != looks["stripeStroke"] and looks["stripeStroke"] != "none"
    assert looks["cellFill"] != looks["cellStroke"]
    assert looks["discFill"] != looks["glyphStroke"]
    assert looks["tagFill"] == looks["stripeStroke"] and looks["hatch"] > 0
    assert looks["cellFill"] != "rgb(201, 48, 44)"  # not the red swatch any more
    answer.locator("rulesbot-painting").scroll_into_view_if_needed()
    page.wait_for_timeout(400)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "widget-desktop-forced-colors-painting.png"))
    context.close()


def test_the_demo_page_scores_a_painting_with_the_same_picture(page, servers):
    from rulesbot.engine.canvas.api import score_request

    page.goto(servers.api + "/")
    page.locator("#score-form button[type=submit]").click()
    picture = page.locator("#score-result rulesbot-painting")
    picture.wait_for()
    picture.evaluate("node => node.shadowRoot.querySelector('figure')")
    expected = score_request({"cards": ["Chosen", "View", "Game"]})
    facts = _painting_facts(page.locator("#score-result"))
    assert [swatch["icons"] for swatch in facts["swatches"]] == expected["visible"]
    assert facts["caption"] == "The painting: " + expected["title"]
    assert facts["layers"] == ["Chosen (bottom)", "View", "Game (top)"]  # a score result doesn't say who shows what
    ribbons = page.locator(".score-ribbons").inner_text()
    assert all(f"{name} × {count}" in ribbons for name, count in expected["ribbons"].items() if count)
    page.locator("#score-form input").first.fill("Nope")
    page.locator("#score-form button[type=submit]").click()
    page.locator(".score-error").wait_for()
    # The refused card's 4xx response is logged by Chromium itself; anything else is still an error.
    page.watch.console_errors = [text for text in page.watch.console_errors if "status of 4" not in text]
    page.watch.assert_clean()


@pytest.mark.slow
def test_real_bot_answers_a_french_question(browser):
    """The real core (model and index) behind the real server: slow, so marked and skipped unless selected."""
    from rulesbot.api import create_app
    from rulesbot.settings import Settings

    app = create_app(Settings(rate_limit_per_minute=10_000))
    with serve(app, free_port()) as api:
        deadline = time.monotonic() + REAL_BOT_LOAD_SECONDS
        while (health := httpx.get(api + "/healthz").json())["status"] == "loading":
            assert time.monotonic() < deadline, "the real bot did not load in time"
            time.sleep(0.5)
        assert health["status"] == "ready", health
        context = browser.new_context(locale="fr-FR")
        page = context.new_page()
        watch = Watch(page)
        page.goto(api + "/")
        page.locator(LAUNCHER).click()
        answer = ask(page, "Combien de cartes peut-on avoir en main ?")
        chips = answer.locator(".chip").all_inner_texts()
        assert chips and all(chip.startswith("p. ") for chip in chips)
        assert answer.get_attribute("lang") == "fr"
        watch.assert_clean()
        context.close()
