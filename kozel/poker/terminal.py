"""Domino Poker in the terminal: one human against computer players.

The human sees what :func:`kozel.poker.views.poker_view` gives his seat: his tiles and their
category, the pot, every bet, each player's chips and how many tiles each one drew; at the
showdown the hands that reached it. He answers ``check``, ``bet N``, ``call``, ``raise N``,
``fold`` (plain ``bet``/``raise`` in fixed limit), and at the draw the tiles to throw in
(``2-3 4-6``) or ``none``; ``?`` shows the legal moves, ``q`` quits.
"""

from __future__ import annotations

from typing import Any

from kozel.core import parse_tile
from kozel.engine.game import GameMatch
from kozel.engine.result import MatchResult
from kozel.hands.terminal import HandsTerminal, tiles_text
from kozel.poker.match import PokerMatch
from kozel.poker.moves import Bet, Call, Check, Discard, Fold, PokerMove, Raise
from kozel.poker.ranking import CATEGORIES, strength
from kozel.poker.views import PokerView, poker_view

BET_PROMPT = "check, bet, call, raise or fold? "
DRAW_PROMPT = "tiles to discard (e.g. 2-3 4-6), or none? "


def describe(seat: int, move: dict[str, Any], me: int | None = None) -> str:
    """A recorded action in words, e.g. ``seat 2 raises 4``, or ``you raise 4`` when ``seat``
    is the reader's ``me``."""
    mine = seat == me
    who = "you" if mine else f"seat {seat}"

    def verb(word: str) -> str:
        return word if mine else word + ("es" if word.endswith("s") else "s")

    if "check" in move or "fold" in move:
        return f"{who} {verb('check' if 'check' in move else 'fold')}"
    if "discarded" in move:
        return f"{who} {verb('draw')} {move['discarded']}"
    if "discard" in move:
        thrown = " ".join(move["discard"]) or "nothing"
        drew = " ".join(move["drew"]) or "nothing"
        return f"{who} {verb('throw')} in {thrown}, {verb('draw')} {drew}"
    for kind in ("ante", "bet", "call", "raise"):
        if kind in move:
            return f"{who} {verb(kind)} {move[kind]}"
    return f"{who}: {move}"


def understand(answer: str, view: PokerView) -> PokerMove | str:
    """The move an answer means, or why it is not one of the legal moves."""
    words = answer.strip().lower().split()
    legal = view.legal_moves
    if view.phase == "draw":
        if not words or words == ["none"] or words == ["0"]:
            tiles: tuple[int, ...] = ()
        else:
            try:
                tiles = tuple(sorted(parse_tile(w) for w in words))
            except ValueError as err:
                return str(err)
        move: PokerMove = Discard(tiles)
        if move not in legal:
            most = max(len(m.tiles) for m in legal if isinstance(m, Discard))
            if not set(tiles) <= set(view.hand):
                return "you can only throw in your own tiles"
            return f"you may throw in at most {most} tiles"
        return move
    if not words:
        return "type check, bet, call, raise or fold"
    kind, rest = words[0], words[1:]
    kinds = {"check": Check, "fold": Fold, "call": Call, "bet": Bet, "raise": Raise}
    if kind not in kinds:
        return f"{kind!r} is not a move: type check, bet, call, raise or fold"
    same = [m for m in legal if isinstance(m, kinds[kind])]
    if not same:
        return f"you cannot {kind} now; you can: {', '.join(map(str, legal))}"
    if kind in ("check", "fold", "call") or (not rest and len(same) == 1):
        return same[0]
    if not rest or not rest[0].isdigit():
        amounts = [getattr(m, "amount", 0) for m in same]
        return f"{kind} how many chips? {amounts[0]} to {amounts[-1]}"
    wanted = int(rest[0])
    for m in same:
        if getattr(m, "amount", 0) == wanted:
            return m
    amounts = [getattr(m, "amount", 0) for m in same]
    return f"{kind} {amounts[0]}" + (f" to {amounts[-1]}" if len(amounts) > 1 else "") + " chips"


class PokerTerminal(HandsTerminal[PokerMatch, PokerView, PokerMove]):
    def own(self, match: GameMatch) -> PokerMatch:
        assert isinstance(match, PokerMatch)
        return match

    def view(self, seat: int) -> PokerView:
        return poker_view(self.match, seat)

    def dealt(self, view: PokerView) -> None:
        self.show_events()

    def show_events(self) -> None:
        view = poker_view(self.match, self.seat)
        for event in view.history[self.shown :]:
            self.console.print(describe(event["seat"], event, self.seat), highlight=False)
        self.shown = len(view.history)

    def finish_hand(self) -> None:
        view = poker_view(self.match, self.seat)
        for shown in view.last_showdown:
            self.console.print(
                f"seat {shown['seat']} shows {' '.join(shown['hand'])} ({shown['category']})",
                highlight=False,
            )
        for pot in view.last_pots:
            who = ", ".join(f"seat {s}" for s in pot["winners"])
            self.console.print(f"pot of {pot['amount']} to {who}", highlight=False)
        self.console.print(f"chips: {list(view.chips)}", highlight=False)
        self.next_hand()

    def show_table(self, view: PokerView) -> None:
        cat = CATEGORIES[strength(view.hand)[0]]
        self.console.print(
            f"your tiles: {tiles_text(view.hand)} ({cat}); pot {view.pot}; to call "
            f"{view.to_call}; chips {list(view.chips)}; bets this round {list(view.round_bets)}",
            highlight=False,
        )

    def prompt(self, view: PokerView) -> str:
        return DRAW_PROMPT if view.phase == "draw" else BET_PROMPT

    def legal_text(self, view: PokerView) -> str:
        legal = view.legal_moves
        return ", ".join(map(str, legal[:12])) + (" …" if len(legal) > 12 else "")

    def understand(self, answer: str, view: PokerView) -> PokerMove | str:
        return understand(answer, view)

    def game_over(self, result: MatchResult) -> str:
        return f"chips: {result.scores}; winners: seats {', '.join(map(str, result.units))}"
