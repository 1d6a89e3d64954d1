"""Bykovo micro-tournaments in the club: the ``tournaments`` table, tournament requests, and
each game (and each rating change) linked to its tournament.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("entrants", sa.JSON, nullable=False),
        sa.Column("seconds_per_move", sa.Integer, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("record", sa.JSON),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True)),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    with op.batch_alter_table("requests") as batch:
        batch.add_column(
            sa.Column("tournament", sa.Boolean, nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("tournament_id", sa.Integer))
        batch.create_foreign_key(
            "fk_requests_tournament_id", "tournaments", ["tournament_id"], ["id"]
        )
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("tournament_id", sa.Integer))
        batch.create_foreign_key("fk_games_tournament_id", "tournaments", ["tournament_id"], ["id"])
        batch.create_index("ix_games_tournament_id", ["tournament_id"])
    with op.batch_alter_table("rating_history") as batch:
        batch.add_column(sa.Column("tournament_id", sa.Integer))
        batch.create_foreign_key(
            "fk_rating_history_tournament_id", "tournaments", ["tournament_id"], ["id"]
        )


def downgrade() -> None:
    with op.batch_alter_table("rating_history") as batch:
        batch.drop_constraint("fk_rating_history_tournament_id", type_="foreignkey")
        batch.drop_column("tournament_id")
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_tournament_id")
        batch.drop_constraint("fk_games_tournament_id", type_="foreignkey")
        batch.drop_column("tournament_id")
    with op.batch_alter_table("requests") as batch:
        batch.drop_constraint("fk_requests_tournament_id", type_="foreignkey")
        batch.drop_column("tournament_id")
        batch.drop_column("tournament")
    op.drop_index("ix_tournaments_status", "tournaments")
    op.drop_table("tournaments")
