"""Several processes serve one club: tables have owners with fencing tokens, processes
announce themselves, and the club keeps a few shared values (its id, the lobby's version).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "nodes",
        sa.Column("name", sa.String(100), primary_key=True),
        sa.Column("incarnation", sa.String(32), nullable=False),
        sa.Column("seen_ms", sa.BigInteger, nullable=False),
        sa.Column("started_ms", sa.BigInteger, nullable=False),
    )
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("owner", sa.String(100), nullable=True))
        batch.add_column(sa.Column("fence", sa.Integer, nullable=False, server_default="0"))
    with op.batch_alter_table("game_events") as batch:
        batch.add_column(sa.Column("fence", sa.Integer, nullable=False, server_default="0"))
    club = op.create_table(
        "club_state",
        sa.Column("key", sa.String(40), primary_key=True),
        sa.Column("number", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("text", sa.String(200), nullable=False, server_default=""),
    )
    op.bulk_insert(
        club,
        [
            {"key": "club_id", "number": 0, "text": secrets.token_hex(8)},
            {"key": "lobby_version", "number": 0, "text": ""},
        ],
    )


def downgrade() -> None:
    op.drop_table("club_state")
    with op.batch_alter_table("game_events") as batch:
        batch.drop_column("fence")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("fence")
        batch.drop_column("owner")
    op.drop_table("nodes")
