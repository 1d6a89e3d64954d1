"""The club: ``kozel serve`` and ``kozel admin`` (its administrators)."""

from __future__ import annotations

import socket
from typing import Annotated

import typer
from rich.markup import escape

from kozel.cli.common import fail, out
from kozel.server.settings import DEFAULT_DB, Settings

# The options of ``kozel serve``, each named by its parameter's name (--db-connections, …).
DbUrl = Annotated[
    str,
    typer.Option(
        help="Database: sqlite:///FILE (the default is kozel.db) or postgresql://USER@HOST/DB"
    ),
]
PubsubUrl = Annotated[str, typer.Option(help="memory:// or redis://host:port/db")]
DbConnections = Annotated[
    int,
    typer.Option(
        min=2,
        help="Connections to PostgreSQL this process may hold; all the club's processes "
        "together must stay below PostgreSQL's max_connections (100 by default).",
    ),
]
SecureCookies = Annotated[
    bool,
    typer.Option(
        "--secure-cookies/--no-secure-cookies",
        help="Mark the session cookies Secure (on when the club is served over HTTPS).",
    ),
]
GuestsPerMinute = Annotated[
    int, typer.Option(min=1, help="New guest accounts per client address and minute.")
]
RegistrationsPerMinute = Annotated[
    int, typer.Option(min=1, help="New accounts per client address and minute.")
]
NodeName = Annotated[
    str,
    typer.Option(
        help="This process's name among the club's processes (default: HOST:PORT); "
        "a restarted process under the same name takes its own tables back at once."
    ),
]
LeaseSeconds = Annotated[
    float,
    typer.Option(min=1.0, help="How soon another process takes over the tables of a dead one."),
]
AdminNames = Annotated[
    list[str] | None,
    typer.Option(
        help="A name whose player may see /api/admin/tables (repeat for several); it "
        "trusts whoever registers the name: on a public club use `kozel admin grant`."
    ),
]
RequestsPerMinute = Annotated[
    int,
    typer.Option(
        min=1,
        help="New game requests and tables (a request, play with the computer, play with "
        "a person) per client address and minute.",
    ),
]
SocketsPerAddress = Annotated[
    int,
    typer.Option(min=1, help="Open WebSockets (lobby and tables together) per client address."),
]
BotDelayMs = Annotated[
    int,
    typer.Option(min=0, help="How long after the previous move a computer player moves, in ms."),
]
RoundPause = Annotated[
    float,
    typer.Option(
        min=0,
        help="Seconds a finished round stays on the table, hands face up, before the next "
        "deal (sooner when every person presses next; 0: at once).",
    ),
]
ChatPerMinute = Annotated[
    int, typer.Option(min=1, help="Chat lines one player may say per minute.")
]
PresenceGrace = Annotated[
    float,
    typer.Option(
        min=0,
        help="Seconds a seat may have no open socket before it is shown disconnected "
        "(a reload or a network blip within them shows nothing).",
    ),
]
SeedSeconds = Annotated[
    float,
    typer.Option(
        min=0,
        help="Seconds a new table's first deal waits for the players' seeds to the shuffle "
        "(sooner once every person has added his; 0: at once).",
    ),
]
RematchSeconds = Annotated[
    float,
    typer.Option(min=1, help="Seconds a rematch offered at a game's end waits for answers."),
]
TestSeed = Annotated[
    int | None,
    typer.Option(
        min=0,
        help="For tests only: derive every game's server seed (and the computer players') "
        "from this number and the game's id, so the same seed deals the same games again; "
        "whoever knows it knows every deal. Unset: secret random seeds.",
    ),
]


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: DbUrl = DEFAULT_DB,
    pubsub: PubsubUrl = "memory://",
    db_connections: DbConnections = Settings.db_connections,
    secure_cookies: SecureCookies = False,
    guests_per_minute: GuestsPerMinute = Settings.guests_per_minute,
    registrations_per_minute: RegistrationsPerMinute = Settings.registrations_per_minute,
    node: NodeName = "",
    lease_seconds: LeaseSeconds = Settings.lease_seconds,
    admin: AdminNames = None,
    requests_per_minute: RequestsPerMinute = Settings.requests_per_minute,
    sockets_per_address: SocketsPerAddress = Settings.sockets_per_address,
    bot_delay_ms: BotDelayMs = Settings.bot_delay_ms,
    round_pause: RoundPause = Settings.round_pause_seconds,
    chat_per_minute: ChatPerMinute = Settings.chat_per_minute,
    presence_grace: PresenceGrace = Settings.presence_grace_seconds,
    seed_seconds: SeedSeconds = Settings.seed_seconds,
    rematch_seconds: RematchSeconds = Settings.rematch_seconds,
    seed: TestSeed = None,
) -> None:
    """Run the club: HTTP API and WebSockets (docs/protocol.md)."""
    settings = Settings(
        db_url=_checked_urls(db, pubsub),
        pubsub_url=pubsub,
        db_connections=db_connections,
        secure_cookies=secure_cookies,
        guests_per_minute=guests_per_minute,
        registrations_per_minute=registrations_per_minute,
        node=node or f"{socket.gethostname()}:{port}",
        lease_seconds=lease_seconds,
        admins=tuple(admin or ()),
        requests_per_minute=requests_per_minute,
        sockets_per_address=sockets_per_address,
        bot_delay_ms=bot_delay_ms,
        chat_per_minute=chat_per_minute,
        round_pause_seconds=round_pause,
        presence_grace_seconds=presence_grace,
        rematch_seconds=rematch_seconds,
        seed_seconds=seed_seconds,
        seed=seed,
    )
    _run_club(settings, host, port)


