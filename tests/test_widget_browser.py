"""The widget end to end in real headless Chromium (Playwright for Python, the system /usr/bin/chromium).

A real uvicorn server on a free loopback port serves the API (with the fake bot), the widget and the demo page;
a second server on another port plays a third-party rules site that embeds the widget with one tag under a
strict Content-Security-Policy. Any CSP violation or console error fails the test. A screenshot is saved to
artifacts/widget.png. Never runs `playwright install`: without /usr/bin/chromium the tests skip.
"""

import json
import os
import socket
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from fakes import FakeRulesbot

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
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

LAUNCHER = "rulesbot-chat button.launcher"
PANEL = "rulesbot-chat .panel"
INPUT = "rulesbot-chat input"
ANSWERS = "rulesbot-chat .msg.bot[data-kind]"


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def _serve(app, port: int):
    """Run `app` under uvicorn in a thread on 127.0.0.1:port until the block ends."""
    import uvicorn

    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", access_log=False)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name=f"uvicorn-{port}", daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError(f"uvicorn did not start on port {port}")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def _site_app(api: str):
    """A third-party rules site: its own origin, a strict CSP that allows only the widget's origin."""
    from fastapi import FastAPI
    from fastapi.responses import Response

    csp = (
        f"default-src 'self'; script-src 'self' {api}; style-src 'self'; connect-src {api}; "
        "img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
    )
    html = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A rules site</title>
<link rel="icon" href="data:,"><link rel="stylesheet" href="/site.css"></head>
<body><h1>House rules</h1><p>Our club's notes on Canvas.</p>
<script src="{api}/widget.js" data-game="canvas" data-lang="fr" data-max-chars="300" async></script>
</body></html>"""
    # The site's CSS must not leak into the widget, and its custom properties theme it.
    css = "button { background: lime !important; font-size: 40px; } :root { --rulesbot-accent: rgb(200, 0, 0); }"
    site = FastAPI()

    @site.get("/")
    def page() -> Response:
        return Response(html, media_type="text/html", headers={"Content-Security-Policy": csp})

    @site.get("/site.css")
    def stylesheet() -> Response:
        return Response(css, media_type="text/css")

    return site


@pytest.fixture(scope="module")
def servers():
    """(api, site) base URLs: the rulesbot app with the fake bot, and a site allowed by its CORS list."""
    from rulesbot.api import create_app
    from rulesbot.settings import Settings

    api_port, site_port = _free_port(), _free_port()
    site_origin = f"http://127.0.0.1:{site_port}"
    # Module scope: the servers are read-only for these tests. A high limit: the tests ask many questions.
    settings = Settings(rate_limit_per_minute=100_000, cors_origins=[site_origin])
    app = create_app(settings, bot=FakeRulesbot())
    with _serve(app, api_port) as api, _serve(_site_app(api), site_port) as site:
        yield api, site


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for the module (launching it is the slow part)."""
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


class _Watch:
    """Console errors and CSP violations seen by a page."""

    def __init__(self, page):
        self.page = page
        self.console_errors: list[str] = []
        page.on("console", self._on_console)
        page.on("pageerror", lambda error: self.console_errors.append(f"pageerror: {error}"))
        # Init scripts run through the DevTools protocol, outside the page's CSP.
        page.add_init_script(
            "window.__csp = [];"
            "document.addEventListener('securitypolicyviolation',"
            " e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI), true);"
        )

    def _on_console(self, message):
        if message.type == "error" or "Content Security Policy" in message.text:
            self.console_errors.append(message.text)

    def assert_clean(self):
        violations = self.page.evaluate("window.__csp || []")
        assert violations == [], violations
        assert self.console_errors == [], self.console_errors


@pytest.fixture
def page(browser):
    """A fresh context per test (no shared state), English locale, desktop size."""
    context = browser.new_context(locale="en-US", viewport={"width": 1200, "height": 820})
    new_page = context.new_page()
    new_page.set_default_timeout(10_000)
    new_page.watch = _Watch(new_page)
    yield new_page
    context.close()


def _ask(page, question: str):
    """Type a question, send it with Enter, return the new answer bubble."""
    before = page.locator(ANSWERS).count()
    page.locator(INPUT).fill(question)
    page.locator(INPUT).press("Enter")
    answer = page.locator(ANSWERS).nth(before)
    answer.wait_for()
    return answer


