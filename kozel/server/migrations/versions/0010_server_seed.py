"""The verifiable shuffle: every game keeps the secret seed its deals are derived from
(``server_seed``; games stored before it have none and keep their old deals).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("server_seed", sa.String(64)))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("server_seed")
