"""What one seat (or a spectator) may see of a Domino Poker game.

A seat sees its own tiles (and its own discards and draws), how many tiles each other player
discarded, every bet, the pot and the chips; the showdown shows only the hands that reached it.
It also names the category of its own hand (the one thing it could work out alone). It
never holds another hand's tiles, the bazaar or the order of the shuffled discards
(``tests/test_poker.py`` checks this over many random games).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from kozel.core import TILE_NAMES, Tile
from kozel.poker.hand import PokerHand
from kozel.poker.hands import CATEGORIES, HAND_SIZE, strength
from kozel.poker.match import PokerMatch, PokerOptions
from kozel.poker.moves import PokerMove, move_to_dict


@dataclass(frozen=True)
class PokerView:
    """One seat's view (``seat`` is ``None`` for a spectator)."""

    opts: PokerOptions
    seat: int | None
    hand_number: int
    dealer: int
    phase: str
    turn: int | None
    hand: tuple[Tile, ...]
    discarded: tuple[Tile, ...]
    """The seat's own discards this hand (the tiles it can no longer be dealt)."""
    chips: tuple[int, ...]
    """Each seat's chips not yet in the pot."""
    committed: tuple[int, ...]
    """Each seat's chips in the pot this hand (antes included)."""
    round_bets: tuple[int, ...]
    folded: tuple[bool, ...]
    dealt_in: tuple[bool, ...]
    discard_counts: tuple[int, ...]
    """Tiles each seat discarded this hand (-1: not drawn yet)."""
    history: tuple[dict[str, Any], ...]
    """This hand's actions; another seat's draw shows only how many tiles."""
    legal_moves: tuple[PokerMove, ...]
    last_showdown: tuple[dict[str, Any], ...]
    """The previous (or, once over, this) hand's showdown: the hands that reached it."""
    last_pots: tuple[dict[str, Any], ...]
    over: bool
    category: str | None = None
    """The category of the seat's own five tiles (a name of :data:`CATEGORIES`), while it
    holds them; ``None`` for a spectator or a seat not dealt in."""

    @property
    def pot(self) -> int:
        return sum(self.committed)

    @property
    def to_call(self) -> int:
        if self.seat is None:
            return 0
        return min(max(self.round_bets) - self.round_bets[self.seat], self.chips[self.seat])

    @property
    def to_move(self) -> int | None:
        return self.turn

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "poker",
            "seat": self.seat,
            "options": {f.name: getattr(self.opts, f.name) for f in fields(self.opts)},
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "phase": self.phase,
            "turn": self.turn,
            "hand": [TILE_NAMES[t] for t in self.hand],
            "discarded": [TILE_NAMES[t] for t in self.discarded],
            "chips": list(self.chips),
            "committed": list(self.committed),
            "round_bets": list(self.round_bets),
            "pot": self.pot,
            "folded": list(self.folded),
            "dealt_in": list(self.dealt_in),
            "discard_counts": list(self.discard_counts),
            "history": [dict(e) for e in self.history],
            "legal_moves": [move_to_dict(m) for m in self.legal_moves],
            "last_showdown": [dict(e) for e in self.last_showdown],
            "last_pots": [dict(p) for p in self.last_pots],
            "over": self.over,
            "category": self.category,
        }


def _public(event: dict[str, Any], seat: int | None) -> dict[str, Any]:
    if "drew" in event and event["seat"] != seat:
        return {"seat": event["seat"], "discarded": len(event["discard"])}
    return dict(event)


def poker_view(match: PokerMatch, seat: int | None) -> PokerView:
    """What ``seat`` (``None``: a spectator) may see of ``match`` now."""
    n = match.opts.players
    hand: PokerHand | None = match.hand
    previous = match.hands[-2] if len(match.hands) > 1 else None
    shown = hand if hand is not None and hand.over else previous
    last_showdown = tuple(shown.showdown) if shown is not None else ()
    last_pots = tuple(p.to_dict() for p in shown.pots) if shown is not None else ()
    if hand is None:
        return PokerView(
            match.opts,
            seat,
            0,
            0,
            "deal",
            None,
            (),
            (),
            tuple(match.chips),
            (0,) * n,
            (0,) * n,
            (False,) * n,
            (False,) * n,
            (-1,) * n,
            (),
            (),
            (),
            (),
            match.over,
        )
    own = seat is not None and hand.in_hand[seat]
    held = hand.hands[seat] if own and seat is not None else []
    legal = tuple(hand.legal_moves()) if seat is not None and match.to_move == seat else ()
    return PokerView(
        opts=match.opts,
        seat=seat,
        hand_number=len(match.hands),
        dealer=hand.dealer,
        phase=hand.phase,
        turn=match.to_move,
        hand=tuple(hand.hands[seat]) if own and seat is not None else (),
        discarded=hand.own_discards[seat] if own and seat is not None else (),
        chips=tuple(hand.stacks),
        committed=tuple(hand.committed),
        round_bets=tuple(hand.round_bets),
        folded=tuple(hand.folded),
        dealt_in=tuple(hand.in_hand),
        discard_counts=tuple(hand.drawn_count),
        history=tuple(_public(e, seat) for e in hand.moves),
        legal_moves=legal,
        last_showdown=last_showdown,
        last_pots=last_pots,
        over=match.over,
        category=CATEGORIES[strength(held)[0]] if len(held) == HAND_SIZE else None,
    )
