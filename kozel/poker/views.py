"""What one seat (or a spectator) may see of a Domino Poker game.

A seat sees its own tiles (and its own discards and draws), how many tiles each other player
discarded, every bet, the pot and the chips; the showdown shows only the hands that reached it,
and each pot what every one of its winners took.
It also names the category of its own hand (the one thing it could work out alone). It
never holds another hand's tiles, the bazaar or the order of the shuffled discards
(``tests/test_poker.py`` checks this over many random games).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kozel.core import TILE_NAMES, Tile, parse_tile
from kozel.hands.views import HandViewFields, head_from_dict, view_head
from kozel.poker.hand import PokerHand, Pot
from kozel.poker.moves import Bet, PokerMove, Raise, move_from_dict, move_to_dict
from kozel.poker.options import POKER_RULES, PokerOptions
from kozel.poker.ranking import CATEGORIES, HAND_SIZE, strength

if TYPE_CHECKING:
    from kozel.poker.match import PokerMatch


@dataclass(frozen=True)
class PokerView(HandViewFields[PokerOptions]):
    """One seat's view (``seat`` is ``None`` for a spectator)."""

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
    """The same hand's pots, main first: ``amount``, ``winners`` and ``takes`` (per winner,
    the chips he took: :meth:`Pot.takes`, the odd chips to the first winners)."""
    over: bool
    category: str | None = None
    """The category of the seat's own five tiles (a name of :data:`CATEGORIES`), while it
    holds them; ``None`` for a spectator or a seat not dealt in."""
    units: tuple[int, ...] = ()
    """Per seat, its scoring unit: the seat itself (Poker has no teams)."""

    @property
    def pot(self) -> int:
        return sum(self.committed)

    @property
    def to_call(self) -> int:
        if self.seat is None:
            return 0
        return min(max(self.round_bets) - self.round_bets[self.seat], self.chips[self.seat])

    def to_dict(self) -> dict[str, Any]:
        return {
            **view_head("poker", self),
            "discarded": [TILE_NAMES[t] for t in self.discarded],
            "chips": list(self.chips),
            "committed": list(self.committed),
            "round_bets": list(self.round_bets),
            "pot": self.pot,
            "folded": list(self.folded),
            "dealt_in": list(self.dealt_in),
            "discard_counts": list(self.discard_counts),
            "history": [dict(e) for e in self.history],
            "legal_moves": legal_json(self.legal_moves),
            "last_showdown": [dict(e) for e in self.last_showdown],
            "last_pots": [dict(p) for p in self.last_pots],
            "over": self.over,
            "category": self.category,
            "units": list(self.units),
        }


def legal_json(moves: Sequence[PokerMove]) -> list[dict[str, Any]]:
    """The legal moves as a client receives them: a no-limit run of bets (or raises) of every
    amount from ``n`` to ``m`` is one entry, ``{"bet": n, "up_to": m}`` (a player with
    100,000 chips would otherwise be sent 100,000 moves at every turn).

    >>> from kozel.poker.moves import FOLD, Call
    >>> legal_json([FOLD, Call(2), Raise(4), Raise(5), Raise(6)])
    [{'fold': True}, {'call': 2}, {'raise': 4, 'up_to': 6}]
    """
    out: list[dict[str, Any]] = []
    i = 0
    while i < len(moves):
        move, last = moves[i], i
        if isinstance(move, Bet | Raise):
            while (
                last + 1 < len(moves)
                and type(moves[last + 1]) is type(move)
                and getattr(moves[last + 1], "amount", 0) == getattr(moves[last], "amount", 0) + 1
            ):
                last += 1
        entry = move_to_dict(move)
        if last > i:
            entry["up_to"] = getattr(moves[last], "amount", 0)
        out.append(entry)
        i = last + 1
    return out


def legal_from_json(entries: Sequence[dict[str, Any]]) -> tuple[PokerMove, ...]:
    """:func:`legal_json` read back: every move, runs expanded."""
    out: list[PokerMove] = []
    for entry in entries:
        if "up_to" not in entry:
            out.append(move_from_dict(entry, "legal move"))
            continue
        kind = "bet" if "bet" in entry else "raise"
        out.extend(
            move_from_dict({kind: n}, "legal move") for n in range(entry[kind], entry["up_to"] + 1)
        )
    return tuple(out)


def pot_dict(pot: Pot) -> dict[str, Any]:
    """A pot as a client receives it: the record's ``amount`` and ``winners``, and ``takes``."""
    return {**pot.to_dict(), "takes": list(pot.takes())}


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
    last_pots = tuple(pot_dict(p) for p in shown.pots) if shown is not None else ()
    units = tuple(match.opts.unit_of(s) for s in range(n))
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
            units=units,
        )
    own = seat is not None and hand.in_hand[seat]
    held = hand.hands[seat] if own and seat is not None else []
    return PokerView(
        **match.view_fields(seat),
        hand=tuple(hand.hands[seat]) if own and seat is not None else (),
        discarded=hand.own_discards[seat] if own and seat is not None else (),
        chips=tuple(hand.stacks),
        committed=tuple(hand.committed),
        round_bets=tuple(hand.round_bets),
        folded=tuple(hand.folded),
        dealt_in=tuple(hand.in_hand),
        discard_counts=tuple(hand.drawn_count),
        history=tuple(_public(e, seat) for e in hand.moves),
        last_showdown=last_showdown,
        last_pots=last_pots,
        over=match.over,
        category=CATEGORIES[strength(held)[0]] if len(held) == HAND_SIZE else None,
        units=units,
    )


def poker_view_from_dict(data: dict[str, Any]) -> PokerView:
    """Rebuild a view from :meth:`PokerView.to_dict` (what a client receives), e.g. to let a
    Kozel bot play for a remote client. Raises ``ValueError`` (or ``KeyError``) on malformed
    data."""
    opts = POKER_RULES.options({k: v for k, v in data["options"].items() if k != "teams"})
    assert isinstance(opts, PokerOptions)
    return PokerView(
        opts=opts,
        **head_from_dict(data),
        discarded=tuple(parse_tile(t) for t in data["discarded"]),
        chips=tuple(data["chips"]),
        committed=tuple(data["committed"]),
        round_bets=tuple(data["round_bets"]),
        folded=tuple(data["folded"]),
        dealt_in=tuple(data["dealt_in"]),
        discard_counts=tuple(data["discard_counts"]),
        history=tuple(data["history"]),
        legal_moves=legal_from_json(data["legal_moves"]),
        category=data["category"],
        last_showdown=tuple(data["last_showdown"]),
        last_pots=tuple(data["last_pots"]),
        over=data["over"],
        units=tuple(data.get("units", range(len(data["chips"])))),
    )