def _shadow_focus(page) -> str:
    """The class of the focused element inside the widget's shadow root ('' if focus is elsewhere)."""
    return page.evaluate(
        "() => { const host = document.querySelector('rulesbot-chat');"
        " const active = host && host.shadowRoot.activeElement; return active ? active.className || active.id : ''; }"
    )


def test_demo_page_french_question_gets_a_french_answer_with_its_page_chip(page, servers):
    api, _site = servers
    response = page.goto(api + "/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.locator(LAUNCHER).click()
    # Without data-max-chars the widget's limit is the server's default one.
    from rulesbot.settings import Settings

    default_limit = Settings.model_fields["max_question_chars"].default
    assert page.locator(INPUT).evaluate("node => node.maxLength") == default_limit
    answer = _ask(page, "Combien de cartes puis-je avoir en main ?")
    assert "cartes Art en main" in answer.locator("p.text").inner_text()
    assert answer.locator("p.text").get_attribute("lang") == "fr"
    assert answer.locator(".chip").all_inner_texts() == ["p. 3"]
    assert answer.get_attribute("data-kind") == "rule"
    page.watch.assert_clean()


def test_claims_painting_unknown_and_screenshot(page, servers):
    api, _site = servers
    page.goto(api + "/")
    page.locator("button[data-set-lang=fr]").click()  # the widget's interface follows <html lang>
    assert page.locator(LAUNCHER).get_attribute("aria-label") == "Poser une question de règles"
    page.locator(LAUNCHER).click()

    unknown = _ask(page, "Que dit la règle xyzzy ?")
    assert "unknown" in unknown.get_attribute("class")
    assert unknown.locator(".label").inner_text().lower() == "je ne sais pas"
    assert unknown.locator(".chip").count() == 0

    # The claims and the painting come last so the screenshot shows them.
    claim = _ask(page, "Vrai ou faux : la carte la plus éloignée de la pioche est gratuite ?")
    assert claim.locator(".badge.true").inner_text() == "Vrai"
    refuted = _ask(page, "Vrai ou faux : prendre la troisième carte ne coûte rien ?")
    assert refuted.locator(".badge.false").inner_text() == "Faux"

    painting = _ask(page, "Quel tableau donnent Chosen, Game et Truth ?")
    swatches = painting.locator(".swatch")
    assert swatches.count() == 5
    assert painting.locator(".icon[data-icon]").count() == 7  # shape+texture, shape, shape, hue+shape, shape
    spoken = swatches.locator(".sr-only").all_inner_texts()
    assert spoken[0] == "rouge: forme, texture" and spoken[3] == "bleu: teinte, forme"
    assert "Chosen Truth" in painting.locator("figcaption").inner_text()
    assert painting.locator(".chip").all_inner_texts() == ["p. 3", "p. 4"]
    background = swatches.nth(0).evaluate("node => getComputedStyle(node).backgroundColor")
    assert (
        background == "rgb(201, 48, 44)"
    )  # styles applied: the constructable stylesheet works under the CSP

    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "widget.png"))
    page.watch.assert_clean()


def test_keyboard_only(page, servers):
    api, _site = servers
    page.goto(api + "/")
    page.locator(LAUNCHER).wait_for()
    for _ in range(20):  # the language buttons come first in the tab order
        page.keyboard.press("Tab")
        if _shadow_focus(page) == "launcher":
            break
    assert _shadow_focus(page) == "launcher"
    launcher = page.locator(LAUNCHER)
    assert launcher.get_attribute("aria-expanded") == "false"

    page.keyboard.press("Enter")
    assert launcher.get_attribute("aria-expanded") == "true"
    assert page.locator(PANEL).is_visible()
    assert _shadow_focus(page) == "rulesbot-input"  # focus moved into the panel
    assert page.locator("rulesbot-chat .log").get_attribute("aria-live") == "polite"
    assert page.locator("rulesbot-chat label[for=rulesbot-input]").inner_text() == "Your rules question"

    page.keyboard.type("How many cards can I hold?")
    page.keyboard.press("Enter")
    answer = page.locator(ANSWERS).first
    answer.wait_for()
    assert "at most 5 Art Cards" in answer.inner_text()

    page.keyboard.press("Escape")
    assert not page.locator(PANEL).is_visible()
    assert launcher.get_attribute("aria-expanded") == "false"
    assert _shadow_focus(page) == "launcher"  # focus came back to the button
    page.watch.assert_clean()


