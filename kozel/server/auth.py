"""Accounts: argon2 password hashes, session cookies, CSRF tokens and a log-in rate limit."""

from __future__ import annotations

import hashlib
import re
import secrets
import time
import unicodedata
from collections import deque
from datetime import timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

SESSION_COOKIE = "kozel_session"
CSRF_COOKIE = "kozel_csrf"
CSRF_HEADER = "X-CSRF-Token"
NAME_PATTERN = re.compile(r"(?:[^\W\d_]|[0-9._-]){3,24}")
"""Letters of any script, ASCII digits, dots, dashes and underscores (matched whole)."""
MIN_PASSWORD = 8
MAX_PASSWORD = 256

_hasher = PasswordHasher(time_cost=2, memory_cost=19_456, parallelism=1)
"""argon2id with OWASP's parameters (19 MiB, 2 passes, one lane): about 60 ms of one thread
here. The library's default (64 MiB, 3 passes, four lanes: four threads and 0.3-0.5 s per
hash) let a burst of registrations take the machine's cores and memory bandwidth from the
tables. Hashes stored with other parameters verify as before."""


def hash_password(password: str) -> str:
    """An argon2 hash (slow on purpose: call it off the event loop)."""
    return _hasher.hash(password)


def check_password(stored: str | None, password: str) -> bool:
    if not stored:
        return False
    try:
        return _hasher.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """Sessions are stored by the SHA-256 of their token: a leaked table opens no session."""
    return hashlib.sha256(token.encode()).hexdigest()


def normal_name(name: str) -> str:
    """A name as typed, in Unicode's compatibility form (full-width letters, ligatures and
    other look-alike forms become their plain letters)."""
    return unicodedata.normalize("NFKC", name)


def name_key(name: str) -> str:
    """The key that makes a name one account whatever its case or form: ``Алиса``,
    ``АЛИСА`` and ``алиса`` are one name.

    >>> name_key("Алиса") == name_key("АЛИСА") == name_key("алиса")
    True
    """
    return normal_name(name).casefold()


def _scripts(name: str) -> set[str]:
    """The scripts of a name's letters (``LATIN``, ``CYRILLIC``, …)."""
    return {unicodedata.name(ch, "?").split()[0] for ch in name if ch.isalpha()}


def name_problem(name: str) -> str | None:
    """Why a login name (already in its normal form) is not acceptable, or ``None``.

    >>> [name_problem(n) is None for n in ("Алиса", "alice9", "alice9" + chr(10), "Аlice")]
    [True, True, False, False]
    >>> [name_problem(n) is None for n in ("...", "-.-", "___", "a.-", "007")]
    [False, False, False, True, True]
    """
    if not NAME_PATTERN.fullmatch(name):
        return "a name is 3 to 24 letters, digits 0-9, dots, dashes or underscores"
    if not any(ch.isalnum() for ch in name):
        return "a name has a letter or a digit (not dots, dashes and underscores only)"
    if len(_scripts(name)) > 1:
        return "a name's letters are all of one alphabet (no Latin and Cyrillic mixed)"
    if name_key(name).startswith(("guest-", "bot:")):
        return "names starting with guest- or bot: are reserved"
    return None


def password_problem(password: str) -> str | None:
    if len(password) < MIN_PASSWORD:
        return f"a password has at least {MIN_PASSWORD} characters"
    if len(password) > MAX_PASSWORD:
        return f"a password has at most {MAX_PASSWORD} characters"
    return None


def guest_name() -> str:
    return f"guest-{secrets.token_hex(3)}"


def session_lifetime(days: int) -> timedelta:
    return timedelta(days=days)


class RateLimit:
    """At most ``limit`` events per key in any ``window`` seconds (kept in memory).

    :meth:`take` checks and counts in one step (nothing awaits in between), so concurrent
    attempts cannot all slip through before the first is counted."""

    def __init__(self, limit: int, window: float = 60.0) -> None:
        self.limit = limit
        self.window = window
        self.events: dict[str, deque[float]] = {}

    def _recent(self, key: str) -> deque[float]:
        stamp = time.monotonic()
        recent = self.events.setdefault(key, deque())
        while recent and recent[0] <= stamp - self.window:
            recent.popleft()
        return recent

    def exhausted(self, key: str) -> bool:
        return len(self._recent(key)) >= self.limit

    def take(self, key: str) -> bool:
        """Count one event for ``key``; ``False`` (and nothing counted) when over the limit."""
        recent = self._recent(key)
        if len(recent) >= self.limit:
            return False
        recent.append(time.monotonic())
        return True

    def give_back(self, key: str) -> None:
        """Uncount the latest event of ``key`` (an attempt that turned out not to count)."""
        recent = self.events.get(key)
        if recent:
            recent.pop()
