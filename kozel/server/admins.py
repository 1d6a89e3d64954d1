"""The club's administrators, kept in the database: the operator makes an account one with
``kozel admin grant NAME`` (the account must exist: register it first), ends it with
``kozel admin revoke NAME`` and lists them with ``kozel admin list``. Nothing on the web
makes an administrator, so no visitor can become one by registering a name first.
"""

from __future__ import annotations

from sqlalchemy import select, update

from kozel.server import auth
from kozel.server.db import User, make_engine, migrate


async def set_admin(db_url: str, name: str, admin: bool) -> str | None:
    """Make the registered player ``name`` (any case or form of it) an administrator or no
    longer one: the name as registered, or ``None`` when no such player exists."""
    engine = make_engine(db_url, 2)
    try:
        await migrate(engine)
        async with engine.begin() as connection:
            found = await connection.execute(
                update(User)
                .where(User.name_key == auth.name_key(name), User.guest.is_(False))
                .values(admin=admin)
                .returning(User.name)
            )
            return found.scalar_one_or_none()
    finally:
        await engine.dispose()


async def admins(db_url: str) -> list[str]:
    """The administrators' names, in alphabetical order."""
    engine = make_engine(db_url, 2)
    try:
        await migrate(engine)
        async with engine.connect() as connection:
            rows = await connection.execute(
                select(User.name).where(User.admin.is_(True)).order_by(User.name_key)
            )
            return [row[0] for row in rows]
    finally:
        await engine.dispose()
