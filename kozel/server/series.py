"""Bykovo micro-tournaments in the club: a series of normal tables, one at a time.

A tournament is a ``tournaments`` row (its entrants in the fixed order, the move clock,
whether it is rated, and the secret seed of its lots) and its games: normal ``games`` rows
played by normal :class:`~kozel.server.tables.Table` s, each linked by ``tournament_id``.
Its state is never stored as such: :func:`rebuild` derives it from the row and the records
of its finished games, in order, with the pure :class:`kozel.layout.tournament.Tournament` (the
seed replays every lot).

The tournament has no owner of its own: **its current game's owner runs it**. When that
game ends, :func:`game_over` runs in the very transaction that stores the game's last event
(under the table's fencing token): it derives the tournament again and either inserts the
next game (seated by the rules, owned by the same process, which claims it right after the
commit) or stores the tournament's end, its ``kozel-tournament/1`` record and, when rated,
the 3/2/1 rating. A restart or a takeover between two games finds the next game stored as
``playing`` and claims it like any table; a game in progress resumes as every table does.
"""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from kozel.games import BYKOVO, replay_layout
from kozel.layout.tournament import LIMITS, SEATS, Tournament, TournamentError, rating_gains
from kozel.server.db import Game, GamePlayer, TournamentRow, change_rating, now
from kozel.server.seeds import seeded_server_seed

_secure = random.SystemRandom()
GAME = BYKOVO.id
FIELD = (SEATS, max(LIMITS))
"""The smallest and largest field of a tournament request."""


def channel(tournament_id: int) -> str:
    """The channel a tournament page listens to: the full state after every change."""
    return f"tournament:{tournament_id}"


def entrants_of(seats: list[Any]) -> list[dict[str, Any]]:
    """A full tournament request's seats as the tournament's entrants, each with its label:
    a person's name, or ``bot:LEVEL#N`` (N: the seat, from 1) so that labels differ."""
    entrants = []
    for n, seat in enumerate(seats, start=1):
        if "user" in seat:
            entrants.append({**seat, "label": seat["name"]})
        else:
            entrants.append({**seat, "label": f"bot:{seat['bot']}#{n}"})
    return entrants


def new_seed() -> int:
    return _secure.getrandbits(48)


def fresh(row: TournamentRow) -> Tournament:
    """The tournament before its first game."""
    labels = [e["label"] for e in row.entrants]
    ratings = [e.get("rating") for e in row.entrants]
    return Tournament(labels, row.seed, ratings)


def rebuild(row: TournamentRow, records: list[dict[str, Any]]) -> Tournament:
    """The tournament after its finished games (their records, in order); raises
    ``TournamentError`` if a stored game was not seated as the rules and the seed say."""
    t = fresh(row)
    for g, record in enumerate(records):
        seating = t.seating()
        seated = [table_label(row.entrants[p]) for p in seating]
        if record.get("seats") != seated:
            raise TournamentError(f"game {g} seated {record.get('seats')}, not {seated}")
        t.add_game(seating, replay_layout(record))
    return t


def table_label(entrant: dict[str, Any]) -> str:
    """How a game's record labels an entrant's seat (tables.py's ``_label``)."""
    return str(entrant["name"]) if "user" in entrant else f"bot:{entrant['bot']}"


def game_seats(row: TournamentRow, seating: list[int]) -> list[dict[str, Any]]:
    """The ``games.seats`` of a game of these entrants (indices, seat order). A computer
    player's seat names its entrant, so that every list of games calls it by the name the
    tournament page and the table give it (the tournament's number and the entrant)."""
    seats: list[dict[str, Any]] = []
    for p in seating:
        entrant = row.entrants[p]
        if "user" in entrant:
            seats.append({"user": entrant["user"], "name": entrant["name"]})
        else:
            seats.append({"bot": entrant["bot"], "entrant": p})
    return seats


def game_values(row: TournamentRow, seating: list[int], owner: str) -> dict[str, Any]:
    """The ``games`` row of the tournament's next game (not rated as a lone game: the
    tournament is rated as a whole)."""
    return {
        "game": GAME,
        "options": BYKOVO.options_dict(BYKOVO.options()),
        "seats": game_seats(row, seating),
        "seconds_per_move": row.seconds_per_move,
        "rated": False,
        "status": "playing",
        "version": 0,
        "owner": owner,
        "fence": 0,
        "tournament_id": row.id,
        "created_at": now(),
    }


def people_of(seats: list[dict[str, Any]]) -> list[int]:
    return sorted({seat["user"] for seat in seats if "user" in seat})


def club_record(t: Tournament) -> dict[str, Any]:
    """The ``kozel-tournament/1`` record as the club keeps it. Its games were dealt by the
    tables' secure generator, not from the seed, so the seed (which only drew the lots) is
    written as ``null``: the record is checked by the rules, not re-dealt."""
    return {**t.record(), "seed": None}


def counts_for_rating(row: TournamentRow, records: list[dict[str, Any]]) -> bool:
    """Rated only when asked for, between people only, and no computer player took a
    person's seat in any of its games."""
    people_only = all("user" in e for e in row.entrants)
    return row.rated and people_only and not any("replaced" in r for r in records)


