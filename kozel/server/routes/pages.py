"""The browser client: its static files, and the one document every page is."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

WEB = Path(__file__).resolve().parents[2] / "web"
"""The browser client: static ES modules, no build step (kozel/web)."""
PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "Cache-Control": "no-cache",
}
PAGES = (
    "/",
    "/leaderboard",
    "/games/{game_id}",
    "/games/{game_id}/review",
    "/players/{name}",
    "/tournaments/{tournament_id}",
    "/invite/{code}",
    "/rules",
    "/rules/{game}",
    "/admin",
)
"""The paths of the client's pages (kozel/web/static/app.js routes by the path)."""


def page(status_code: int = 200) -> FileResponse:
    """Every page is the same document; the client routes by the path."""
    return FileResponse(WEB / "index.html", status_code=status_code, headers=PAGE_HEADERS)


def document() -> FileResponse:
    """The route of every page (no parameter: a page's path is the client's to read)."""
    return page()


def mount_pages(app: FastAPI) -> None:
    app.mount("/static", StaticFiles(directory=WEB / "static"), name="static")
    app.mount("/rules-text", StaticFiles(directory=WEB / "rules"), name="rules-text")
    app.mount("/i18n", StaticFiles(directory=WEB / "i18n"), name="i18n")
    for path in PAGES:
        app.add_api_route(path, document, methods=["GET"], include_in_schema=False)
