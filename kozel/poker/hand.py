"""One hand of Domino Poker (docs/rules.md#poker-decisions item 4): antes, the deal, a betting
round, the draw, a second betting round and the showdown (or everyone else folding).

A :class:`PokerHand` is a pure state machine: the deal and the order of the shuffled discards
come from outside (the match's generator, or a record), so the same inputs play the same hand.
Betting (card poker's rules where §10.1 is silent, ``docs/decisions.md``):

- the first to act is the first seat left of the dealer still able to bet; a seat all-in (no
  chips left) is skipped, and a round where fewer than two players could still bet is not
  played;
- check (nothing to call), bet (no bet yet this round), call, raise, fold (only facing a bet);
- fixed limit: a bet or raise is ``bet`` chips (twice that in the second round) on top of the
  call, at most 3 raises a round; no limit: any bet from 1 to the player's chips, a raise at
  least the last bet or raise; either way a player with fewer chips may go all-in for less,
  and any raise, short or not, asks everyone still able to act to act again;
- nobody bets or raises when no other player could answer (all the others all-in).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from kozel.core import TILE_NAMES, IllegalMove, Tile
from kozel.poker.moves import CHECK, FOLD, Bet, Call, Check, Discard, Fold, PokerMove, Raise
from kozel.poker.ranking import CATEGORIES, HAND_SIZE, POKER_TILES, strength

MAX_RAISES = 3
"""Fixed limit: raises allowed in one betting round after its bet."""

Shuffle = Callable[[list[Tile]], None]
"""Shuffles the earlier discards in place when the bazaar runs out (the match's generator)."""


@dataclass(frozen=True)
class Pot:
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The pot as the record writes it (its takes are not in the record)."""
        return {"amount": self.amount, "winners": list(self.winners)}

    def takes(self) -> tuple[int, ...]:
        """Per winner (in the order of ``winners``), the chips he takes: an equal share, and
        the odd chips one each to the first winners, clockwise from the dealer's left."""
        share, odd = divmod(self.amount, len(self.winners))
        return tuple(share + (1 if i < odd else 0) for i in range(len(self.winners)))


@dataclass
class PokerHand:
    """A hand from the antes to the settlement; ``chips`` are the stacks before the antes."""

    players: int
    dealer: int
    chips_before: tuple[int, ...]
    hands: list[list[Tile]]
    bazaar: list[Tile]
    ante: int
    limit: str
    bet_size: int
    stacks: list[int] = field(init=False)
    committed: list[int] = field(init=False)
    round_bets: list[int] = field(init=False)
    folded: list[bool] = field(init=False)
    in_hand: list[bool] = field(init=False)
    phase: str = field(init=False, default="bet1")
    """``bet1``, ``draw``, ``bet2`` or ``over``."""
    turn: int | None = field(init=False, default=None)
    acted: set[int] = field(init=False, default_factory=set)
    raises: int = field(init=False, default=0)
    last_raise: int = field(init=False, default=0)
    discards: list[Tile] = field(init=False, default_factory=list)
    """Tiles thrown in so far and not drawn again (the pool once the bazaar runs out). A
    player's own discards join it before he draws: they are earlier than his draw."""
    drawn_count: list[int] = field(init=False)
    """Per seat, the number of tiles discarded (-1 before the seat's draw)."""
    moves: list[dict[str, Any]] = field(init=False, default_factory=list)
    """Every action as the record writes it (antes first)."""
    dealt: tuple[tuple[Tile, ...], ...] = field(init=False)
    dealt_bazaar: tuple[Tile, ...] = field(init=False)
    pots: list[Pot] = field(init=False, default_factory=list)
    end_kind: str = field(init=False, default="")
    showdown: list[dict[str, Any]] = field(init=False, default_factory=list)
    own_draws: list[tuple[Tile, ...]] = field(init=False)
    own_discards: list[tuple[Tile, ...]] = field(init=False)

    def __post_init__(self) -> None:
        n = self.players
        self.hands = [list(h) for h in self.hands]  # the caller's lists stay as they are
        self.bazaar = list(self.bazaar)
        self.in_hand = [c > 0 for c in self.chips_before]
        self.validate_deal()
        self.dealt = tuple(tuple(h) for h in self.hands)
        self.dealt_bazaar = tuple(self.bazaar)
        self.hands = [sorted(h) for h in self.hands]
        self.stacks = list(self.chips_before)
        self.committed = [0] * n
        self.round_bets = [0] * n
        self.folded = [not i for i in self.in_hand]
        self.drawn_count = [-1] * n
        self.own_draws = [()] * n
        self.own_discards = [()] * n
        for s in self.order_from_left():
            if self.in_hand[s]:
                paid = min(self.ante, self.stacks[s])
                self.stacks[s] -= paid
                self.committed[s] += paid
                self.moves.append({"seat": s, "ante": paid})
        self._start_betting("bet1")

    def validate_deal(self) -> None:
        """``ValueError`` unless the deal gives 5 tiles to each player with chips, none to the
        others, and the rest of the 20 tiles to the bazaar."""
        if len(self.hands) != self.players:
            raise ValueError(f"the deal must list {self.players} hands, got {len(self.hands)}")
        for s, hand in enumerate(self.hands):
            want = HAND_SIZE if self.in_hand[s] else 0
            if len(hand) != want:
                why = "" if want else " (the seat has no chips)"
                raise ValueError(f"seat {s}'s hand must have {want} tiles{why}, got {len(hand)}")
        everything = [t for h in self.hands for t in h] + list(self.bazaar)
        if sorted(everything) != list(POKER_TILES):
            raise ValueError("the hands and the bazaar must hold each of the 20 tiles once")

    # --- seats ----------------------------------------------------------------------------

    def order_from_left(self) -> list[int]:
        """Every seat, from the dealer's left round to the dealer."""
        return [(self.dealer + i) % self.players for i in range(1, self.players + 1)]

    def live(self) -> list[int]:
        """The seats still in the hand (dealt and not folded), from the dealer's left."""
        return [s for s in self.order_from_left() if not self.folded[s]]

    def can_act(self, seat: int) -> bool:
        return not self.folded[seat] and self.stacks[seat] > 0

    @property
    def pot(self) -> int:
        return sum(self.committed)

    @property
    def over(self) -> bool:
        return self.phase == "over"

    # --- betting --------------------------------------------------------------------------

    def round_size(self) -> int:
        return self.bet_size * (1 if self.phase == "bet1" else 2)

    def _start_betting(self, phase: str) -> None:
        self.phase = phase
        self.round_bets = [0] * self.players
        self.acted = set()
        self.raises = 0
        self.last_raise = 0
        if len(self.live()) < 2:
            self._settle()
        elif sum(self.can_act(s) for s in self.live()) < 2:
            self._after_betting()
        else:
            self.turn = None
            self._next_to_act(self.dealer)

    def _next_to_act(self, after: int) -> None:
        top = max(self.round_bets)
        for i in range(1, self.players + 1):
            s = (after + i) % self.players
            if self.can_act(s) and (s not in self.acted or self.round_bets[s] < top):
                self.turn = s
                return
        self._after_betting()

    def _after_betting(self) -> None:
        if len(self.live()) < 2:
            self._settle()
        elif self.phase == "bet1":
            self.phase = "draw"
            self.turn = None
            self._next_drawer()
        else:
            self._settle()

    def to_call(self, seat: int) -> int:
        return min(max(self.round_bets) - self.round_bets[seat], self.stacks[seat])

    def _someone_answers(self, seat: int) -> bool:
        return any(self.can_act(s) for s in self.live() if s != seat)

    def legal_moves(self) -> list[PokerMove]:
        """The moves of the seat to move (none when the hand is over)."""
        seat = self.turn
        if seat is None:
            return []
        if self.phase == "draw":
            return self._discards(seat)
        stack = self.stacks[seat]
        owed = max(self.round_bets) - self.round_bets[seat]
        moves: list[PokerMove] = []
        if owed == 0:
            moves.append(CHECK)
        else:
            moves.append(FOLD)
            moves.append(Call(min(owed, stack)))
        if stack <= owed or not self._someone_answers(seat):
            return moves
        if max(self.round_bets) == 0:
            if self.limit == "fixed":
                moves.append(Bet(min(self.round_size(), stack)))
            else:
                moves.extend(Bet(n) for n in range(1, stack + 1))
        elif self.limit == "fixed":
            if self.raises < MAX_RAISES:
                moves.append(Raise(min(owed + self.round_size(), stack)))
        else:
            least = owed + max(self.last_raise, 1)
            if stack < least:
                moves.append(Raise(stack))
            else:
                moves.extend(Raise(n) for n in range(least, stack + 1))
        return moves

    def _discards(self, seat: int) -> list[PokerMove]:
        hand = self.hands[seat]
        return [Discard(c) for k in range(HAND_SIZE + 1) for c in combinations(hand, k)]

    def _next_drawer(self) -> None:
        for s in self.live():
            if self.drawn_count[s] < 0:
                self.turn = s
                return
        self.turn = None
        self._start_betting("bet2")

    def push(self, move: PokerMove, shuffle: Shuffle, drew: Sequence[Tile] | None = None) -> None:
        """Apply a move of the seat to move; ``IllegalMove`` saying why it is not legal. A
        discard draws from the bazaar, then from the earlier discards shuffled by ``shuffle``;
        ``drew`` (a replay) names the tiles drawn instead, checked against that order."""
        seat = self.turn
        if seat is None:
            raise IllegalMove("nobody is to move: the hand is over")
        if isinstance(move, Discard):
            if self.phase != "draw":
                raise IllegalMove(f"seat {seat} cannot discard during the betting")
            self._draw(seat, move, shuffle, drew)
            return
        if self.phase == "draw":
            raise IllegalMove(f"seat {seat} must discard (0 to 5 tiles) now, not {move}")
        legal = self.legal_moves()
        if move not in legal:
            raise IllegalMove(self._why_not(seat, move, legal))
        record: dict[str, Any] = {"seat": seat}
        if isinstance(move, Check):
            record["check"] = True
        elif isinstance(move, Fold):
            record["fold"] = True
            self.folded[seat] = True
        else:
            top = max(self.round_bets)
            self.stacks[seat] -= move.amount
            self.committed[seat] += move.amount
            self.round_bets[seat] += move.amount
            raised = self.round_bets[seat] - top
            if isinstance(move, Bet | Raise):
                self.raises += isinstance(move, Raise)
                self.last_raise = max(self.last_raise, raised)
                self.acted = set()
            record[type(move).__name__.lower()] = move.amount
        self.acted.add(seat)
        self.moves.append(record)
        if len(self.live()) < 2:
            self._settle()
        else:
            self._next_to_act(seat)

    def _why_not(self, seat: int, move: PokerMove, legal: list[PokerMove]) -> str:
        owed = max(self.round_bets) - self.round_bets[seat]
        if isinstance(move, Check):
            return f"seat {seat} cannot check: {owed} to call"
        if isinstance(move, Fold):
            return f"seat {seat} cannot fold: nothing to call (check)"
        kind = type(move).__name__.lower()
        amounts = [m.amount for m in legal if type(m) is type(move)]  # type: ignore[union-attr]
        if not amounts:
            return f"seat {seat} cannot {kind} now; legal: {', '.join(map(str, legal))}"
        allowed = str(amounts[0]) if len(amounts) == 1 else f"{amounts[0]}..{amounts[-1]}"
        return f"seat {seat} cannot {kind} {move.amount} chips: {kind} {allowed}"  # type: ignore[union-attr]

    def _draw(
        self, seat: int, move: Discard, shuffle: Shuffle, drew: Sequence[Tile] | None
    ) -> None:
        hand = self.hands[seat]
        if not set(move.tiles) <= set(hand):
            stray = [TILE_NAMES[t] for t in move.tiles if t not in hand]
            raise IllegalMove(f"seat {seat} does not hold {', '.join(stray)}")
        k = len(move.tiles)
        if len(set(move.tiles)) != k or list(move.tiles) != sorted(move.tiles):
            raise IllegalMove(f"seat {seat} must name each discarded tile once")
        self.discards.extend(move.tiles)  # thrown in before the draw: earlier discards too
        from_bazaar = min(k, len(self.bazaar))
        taken = self.bazaar[:from_bazaar]
        rest = k - from_bazaar
        if drew is not None:
            if len(drew) != k or len(set(drew)) != k:
                raise IllegalMove(f"seat {seat} discarded {k} tiles and must draw {k} different")
            if list(drew[:from_bazaar]) != taken:
                names = ", ".join(TILE_NAMES[t] for t in taken)
                raise IllegalMove(
                    f"seat {seat} must draw the bazaar's next tiles in order first: {names}"
                )
            later = list(drew[from_bazaar:])
            if not set(later) <= set(self.discards):
                stray = [TILE_NAMES[t] for t in later if t not in self.discards]
                raise IllegalMove(
                    f"seat {seat} drew {', '.join(stray)} once the bazaar ran out, but only "
                    "earlier discards can be drawn then"
                )
            self.discards = [t for t in self.discards if t not in later]
        else:
            later = []
            if rest:
                shuffle(self.discards)
                later, self.discards = self.discards[:rest], self.discards[rest:]
        del self.bazaar[:from_bazaar]
        new = [*taken, *later]
        self.hands[seat] = sorted([t for t in hand if t not in move.tiles] + new)
        self.drawn_count[seat] = k
        self.own_discards[seat] = move.tiles
        self.own_draws[seat] = tuple(new)
        self.moves.append(
            {
                "seat": seat,
                "discard": [TILE_NAMES[t] for t in move.tiles],
                "drew": [TILE_NAMES[t] for t in new],
            }
        )
        self._next_drawer()

    # --- the end --------------------------------------------------------------------------

    def _settle(self) -> None:
        """Split the pots: main pot and side pots by the players' contributions; each to the
        best hand among the players who reached it; odd chips from the dealer's left."""
        self.phase = "over"
        self.turn = None
        live = self.live()
        self.end_kind = "showdown" if len(live) > 1 else "fold"
        if self.end_kind == "showdown":
            self.showdown = [
                {
                    "seat": s,
                    "hand": [TILE_NAMES[t] for t in self.hands[s]],
                    "category": CATEGORIES[strength(self.hands[s])[0]],
                }
                for s in sorted(live)
            ]
        self.pots = self.side_pots()
        for pot in self.pots:
            for s, chips in zip(pot.winners, pot.takes(), strict=True):
                self.stacks[s] += chips

    def side_pots(self) -> list[Pot]:
        """The pots, main first, each with the players eligible for it and its winners (in
        order clockwise from the dealer's left)."""
        live = self.live()
        levels = sorted({self.committed[s] for s in live})
        pots: list[Pot] = []
        below = 0
        for i, level in enumerate(levels):
            top = level if i < len(levels) - 1 else max(self.committed)
            amount = sum(max(0, min(c, top) - below) for c in self.committed)
            below = top
            eligible = tuple(s for s in live if self.committed[s] >= level)
            if amount:
                pots.append(Pot(amount, eligible, self._best(eligible)))
        return pots

    def _best(self, eligible: tuple[int, ...]) -> tuple[int, ...]:
        if len(eligible) == 1:
            return eligible
        scores = {s: strength(self.hands[s]) for s in eligible}
        best = max(scores.values())
        return tuple(s for s in eligible if scores[s] == best)

    def end_dict(self) -> dict[str, Any]:
        return {"kind": self.end_kind, "pots": [p.to_dict() for p in self.pots]}