async def game_over(
    connection: AsyncConnection,
    tournament_id: int,
    owner: str,
    resume: bool = False,
    seed: int | None = None,
) -> int | None:
    """A game of the tournament has just ended (its ``games`` row is updated in this
    transaction): insert the next game, or store the tournament's end. Returns the next
    game's id, or ``None`` when the tournament is over (or, with ``resume``, when it is over
    or has a game being played already: the step was done meanwhile). ``seed``: a seeded
    club's (``Settings.seed``), which the next game's server seed is derived from."""
    row = (
        await connection.execute(
            select(TournamentRow.__table__)
            .where(TournamentRow.id == tournament_id)
            .with_for_update()  # one step of a tournament at a time
        )
    ).one()
    tournament = TournamentRow(**row._asdict())
    if resume:
        live = await connection.scalar(
            select(Game.id).where(Game.tournament_id == tournament_id, Game.status == "playing")
        )
        if tournament.status != "playing" or live is not None:
            return None
    records = await finished_records(connection, tournament_id)
    t = rebuild(tournament, records)
    if not t.over:
        return await _insert_next_game(connection, tournament, t, owner, seed)
    record = club_record(t)
    record["rated"] = counts_for_rating(tournament, records)
    if record["rated"]:
        await _rate(connection, tournament, t)
    await connection.execute(
        update(TournamentRow)
        .where(TournamentRow.id == tournament_id)
        .values(status="finished", record=record, finished_at=now())
    )
    return None


async def _insert_next_game(
    connection: AsyncConnection,
    tournament: TournamentRow,
    t: Tournament,
    owner: str,
    seed: int | None,
) -> int:
    """Insert the tournament's next game (its seats as the tournament's state seats them,
    each person listed in ``game_players``): its id."""
    seating = t.seating()
    values = game_values(tournament, seating, owner)
    game_id: int = (
        await connection.execute(insert(Game).values(**values).returning(Game.id))
    ).scalar_one()
    if seed is not None:
        await connection.execute(
            update(Game)
            .where(Game.id == game_id)
            .values(server_seed=seeded_server_seed(seed, game_id))
        )
    people = people_of(values["seats"])
    if people:
        await connection.execute(
            insert(GamePlayer), [{"game_id": game_id, "user_id": u} for u in people]
        )
    return game_id


async def _rate(connection: AsyncConnection, tournament: TournamentRow, t: Tournament) -> None:
    """A rated tournament's end: each entrant's rating changes by the place's gain (a
    ``rating_changes`` row beside the tournament's last game)."""
    tournament_id = tournament.id
    last_game = await connection.scalar(
        select(Game.id).where(Game.tournament_id == tournament_id).order_by(Game.id.desc()).limit(1)
    )
    assert last_game is not None  # its end is stored with its last game
    places = [s.place for s in t.standings()]
    for entrant, gain in zip(tournament.entrants, rating_gains(places), strict=True):
        if not gain:
            continue
        await change_rating(connection, entrant["user"], gain, last_game, tournament_id)


async def finished_records(connection: AsyncConnection, tournament_id: int) -> list[dict[str, Any]]:
    rows = await connection.execute(
        select(Game.record)
        .where(Game.tournament_id == tournament_id, Game.record.is_not(None))
        .order_by(Game.id)
    )
    return [record for (record,) in rows]


def state_json(row: TournamentRow, games: list[Game]) -> dict[str, Any]:
    """What the tournament page shows: the entrants, every game (its table while it is
    played, its outcome after), the scores after each game and the standings. Nothing here
    is hidden information: no hand, and the seed only once the tournament is over."""
    finished = [g for g in games if g.record is not None]
    t = rebuild(row, [g.record for g in finished if g.record is not None])
    labels = [e["label"] for e in row.entrants]
    played = [0] * len(labels)
    listed = []
    for g, done in zip(finished, t.games, strict=True):
        for p in done.players:
            played[p] += 1
        listed.append(
            {
                "id": g.id,
                "status": g.status,
                "players": list(done.players),
                "counts": list(done.counts),
                "added": list(done.added),
                "places": list(done.places),
                "timed_out": done.timed_out,
            }
        )
    live = [g for g in games if g.record is None]
    playing: list[int] = []
    if live and not t.over:
        playing = t.seating()
        listed.append({"id": live[-1].id, "status": "playing", "players": playing})
    standings = t.standings()
    applied = row.record is not None and row.record.get("rated") is True
    gains = rating_gains([s.place for s in standings]) if applied else [0] * len(labels)
    return {
        "type": "tournament",
        "id": row.id,
        "game": GAME,
        "status": row.status,
        "rated": row.rated,
        "seconds_per_move": row.seconds_per_move,
        "limit": t.limit,
        "players": labels,
        "games": listed,
        "history": [list(scores) for scores in t.history],
        "standings": [
            {
                "player": s.player,
                "score": s.score,
                "place": s.place,
                "played": played[p],
                "eliminated_after": s.eliminated_after,
                "timed_out": s.timed_out,
                "sitting_out": bool(playing) and p not in playing and s.eliminated_after is None,
                "rating": gains[p],
            }
            for p, s in enumerate(standings)
        ],
    }
