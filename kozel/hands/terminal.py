"""A game played in hands in the terminal: one human against computer players. The loop is
the same for every such game (deal, the bots' moves, the human's answers until one is a legal
move, ``?`` for the legal moves, ``q`` to quit); each game says what the human sees and how
an answer reads (:mod:`kozel.poker.terminal`, :mod:`kozel.trumps.terminal`)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from rich.console import Console

from kozel.core import TILE_NAMES
from kozel.engine.game import Game, GameMatch
from kozel.engine.options import Options
from kozel.engine.result import MatchResult
from kozel.hands.match import HandsMatch
from kozel.hands.views import HandView

Ask = Callable[[str], str]

NEXT_HAND_PROMPT = "press Enter for the next hand "

MT = TypeVar("MT", bound=HandsMatch[Any, Any, Any, Any])
V = TypeVar("V", bound=HandView)
M = TypeVar("M")


class Quit(Exception):
    """The human typed ``q``."""


def tiles_text(tiles: Any) -> str:
    return " ".join(TILE_NAMES[t] for t in tiles) or "—"


class HandsTerminal(Generic[MT, V, M]):
    """One game at ``seat`` against ``level`` bots, reading the human's moves from ``ask``;
    ``InvalidOption`` for an unknown bot level."""

    def __init__(
        self,
        game: Game,
        opts: Options,
        level: str,
        seat: int,
        seed: int | None,
        console: Console,
        ask: Ask = input,
    ) -> None:
        self.match = self.own(game.new_match(opts, seed))
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

    # --- what each game fills in ---------------------------------------------------------

    def own(self, match: GameMatch) -> MT:
        """The match as the game's own kind."""
        raise NotImplementedError

    def view(self, seat: int) -> V:
        raise NotImplementedError

    def dealt(self, view: V) -> None:
        """Show a hand just dealt."""
        raise NotImplementedError

    def show_events(self) -> None:
        """Show the moves made since the last call."""
        raise NotImplementedError

    def finish_hand(self) -> None:
        """Show how the hand just played ended."""
        raise NotImplementedError

    def show_table(self, view: V) -> None:
        raise NotImplementedError

    def prompt(self, view: V) -> str:
        raise NotImplementedError

    def legal_text(self, view: V) -> str:
        """The legal moves as ``?`` lists them."""
        raise NotImplementedError

    def understand(self, answer: str, view: V) -> M | str:
        """The move an answer means, or why it is not one of the legal moves."""
        raise NotImplementedError

    def game_over(self, result: MatchResult) -> str:
        """The last line: the scores and the winners."""
        raise NotImplementedError

    # --- the loop ------------------------------------------------------------------------

    def run(self) -> None:
        match, out = self.match, self.console
        try:
            while not match.over:
                if match.needs_deal:
                    if match.hands:
                        self.finish_hand()
                    match.deal_next()
                    self.shown = 0
                    view = self.view(self.seat)
                    out.rule(f"Hand {view.hand_number} — seat {view.dealer} deals")
                    self.dealt(view)
                    continue
                turn = match.to_move
                assert turn is not None
                if turn == self.seat:
                    match.push(self.human_move())
                else:
                    match.push(self.bots[turn].choose(self.view(turn)))
                self.show_events()
            self.finish_hand()
        except Quit:
            out.print("bye")
            return
        result = match.result
        assert result is not None
        out.rule("Game over")
        out.print(self.game_over(result))

    def next_hand(self) -> None:
        """Wait for the human before the next hand, unless the game is over."""
        if not self.match.over:
            self.ask(NEXT_HAND_PROMPT)

    def human_move(self) -> M:
        view = self.view(self.seat)
        self.show_table(view)
        prompt = self.prompt(view)
        while True:
            answer = self.ask(prompt)
            if answer.strip().lower() in ("q", "quit"):
                raise Quit
            if answer.strip() == "?":
                self.console.print(f"legal: {self.legal_text(view)}", highlight=False)
                continue
            move = self.understand(answer, view)
            if isinstance(move, str):
                self.console.print(f"[red]{move}[/]", highlight=False)
                continue
            return move