def test_third_party_site_with_a_strict_csp_embeds_it_with_one_tag(page, servers):
    api, site = servers
    page.goto(site + "/")
    launcher = page.locator(LAUNCHER)
    launcher.wait_for()
    # Themed by the site's custom property; untouched by the site's `button { ... !important }` rule.
    assert launcher.evaluate("node => getComputedStyle(node).backgroundColor") == "rgb(200, 0, 0)"
    assert launcher.evaluate("node => getComputedStyle(node).fontSize") != "40px"
    # data-lang="fr": French interface on an English page, and French answers.
    assert launcher.get_attribute("aria-label") == "Poser une question de règles"
    launcher.click()
    # data-max-chars: the site's own question limit (the demo page keeps the server's default).
    assert page.locator(INPUT).evaluate("node => node.maxLength") == 300
    answer = _ask(page, "How many cards can I hold?")
    assert answer.locator("p.text").get_attribute("lang") == "fr"
    assert answer.locator(".chip").all_inner_texts() == ["p. 3"]
    assert page.evaluate("document.cookie") == ""
    assert page.evaluate("localStorage.length") == 0
    page.watch.assert_clean()


def test_api_docs_render_offline_under_their_csp(page, servers):
    api, _site = servers
    page.goto(api + "/docs")
    # Swagger UI draws the API's title and its endpoints from /openapi.json, with no CDN and no CSP violation.
    page.locator(".swagger-ui .info .title").wait_for()
    assert "rulesbot" in page.locator(".swagger-ui .info .title").inner_text()
    page.locator(".opblock-summary-path", has_text="/v1/ask").first.wait_for()
    page.watch.assert_clean()


def test_dark_color_scheme(browser, servers):
    api, _site = servers
    context = browser.new_context(color_scheme="dark")
    page = context.new_page()
    page.goto(api + "/")
    page.locator(LAUNCHER).click()
    panel_background = page.locator(PANEL).evaluate("node => getComputedStyle(node).backgroundColor")
    assert panel_background == "rgb(28, 26, 35)"
    context.close()


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        (429, "Too many questions"),
        (422, "couldn't take that question (question: too odd)"),
        (0, "can't reach"),
    ],
    ids=["rate-limited", "bad-input", "network"],
)
def test_api_errors_are_friendly_messages(page, servers, status, expected):
    api, _site = servers

    def fail(route):
        if status == 0:
            route.abort()
        else:
            body = {"error": {"code": "x", "message": "question: too odd"}}
            route.fulfill(status=status, content_type="application/json", body=json.dumps(body))

    page.route("**/v1/ask", fail)
    page.goto(api + "/")
    page.locator(LAUNCHER).click()
    page.locator(INPUT).fill("How many cards?")
    page.locator(INPUT).press("Enter")
    error = page.locator("rulesbot-chat .msg.bot.error")
    error.wait_for()
    assert expected in error.inner_text()
    assert page.locator("rulesbot-chat button.send").is_enabled()  # ready for the next question


@pytest.mark.slow
def test_real_bot_answers_a_french_question(browser):
    """The real core (model and index) behind the real server: slow, so marked and skipped unless selected."""
    from rulesbot.api import create_app
    from rulesbot.settings import Settings

    app = create_app(Settings(rate_limit_per_minute=10_000))
    with _serve(app, _free_port()) as api:
        deadline = time.monotonic() + REAL_BOT_LOAD_SECONDS
        while (health := httpx.get(api + "/healthz").json())["status"] == "loading":
            assert time.monotonic() < deadline, "the real bot did not load in time"
            time.sleep(0.5)
        assert health["status"] == "ready", health
        context = browser.new_context(locale="fr-FR")
        page = context.new_page()
        watch = _Watch(page)
        page.goto(api + "/")
        page.locator(LAUNCHER).click()
        answer = _ask(page, "Combien de cartes peut-on avoir en main ?")
        chips = answer.locator(".chip").all_inner_texts()
        assert chips and all(chip.startswith("p. ") for chip in chips)
        assert answer.locator("p.text").get_attribute("lang") == "fr"
        watch.assert_clean()
        context.close()
