"""What the whole suite shares: the seed of the test clubs' deals, the PostgreSQL and Redis it
uses, and the line that says what it skipped.

- ``KOZEL_TEST_SEED`` (default :data:`DEFAULT_SEED`) seeds every club the tests start
  (``Settings.seed``, ``kozel serve --seed``): the same seed and the same order of tests deal
  the same games, so a failure can be played again and a run repeated with other seeds.
- ``KOZEL_TEST_POSTGRES`` and ``KOZEL_TEST_REDIS`` name the servers the storage and fan-out
  tests use; ``python -m tests.suite services`` (what ``make test`` runs first) prints them for
  this machine's own PostgreSQL and Redis when they answer on their usual local ports.
- The tests skipped for want of one of those are counted in one line at the end of the run
  (the root ``conftest.py``); a test skipped for any other reason is named there too.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections import Counter
from collections.abc import Iterable, Sequence

DEFAULT_SEED = 26


def club_seed() -> int:
    """The seed of the test clubs (``KOZEL_TEST_SEED``); a clear error when it is no number."""
    text = os.environ.get("KOZEL_TEST_SEED", "").strip()
    if not text:
        return DEFAULT_SEED
    try:
        seed = int(text)
    except ValueError:
        raise SystemExit(f"KOZEL_TEST_SEED={text!r}: write a whole number >= 0") from None
    if seed < 0:
        raise SystemExit(f"KOZEL_TEST_SEED={text!r}: write a whole number >= 0")
    return seed


# --- this machine's services ------------------------------------------------------------------

LOCAL_POSTGRES = "postgresql+asyncpg://postgres@127.0.0.1:5432"
"""The local PostgreSQL's superuser with trust authentication (Debian's package, set up so)."""
LOCAL_REDIS = "redis://127.0.0.1:6379/0"


def postgres_answers(url: str = LOCAL_POSTGRES, timeout: float = 10.0) -> bool:
    """Whether the PostgreSQL at ``url`` lets its user in without a password and may create
    databases (each test makes one of its own)."""
    import asyncpg

    async def probe() -> bool:
        plain = url.replace("postgresql+asyncpg://", "postgresql://").rstrip("/")
        connection = await asyncpg.connect(plain + "/postgres", timeout=timeout)
        try:
            return bool(
                await connection.fetchval(
                    "SELECT rolcreatedb OR rolsuper FROM pg_roles WHERE rolname = current_user"
                )
            )
        finally:
            await connection.close()

    try:
        return asyncio.run(asyncio.wait_for(probe(), timeout))
    except Exception:
        return False


def redis_answers(url: str = LOCAL_REDIS, timeout: float = 10.0) -> bool:
    """Whether the Redis at ``url`` answers a PING."""
    import redis

    try:
        client = redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except Exception:
        return False


def services(environ: dict[str, str] | os._Environ[str] = os.environ) -> list[str]:
    """``NAME=URL`` for each of ``KOZEL_TEST_POSTGRES`` and ``KOZEL_TEST_REDIS`` that is not
    set and whose local server answers (a variable already set, even empty, is left alone)."""
    found = []
    if "KOZEL_TEST_POSTGRES" not in environ and postgres_answers():
        found.append(f"KOZEL_TEST_POSTGRES={LOCAL_POSTGRES}")
    if "KOZEL_TEST_REDIS" not in environ and redis_answers():
        found.append(f"KOZEL_TEST_REDIS={LOCAL_REDIS}")
    return found


# --- what was skipped ---------------------------------------------------------------------

WANTS = {
    "postgres": "PostgreSQL",
    "redis": "Redis",
    "both": "PostgreSQL and Redis together",
    "redis-server": "the redis-server program (the tests start and stop Redis servers)",
}


def wanted(reason: str) -> str | None:
    """Which of :data:`WANTS` a skip's reason names, or ``None`` (a skip of another kind)."""
    postgres, redis = "KOZEL_TEST_POSTGRES" in reason, "KOZEL_TEST_REDIS" in reason
    if postgres and redis:
        return "both"
    if postgres:
        return "postgres"
    if redis:
        return "redis"
    if "redis-server" in reason:
        return "redis-server"
    return None


