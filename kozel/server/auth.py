"""Accounts: argon2 password hashes, session cookies, CSRF tokens and a log-in rate limit."""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections import deque
from datetime import timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

SESSION_COOKIE = "kozel_session"
CSRF_COOKIE = "kozel_csrf"
CSRF_HEADER = "X-CSRF-Token"
NAME_PATTERN = re.compile(r"^[\w.-]{3,24}$")
MIN_PASSWORD = 8
MAX_PASSWORD = 256

_hasher = PasswordHasher()


def hash_password(password: str) -> str:
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


def name_problem(name: str) -> str | None:
    """Why a login name is not acceptable, or ``None``."""
    if not NAME_PATTERN.match(name):
        return "a name is 3 to 24 letters, digits, dots, dashes or underscores"
    if name.lower().startswith(("guest-", "bot:")):
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
    """At most ``limit`` failures per key in any ``window`` seconds (kept in memory)."""

    def __init__(self, limit: int, window: float = 60.0) -> None:
        self.limit = limit
        self.window = window
        self.failures: dict[str, deque[float]] = {}

    def _recent(self, key: str) -> deque[float]:
        stamp = time.monotonic()
        recent = self.failures.setdefault(key, deque())
        while recent and recent[0] <= stamp - self.window:
            recent.popleft()
        if not recent:
            del self.failures[key]
        return recent

    def exhausted(self, key: str) -> bool:
        return len(self._recent(key)) >= self.limit

    def record(self, key: str) -> None:
        self.failures.setdefault(key, deque()).append(time.monotonic())
