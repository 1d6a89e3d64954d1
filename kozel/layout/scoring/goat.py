"""Goat's score sheet: remembered points, open accounts, fish modes, eggs, the Goat.

Scoring is a pure function, :func:`settle`, that docs/rules.md#goat-scoring,
docs/rules.md#goat-fish-scoring, docs/rules.md#team-goat and docs/rules.md#yard-goat describe;
:class:`GoatScoring` is the policy Goat and Donkey play by.

>>> from kozel.games import GOAT
>>> before = [Account(0, False, r) for r in (19, 0, 7, 4)]
>>> s = settle(GOAT.options(), before, [0, 3, 13, 5], out_unit=0, eggs=0)
>>> [a.show() for a in s.after]
['0', '+3', '20', '+9']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from kozel.core import DOUBLE_OF
from kozel.engine.options import Options
from kozel.engine.result import MatchResult
from kozel.layout.scoring.base import Cell, Scoring, Settlement, round_half_away

if TYPE_CHECKING:
    from kozel.layout.round import Round

FishMode = Literal["everyone", "all_to_loser", "own_to_loser"]
FISH_MODES: tuple[FishMode, ...] = ("everyone", "all_to_loser", "own_to_loser")
LeadBy = Literal["winner", "winner_partner"]
LEAD_BY: tuple[LeadBy, ...] = ("winner", "winner_partner")
GoatHandSizes = Literal["seven", "by_players"]
GOAT_HAND_SIZES: tuple[GoatHandSizes, ...] = ("seven", "by_players")
FirstLead = Literal["one_one", "six_six", "zero_zero"]
FIRST_LEADS: tuple[FirstLead, ...] = ("one_one", "six_six", "zero_zero")

SPECIAL_BONUS = {DOUBLE_OF[6]: 50, DOUBLE_OF[0]: 25}
"""Yard Goat (``special_doubles``): what leading or ending a round with 6-6 / 0-0 costs."""
RATING_BASE = 100


@dataclass(frozen=True, kw_only=True)
class GoatOptions(Options):
    """Goat's and Donkey's options (docs/rules.md#goat-options, docs/rules.md#donkey-game)."""

    fish_mode: FishMode
    fish_ignores_double: bool
    bazaar_reserve: int
    open_threshold: int
    lone_zero_value: int
    loss_limit: int
    lead_by: LeadBy
    special_doubles: bool
    hand_sizes: GoatHandSizes
    first_lead: FirstLead

    def reserve_size(self) -> int:
        return self.bazaar_reserve

    def ignores_doubles(self) -> bool:
        return self.fish_ignores_double


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
class GoatSettlement:
    """What :func:`settle` did to the sheet."""

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
) -> GoatSettlement:
    """Score a round for every unit (docs/rules.md#goat-scoring,
    docs/rules.md#goat-fish-scoring, docs/rules.md#team-goat).

    ``out_unit`` is the unit that went out, ``None`` after a fish. ``eggs`` is what earlier
    ties carried forward; ``bonus`` the Yard Goat extra charge: after an out every other unit
    pays it, after a fish the loser the fish mode charges (on a tie it joins the eggs). Returns
    each unit's charge, the accounts after, the eggs carried on and the loser if there is one.
    """
    assert isinstance(opts, GoatOptions)
    units = range(len(before))
    charged = [0] * len(before)
    after = list(before)
    threshold = opts.open_threshold
    if out_unit is not None:
        others = [u for u in units if u != out_unit]
        loser = _single_top(unit_counts, others)
        for u in others:  # the Yard Goat extra goes to every unit but the one that went out
            charged[u] = unit_counts[u] + bonus
        if loser is not None:
            charged[loser] += eggs
            eggs = 0
        for u in others:
            after[u] = before[u].charge(charged[u], threshold)
        after[out_unit] = before[out_unit].forget()
        return GoatSettlement(charged, after, eggs, loser)

    loser = _single_top(unit_counts, list(units))
    if opts.fish_mode == "everyone":
        charged = list(unit_counts)
        if loser is not None:
            charged[loser] += eggs + bonus
            eggs = 0
        else:
            eggs += bonus
        after = [before[u].charge(charged[u], threshold) for u in units]
        return GoatSettlement(charged, after, eggs, loser)

    if loser is None:  # a tie for the highest count: a draw, the whole amount becomes eggs
        return GoatSettlement(charged, after, eggs + sum(unit_counts) + bonus, None)
    own = sum(unit_counts) if opts.fish_mode == "all_to_loser" else unit_counts[loser]
    charged[loser] = own + eggs + bonus
    after[loser] = before[loser].charge(charged[loser], threshold)
    if opts.fish_mode == "all_to_loser":
        for u in units:
            if u != loser:
                after[u] = before[u].forget()
    return GoatSettlement(charged, after, 0, loser)


