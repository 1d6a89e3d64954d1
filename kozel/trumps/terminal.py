"""Trumps in the terminal: one human against computer players (his partner is a bot too).

The human sees what :func:`kozel.trumps.views.trumps_view` gives his seat: his hand, every
bid, the trumps, the trick on the table, each pair's tricks and points this hand and the
scores. He answers ``pass`` or a number (his bid), then, as the winning bidder, the trumps
(0–6), and in play a tile (``3-5``); ``?`` shows the legal moves, ``q`` quits.
"""

from __future__ import annotations

from typing import Any

from kozel.core import TILE_NAMES, parse_tile
from kozel.engine.game import GameMatch
from kozel.engine.result import MatchResult
from kozel.hands.terminal import HandsTerminal, tiles_text
from kozel.trumps.match import TrumpsMatch
from kozel.trumps.moves import PASS, Bid, Lay, NameTrumps, TrumpsMove
from kozel.trumps.views import TrumpsView, trumps_view

BID_PROMPT = "pass, or your bid (30–42)? "
TRUMPS_PROMPT = "trumps (0–6)? "
PLAY_PROMPT = "your tile (e.g. 3-5)? "


def describe(move: dict[str, Any], me: int | None = None) -> str:
    """A recorded move in words, e.g. ``seat 2 bids 31`` or ``you lay 3-5``."""
    mine = move["seat"] == me
    who = "you" if mine else f"seat {move['seat']}"
    if "pass" in move:
        return f"{who} pass" + ("" if mine else "es")
    if "bid" in move:
        return f"{who} bid{'' if mine else 's'} {move['bid']}"
    if "trumps" in move:
        return f"{who} name{'' if mine else 's'} {move['trumps']}s trumps"
    return f"{who} lay{'' if mine else 's'} {move['play']}"


def understand(answer: str, view: TrumpsView) -> TrumpsMove | str:
    """The move an answer means, or why it is not one of the legal moves."""
    text = answer.strip().lower()
    legal = view.legal_moves
    if view.phase == "bid":
        if text == "pass":
            move: TrumpsMove = PASS
        elif text.isdigit():
            move = Bid(int(text))
        else:
            return "type pass or a bid from 30 to 42"
        if move not in legal:
            bids = [m.amount for m in legal if isinstance(m, Bid)]
            if move == PASS:
                return f"the dealer may not pass now: bid {bids[0]} or more"
            return f"you may bid {bids[0]} to {bids[-1]}" if bids else "you can only pass"
        return move
    if view.phase == "naming":
        if not text.isdigit() or NameTrumps(int(text)) not in legal:
            return "name trumps: a number from 0 to 6"
        return NameTrumps(int(text))
    try:
        tile = parse_tile(text)
    except ValueError as err:
        return str(err)
    if Lay(tile) not in legal:
        if tile not in view.hand:
            return f"you do not hold {TILE_NAMES[tile]}"
        able = " ".join(str(m) for m in legal)
        return f"{TILE_NAMES[tile]} does not follow suit; you may lay {able}"
    return Lay(tile)


class TrumpsTerminal(HandsTerminal[TrumpsMatch, TrumpsView, TrumpsMove]):
    def own(self, match: GameMatch) -> TrumpsMatch:
        assert isinstance(match, TrumpsMatch)
        return match

    def view(self, seat: int) -> TrumpsView:
        return trumps_view(self.match, seat)

    def dealt(self, view: TrumpsView) -> None:
        self.console.print(f"your hand: {tiles_text(view.hand)}", highlight=False)

    def show_events(self) -> None:
        hand = self.match.hand
        assert hand is not None
        for i, move in enumerate(hand.moves[self.shown :], start=self.shown):
            self.console.print(describe(move, self.seat), highlight=False)
            done = sum(1 for m in hand.moves[: i + 1] if "play" in m)
            if "play" in move and done % 4 == 0:
                trick = hand.tricks[done // 4 - 1]
                self.console.print(
                    f"  seat {trick['winner']} takes the trick ({trick['points']} points)",
                    highlight=False,
                )
        self.shown = len(hand.moves)

    def finish_hand(self) -> None:
        match = self.match
        hand = match.hand
        assert hand is not None and hand.over and hand.bidder is not None
        made = "made" if hand.made else "set"
        self.console.print(
            f"seat {hand.bidder} bid {hand.bid}: {made}; taken {hand.taken}, "
            f"recorded {hand.credited()}; scores {match.scores} (to {match.opts.target})",
            highlight=False,
        )
        self.next_hand()

    def show_table(self, view: TrumpsView) -> None:
        bids = (
            ", ".join(f"seat {s} {'pass' if b is None else b}" for s, b in view.bids) or "none yet"
        )
        trumps = "—" if view.trumps is None else str(view.trumps)
        trick = " ".join(f"{TILE_NAMES[t]} (seat {s})" for s, t in view.trick) or "—"
        self.console.print(
            f"your hand: {tiles_text(view.hand)}; bids: {bids}; trumps {trumps}; "
            f"trick: {trick}; tricks {list(view.tricks_won)}, points {list(view.taken)}; "
            f"scores {list(view.scores)}",
            highlight=False,
        )

    def prompt(self, view: TrumpsView) -> str:
        return {"bid": BID_PROMPT, "naming": TRUMPS_PROMPT}.get(view.phase, PLAY_PROMPT)

    def legal_text(self, view: TrumpsView) -> str:
        return ", ".join(map(str, view.legal_moves))

    def understand(self, answer: str, view: TrumpsView) -> TrumpsMove | str:
        return understand(answer, view)

    def game_over(self, result: MatchResult) -> str:
        pairs = ["seats 0 and 2", "seats 1 and 3"]
        return f"scores: {result.scores}; winners: {pairs[result.units[0]]}"
