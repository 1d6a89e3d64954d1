"""The expert's judgement of finished games, kept once computed (``analyses``: one row per
game, worked on by one process's analysis worker).

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column(
            "game_id",
            sa.Integer,
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("seats", sa.Integer, nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("owner", sa.String(100)),
        sa.Column("claimed_ms", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True)),
    )
    op.create_index("ix_analyses_status", "analyses", ["status"])


def downgrade() -> None:
    op.drop_index("ix_analyses_status", "analyses")
    op.drop_table("analyses")
