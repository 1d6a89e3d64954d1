"""Rounds make a match: the score sheet (remembered, open accounts, eggs), the Goat, rating.

Scoring is a pure function, :func:`settle`, that RULES.md §2.5–2.7 and §3.3 describe; the
:class:`Match` deals rounds, chooses who leads, settles each round and notices the end.

>>> before = [Account(0, False, r) for r in (19, 0, 7, 4)]
>>> s = settle(Options(), before, [0, 3, 13, 5], out_unit=0, eggs=0)
>>> [a.show() for a in s.after]
['0', '+3', '20', '+9']
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from kozel.core import DOUBLE_OF, IllegalMove, Move
from kozel.round import Deal, Round, RoundEnd, deal_tiles
from kozel.rules import Options, Ruleset

SPECIAL_BONUS = {DOUBLE_OF[6]: 50, DOUBLE_OF[0]: 25}
"""Yard Goat (``special_doubles``): what leading or ending a round with 6-6 / 0-0 costs."""
RATING_BASE = 100


@dataclass(frozen=True)
class Account:
    """One scoring unit's line of the sheet: its account, open or closed, and remembered points."""

    account: int = 0
    open: bool = False
    remembered: int = 0

    def charge(self, amount: int, threshold: int) -> Account:
        """Add a round's charge: it opens a closed account when it alone reaches ``threshold``."""
        if self.open:
            return Account(self.account + amount, True, 0)
        if amount >= threshold:
            return Account(amount + self.remembered, True, 0)
        return Account(self.account, False, self.remembered + amount)

    def forget(self) -> Account:
        """Lose the remembered points (going out, or another's fish under ``all_to_loser``)."""
        return Account(self.account, self.open, 0)

    def show(self) -> str:
        """As the sheet shows it: an open account in red without ``+``, remembered with ``+``."""
        if self.open:
            return str(self.account)
        return f"+{self.remembered}" if self.remembered else "0"

    def to_dict(self) -> dict[str, int | bool]:
        return {"account": self.account, "open": self.open, "remembered": self.remembered}


@dataclass(frozen=True)
class Settlement:
    """What one round did to the sheet."""

    charged: list[int]
    after: list[Account]
    eggs: int
    loser: int | None
    """The unit charged as this round's loser (the one that took the eggs), if one."""


def _single_top(values: list[int], candidates: list[int]) -> int | None:
    top = max(values[u] for u in candidates)
    tops = [u for u in candidates if values[u] == top]
    return tops[0] if len(tops) == 1 else None


def settle(
    opts: Options,
    before: list[Account],
    unit_counts: list[int],
    *,
    out_unit: int | None,
    eggs: int,
    bonus: int = 0,
) -> Settlement:
    """Score a round for every unit (RULES.md §2.5–2.7).

    ``out_unit`` is the unit that went out, ``None`` after a fish. ``eggs`` is what earlier
    ties carried forward; ``bonus`` the Yard Goat extra charge for the round's loser. Returns
    each unit's charge, the accounts after, the eggs carried on and the loser if there is one.
    """
    units = range(len(before))
    charged = [0] * len(before)
    after = list(before)
    threshold = opts.open_threshold
    if out_unit is not None:
        others = [u for u in units if u != out_unit]
        loser = _single_top(unit_counts, others)
        for u in others:
            charged[u] = unit_counts[u]
        if loser is not None:
            charged[loser] += eggs + bonus
            eggs = 0
        else:
            eggs += bonus
        for u in others:
            after[u] = before[u].charge(charged[u], threshold)
        after[out_unit] = before[out_unit].forget()
        return Settlement(charged, after, eggs, loser)

    loser = _single_top(unit_counts, list(units))
    if opts.fish_mode == "everyone":
        charged = list(unit_counts)
        if loser is not None:
            charged[loser] += eggs + bonus
            eggs = 0
        else:
            eggs += bonus
        after = [before[u].charge(charged[u], threshold) for u in units]
        return Settlement(charged, after, eggs, loser)

    if loser is None:  # a tie for the highest count: a draw, the whole amount becomes eggs
        return Settlement(charged, after, eggs + sum(unit_counts) + bonus, None)
    own = sum(unit_counts) if opts.fish_mode == "all_to_loser" else unit_counts[loser]
    charged[loser] = own + eggs + bonus
    after[loser] = before[loser].charge(charged[loser], threshold)
    if opts.fish_mode == "all_to_loser":
        for u in units:
            if u != loser:
                after[u] = before[u].forget()
    return Settlement(charged, after, 0, loser)


