"""Domino Poker in the terminal: one human against computer players.

The human sees what :func:`kozel.poker.views.poker_view` gives his seat: his tiles and their
category, the pot, every bet, each player's chips and how many tiles each one drew; at the
showdown the hands that reached it. He answers ``check``, ``bet N``, ``call``, ``raise N``,
``fold`` (plain ``bet``/``raise`` in fixed limit), and at the draw the tiles to throw in
(``2-3 4-6``) or ``none``; ``?`` shows the legal moves, ``q`` quits.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from rich.console import Console

from kozel.core import TILE_NAMES, parse_tile
from kozel.engine.game import Game
from kozel.engine.options import Options
from kozel.poker.hands import CATEGORIES, strength
from kozel.poker.match import PokerMatch
from kozel.poker.moves import Bet, Call, Check, Discard, Fold, PokerMove, Raise
from kozel.poker.views import PokerView, poker_view

Ask = Callable[[str], str]

BET_PROMPT = "check, bet, call, raise or fold? "
DRAW_PROMPT = "tiles to discard (e.g. 2-3 4-6), or none? "
NEXT_HAND_PROMPT = "press Enter for the next hand "


class Quit(Exception):
    """The human typed ``q``."""


def tiles_text(tiles: Any) -> str:
    return " ".join(TILE_NAMES[t] for t in tiles) or "—"


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


class PokerTerminal:
    def __init__(
        self,
        game: Game,
        opts: Options,
        level: str,
        seat: int,
        seed: int | None,
        console: Console,
        ask: Ask,
    ) -> None:
        match = game.new_match(opts, seed)
        assert isinstance(match, PokerMatch)
        self.match = match
        self.seat = seat
        self.console = console
        self.ask = ask
        seeds = random.Random(seed)
        self.bots = {
            s: game.make_bot(level, seeds.getrandbits(48) if seed is not None else None)
            for s in range(opts.players)
            if s != seat
        }
        self.shown = 0

    def run(self) -> None:
        match, out = self.match, self.console
        try:
            while not match.over:
                if match.needs_deal:
                    if match.hands:
                        self.finish_hand()
                    match.deal_next()
                    self.shown = 0
                    view = poker_view(match, self.seat)
                    out.rule(f"Hand {view.hand_number} — seat {view.dealer} deals")
                    self.show_events()
                    continue
                turn = match.to_move
                assert turn is not None
                if turn == self.seat:
                    match.push(self.human_move())
                else:
                    match.push(self.bots[turn].choose(poker_view(match, turn)))
                self.show_events()
            self.finish_hand()
        except Quit:
            out.print("bye")
            return
        result = match.result
        assert result is not None
        out.rule("Game over")
        out.print(f"chips: {result.scores}; winners: seats {', '.join(map(str, result.units))}")

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
        if not self.match.over:
            self.ask(NEXT_HAND_PROMPT)

    def show_table(self, view: PokerView) -> None:
        cat = CATEGORIES[strength(view.hand)[0]]
        self.console.print(
            f"your tiles: {tiles_text(view.hand)} ({cat}); pot {view.pot}; to call "
            f"{view.to_call}; chips {list(view.chips)}; bets this round {list(view.round_bets)}",
            highlight=False,
        )

    def human_move(self) -> PokerMove:
        view = poker_view(self.match, self.seat)
        self.show_table(view)
        prompt = DRAW_PROMPT if view.phase == "draw" else BET_PROMPT
        while True:
            answer = self.ask(prompt)
            if answer.strip().lower() in ("q", "quit"):
                raise Quit
            if answer.strip() == "?":
                legal = view.legal_moves
                shown = ", ".join(map(str, legal[:12])) + (" …" if len(legal) > 12 else "")
                self.console.print(f"legal: {shown}", highlight=False)
                continue
            move = understand(answer, view)
            if isinstance(move, str):
                self.console.print(f"[red]{move}[/]", highlight=False)
                continue
            return move


def play_poker(
    game: Game,
    opts: Options,
    level: str,
    seat: int,
    seed: int | None,
    console: Console,
    *,
    ask: Ask = input,
) -> None:
    """Play one session at ``seat`` against ``level`` bots, reading moves from ``ask``;
    ``InvalidOption`` for an unknown bot level."""
    PokerTerminal(game, opts, level, seat, seed, console, ask).run()
