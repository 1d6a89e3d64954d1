"""docs/deploy.md followed literally (the parts that need no nginx; tests/web/test_behind_nginx.py
runs the guide's nginx with a browser): the systemd unit's command line and the start loop
serve the club, and the guide's way to make an administrator works and is the only one."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.server.client import Player, http_get, http_post
from tests.server.guide import Place, admin_command, blocks, serve_commands, unit_command
from tests.server.test_restart import free_port

KOZEL = str(Path(sys.executable).parent / "kozel")
REDIS = os.environ.get("KOZEL_TEST_REDIS", "")


@contextlib.contextmanager
def running(command: list[str], directory: Path, port: int) -> Iterator[str]:
    """A process the guide starts, until its health check answers ``ok``: its URL."""
    log = (directory / f"{port}.log").open("wb")
    proc = subprocess.Popen(command, cwd=directory, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(httpx.TransportError):
                if http_get(url + "/api/health", timeout=5).status_code == 200:
                    break
            assert proc.poll() is None, (directory / f"{port}.log").read_text()
            assert time.monotonic() < deadline, "the process did not start"
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture
def place(postgres_url: str, tmp_path: Path) -> Place:
    if not REDIS:
        pytest.skip("KOZEL_TEST_REDIS is not set")
    plain = postgres_url.replace("postgresql+asyncpg://", "postgresql://")
    return Place(kozel=KOZEL, db=plain, redis=REDIS, checkout=str(tmp_path))


def test_the_unit_files_command_line_serves_the_club(place: Place, tmp_path: Path) -> None:
    port = free_port()
    command = unit_command(place, port)
    assert command[1:3] == ["serve", "--port"] and "--admin" not in command
    with running(command, tmp_path, port) as url:
        health = http_get(url + "/api/health").json()
        assert (health["status"], health["node"]) == ("ok", f"web-{port}")
        # --secure-cookies: the session cookie is marked Secure
        answer = http_post(url + "/api/auth/guest")
        assert all("secure" in c.lower() for c in answer.headers.get_list("set-cookie"))


def test_the_guides_administrator_is_made_in_the_database(place: Place, tmp_path: Path) -> None:
    """``--admin alice`` in the guide made whoever registered alice first an administrator;
    the guide now registers the account, then grants it with ``kozel admin grant``."""
    port = free_port()
    (command,) = serve_commands(place, [port])
    assert "--admin" not in command
    assert not any("--admin" in b for b in blocks("sh") + blocks("ini"))
    with running(command, tmp_path, port) as url:
        alice = Player(url, url.replace("http", "ws"))
        assert alice.register("alice").status_code == 200
        # the guide's cookies are Secure (for HTTPS): sent by hand over this plain connection
        cookies = {c.name: c.value for c in alice.http.cookies.jar}
        alice.http.headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
        assert alice.http.get("/api/admin/tables").status_code == 403
        missing = subprocess.run(
            admin_command(place, "nobody"), capture_output=True, text=True, check=False
        )
        assert missing.returncode == 1 and "register the account first" in missing.stdout + (
            missing.stderr
        )
        granted = subprocess.run(
            admin_command(place, "alice"), capture_output=True, text=True, check=False
        )
        assert granted.returncode == 0, granted.stderr
        assert alice.http.get("/api/me").json()["admin"] is True
        tables = alice.http.get("/api/admin/tables")
        assert tables.status_code == 200 and tables.json()["node"] == f"web-{port}"
