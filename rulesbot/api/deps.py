"""The routes' dependencies: the settings, the loaded bot (503 while it loads) and the client's address.

They are `async def` only so FastAPI calls them inline: a sync one costs a threadpool hop on every request, which is
most of the time of a cached answer. Tests override them (`app.dependency_overrides[get_bot] = ...`).
"""

from typing import Annotated, Any

from fastapi import Depends, Request

from rulesbot.api.errors import ServiceLoading
from rulesbot.api.limits import client_address
from rulesbot.settings import Settings


async def get_api_settings(request: Request) -> Settings:
    """The app's settings (a dependency, so tests can override it)."""
    return request.app.state.settings


async def get_bot(request: Request) -> Any:
    """The loaded `Rulesbot`, or a 503 while it loads (a dependency, so tests can swap in a fake)."""
    bot = request.app.state.bot
    if bot is None:
        error = request.app.state.load_error
        message = "the rules index is still loading" if error is None else "the rules index failed to load"
        raise ServiceLoading(message)
    return bot


async def get_client(request: Request) -> str:
    """The client's address for rate limiting: the peer, or what a trusted proxy says it forwards for."""
    return client_address(request.scope, request.app.state.trusted_proxies)


async def get_analytics(request: Request) -> Any:
    """The open analytics store: 404 when analytics are off (before the body is validated: the endpoint does not
    exist then), 503 when they are on but the database could not be opened."""
    from rulesbot.api.insights import require_store

    return require_store(request.app.state)


BotDep = Annotated[Any, Depends(get_bot)]
SettingsDep = Annotated[Settings, Depends(get_api_settings)]
ClientDep = Annotated[str, Depends(get_client)]
AnalyticsDep = Annotated[Any, Depends(get_analytics)]
