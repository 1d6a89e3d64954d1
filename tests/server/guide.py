"""docs/deploy.md read as a script: its commands, unit file and nginx configuration, taken
from the guide's code blocks exactly as an operator would copy them, with only what a test
must change (ports, the database, Redis, the checkout's path) put in."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"
GUIDE_DB = "postgresql://kozel:change-me@127.0.0.1:5432/kozel"
GUIDE_REDIS = "redis://127.0.0.1:6379/0"
GUIDE_PORTS = ("8001", "8002", "8003")


def blocks(language: str) -> list[str]:
    """The guide's fenced code blocks in ``language``, in order."""
    text = GUIDE.read_text("utf-8")
    return re.findall(rf"^```{language}\n(.*?)^```", text, flags=re.S | re.M)


def _joined(text: str) -> list[str]:
    """Lines with their backslash continuations joined."""
    return text.replace("\\\n", " ").splitlines()


@dataclass
class Place:
    """Where the test's club lives instead of the guide's."""

    kozel: str
    db: str
    redis: str
    checkout: str


def _put(command: str, place: Place) -> str:
    command = command.replace(GUIDE_DB, place.db).replace(GUIDE_REDIS, place.redis)
    command = re.sub(r"(?:/opt/kozel/)?\.venv/bin/kozel", lambda _: place.kozel, command)
    return command.replace("/opt/kozel", place.checkout)


def serve_commands(place: Place, ports: list[int]) -> list[list[str]]:
    """The guide's "start the processes" loop: one ``kozel serve`` command per port."""
    (script,) = [b for b in blocks("sh") if "for port in" in b]
    lines = _joined(script)
    values = dict(re.findall(r"^(DB|REDIS)=(\S+)$", script, flags=re.M))
    assert values == {"DB": GUIDE_DB, "REDIS": GUIDE_REDIS}, values
    (serve,) = [line.strip() for line in lines if "kozel serve" in line]
    serve = re.sub(r"\s*>.*$", "", serve)  # the log redirection and the "&"
    assert "for port in " + " ".join(GUIDE_PORTS) in script
    return [
        shlex.split(
            _put(
                serve.replace("$DB", GUIDE_DB)
                .replace("$REDIS", GUIDE_REDIS)
                .replace("$port", str(port)),
                place,
            )
        )
        for port in ports
    ]


def admin_command(place: Place, name: str) -> list[str]:
    """The guide's command that makes ``name`` an administrator."""
    (line,) = [
        line.split("#")[0].strip()
        for b in blocks("sh")
        for line in _joined(b)
        if "kozel admin grant" in line
    ]
    return shlex.split(_put(line.replace("$DB", GUIDE_DB), place).replace("alice", name))


def unit_command(place: Place, port: int) -> list[str]:
    """The systemd unit's ``ExecStart`` for instance ``port`` (``%i``)."""
    (unit,) = blocks("ini")
    (line,) = [line for line in _joined(unit) if line.startswith("ExecStart=")]
    return shlex.split(_put(line.removeprefix("ExecStart=").replace("%i", str(port)), place))


def nginx_config(listen: int, upstreams: list[int], prefix: Path, host: str = "") -> str:
    """A whole nginx configuration holding the guide's site as it is, listening on
    ``listen`` and proxying to ``upstreams``; temporary files and logs under ``prefix``.
    ``host`` replaces the guide's ``Host`` header value (to show what another one does)."""
    (site,) = blocks("nginx")
    assert "listen 80;" in site
    site = site.replace("listen 80;", f"listen 127.0.0.1:{listen};")
    for guide_port, port in zip(GUIDE_PORTS, upstreams, strict=True):
        site = site.replace(f"127.0.0.1:{guide_port}", f"127.0.0.1:{port}")
    if host:
        site = re.sub(r"proxy_set_header Host \S+;", f"proxy_set_header Host {host};", site)
    temp = "\n".join(
        f"    {kind}_temp_path {prefix / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return f"""daemon off;
master_process off;
pid {prefix / "nginx.pid"};
error_log {prefix / "error.log"} warn;
events {{ worker_connections 256; }}
http {{
    access_log {prefix / "access.log"};
{temp}
{site}
}}
"""
