"""The browser client in a real browser: Debian's chromium driven by Playwright.

``make test`` installs chromium when it is missing (the Makefile's ``chromium`` target);
``KOZEL_CHROMIUM`` may name another binary. Without a browser these tests fail, saying so:
they are never skipped. Screenshots go to ``KOZEL_SCREENSHOTS`` (``make screenshots`` sets it
to docs/screenshots), else to a temporary directory.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from kozel.server.settings import Settings
from tests.server.conftest import RunningServer

CHROMIUM = os.environ.get("KOZEL_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}

expect.set_options(timeout=20_000)
"""Every expectation waits as long as an action does (the context's default below), not
Playwright's 5 s: on a machine with no CPU to spare a password log-in, hashed at the lowest
priority (tests/server/test_hashing.py), once took longer than 5 s and failed two tests
that expected the page after it. A met expectation returns at once whatever the timeout."""


def running_club(
    tmp_path_factory: pytest.TempPathFactory, **settings: Any
) -> Iterator[RunningServer]:
    """A club on a database of its own for a module's browser tests: computer players move at
    once, and ``settings`` change the rest (a module's own club yields from this)."""
    db = tmp_path_factory.mktemp("club") / "club.db"
    chosen: dict[str, Any] = {
        "min_seconds_per_move": 5,
        "bot_delay_ms": 0,
        "seed_seconds": 0,  # tests/web/test_friends.py's club waits for the browsers' seeds
        # a review page asks for the expert's judgement: a small budget keeps the suite's CPU
        "analysis_worlds": 16,
        "analysis_playouts": 8,
        **settings,
    }
    running = RunningServer(Settings(db_url=f"sqlite+aiosqlite:///{db}", **chosen))
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    # one server for every browser test: its many accounts, tables and sockets are not
    # the attack the limits stop; whole games against the computer, no pause after a round
    # (tests/web/test_round_end.py has one)
    yield from running_club(
        tmp_path_factory,
        round_pause_seconds=0,
        guests_per_minute=100_000,
        registrations_per_minute=100_000,
        requests_per_minute=100_000,
        sockets_per_address=100_000,
    )


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"no chromium at {CHROMIUM}: run `make test` (it installs Debian's chromium)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield launched
        finally:
            launched.close()


class Contexts:
    """Browser contexts (separate cookie jars: separate players) closed after the test."""

    def __init__(self, browser: Browser, club: RunningServer) -> None:
        self.browser = browser
        self.club = club
        self.opened: list[BrowserContext] = []
        self.errors: list[str] = []

    def page(
        self,
        locale: str = "en-US",
        viewport: dict[str, int] = DESKTOP,
        reduced_motion: bool = False,
    ) -> Page:
        context = self.browser.new_context(
            base_url=self.club.url,
            locale=locale,
            viewport=viewport,  # type: ignore[arg-type]
            reduced_motion="reduce" if reduced_motion else "no-preference",
        )
        context.set_default_timeout(20_000)
        self.opened.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        return page


@pytest.fixture
def contexts(browser: Browser, club: RunningServer) -> Iterator[Contexts]:
    made = Contexts(browser, club)
    try:
        yield made
    finally:
        for context in made.opened:
            context.close()
    assert not made.errors, f"script errors in the page: {made.errors}"


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = os.environ.get("KOZEL_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path