def round_half_away(numerator: int, denominator: int) -> int:
    """``numerator / denominator`` rounded half away from zero, in exact integers.

    >>> [round_half_away(n, 10) for n in (75, 2, 19, -5, -15, 25)]
    [8, 0, 2, -1, -2, 3]
    """
    sign = -1 if (numerator < 0) != (denominator < 0) else 1
    n, d = abs(numerator), abs(denominator)
    return sign * ((2 * n + d) // (2 * d))


def rating_after_game(accounts: list[int], losers: list[int]) -> list[int]:
    """Rating points per entry of ``accounts`` at a normal end (RULES.md §12).

    >>> rating_after_game([25, 104, 30], [1])
    [8, 0, 7]
    """
    return [
        0 if i in losers else max(1, round_half_away(RATING_BASE - acc, 10))
        for i, acc in enumerate(accounts)
    ]


def rating_after_timeout(accounts: list[int], eliminated: int) -> list[int]:
    """Rating points per entry after ``eliminated`` timed out (RULES.md §12).

    >>> rating_after_timeout([30, 32, 13], 1)
    [1, 0, 2]
    """
    gone = accounts[eliminated]
    return [
        0 if i == eliminated else max(1, round_half_away(gone - acc, 10))
        for i, acc in enumerate(accounts)
    ]


@dataclass(frozen=True)
class RoundResult:
    """A finished round as the sheet and the record keep it."""

    deal: Deal
    redeals: int
    round: Round
    end: RoundEnd
    counts: list[int]
    before: list[Account]
    charged: list[int]
    after: list[Account]
    eggs: int


@dataclass(frozen=True)
class MatchResult:
    losers: list[int]
    accounts: list[int]
    rating: list[int]
    timeout: int | None = None


class Match:
    """A game of several rounds, played to its end (the Goat).

    Usage: ``m = Match(GOAT, opts, seed=1)``; while ``not m.over``: ``m.round.legal_moves()``,
    ``m.push(move)``; when ``m.round.over`` and the match is not, ``m.next_round()``.
    ``next_round(deal)`` plays a given deal instead of dealing one (replays, tests).
    """

    def __init__(self, rules: Ruleset, opts: Options, seed: int | None = None) -> None:
        self.rules = rules
        self.opts = opts
        self.seed = seed
        self.rng: random.Random = random.Random(seed) if seed is not None else random.SystemRandom()
        self.sheet: list[Account] = [Account() for _ in range(opts.units)]
        self.eggs = 0
        self.results: list[RoundResult] = []
        self.result: MatchResult | None = None
        self.redeals = 0
        self._round: Round | None = None

    @property
    def round(self) -> Round:
        if self._round is None:
            raise IllegalMove("no round has been dealt yet")
        return self._round

    @property
    def started(self) -> bool:
        return self._round is not None

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def turn(self) -> int:
        return self.round.turn

    def copy(self) -> Match:
        """An independent copy: pushing moves on it leaves this match as it is."""
        other = Match.__new__(Match)
        other.__dict__.update(self.__dict__)
        other.sheet = list(self.sheet)
        other.results = list(self.results)
        if self._round is not None:
            other._round = self._round.copy()
        return other

    def next_round(self, deal: Deal | None = None, redeals: int = 0) -> Round:
        """Deal the next round (from the match's generator unless ``deal`` is given)."""
        if self.over:
            raise IllegalMove("the game is over")
        if self._round is not None and not self._round.over:
            raise IllegalMove("the current round is not over")
        if deal is None:
            deal, redeals = deal_tiles(self.rng, self.opts.players)
        else:
            deal.validate(self.opts.players)
            if deal.needs_redeal():
                raise ValueError(
                    "this deal must be thrown in: a hand has 5+ doubles or 6+ of a suit"
                )
        self.redeals = redeals
        hands = deal.masks
        if not self.results:
            leader, first = self.rules.first_leader(hands)
            lead_mask = 1 << first
        else:
            previous = self.results[-1].end
            leader = previous.seat
            if previous.kind == "out" and self.opts.lead_by == "winner_partner":
                leader = (leader + 2) % self.opts.players
            lead_mask = self.rules.lead_mask(hands[leader], self.opts)
        self._round = Round(self.rules, self.opts, deal, leader, lead_mask)
        return self._round

    def legal_moves(self) -> list[Move]:
        return [] if self.over else self.round.legal_moves()

    def push(self, move: Move) -> None:
        """Apply a move of the seat to move; score the round if it ended."""
        if self.over:
            raise IllegalMove("the game is over")
        rnd = self.round
        rnd.push(move)
        if rnd.end is not None:
            self._score(rnd)

    def timeout(self, seat: int) -> None:
        """``seat`` let its clock run out: the round is interrupted, unscored, and the game ends."""
        if self.over:
            raise IllegalMove("the game is over")
        rnd = self.round
        rnd.interrupt(seat)
        self._record(rnd, [0] * len(self.sheet), list(self.sheet), self.eggs)
        accounts = [self.sheet[self.opts.unit_of(s)].account for s in range(self.opts.players)]
        self.result = MatchResult(
            [], [a.account for a in self.sheet], rating_after_timeout(accounts, seat), seat
        )

    def unit_counts(self, counts: list[int], out_seat: int | None) -> list[int]:
        """Each unit's round count; a team whose player went out counts 0."""
        opts = self.opts
        if not opts.teams:
            return list(counts)
        totals = [0] * opts.units
        for seat, c in enumerate(counts):
            totals[opts.unit_of(seat)] += c
        if out_seat is not None:
            totals[opts.unit_of(out_seat)] = 0
        return totals

    def _score(self, rnd: Round) -> None:
        end = rnd.end
        assert end is not None
        opts = self.opts
        counts = rnd.counts()
        out_seat = end.seat if end.kind == "out" else None
        bonus = 0
        if opts.special_doubles:
            bonus = SPECIAL_BONUS.get(rnd.first_tile, 0) + SPECIAL_BONUS.get(rnd.last_tile, 0)
        settlement = settle(
            opts,
            self.sheet,
            self.unit_counts(counts, out_seat),
            out_unit=None if out_seat is None else opts.unit_of(out_seat),
            eggs=self.eggs,
            bonus=bonus,
        )
        self._record(rnd, settlement.charged, settlement.after, settlement.eggs)
        limit = opts.loss_limit
        losers = sorted(
            (u for u, a in enumerate(self.sheet) if a.account >= limit),
            key=lambda u: -self.sheet[u].account,
        )
        if losers:
            accounts = [a.account for a in self.sheet]
            per_seat = [accounts[opts.unit_of(s)] for s in range(opts.players)]
            seat_losers = [s for s in range(opts.players) if opts.unit_of(s) in losers]
            self.result = MatchResult(losers, accounts, rating_after_game(per_seat, seat_losers))

    def _record(self, rnd: Round, charged: list[int], after: list[Account], eggs: int) -> None:
        assert rnd.end is not None
        self.results.append(
            RoundResult(
                rnd.deal,
                self.redeals,
                rnd,
                rnd.end,
                rnd.counts(),
                self.sheet,
                charged,
                after,
                eggs,
            )
        )
        self.sheet = after
        self.eggs = eggs
