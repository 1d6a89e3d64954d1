"""Server settings: where the database and the pub/sub live, and a few limits."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_DB = "sqlite+aiosqlite:///kozel.db"

_ASYNC_DRIVERS = {
    "sqlite": "sqlite+aiosqlite",
    "sqlite+aiosqlite": "sqlite+aiosqlite",
    "postgresql": "postgresql+asyncpg",
    "postgres": "postgresql+asyncpg",
    "postgresql+asyncpg": "postgresql+asyncpg",
}


def database_url(url: str) -> str:
    """A database URL with the async driver the club uses: plain ``sqlite:///FILE`` and
    ``postgresql://USER@HOST/DB`` are accepted as they are usually written. Raises
    ``ValueError`` saying what to write for any other.

    >>> database_url("sqlite:///club.db"), database_url("postgres://kozel@db/club")
    ('sqlite+aiosqlite:///club.db', 'postgresql+asyncpg://kozel@db/club')
    """
    scheme, sep, rest = url.partition("://")
    driver = _ASYNC_DRIVERS.get(scheme.lower())
    if not sep or driver is None:
        raise ValueError(
            f"unsupported database URL {url!r}: write sqlite:///FILE or "
            "postgresql://USER:PASSWORD@HOST:PORT/DATABASE"
        )
    return f"{driver}://{rest}"


@dataclass(frozen=True)
class Settings:
    db_url: str = DEFAULT_DB
    pubsub_url: str = "memory://"
    db_connections: int = 20
    """Connections to PostgreSQL one process may hold. PostgreSQL refuses clients beyond its
    ``max_connections`` (100 by default): the club's processes together must stay below."""
    secure_cookies: bool = False
    """Mark cookies Secure (behind HTTPS)."""
    login_attempts_per_minute: int = 10
    """Failed log-ins per name and address; an address gets three times as many across names."""
    registrations_per_minute: int = 10
    """New accounts per client address."""
    guests_per_minute: int = 30
    """New guest accounts per client address."""
    requests_per_minute: int = 30
    """New requests and tables per client address (a request, play with the computer, play
    with a person), counted before they are checked."""
    sockets_per_address: int = 64
    """Open WebSockets per client address, the lobby's and the tables' together."""
    max_message_bytes: int = 16_384
    max_body_bytes: int = 65_536
    """The largest HTTP request body the club reads (checked before reading it)."""
    hash_queue: int = 16
    """Passwords one process lets wait for its one hashing thread (registrations and log-ins
    together); one more is answered 503 ``busy`` at once."""
    session_days: int = 30
    min_seconds_per_move: int = 5
    max_seconds_per_move: int = 600
    restart_grace_seconds: float = 10.0
    """After a restart or a takeover the seat to move gets at least this long before its
    clock runs out."""
    finished_table_seconds: float = 300.0
    """How long a finished table stays in memory for clients that come to see the end."""
    node: str = ""
    """This process's name among the club's processes (default: the host name)."""
    lease_seconds: float = 5.0
    """How long a process owns its tables without renewing its lease; a gone process's
    tables are taken over after about this long."""
    forward_timeout: float = 5.0
    """How long a command forwarded to another process's table waits for its answer."""
    admins: tuple[str, ...] = ()
    """Names of the players who may see the club's administration views."""
    tables_per_player: int = 10
    """Open requests and live tables one player may have at once."""
    chat_per_minute: int = 12
    """Chat lines one player may say in a minute (the lobby's and the tables' together)."""
    round_pause_seconds: float = 15.0
    """How long a finished round stays on the table, every hand face up, before the next deal,
    unless every person at the table presses "next" sooner (no clock runs meanwhile); 0 deals
    at once. Tables of computer players deal at once."""
    bot_delay_ms: int = 900
    """How long after the previous move a computer player moves (thinking included), so that
    people can follow the game; 0 in tests where speed matters."""
    seed_seconds: float = 5.0
    """How long a new table's first deal waits for the people at it to add their seeds to the
    verifiable shuffle (it comes as soon as every one has); 0 deals at once."""
    seed: int | None = None
    """For tests only: derive every new game's server seed, and the computer players' and
    tournaments' seeds, from this number and the game's (tournament's) id, so that the same
    seed deals the same games again (:mod:`kozel.server.seeds`). ``None`` (a real club): the
    system's secure generator; whoever knows the seed knows every deal."""
    rematch_seconds: float = 60.0
    """How long a rematch offered at a game's end waits for every person's answer."""
    presence_grace_seconds: float = 5.0
    """How long a person's seat may have no open socket before the table shows it
    disconnected (a page reload or a network blip reconnects sooner and shows nothing); the
    others may then vote to let a computer player finish the game in that seat."""
    analysis_worlds: int = 200
    analysis_playouts: int = 48
    """The expert's budget for each decision it judges in a layout game's review (worlds
    sampled, playouts per move in each): :data:`kozel.layout.review.REVIEW_BUDGET`."""
    analysis_nice: int = 19
    """The nice value of the process that judges finished games (:mod:`analysis`)."""
    analysis_queue: int = 200
    """Games that may wait for the expert's judgement; one more is refused (503 ``busy``)."""
    analysis_poll_seconds: float = 5.0
    """How often an idle analysis worker looks for games queued by the club's other
    processes (its own wake it at once)."""
    analysis_stale_seconds: float = 900.0
    """A judgement claimed this long ago and not stored since is taken over (its process
    went away)."""