def rating_after_game(accounts: list[int], losers: list[int]) -> list[int]:
    """Rating points per entry of ``accounts`` at a normal end (docs/rules.md#club).

    >>> rating_after_game([25, 104, 30], [1])
    [8, 0, 7]
    """
    return [
        0 if i in losers else max(1, round_half_away(RATING_BASE - acc, 10))
        for i, acc in enumerate(accounts)
    ]


def rating_after_timeout(accounts: list[int], eliminated: int) -> list[int]:
    """Rating points per entry after ``eliminated`` timed out (docs/rules.md#club).

    >>> rating_after_timeout([30, 32, 13], 1)
    [1, 0, 2]
    """
    gone = accounts[eliminated]
    return [
        0 if i == eliminated else max(1, round_half_away(gone - acc, 10))
        for i, acc in enumerate(accounts)
    ]


def _entries(
    before: list[Account], charged: list[int], after: list[Account]
) -> list[dict[str, Any]]:
    return [
        {"before": b.to_dict(), "charged": c, "after": a.to_dict()}
        for b, c, a in zip(before, charged, after, strict=True)
    ]


class GoatScoring(Scoring):
    """The loser-scoring sheet of Goat and Donkey (docs/rules.md#goat-scoring,
    docs/rules.md#team-goat, docs/rules.md#yard-goat, docs/rules.md#club)."""

    sheet_kind = "goat"

    def __init__(self, opts: Options) -> None:
        assert isinstance(opts, GoatOptions)
        super().__init__(opts)
        self.goat: GoatOptions = opts

    def initial(self) -> tuple[Cell, ...]:
        return tuple(Account() for _ in range(self.opts.units))

    def goal(self) -> str:
        return f"Whoever reaches {self.goat.loss_limit} is the Goat."

    def cell_dict(self, cell: Cell) -> dict[str, int | bool]:
        assert isinstance(cell, Account)
        return cell.to_dict()

    def score_of(self, cell: Cell) -> int:
        assert isinstance(cell, Account)
        return cell.account

    def settle(
        self, sheet: tuple[Cell, ...], eggs: int, rnd: Round, counts: list[int], during: list[int]
    ) -> Settlement:
        end = rnd.end
        assert end is not None
        opts = self.goat
        out_seat = end.seat if end.kind == "out" else None
        bonus = 0
        if opts.special_doubles:
            bonus = SPECIAL_BONUS.get(rnd.first_tile, 0) + SPECIAL_BONUS.get(rnd.last_tile, 0)
        before = list(sheet)
        s = settle(
            opts,
            before,
            self.unit_counts(counts, out_seat),
            out_unit=None if out_seat is None else opts.unit_of(out_seat),
            eggs=eggs,
            bonus=bonus,
        )
        result = None
        limit = opts.loss_limit
        losers = sorted(
            (u for u, a in enumerate(s.after) if a.account >= limit),
            key=lambda u: -s.after[u].account,
        )
        if losers:
            accounts = [a.account for a in s.after]
            seat_losers = [seat for seat in range(opts.players) if opts.unit_of(seat) in losers]
            rating = rating_after_game(self.per_seat(accounts), seat_losers)
            result = MatchResult("losers", losers, accounts, rating)
        return Settlement(
            _entries(before, s.charged, s.after), tuple(s.after), s.charged, s.eggs, result
        )

    def timeout(
        self, sheet: tuple[Cell, ...], eggs: int, seat: int, during: list[int]
    ) -> Settlement:
        accounts = [a.account for a in sheet]
        zero = [0] * len(sheet)
        rating = rating_after_timeout(self.per_seat(accounts), seat)
        result = MatchResult("losers", [], accounts, rating, seat)
        before = list(sheet)
        return Settlement(_entries(before, zero, before), sheet, zero, eggs, result)
