"""Shared pieces of the widget's browser tests: servers, the browser, a test bot, page helpers.

A real uvicorn server on a free loopback port serves the API, the widget and the demo page; other servers play
third-party rules sites that embed the widget with one tag under a strict Content-Security-Policy (one allowed by
the API's CORS list, one not). The API is wrapped in `AskRecorder`, which records each `POST /v1/ask` body (the
widget's `context` included) so the tests can check what the widget sent. The bot is the fake one, except that questions the rules engine can compute get the real
engine's answer (`rulesbot.compute.answer_computed`: the long computed text, the painting's layers), with
citations given out of page order so the tests see the widget sort them.
"""

import json
import socket
import threading
import time
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from fakes import FakeRulesbot

from rulesbot.models import Citation

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]
ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "artifacts"
AXE = Path(__file__).resolve().parent / "browser" / "node_modules" / "axe-core" / "axe.min.js"
RULEBOOK_URL = "https://rules.example/canvas-rulebook.pdf"

LAUNCHER = "rulesbot-chat button.launcher"
PANEL = "rulesbot-chat .panel"
INPUT = "rulesbot-chat textarea"
SEND = "rulesbot-chat button.send"
LOG = "rulesbot-chat .log"
ANSWERS = "rulesbot-chat .msg.bot[data-kind]"

# Questions that reach each answer kind (see tests/fakes.py and EngineFakeBot).
RULE_QUESTION = "How many cards can I hold?"
CLAIM_QUESTION = "3 green ribbons are worth 9 points, right?"
PAINTING_QUESTION = "What does the painting Chosen, Game, Truth score?"
UNKNOWN_QUESTION = "What does the xyzzy rule say?"
# Questions about ribbons, and the fake's painting questions, go to the real engine; the fake answers the rest.
_ENGINE_WORDS = ("ribbon", "ruban")


class EngineFakeBot(FakeRulesbot):
    """The fake bot, with the real engine's computed answers (and out-of-order citations) for engine questions."""

    def ask(self, question: str, lang: str | None = None, game: str | None = None, context=None):
        """The real computed answer for an engine question (in its context), else the fake's canned one."""
        answer = super().ask(question, lang, game)
        if answer.kind != "computed" and not context and not any(word in question.casefold() for word in _ENGINE_WORDS):
            return answer
        from rulesbot.compute import answer_computed

        computed = answer_computed(None, question, answer.lang, canvas_pack(), context or ())
        if computed is None:
            return answer
        snippet = computed.answer.split(". ")[0][:80]
        citations = [
            Citation(page=4, section="Complete a Painting", lang=answer.lang, snippet=snippet, id="canvas.p4"),
            Citation(page=3, section="Take an Art Card", lang=answer.lang, snippet="The free card.", id="canvas.p3"),
            Citation(page=4, section="Scoring Cards", lang=answer.lang, snippet="Ribbons.", id="canvas.p4b"),
        ]
        from rulesbot.finishing import finish_answer

        return finish_answer(computed.model_copy(update={"citations": citations}), game=game or "canvas")


class AskRecorder:
    """ASGI wrapper: records each POST /v1/ask body (the widget's `context` included) and passes it on."""

    def __init__(self, app):
        self.app = app
        self.bodies: list[dict] = []

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["path"] != "/v1/ask" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        chunks = []
        while True:
            message = await receive()
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        raw = b"".join(chunks)
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        if isinstance(body, dict):
            self.bodies.append(dict(body))
        sent = False

        async def replay():
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": raw, "more_body": False}
            return await receive()

        headers = [(k, v) for k, v in scope["headers"] if k != b"content-length"]
        headers.append((b"content-length", str(len(raw)).encode()))
        await self.app({**scope, "headers": headers}, replay, send)


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def serve(app, port: int):
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


# A page's own stylesheet that tries everything to reach into the widget (the isolation test compares the
# widget's computed styles with and without it). Theme variables with values that are not what they claim
# to be must be ignored, so the widget looks exactly as with the plain site's stylesheet.
HOSTILE_CSS = """
* { position: static !important; box-sizing: content-box !important; font-size: 31px !important;
    line-height: 3 !important; letter-spacing: 3px !important; color: lime !important;
    text-transform: uppercase !important; font-family: fantasy !important; word-spacing: 9px !important;
    font-style: italic !important; text-align: right !important; visibility: visible; }
html { font-size: 30px !important; }
body { direction: rtl; white-space: pre; cursor: wait; }
rulesbot-chat { display: inline !important; transform: scale(.5) !important; opacity: .3 !important;
    filter: blur(2px) !important; margin: 40px !important; padding: 30px !important; width: 10px !important;
    height: 10px !important; border: 9px solid red !important; background: yellow !important;
    left: 0 !important; top: 0 !important; z-index: 1 !important; }
button, textarea, input { background: lime !important; border: 5px dotted red !important; font-size: 40px !important; }
:root { --rulesbot-fg: javascript; --rulesbot-bg: rgba(0, 0, 0, 0); --rulesbot-font: 1px;
    --rulesbot-radius: url(x); --_accent: red; --_bg: red; }
"""
SITE_CSS = ":root { --rulesbot-accent: rgb(200, 0, 0); }"


