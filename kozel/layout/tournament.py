"""Bykovo's micro-tournament («игра вприсядку», docs/rules.md#tournament and Decisions 8–9).

Four to seven players in a fixed order play Bykovo games of four until at most three are
left in. Each game adds each player's count to his tournament score (the winner adds 0); a
score at the limit (100, 75, 60 or 50 by the starting field) eliminates. Who sits a game out
follows the rules below; every lot is drawn from the tournament's own generator, so a seed
replays a whole tournament. The state is pure: :class:`Tournament` seats a game, takes the
finished game (or a timeout) and keeps the scores, the eliminations and the standings;
:func:`tournament_record` writes ``kozel-tournament/1`` and :func:`replay_tournament` checks
one as a whole.

>>> t = Tournament(["ann", "bob", "cid", "dan", "eve"], seed=1)
>>> t.limit, len(t.seating()), t.over
(75, 4, False)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from kozel.engine.errors import MoveError, is_int, want
from kozel.engine.game import GameMatch
from kozel.engine.record import TOURNAMENT_FORMAT
from kozel.layout.bots.base import Bot
from kozel.layout.game import BYKOVO
from kozel.layout.match import Match
from kozel.layout.notation import replay

FORMAT = TOURNAMENT_FORMAT
LIMITS = {4: 100, 5: 75, 6: 60, 7: 50}
"""The score that eliminates a player, by the number of players who started."""
SEATS = 4
RATING_GAINS = (3, 2, 1)
"""Rating points of places 1, 2 and 3 in a rated tournament (Decision 9)."""

TournamentError = MoveError
"""A tournament that cannot go on as asked, or a record that disagrees with the rules."""


@dataclass(frozen=True)
class Standing:
    """A player's line of the final (or current) standings."""

    player: str
    score: int
    eliminated_after: int | None
    """The index of the game after which he was eliminated (0: the first), else ``None``."""
    place: int
    timed_out: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "score": self.score,
            "eliminated_after": self.eliminated_after,
            "place": self.place,
        }


@dataclass(frozen=True)
class PlayedGame:
    """One game of the tournament: who played (tournament indices, in seat order), what it
    added to each of them, its places (as indices) and who timed out (an index, or -1)."""

    players: tuple[int, ...]
    counts: tuple[int, ...]
    added: tuple[int, ...]
    places: tuple[int, ...]
    timed_out: int = -1


def rating_gains(places: Sequence[int]) -> list[int]:
    """Rating points per player from his place (1 = first): 3, 2, 1, then nothing.

    >>> rating_gains([2, 1, 5, 3, 4])
    [2, 3, 0, 1, 0]
    """
    return [RATING_GAINS[p - 1] if p <= len(RATING_GAINS) else 0 for p in places]


