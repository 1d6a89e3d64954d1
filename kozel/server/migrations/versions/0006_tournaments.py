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
    # plain ADD COLUMNs: a batch (copy-and-move) of ``games`` on SQLite would drop the old
    # table, and its ON DELETE CASCADE would empty game_events and game_players
    op.add_column(
        "requests", sa.Column("tournament", sa.Boolean, nullable=False, server_default=sa.false())
    )
    sqlite = op.get_bind().dialect.name == "sqlite"
    for table in ("requests", "games", "rating_history"):
        if sqlite:  # SQLite adds a column with its reference, which Alembic will not write
            op.execute(
                f"ALTER TABLE {table} ADD COLUMN tournament_id INTEGER REFERENCES tournaments (id)"
            )
        else:
            op.add_column(
                table, sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id"))
            )
    op.create_index("ix_games_tournament_id", "games", ["tournament_id"])


def downgrade() -> None:
    op.drop_index("ix_games_tournament_id", "games")
    for table in ("rating_history", "games", "requests"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("tournament_id")
    with op.batch_alter_table("requests") as batch:
        batch.drop_column("tournament")
    op.drop_index("ix_tournaments_status", "tournaments")
    op.drop_table("tournaments")
