"""Live games in the lobby: each game keeps the round being played and the score (``live``),
written with every deal, so that any process lists the club's games without asking their
tables.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("live", sa.JSON))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("live")
