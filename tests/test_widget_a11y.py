"""Accessibility of the demo page with the widget, checked by axe-core in real Chromium, and the screenshots.

axe-core is pinned in tests/browser/package.json and installed there by `npm ci` (.ci/run does it); the test
injects it from node_modules with `add_script_tag(path=...)`, no CDN. Its contexts bypass the page's CSP, which
would block an injected script: the CSP itself is tested in test_widget_browser.py. For each colour scheme
(light, dark) and viewport (desktop, phone), axe runs on the page with the chat open, then after a rule answer,
a claim, a painting answer (details and a citation open), an "I don't know" and an over-long question, and
must report no WCAG 2.x A/AA violation. Each state is saved as artifacts/widget-<viewport>-<scheme>-<state>.png.
"""

import os

import pytest
from widget_harness import (
    ARTIFACTS,
    AXE,
    CHROMIUM,
    CHROMIUM_ARGS,
    CLAIM_QUESTION,
    INPUT,
    LAUNCHER,
    PAINTING_QUESTION,
    RULE_QUESTION,
    UNKNOWN_QUESTION,
    EngineFakeBot,
    ask,
    enrich_answers,
    free_port,
    serve,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
    pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (cd tests/browser && npm ci)"),
]
sync_api = pytest.importorskip("playwright.sync_api", reason="the browser extra (playwright) is not installed")

VIEWPORTS = {"desktop": {"width": 1200, "height": 820}, "mobile": {"width": 390, "height": 780}}
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
ALTERNATIVES = [
    {"answer": "A painting uses 3 Art Cards.", "citations": [
        {"page": 4, "section": "Complete a Painting", "lang": "en", "snippet": "Three cards.", "id": "a"}]},
]


@pytest.fixture(scope="module")
def api():
    """The API with the test bot (real engine answers for computed questions)."""
    from rulesbot.api import create_app
    from rulesbot.settings import Settings

    app = create_app(Settings(rate_limit_per_minute=100_000), bot=EngineFakeBot())
    with serve(app, free_port()) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for the module."""
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


def _axe_violations(page) -> list[str]:
    """axe-core's WCAG violations on the whole page (shadow roots included), one line each."""
    page.wait_for_timeout(350)  # the opening animation (a fading panel has no contrast yet) and smooth scrolling
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    results = page.evaluate(
        "tags => axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] })",
        AXE_TAGS,
    )
    return [
        f"{violation['id']}: {node['target']} {node.get('failureSummary', '')}"
        for violation in results["violations"]
        for node in violation["nodes"]
    ]


def _shoot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"widget-{name}.png"))


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", ["desktop", "mobile"])
def test_no_axe_violation_in_any_answer_state(browser, api, scheme, viewport):
    context = browser.new_context(
        color_scheme=scheme, viewport=VIEWPORTS[viewport], bypass_csp=True, locale="en-US",
        is_mobile=viewport == "mobile", has_touch=viewport == "mobile",
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    # Answers as the API will send them: an id (so the feedback buttons show) and, once, alternatives.
    enrich_answers(page, id="answer-1", alternatives=lambda body: ALTERNATIVES if body["kind"] == "rule" else [])
    page.goto(api + "/")
    assert _axe_violations(page) == []  # the demo page itself, chat closed
    page.locator(LAUNCHER).click()
    page.locator(INPUT).wait_for()
    name = f"{viewport}-{scheme}"
    found = {"open": _axe_violations(page)}
    _shoot(page, f"{name}-open")

    ask(page, RULE_QUESTION)
    found["rule"] = _axe_violations(page)
    _shoot(page, f"{name}-rule")

    ask(page, CLAIM_QUESTION)
    found["claim"] = _axe_violations(page)
    _shoot(page, f"{name}-claim")

    painting = ask(page, PAINTING_QUESTION)
    painting.locator("summary").click()
    painting.locator(".chip").first.click()
    painting.locator("rulesbot-painting").scroll_into_view_if_needed()
    found["painting"] = _axe_violations(page)
    _shoot(page, f"{name}-painting")

    ask(page, UNKNOWN_QUESTION)
    found["unknown"] = _axe_violations(page)
    _shoot(page, f"{name}-unknown")

    page.locator(INPUT).fill("How many cards? " * 32)  # over the limit: the counter, the field marked invalid
    found["too-long"] = _axe_violations(page)
    _shoot(page, f"{name}-too-long")
    context.close()
    assert found == {state: [] for state in found}


def test_no_axe_violation_in_french_and_on_the_score_form(browser, api):
    context = browser.new_context(viewport=VIEWPORTS["desktop"], bypass_csp=True, locale="fr-FR")
    page = context.new_page()
    page.goto(api + "/")
    page.locator("#score-form button[type=submit]").click()
    page.locator("#score-result rulesbot-painting").wait_for()
    page.locator("#score-result").scroll_into_view_if_needed()
    assert _axe_violations(page) == []
    _shoot(page, "demo-score-fr")
    page.locator(LAUNCHER).click()
    ask(page, "Quel tableau donnent Chosen, Game et Truth ?").locator("summary").click()
    assert _axe_violations(page) == []
    _shoot(page, "desktop-light-painting-fr")
    context.close()
