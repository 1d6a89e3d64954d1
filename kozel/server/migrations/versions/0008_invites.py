"""Private requests and links: a request may be left out of the lobby (``private``) and is
joined by its link, whose unguessable ``code`` every new request gets.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ADD COLUMNs, as 0006 explains (a batch copy of a table on SQLite is not needed)
    op.add_column(
        "requests", sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.add_column("requests", sa.Column("code", sa.String(32)))
    op.create_index("ix_requests_code", "requests", ["code"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_requests_code", "requests")
    with op.batch_alter_table("requests") as batch:
        batch.drop_column("code")
        batch.drop_column("private")