class Tournament:
    """A micro-tournament in progress.

    ``players``: labels in the fixed order (4 to 7, all different); ``ratings``: each
    player's rating, or ``None`` for none (game 1 seats out the rating leaders first, then
    by lot); ``seed`` makes every lot and deal reproducible.
    """

    def __init__(
        self,
        players: Sequence[str],
        seed: int | None = None,
        ratings: Sequence[int | None] | None = None,
    ) -> None:
        if not SEATS <= len(players) <= max(LIMITS):
            raise TournamentError(f"a micro-tournament has 4 to 7 players, not {len(players)}")
        if len(set(players)) != len(players):
            raise TournamentError("every player of a tournament needs his own name")
        if ratings is not None and len(ratings) != len(players):
            raise TournamentError(f"{len(ratings)} ratings for {len(players)} players")
        self.players = list(players)
        self.seed = seed
        self.rng: random.Random = random.Random(seed) if seed is not None else random.SystemRandom()
        self.ratings = list(ratings) if ratings is not None else [None] * len(players)
        self.limit = LIMITS[len(players)]
        n = len(players)
        self.scores = [0] * n
        self.history: list[list[int]] = []
        """Every player's score after each game (for dynamics)."""
        self.eliminated_after: list[int | None] = [None] * n
        self.timed_out: list[bool] = [False] * n
        self.games: list[PlayedGame] = []
        self.records: list[dict[str, Any]] = []
        self._seating: list[int] | None = None
        self._end_lot: list[int] | None = None

    # --- reading ------------------------------------------------------------------------

    @property
    def still_in(self) -> list[int]:
        """The players not eliminated, in the fixed order."""
        return [p for p in range(len(self.players)) if self.eliminated_after[p] is None]

    @property
    def over(self) -> bool:
        """True once at most three players are left in (the end, right after a game)."""
        return len(self.still_in) < SEATS

    def sat_out_last(self) -> list[int]:
        """The players still in who did not play the last game (none before game 1)."""
        if not self.games:
            return []
        played = set(self.games[-1].players)
        return [p for p in self.still_in if p not in played]

    # --- seating ------------------------------------------------------------------------

    def seating(self) -> list[int]:
        """The four players of the next game (indices, in the fixed order: seat 0 first).

        Game 1: with more than four players, the rating leaders sit out first, the others
        by lot. Later: everyone who sat out the last game and is still in plays, and the
        other seats go to the worst places of the last game (equal counts: the worse
        tournament score, then lot); after an interrupted game (a timeout), to its players
        by the worse tournament score, then lot."""
        if self.over:
            raise TournamentError("the tournament is over")
        if self._seating is None:
            lot = list(range(len(self.players)))
            self.rng.shuffle(lot)
            position = {p: i for i, p in enumerate(lot)}
            self._seating = sorted(self._choose(lambda p: position[p]))
        return list(self._seating)

    def _choose(self, lot_key: Callable[[int], int]) -> list[int]:
        still_in = self.still_in
        if not self.games:

            def sits_out_first(p: int) -> tuple[int, int, int]:
                rating = self.ratings[p]
                return (0, -rating, lot_key(p)) if rating is not None else (1, 0, lot_key(p))

            out = sorted(still_in, key=sits_out_first)[: len(still_in) - SEATS]
            return [p for p in still_in if p not in out]
        chosen = self.sat_out_last()
        candidates = [p for p in still_in if p not in chosen]
        candidates.sort(key=lambda p: (*self.worse_first_key(p), lot_key(p)))
        return chosen + candidates[: SEATS - len(chosen)]

    def worse_first_key(self, p: int) -> tuple[int, int, int]:
        """How a player of the last game is ordered for the next seats, worst first and
        before the lot: the winner last, then by count (highest first), then by tournament
        score (highest first). After an interrupted game only the score counts."""
        last = self.games[-1]
        if last.timed_out >= 0:
            return (0, 0, -self.scores[p])
        i = last.players.index(p)
        winner = last.places[0] == p
        return (int(winner), -last.counts[i], -self.scores[p])

    def check_seating(self, chosen: Sequence[int]) -> None:
        """Raise ``TournamentError`` unless ``chosen`` (indices in seat order) is a seating
        the rules allow now, whatever the lots drew (a record's check)."""
        names = [self.players[p] for p in chosen]
        want(len(chosen) == SEATS, f"a game seats 4 players, not {len(chosen)}")
        want(len(set(chosen)) == SEATS, f"a player sits twice: {names}")
        want(list(chosen) == sorted(chosen), f"the seats {names} do not follow the fixed order")
        for p in chosen:
            want(
                self.eliminated_after[p] is None,
                f"{self.players[p]} plays but was eliminated after game {self.eliminated_after[p]}",
            )
        if not self.games:
            out = [p for p in self.still_in if p not in chosen]
            for p in out:
                for q in chosen:
                    rp, rq = self.ratings[p], self.ratings[q]
                    want(
                        not (rq is not None and (rp is None or rq > rp)),
                        f"{self.players[q]} (rating {rq}) plays game 1 while "
                        f"{self.players[p]} sits out; the rating leaders sit out first",
                    )
            return
        for p in self.sat_out_last():
            want(p in chosen, f"{self.players[p]} sat out the last game and must play")
        rest = [p for p in self.still_in if p not in self.sat_out_last()]
        for p in rest:
            if p in chosen:
                continue
            for q in chosen:
                if q in rest:
                    want(
                        self.worse_first_key(q) <= self.worse_first_key(p),
                        f"{self.players[q]} plays while {self.players[p]}, who placed worse "
                        f"in the last game, sits out",
                    )

    # --- playing ------------------------------------------------------------------------

    def new_game(self) -> tuple[list[int], Match]:
        """The next game's players (indices in seat order) and its match, dealt from a seed
        drawn from the tournament's generator."""
        seating = self.seating()
        seed = self.rng.getrandbits(32) if self.seed is not None else None
        return seating, BYKOVO.new_match(BYKOVO.options(), seed)

    def add_game(self, seating: Sequence[int], match: GameMatch) -> None:
        """Take a finished game of the players ``seating`` (the game's seats in order): add
        the counts (the winner 0), or after a timeout eliminate the player who ran out of
        time; then eliminate everyone at the limit."""
        want(match.over, "the game is not over")
        if self._seating is not None:
            want(list(seating) == self._seating, "the game was not seated as the tournament said")
        else:
            self.check_seating(seating)
        result = match.result
        assert result is not None
        record = match.record([self.players[p] for p in seating])
        last = record["rounds"][-1]
        if result.timeout is not None:
            self.add_result(seating, last["counts"], [], seating[result.timeout])
        else:
            self.add_result(seating, last["counts"], [seating[s] for s in last["end"]["places"]])
        self.records.append(record)

    def add_result(
        self,
        seating: Sequence[int],
        counts: Sequence[int],
        places: Sequence[int],
        timed_out: int = -1,
    ) -> None:
        """Take a game's outcome: the players ``seating`` (seat order), their ``counts``,
        the ``places`` (players, the winner first), or the player who ``timed_out`` (then
        the game adds nothing, and he is eliminated at once)."""
        index = len(self.games)
        if timed_out >= 0:
            self.eliminated_after[timed_out] = index
            self.timed_out[timed_out] = True
            added = (0,) * SEATS
        else:
            winner = places[0]
            added = tuple(0 if p == winner else c for p, c in zip(seating, counts, strict=True))
            for p, points in zip(seating, added, strict=True):
                self.scores[p] += points
            for p in seating:
                if self.scores[p] >= self.limit:
                    self.eliminated_after[p] = index
        self.games.append(
            PlayedGame(tuple(seating), tuple(counts), added, tuple(places), timed_out)
        )
        self.history.append(list(self.scores))
        self._seating = None

    # --- standings ----------------------------------------------------------------------

    def dynamics_key(self, p: int) -> tuple[int, ...]:
        """Orders equal scores by dynamics: at the latest game after which two scores
        differed, the one who was behind (the higher score) places higher. As a sort key
        (lower first): minus the scores after each game, the latest first."""
        return tuple(-scores[p] for scores in reversed(self.history))

    def place_key(self, p: int) -> tuple[Any, ...]:
        """Sorts the players by place, before any lot: those still in by score, then
        dynamics; then the eliminated, later eliminations first (a timeout below the others
        of its game), each game's by score, then dynamics."""
        after = self.eliminated_after[p]
        if after is None:
            return (0, 0, 0, self.scores[p], self.dynamics_key(p))
        return (1, -after, int(self.timed_out[p]), self.scores[p], self.dynamics_key(p))

    def standings(self) -> list[Standing]:
        """Every player's standing, in the fixed order; places by :meth:`place_key`, exact
        ties by lot (drawn once, when the tournament is over)."""
        n = len(self.players)
        if self.over and self._end_lot is None:
            lot = list(range(n))
            self.rng.shuffle(lot)
            self._end_lot = lot
        lot = self._end_lot or list(range(n))
        order = sorted(range(n), key=lambda p: (self.place_key(p), lot.index(p)))
        place = {p: i + 1 for i, p in enumerate(order)}
        return [
            Standing(
                self.players[p],
                self.scores[p],
                self.eliminated_after[p],
                place[p],
                self.timed_out[p],
            )
            for p in range(n)
        ]

    def record(self) -> dict[str, Any]:
        """The ``kozel-tournament/1`` record (see docs/record.md)."""
        return tournament_record(self)


