"""Server settings: where the database and the pub/sub live, and a few limits."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_DB = "sqlite+aiosqlite:///kozel.db"


@dataclass(frozen=True)
class Settings:
    db_url: str = DEFAULT_DB
    pubsub_url: str = "memory://"
    secure_cookies: bool = False
    """Mark cookies Secure (behind HTTPS)."""
    login_attempts_per_minute: int = 10
    max_message_bytes: int = 16_384
    session_days: int = 30
    min_seconds_per_move: int = 5
    max_seconds_per_move: int = 600
    restart_grace_seconds: float = 10.0
    finished_table_seconds: float = 300.0
    """How long a finished table stays in memory for clients that come to see the end."""
    tables_per_player: int = 10
    """After a restart the seat to move gets at least this long before its clock runs out."""