def site_app(api: str, script_attributes: str):
    """A third-party rules site: its own origin and a strict CSP that allows only the widget's origin.

    `/` embeds the widget with `script_attributes`; `/hostile` is the same page plus HOSTILE_CSS.
    """
    from fastapi import FastAPI
    from fastapi.responses import Response

    csp = (
        f"default-src 'self'; script-src 'self' {api}; style-src 'self'; connect-src {api}; "
        "img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
    )

    def html(extra_css: str) -> str:
        return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A rules site</title>
<link rel="icon" href="data:,"><link rel="stylesheet" href="/site.css">{extra_css}</head>
<body><main><h1>House rules</h1><p>Our club's notes on Canvas.</p></main>
<script src="{api}/widget.js" {script_attributes} async></script>
</body></html>"""

    site = FastAPI()

    @site.get("/")
    def page() -> Response:
        return Response(html(""), media_type="text/html", headers={"Content-Security-Policy": csp})

    @site.get("/hostile")
    def hostile_page() -> Response:
        extra = '<link rel="stylesheet" href="/hostile.css">'
        return Response(html(extra), media_type="text/html", headers={"Content-Security-Policy": csp})

    @site.get("/site.css")
    def stylesheet() -> Response:
        return Response(SITE_CSS, media_type="text/css")

    @site.get("/hostile.css")
    def hostile_stylesheet() -> Response:
        return Response(HOSTILE_CSS, media_type="text/css")

    return site


class Watch:
    """Console errors and CSP violations seen by a page; console warnings too (the CORS hint is one)."""

    def __init__(self, page):
        self.page = page
        self.console_errors: list[str] = []
        self.warnings: list[str] = []
        page.on("console", self._on_console)
        page.on("pageerror", lambda error: self.console_errors.append(f"pageerror: {error}"))
        # Init scripts run through the DevTools protocol, outside the page's CSP.
        page.add_init_script(
            "window.__csp = [];"
            "document.addEventListener('securitypolicyviolation',"
            " e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI), true);"
        )

    def _on_console(self, message):
        if message.type == "warning":
            self.warnings.append(message.text)
        if message.type == "error" or "Content Security Policy" in message.text:
            self.console_errors.append(message.text)

    def assert_clean(self):
        """No CSP violation, no console error, no uncaught exception."""
        violations = self.page.evaluate("window.__csp || []")
        assert violations == [], violations
        assert self.console_errors == [], self.console_errors


def ask(page, question: str):
    """Type a question, send it with Enter, return the new answer bubble."""
    before = page.locator(ANSWERS).count()
    page.locator(INPUT).fill(question)
    page.locator(INPUT).press("Enter")
    answer = page.locator(ANSWERS).nth(before)
    answer.wait_for()
    return answer


def shadow_focus(page) -> str:
    """The class (or id) of the focused element inside the widget's shadow root ('' if focus is elsewhere)."""
    return page.evaluate(
        "() => { const host = document.querySelector('rulesbot-chat');"
        " const active = host && host.shadowRoot.activeElement;"
        " return active ? (active.className || active.id || active.tagName.toLowerCase()) : ''; }"
    )


def tab_to(page, wanted, limit: int = 80) -> None:
    """Press Tab until the widget's focused element's class contains `wanted` (or fail)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if wanted in shadow_focus(page).split():
            return
    raise AssertionError(f"Tab never reached .{wanted} (focus on {shadow_focus(page)!r})")


def enrich_answers(page, **extra):
    """Route /v1/ask through the real server and add fields the API is about to gain (id, headline, …)."""

    def handle(route):
        response = route.fetch()
        body = response.json()
        if response.status == 200:
            for key, value in extra.items():
                body[key] = value(body) if callable(value) else value
        route.fulfill(response=response, body=json.dumps(body), content_type="application/json")

    page.route("**/v1/ask", handle)


@lru_cache(maxsize=1)
def canvas_pack():
    """The shipped Canvas pack (loaded once)."""
    from rulesbot.knowledge import load_packs

    return load_packs()["canvas"]