def tournament_record(t: Tournament) -> dict[str, Any]:
    """``{"format", "players", "seed", "limit", "games", "standings"}`` of a tournament;
    standings carry each player's ``rating`` gain (3, 2, 1 for the top three places)."""
    standings = t.standings()
    gains = rating_gains([s.place for s in standings])
    return {
        "format": FORMAT,
        "game": BYKOVO.id,
        "players": list(t.players),
        "seed": t.seed,
        "limit": t.limit,
        "games": list(t.records),
        "standings": [
            {**s.to_dict(), "rating": gain} for s, gain in zip(standings, gains, strict=True)
        ],
    }


def play_tournament(
    players: Sequence[str],
    bots: Sequence[Bot],
    seed: int | None = None,
    on_game: Callable[[Tournament], None] | None = None,
) -> Tournament:
    """Play a whole tournament between computer players (``bots[i]`` plays for
    ``players[i]``); ``on_game(t)`` is called after every game."""
    t = Tournament(players, seed)
    while not t.over:
        seating, match = t.new_game()
        match.deal_next()
        while not match.over:
            seat = match.to_move
            assert seat is not None
            legal = match.legal_moves()
            bot = bots[seating[seat]]
            match.push(legal[0] if len(legal) == 1 else bot.choose(match.view(seat)))
        t.add_game(seating, match)
        if on_game is not None:
            on_game(t)
    return t


