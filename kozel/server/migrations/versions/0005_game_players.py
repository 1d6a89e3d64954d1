"""The people seated at each game, indexed by player: counting a player's live tables (at
every request and join) and listing his recent games no longer read every game's seats.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_players",
        sa.Column(
            "game_id",
            sa.Integer,
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
    )
    op.create_index("ix_game_players_user_id", "game_players", ["user_id"])
    games = sa.table("games", sa.column("id", sa.Integer), sa.column("seats", sa.JSON))
    players = sa.table(
        "game_players", sa.column("game_id", sa.Integer), sa.column("user_id", sa.Integer)
    )
    connection = op.get_bind()
    rows = [
        {"game_id": game.id, "user_id": user}
        for game in connection.execute(sa.select(games.c.id, games.c.seats)).all()
        for user in sorted({seat["user"] for seat in game.seats if seat and "user" in seat})
    ]
    if rows:
        connection.execute(sa.insert(players), rows)


def downgrade() -> None:
    op.drop_index("ix_game_players_user_id", "game_players")
    op.drop_table("game_players")
