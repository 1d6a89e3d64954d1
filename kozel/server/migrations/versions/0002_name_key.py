"""Names are one account whatever their case or Unicode form: a unique ``name_key`` column.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from kozel.server.auth import name_key

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("name_key", sa.String(80), nullable=True))
    users = sa.table("users", sa.column("id", sa.Integer), sa.column("name", sa.String))
    keyed = sa.table("users", sa.column("id", sa.Integer), sa.column("name_key", sa.String))
    connection = op.get_bind()
    for row in connection.execute(sa.select(users.c.id, users.c.name)).all():
        connection.execute(
            sa.update(keyed).where(keyed.c.id == row.id).values(name_key=name_key(row.name))
        )
    with op.batch_alter_table("users") as batch:
        batch.alter_column("name_key", nullable=False)
        batch.create_unique_constraint("uq_users_name_key", ["name_key"])


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_constraint("uq_users_name_key", type_="unique")
        batch.drop_column("name_key")