HOW = {
    "postgres": (
        "start PostgreSQL on 127.0.0.1:5432 (user postgres, trust) or set "
        "KOZEL_TEST_POSTGRES=postgresql+asyncpg://USER@HOST:PORT"
    ),
    "redis": "start Redis on 127.0.0.1:6379 or set KOZEL_TEST_REDIS=redis://HOST:PORT/0",
    "redis-server": "install the redis-server program (Debian: apt-get install redis-server)",
}
"""How to provide what a skipped test wanted (``both`` wants the first two)."""


def skipped_line(
    reasons: Sequence[str], environ: dict[str, str] | os._Environ[str] = os.environ
) -> str:
    """The one line that ends a run: how many tests were skipped for want of which service,
    and how to run them, naming only what is missing (a test that wants both services asks
    for the one not set in ``environ``); any skip of another kind named with its reason.

    >>> skipped_line([])
    'skipped: nothing'
    >>> print(skipped_line(["KOZEL_TEST_REDIS is not set"] * 2 + ["odd"]))
    skipped: 3 tests — 2 for want of Redis; 1 for another reason: odd (1) — to run them: \
start Redis on 127.0.0.1:6379 or set KOZEL_TEST_REDIS=redis://HOST:PORT/0, then run \
`make test` again (docs/testing.md)
    >>> print(skipped_line(["odd"]))
    skipped: 1 test — 1 for another reason: odd (1)
    >>> both = "KOZEL_TEST_POSTGRES and KOZEL_TEST_REDIS are not both set"
    >>> print(skipped_line([both], {"KOZEL_TEST_POSTGRES": "postgresql+asyncpg://pg"}))
    skipped: 1 test — 1 for want of PostgreSQL and Redis together — to run them: start Redis \
on 127.0.0.1:6379 or set KOZEL_TEST_REDIS=redis://HOST:PORT/0, then run `make test` again \
(docs/testing.md)
    """
    if not reasons:
        return "skipped: nothing"
    kinds = Counter(wanted(r) for r in reasons)
    parts = [f"{kinds[k]} for want of {name}" for k, name in WANTS.items() if kinds[k]]
    others = Counter(r for r in reasons if wanted(r) is None)
    if others:
        listed = "; ".join(f"{r} ({n})" for r, n in others.most_common())
        parts.append(f"{sum(others.values())} for another reason: {listed}")
    both = kinds["both"]
    needs = {
        "postgres": kinds["postgres"] or (both and not environ.get("KOZEL_TEST_POSTGRES")),
        "redis": kinds["redis"] or (both and not environ.get("KOZEL_TEST_REDIS")),
        "redis-server": kinds["redis-server"],
    }
    how = "; ".join(HOW[k] for k in HOW if needs[k])
    count = len(reasons)
    line = f"skipped: {count} test{'s' if count != 1 else ''} — {'; '.join(parts)}"
    return (
        f"{line} — to run them: {how}, then run `make test` again (docs/testing.md)"
        if how
        else line
    )


def skip_reasons(reports: Iterable[object]) -> list[str]:
    """The reasons of pytest's skipped test reports (``Skipped: `` taken off)."""
    reasons = []
    for report in reports:
        if getattr(report, "when", "call") == "teardown":
            continue
        longrepr = getattr(report, "longrepr", None)
        reason = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else ""
        reasons.append(str(reason).removeprefix("Skipped: "))
    return reasons


if __name__ == "__main__":
    if sys.argv[1:] == ["services"]:
        print(" ".join(services()))
    else:
        raise SystemExit("usage: python -m tests.suite services")