# --- checking a record ------------------------------------------------------------------


def replay_tournament(record: object) -> Tournament:
    """Check a ``kozel-tournament/1`` record as a whole: every game replayed strictly, the
    seating of each game, the scores, eliminations and standings recomputed and compared;
    return the tournament, or raise ``TournamentError`` naming the first discrepancy."""
    want(isinstance(record, dict), "a tournament record must be a JSON object")
    assert isinstance(record, dict)
    want(record.get("format") == FORMAT, f"unknown format {record.get('format')!r}")
    players = record.get("players")
    want(
        isinstance(players, list) and all(isinstance(p, str) for p in players),
        "players must be a list of names",
    )
    assert isinstance(players, list)
    seed = record.get("seed")
    want(seed is None or is_int(seed), f"seed must be an integer or null, got {seed!r}")
    t = Tournament(players, None)
    if "limit" in record:
        want(
            record["limit"] == t.limit and is_int(record["limit"]),
            f"limit is {record['limit']!r} but {len(players)} players play to {t.limit}",
        )
    games = record.get("games")
    want(isinstance(games, list) and len(games) > 0, "games must be a non-empty list")
    assert isinstance(games, list)
    index_of = {name: i for i, name in enumerate(players)}
    for g, game in enumerate(games):
        where = f"game {g}"
        want(not t.over, f"{where}: the tournament was already over after game {g - 1}")
        want(isinstance(game, dict), f"{where}: must be a record object")
        assert isinstance(game, dict)
        want(game.get("game") == BYKOVO.id, f"{where}: a tournament plays bykovo games")
        seats = game.get("seats")
        want(
            isinstance(seats, list) and all(s in index_of for s in seats),
            f"{where}: seats {seats!r} must name the tournament's players",
        )
        assert isinstance(seats, list)
        seating = [index_of[s] for s in seats]
        try:
            t.check_seating(seating)
            match = replay(game, lambda _: BYKOVO)
        except MoveError as err:
            raise TournamentError(f"{where}: {err}") from None
        t.add_game(seating, match)
    want(
        t.over,
        f"the tournament is not over after game {len(games) - 1}: "
        f"{len(t.still_in)} players are still in",
    )
    _check_standings(t, record.get("standings"))
    return t


def _check_standings(t: Tournament, raw: object) -> None:
    n = len(t.players)
    want(isinstance(raw, list) and len(raw) == n, f"standings must list all {n} players")
    assert isinstance(raw, list)
    computed = {s.player: s for s in t.standings()}
    places: dict[int, str] = {}
    for entry in raw:
        want(isinstance(entry, dict), "a standing must be an object")
        name = entry.get("player")
        want(name in computed, f"standings name {name!r}, who is not a player")
        want(name not in places.values(), f"standings list {name} twice")
        mine = computed[name]
        for key, value in (("score", mine.score), ("eliminated_after", mine.eliminated_after)):
            recorded = entry.get(key)
            want(
                type(recorded) is type(value) and recorded == value,
                f"standings: {name}'s {key} is {recorded!r} but the rules give {value!r}",
            )
        place = entry.get("place")
        want(
            is_int(place) and 1 <= place <= n and place not in places,
            f"standings: {name}'s place {place!r} must be one of 1..{n}, each once",
        )
        places[place] = name
    index_of = {name: i for i, name in enumerate(t.players)}
    order = [index_of[places[k]] for k in range(1, n + 1)]
    for higher, lower in pairwise(order):
        want(
            t.place_key(higher) <= t.place_key(lower),
            f"standings: {t.players[higher]} places above {t.players[lower]} but the rules "
            f"put {t.players[lower]} higher",
        )
    gains = rating_gains(list(range(1, n + 1)))
    for k, p in enumerate(order):
        entry = next(e for e in raw if e.get("player") == t.players[p])
        if "rating" in entry:
            want(
                entry["rating"] == gains[k] and is_int(entry["rating"]),
                f"standings: {t.players[p]}'s rating is {entry['rating']!r} but place {k + 1} "
                f"gains {gains[k]}",
            )
