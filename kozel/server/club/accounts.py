"""Accounts: registering, logging in and out, guests, sessions and who is an administrator.

Password hashes are made and checked in the process's hashing thread (:mod:`kozel.server.hashing`),
never on the event loop that runs the tables."""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import make_transient_to_detached

from kozel.server import auth, names
from kozel.server.db import NameKey, Session, User, now
from kozel.server.errors import ClubError
from kozel.server.hashing import Busy, Hasher

from .services import Services, aware

_USER_COLUMNS = tuple(User.__table__.columns.keys())
_SESSION_USER = (
    select(
        Session.csrf.label("session_csrf"),
        Session.expires_at.label("session_expires_at"),
        *User.__table__.columns,
    )
    .join(User, User.id == Session.user_id)
    .where(Session.token_hash == bindparam("token_hash"))
)
"""A session's CSRF token, its expiry and its user's columns, by the token's hash: built once
(every request and socket asks it; docs/benchmarks.md)."""
_NAMED = select(User.id).where(User.name == bindparam("name"))
"""Who has a name (a new guest's is looked for in it)."""
_NEW_USER = insert(User).returning(User.id)
_NEW_SESSION = insert(Session)
"""A new guest and his session, in statements built once."""


class Accounts:
    """The club's accounts and sessions, with their rate limits per client address."""

    def __init__(self, services: Services, hasher: Hasher) -> None:
        settings = services.settings
        self.services = services
        self.sessions = services.sessions
        self.hasher = hasher
        self.login_limit = auth.RateLimit(settings.login_attempts_per_minute)
        self.address_login_limit = auth.RateLimit(3 * settings.login_attempts_per_minute)
        self.register_limit = auth.RateLimit(settings.registrations_per_minute)
        self.guest_limit = auth.RateLimit(settings.guests_per_minute)

    async def register(self, name: str, password: str, client: str) -> tuple[User, str, str]:
        name = auth.normal_name(name)
        if problem := auth.name_problem(name):
            raise ClubError(422, "bad_name", problem)
        if problem := auth.password_problem(password):
            raise ClubError(
                422, "bad_password", problem, low=auth.MIN_PASSWORD, high=auth.MAX_PASSWORD
            )
        if not self.register_limit.take(client):
            raise ClubError(
                429, "too_many_accounts", "too many new accounts from your address: wait a minute"
            )
        try:
            self.hasher.admit()  # a burst is refused before the database is asked anything
        except Busy:
            self.register_limit.give_back(client)
            raise _busy() from None
        key = auth.name_key(name)
        look_alike = names.look_alike_keys(name)
        taken_message = f"the name {name!r} is taken, or looks like a taken name"
        async with self.sessions() as session:
            taken = await session.scalar(select(User.id).where(User.name_key == key))
            if taken is None:
                taken = await session.scalar(
                    select(NameKey.user_id).where(NameKey.key.in_(sorted(look_alike))).limit(1)
                )
        if taken is not None:
            raise ClubError(409, "name_taken", taken_message, name=name)
        # argon2 takes about half a second: in the process's one hashing thread, at the
        # lowest priority, never on the event loop that runs the tables
        try:
            password_hash = await self.hasher.hash(password)
        except Busy:
            self.register_limit.give_back(client)
            raise _busy() from None
        async with self.sessions() as session, session.begin():
            user = User(name=name, name_key=key, password_hash=password_hash, guest=False)
            session.add(user)
            try:
                await session.flush()
                # one account per look-alike key: of two look-alikes registered at once, the
                # second's keys are refused by the first's
                session.add_all(NameKey(key=k, user_id=user.id) for k in sorted(look_alike))
                await session.flush()
            except IntegrityError:
                raise ClubError(409, "name_taken", taken_message, name=name) from None
        return await self._open_session(user)

    async def login(self, name: str, password: str, client: str) -> tuple[User, str, str]:
        key = auth.name_key(name)
        limited = f"{client}|{key}"
        # count the attempt before checking it, so that concurrent attempts are all counted;
        # a successful one is given back
        if not self.login_limit.take(limited):
            raise ClubError(
                429, "too_many_logins", "too many failed attempts to log in: wait a minute"
            )
        if not self.address_login_limit.take(client):
            self.login_limit.give_back(limited)
            raise ClubError(
                429, "too_many_logins", "too many failed attempts to log in: wait a minute"
            )
        try:
            self.hasher.admit()
        except Busy:
            self.login_limit.give_back(limited)
            self.address_login_limit.give_back(client)
            raise _busy() from None
        async with self.sessions() as session:
            user = await session.scalar(select(User).where(User.name_key == key))
        stored = user.password_hash if user is not None else None
        try:
            matches = await self.hasher.check(stored, password)
        except Busy:
            self.login_limit.give_back(limited)
            self.address_login_limit.give_back(client)
            raise _busy() from None
        if user is None or not matches:
            raise ClubError(401, "wrong_password", "wrong name or password")
        self.login_limit.give_back(limited)
        self.address_login_limit.give_back(client)
        return await self._open_session(user)

    async def guest(self, client: str) -> tuple[User, str, str]:
        if not self.guest_limit.take(client):
            raise ClubError(
                429, "too_many_guests", "too many guests from your address: wait a minute"
            )
        tries = 3
        while True:
            name = await self._free_guest_name()
            fields = {
                "name": name,
                "name_key": auth.name_key(name),
                "password_hash": None,
                "guest": True,
                "rating": 0,
                "admin": False,
                "created_at": now(),
            }
            token, csrf = auth.new_token(), auth.new_token()
            try:
                # the guest and his session in one transaction, through the engine in
                # statements built once: no unit of work (docs/benchmarks.md)
                async with self.services.engine.begin() as connection:
                    made = await connection.execute(_NEW_USER, fields)
                    user_id = made.scalar_one()
                    await connection.execute(_NEW_SESSION, self._session_row(user_id, token, csrf))
            except IntegrityError:  # the name was taken in between: a chance in millions
                tries -= 1
                if not tries:
                    raise
                continue
            return _detached({"id": user_id, **fields}), token, csrf

    async def _free_guest_name(self) -> str:
        """A guest name nobody has, looked for on a reading connection: not in the
        transaction that holds SQLite's one writing connection (docs/benchmarks.md)."""
        async with self.services.reads() as session:
            for _ in range(20):
                name = auth.guest_name()
                if await session.scalar(_NAMED, {"name": name}) is None:
                    break
        return name

    async def _open_session(self, user: User) -> tuple[User, str, str]:
        async with self.sessions() as session, session.begin():
            token, csrf = self._add_session(session, user)
        return user, token, csrf

    def _add_session(self, session: AsyncSession, user: User) -> tuple[str, str]:
        """Add a new session of ``user`` (flushed: it has its id) to ``session``'s
        transaction; its token and CSRF token."""
        token, csrf = auth.new_token(), auth.new_token()
        session.add(Session(**self._session_row(user.id, token, csrf)))
        return token, csrf

    def _session_row(self, user_id: int, token: str, csrf: str) -> dict[str, Any]:
        """The ``sessions`` row of a new session of the user ``user_id``."""
        expires = now() + auth.session_lifetime(self.services.settings.session_days)
        return {
            "token_hash": auth.token_hash(token),
            "user_id": user_id,
            "csrf": csrf,
            "expires_at": expires,
        }

    def is_admin(self, user: User) -> bool:
        """An administrator: granted in the database (``kozel admin grant``), or named by
        ``kozel serve --admin`` (which trusts whoever holds the name)."""
        return not user.guest and (user.admin or user.name in self.services.settings.admins)

    async def session_user(self, token: str | None) -> tuple[User, str] | None:
        """The user and CSRF token of a live session, or ``None``. The user is read in one
        statement built once, through the engine rather than an ORM session (every request and
        socket asks: half the CPU of the ORM's way), and handed out detached, as a closed ORM
        session would."""
        if not token or len(token) > 200:
            return None
        async with self.services.read_engine.connect() as connection:
            found = await connection.execute(_SESSION_USER, {"token_hash": auth.token_hash(token)})
            row = found.first()
        if row is None or aware(row.session_expires_at) < now():
            return None
        fields = row._mapping
        return _detached({key: fields[key] for key in _USER_COLUMNS}), row.session_csrf

    async def logout(self, token: str) -> None:
        async with self.sessions() as session, session.begin():
            found = await session.get(Session, auth.token_hash(token))
            if found is not None:
                await session.delete(found)


def _detached(columns: dict[str, Any]) -> User:
    """A user read or written through the engine, as a closed ORM session hands one out."""
    user = User(**columns)
    make_transient_to_detached(user)
    return user


def _busy() -> ClubError:
    return ClubError(503, "busy", "the club is busy checking passwords: try again in a moment")