def _checked_urls(db: str, pubsub: str) -> str:
    """The database's URL for the server; exits 2 when the pub/sub URL or it is not one the
    club can use."""
    from kozel.server.pubsub import make_pubsub

    try:
        make_pubsub(pubsub)
    except ValueError as e:
        raise fail(str(e)) from None
    return _database_url(db)


def _database_url(db: str) -> str:
    """The database's URL as the server takes it; exits 2 when the club cannot use it."""
    from kozel.server.settings import database_url

    try:
        return database_url(db)
    except ValueError as e:
        raise fail(str(e)) from None


def _run_club(settings: Settings, host: str, port: int) -> None:
    """Serve the club on ``host:port`` until stopped."""
    import uvicorn

    from kozel.server.app import create_app
    from kozel.server.collector import Collector
    from kozel.server.wire import uvicorn_options

    collector = Collector()
    app = create_app(settings, collector)
    collector.install()  # a collection no longer stops every table for long (collector.py)
    uvicorn.run(app, host=host, port=port, log_level="info", **uvicorn_options())


admin_app = typer.Typer(
    help="The club's administrators, kept in its database (they may see /admin).",
    no_args_is_help=True,
)
DbOption = Annotated[
    str,
    typer.Option(help="The club's database: sqlite:///FILE or postgresql://USER@HOST/DB"),
]


@admin_app.command("grant")
def admin_grant(
    name: Annotated[str, typer.Argument(help="A registered player's name.")],
    db: DbOption = DEFAULT_DB,
) -> None:
    """Make a registered player an administrator (register the account first)."""
    import asyncio

    from kozel.server.admins import set_admin

    found = asyncio.run(set_admin(_database_url(db), name, True))
    if found is None:
        raise fail(f"there is no registered player {name!r}: register the account first", 1)
    out.print(f"{escape(found)} is an administrator", highlight=False)


@admin_app.command("revoke")
def admin_revoke(
    name: Annotated[str, typer.Argument(help="An administrator's name.")],
    db: DbOption = DEFAULT_DB,
) -> None:
    """Make a player no longer an administrator."""
    import asyncio

    from kozel.server.admins import set_admin

    found = asyncio.run(set_admin(_database_url(db), name, False))
    if found is None:
        raise fail(f"there is no registered player {name!r}", 1)
    out.print(f"{escape(found)} is no longer an administrator", highlight=False)


@admin_app.command("list")
def admin_list(db: DbOption = DEFAULT_DB) -> None:
    """The club's administrators."""
    import asyncio

    from kozel.server.admins import admins

    for name in asyncio.run(admins(_database_url(db))):
        out.print(escape(name), highlight=False)
