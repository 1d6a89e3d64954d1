"""Look-alike names and administrators (issue #23).

- Every registered name's confusable skeletons (UTS #39) in ``name_keys``, one account per
  key, so that a new name that looks like a taken one is refused. Names registered before
  keep their accounts: the keys are given out oldest account first, and a key an older
  account already holds is left out for the younger one.
- ``users.admin``: an administrator, made by the operator with ``kozel admin grant NAME``
  against the database (``kozel serve --admin NAME`` trusted whoever registered NAME first).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from kozel.server.names import look_alike_keys

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "name_keys",
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column(
            "user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
    )
    op.create_index("ix_name_keys_user_id", "name_keys", ["user_id"])
    users = sa.table(
        "users", sa.column("id", sa.Integer), sa.column("name", sa.String), sa.column("guest")
    )
    keys = sa.table("name_keys", sa.column("key", sa.String), sa.column("user_id", sa.Integer))
    connection = op.get_bind()
    taken: set[str] = set()
    rows = []
    registered = sa.select(users.c.id, users.c.name).where(users.c.guest.is_(False))
    for user_id, name in connection.execute(registered.order_by(users.c.id)).all():
        for key in sorted(look_alike_keys(name) - taken):
            taken.add(key)
            rows.append({"key": key, "user_id": user_id})
    if rows:
        connection.execute(sa.insert(keys), rows)
    # a plain ADD COLUMN (SQLite's batch mode would copy the table, which the tables that
    # refer to users forbid)
    op.add_column(
        "users", sa.Column("admin", sa.Boolean, nullable=False, server_default=sa.false())
    )


def downgrade() -> None:
    op.drop_column("users", "admin")
    op.drop_index("ix_name_keys_user_id", "name_keys")
    op.drop_table("name_keys")
