"""docs/deploy.md followed literally: three ``kozel serve`` processes started by the guide's
loop on PostgreSQL and Redis, nginx with the guide's site on a port that is not 80, and a
person in a browser going through it (``make test`` installs Debian's nginx, as it does
chromium; the PostgreSQL and Redis of ``.ci/run``).

Behind nginx on any port but 80 or 443 every browser POST and socket was refused: the guide
had ``proxy_set_header Host $host``, which drops the port, so the club took the browser's
own ``Origin`` for another site's."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.conftest import SEED
from tests.server.guide import Place, nginx_config, serve_commands
from tests.server.test_deploy_guide import KOZEL, running
from tests.server.test_restart import free_port
from tests.web.play import step, version

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
REDIS = os.environ.get("KOZEL_TEST_REDIS", "")


@contextlib.contextmanager
def nginx(directory: Path, upstreams: list[int], host: str = "") -> Iterator[str]:
    """nginx serving the guide's site on a free port (``host``: another Host header)."""
    if not Path(NGINX).exists():
        pytest.fail(f"no nginx at {NGINX}: run `make test` (it installs Debian's nginx)")
    listen = free_port()
    prefix = directory / f"nginx-{listen}"
    prefix.mkdir()
    (prefix / "nginx.conf").write_text(nginx_config(listen, upstreams, prefix, host))
    log = (prefix / "out.log").open("wb")
    proc = subprocess.Popen(
        [NGINX, "-p", str(prefix), "-c", str(prefix / "nginx.conf")],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", listen)):
                break
            assert proc.poll() is None, (prefix / "out.log").read_text()
            assert time.monotonic() < deadline, "nginx did not start"
            time.sleep(0.05)
        yield f"http://127.0.0.1:{listen}"
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        log.close()


@pytest.fixture(scope="module")
def processes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[int]]:
    """The guide's three processes on a fresh PostgreSQL database and Redis."""
    from tests.server.conftest import POSTGRES, _admin

    if not POSTGRES or not REDIS:
        pytest.skip("KOZEL_TEST_POSTGRES and KOZEL_TEST_REDIS are not set")

    def sql(statement: str) -> None:  # in a thread: Playwright's loop may run in this one
        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, _admin(statement)).result()

    name = f"kozel_test_{secrets.token_hex(4)}"
    sql(f"CREATE DATABASE {name}")
    directory = tmp_path_factory.mktemp("guide")
    base = POSTGRES.replace("postgresql+asyncpg://", "postgresql://").rstrip("/")
    place = Place(kozel=KOZEL, db=f"{base}/{name}", redis=REDIS, checkout=str(directory))
    ports = [free_port() for _ in range(3)]
    try:
        with contextlib.ExitStack() as stack:
            for command, port in zip(serve_commands(place, ports), ports, strict=True):
                # the guide's command, seeded as every test club is (tests/suite.py)
                seeded = [*command, "--seed", str(SEED)]
                stack.enter_context(running(seeded, directory, port))
            yield ports
    finally:
        sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def fetch_status(page: Page, path: str) -> int:
    """A POST from the page's own script: the browser sends its Origin, port included."""
    status: int = page.evaluate("async path => (await fetch(path, {method: 'POST'})).status", path)
    return status


def socket_opens(page: Page, path: str) -> bool:
    """Whether a socket the page opens gets its first message."""
    opened: bool = page.evaluate(
        """path => new Promise(done => {
            const ws = new WebSocket(`ws://${location.host}${path}`);
            ws.onmessage = () => { done(true); ws.close(); };
            ws.onclose = () => done(false);
            setTimeout(() => done(false), 15000);
        })""",
        path,
    )
    return opened


def test_a_person_plays_through_the_guides_nginx_on_another_port(
    processes: list[int], browser: Browser, tmp_path: Path
) -> None:
    with nginx(tmp_path, processes) as url:
        context = browser.new_context(base_url=url)
        context.set_default_timeout(30_000)
        try:
            page = context.new_page()
            page.goto("/")
            assert socket_opens(page, "/ws/lobby")
            page.fill("#name", "olga")
            page.fill("#password", "correct horse battery")
            page.click("#register")
            expect(page.locator("#play-computer")).to_be_visible(timeout=30_000)
            page.click("#play-computer")
            page.wait_for_url("**/games/*")
            expect(page.locator(".table")).to_be_visible()
            start = version(page)
            deadline = time.monotonic() + 60
            while version(page) < start + 4:  # moves go out and states come back by socket
                assert time.monotonic() < deadline, "the table did not move"
                if not step(page):
                    time.sleep(0.1)
            health = page.request.get("/api/health").json()
            assert health["status"] == "ok", json.dumps(health)
        finally:
            context.close()


def test_the_host_without_its_port_was_taken_for_another_site(
    processes: list[int], browser: Browser, tmp_path: Path
) -> None:
    """What the guide's old ``Host $host`` did on a port that is not 80: refused."""
    for host, posts, sockets in (("$host", 403, False), ("$http_host", 200, True)):
        with nginx(tmp_path, processes, host) as url:
            context = browser.new_context(base_url=url)
            try:
                page = context.new_page()
                page.goto("/")
                assert fetch_status(page, "/api/auth/guest") == posts, host
                assert socket_opens(page, "/ws/lobby") is sockets, host
            finally:
                context.close()
