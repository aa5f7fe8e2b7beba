"""The widget host and the API documentation: widget.js and the demo page from package data, Swagger UI at /docs
from the swagger-ui-bundle package (no CDN: it works offline), each under its own Content-Security-Policy."""

import base64
import hashlib
import re
from importlib import resources
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import Response

# The demo page runs under the strictest policy the widget supports, which proves a site can use it too.
DEMO_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
# /docs is Swagger UI served from the swagger-ui-bundle package (no CDN: it works offline); its one inline
# script is allowed by hash, its inline styles by 'unsafe-inline' (Swagger UI sets style attributes).
DOCS_CSP = (
    "default-src 'self'; script-src 'self' '{script_hash}'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
DOCS_ASSETS = {
    "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
    "swagger-ui.css": "text/css; charset=utf-8",
    "favicon-32x32.png": "image/png",
}


def add_static_routes(app: FastAPI) -> None:
    """The widget's files and the demo page, from the rulesbot.widget package data."""
    files = resources.files("rulesbot.widget")
    assets = {
        "/widget.js": ("widget.js", "text/javascript; charset=utf-8"),
        "/demo.js": ("demo.js", "text/javascript; charset=utf-8"),
        "/demo.css": ("demo.css", "text/css; charset=utf-8"),
    }
    for path, (name, media_type) in assets.items():
        _add_asset_route(app, path, files.joinpath(name).read_bytes(), media_type)
    demo = files.joinpath("demo.html").read_bytes()

    @app.get("/", include_in_schema=False)
    async def demo_page() -> Response:
        """The demo rules page for Canvas, with the widget on it."""
        headers = {
            "Content-Security-Policy": DEMO_CSP,
            "X-Frame-Options": "DENY",
            "Cache-Control": "no-cache",
        }
        return Response(demo, media_type="text/html; charset=utf-8", headers=headers)


def add_docs_routes(app: FastAPI) -> None:
    """Swagger UI at /docs, its files from the swagger-ui-bundle package, under a CSP."""
    from fastapi.openapi.docs import get_swagger_ui_html
    from swagger_ui_bundle import swagger_ui_path

    for name, media_type in DOCS_ASSETS.items():
        _add_asset_route(app, f"/docs/assets/{name}", (Path(swagger_ui_path) / name).read_bytes(), media_type)
    page = get_swagger_ui_html(
        openapi_url=app.openapi_url,
        title=f"{app.title} API",
        swagger_js_url="/docs/assets/swagger-ui-bundle.js",
        swagger_css_url="/docs/assets/swagger-ui.css",
        swagger_favicon_url="/docs/assets/favicon-32x32.png",
    ).body
    inline = re.findall(rb"<script>(.*?)</script>", page, flags=re.DOTALL)
    digest = base64.b64encode(hashlib.sha256(inline[-1]).digest()).decode() if inline else ""
    headers = {"Content-Security-Policy": DOCS_CSP.format(script_hash=f"sha256-{digest}"), "Cache-Control": "no-cache"}

    @app.get("/docs", include_in_schema=False)
    async def docs() -> Response:
        """The interactive API documentation (Swagger UI)."""
        return Response(page, media_type="text/html; charset=utf-8", headers=headers)


def _add_asset_route(app: FastAPI, path: str, content: bytes, media_type: str) -> None:
    etag = '"' + hashlib.sha256(content).hexdigest()[:20] + '"'

    async def asset(request: Request) -> Response:
        headers = {"ETag": etag, "Cache-Control": "public, max-age=300"}
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers=headers)
        return Response(content, media_type=media_type, headers=headers)

    app.add_api_route(path, asset, methods=["GET"], include_in_schema=False, name=path.strip("/"))
