"""Playing in the terminal: one human seat against computer players (``kozel play``).

The human sees exactly what :func:`kozel.layout.views.view_for` gives his seat: his own hand, the
layout, the other seats' tile counts, the sheet and pending eggs. Another seat's draw is shown
as "seat 2 draws", never with the tile. Input comes from an ``ask(prompt) -> answer`` function
(``input`` by default) so that tests can script a whole game.

At the prompt a tile may be typed leniently: ``2-5``, ``5-2``, ``25`` and ``2 5`` all mean
``2-5``. ``@N`` names the arm (``2-5@1``), ``!`` closes it with a double (``3-3@2!``, Donkey),
and several doubles laid at once are typed together (``3-3 5-5``). Whatever the prompt still
needs to know (the arm, whether to close) it asks.

>>> [move_text(m) for m in (Play(9, 1), Play(7, 2, True), Play(0), DRAW)]
['1-3@1', '1-1@2!', '0-0', 'draw']
>>> parse_entries("5-2 33@0!")
[TileEntry(tile=16, arm=None, close=False), TileEntry(tile=18, arm=0, close=True)]
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table
from rich.text import Text

from kozel.core import (
    DECLINE_HUNDRED,
    DRAW,
    IS_DOUBLE,
    KNOCK,
    MAX_PIP,
    OTHER_HALF,
    PIPS,
    SUIT_MASK,
    TILE_NAMES,
    DeclineHundred,
    Draw,
    IllegalMove,
    InvalidOption,
    Knock,
    Move,
    Play,
    PlayDoubles,
    Tile,
    tile,
)
from kozel.engine.options import Options
from kozel.layout.bots import Bot, make_bot
from kozel.layout.history import plays_of
from kozel.layout.match import Match, RoundResult
from kozel.layout.round import HUNDRED
from kozel.layout.rules import Ruleset
from kozel.layout.scoring.base import Cell
from kozel.layout.scoring.goat import Account
from kozel.layout.views import ArmView, SeatView, view_for

Ask = Callable[[str], str]
"""Shows a prompt and returns the line the human typed (``input`` in a real terminal)."""

QUIT_WORDS = frozenset({"q", "quit", "exit", "bye"})
HELP_WORDS = frozenset({"?", "h", "help"})
SHEET_WORDS = frozenset({"sheet", "score", "scores"})
LOOK_WORDS = frozenset({"look", "table", "hand", "l"})
DRAW_WORDS = frozenset({"d", "draw"})
KNOCK_WORDS = frozenset({"k", "knock", "pass"})
YES_WORDS = frozenset({"y", "yes", "д", "да"})
NO_WORDS = frozenset({"", "n", "no", "н", "нет"})

MOVE_PROMPT = "Your move (a tile like 2-5, ? for help): "
NEXT_ROUND_PROMPT = "Press Enter for the next round (q to quit): "

OPEN_STYLE = "red"
REMEMBERED_STYLE = "yellow"

_ENTRY = re.compile(r"([0-9])\s*[-:/|]?\s*([0-9])(?:\s*@\s*([0-9]+))?(\s*!)?")
_ARM_WORDS = re.compile(r"\s*(?:\bon\s+)?\barm\s*")


class Quit(Exception):
    """The human asked to leave the game."""


@dataclass(frozen=True)
class TileEntry:
    """One tile as typed at the prompt, with the arm and closing if the human named them."""

    tile: Tile
    arm: int | None = None
    close: bool = False


def parse_entries(text: str) -> list[TileEntry]:
    """Read one or more tiles typed at the prompt; raise ``ValueError`` saying what is wrong.

    >>> [TILE_NAMES[e.tile] for e in parse_entries("2 5")]
    ['2-5']
    >>> parse_entries("9-9")
    Traceback (most recent call last):
    ...
    ValueError: 9-9 is not a tile: halves go from 0 to 6
    """
    text = _ARM_WORDS.sub("@", text.strip().lower())
    entries: list[TileEntry] = []
    pos = 0
    while pos < len(text):
        if text[pos] in " ,;+":
            pos += 1
            continue
        found = _ENTRY.match(text, pos)
        if found is None:
            raise ValueError(f"I do not understand {text[pos:]!r}")
        a, b = int(found[1]), int(found[2])
        if a > MAX_PIP or b > MAX_PIP:
            raise ValueError(f"{a}-{b} is not a tile: halves go from 0 to {MAX_PIP}")
        arm = int(found[3]) if found[3] else None
        entries.append(TileEntry(tile(a, b), arm, bool(found[4])))
        pos = found.end()
    if not entries:
        raise ValueError("type a tile, e.g. 2-5")
    return entries


def move_text(move: Move) -> str:
    """A move written as the prompt accepts it, e.g. ``2-5@1``, ``3-3@0! 5-5@1`` or ``draw``."""
    if isinstance(move, Play):
        text = TILE_NAMES[move.tile]
        if move.arm is not None:
            text += f"@{move.arm}"
        return text + ("!" if move.close else "") + (" (hundred)" if move.hundred else "")
    if isinstance(move, PlayDoubles):
        return " ".join(move_text(p) for p in move.plays)
    return "draw" if isinstance(move, Draw) else "knock"


def _words(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def chain_text(view: SeatView, arm: ArmView, leftwards: bool = False) -> Text:
    """An arm's tiles as they lie, each written with the half that touches the previous one
    first (``3-5`` laid on a 3), read from the view's outer halves; ``leftwards`` writes the
    chain right to left (arm 0 of a line). The spinner is shown in bold."""
    pieces: list[tuple[str, str]] = []
    for t, outer in zip(arm.tiles, arm.outer, strict=True):
        inner = OTHER_HALF[t][outer]
        name = f"{outer}-{inner}" if leftwards else f"{inner}-{outer}"
        pieces.append((name, "bold" if t == view.spinner else ""))
    if leftwards:
        pieces.reverse()
    return Text(" ").join(Text(name, style=style) for name, style in pieces)


class TerminalGame:
    """One game in the terminal: the human at ``seat``, bots of ``level`` at the others."""

    def __init__(
        self,
        rules: Ruleset,
        opts: Options,
        level: str,
        seat: int,
        seed: int | None,
        console: Console,
        ask: Ask = input,
    ) -> None:
        if not 0 <= seat < opts.players:
            raise InvalidOption(f"seat must be 0..{opts.players - 1}; got {seat}")
        self.rules = rules
        self.opts = opts
        self.level = level
        self.seat = seat
        self.seed = seed
        self.console = console
        self.ask = ask
        seeds = random.Random(seed)
        self.bots: dict[int, Bot] = {
            s: make_bot(level, seeds.getrandbits(48) if seed is not None else None)
            for s in range(opts.players)
            if s != seat
        }
        self.match = Match(rules, opts, seed)

    # --- the game loop --------------------------------------------------------------------

    def run(self) -> None:
        """Play the game to its end, or until the human quits."""
        try:
            self._play()
        except Quit:
            self.say("You left the game.")

    def _play(self) -> None:
        match = self.match
        self._welcome()
        while not match.over:
            if match.results:
                self._between_rounds()
            rnd = match.next_round()
            number = len(match.results) + 1
            leader = self.name(rnd.leader)
            self.console.rule(f"Round {number}", style="cyan")
            self.say(f"{leader.capitalize()} {'lead' if rnd.leader == self.seat else 'leads'}.")
            if match.eggs:
                self.say(f"Eggs pending: +{match.eggs} for this round's highest count.")
            while not rnd.over:
                if rnd.turn == self.seat:
                    self._human_turn()
                else:
                    self._bot_turn(rnd.turn)
            self._round_over(match.results[-1])
        self._game_over()

    def _bot_turn(self, seat: int) -> None:
        moves = self.match.round.legal_moves()
        move = moves[0] if len(moves) == 1 else self.bots[seat].choose(view_for(self.match, seat))
        self.match.push(move)
        self.say(self.describe(seat, move))

    def _human_turn(self) -> None:
        match = self.match
        self.show_state()
        drew = False
        while True:
            moves = match.round.legal_moves()
            if DECLINE_HUNDRED in moves:
                question = "You hold the record and 6-6. Declare the hundred, leading 6-6? [y/N] "
                answer = HUNDRED if self.ask_yes_no(question) else DECLINE_HUNDRED
                match.push(answer)
                self.say(self.describe(self.seat, answer))
                return
            if moves == [DRAW]:
                match.push(DRAW)
                drawn = view_for(match, self.seat).history[-1][2]
                left = match.round.bazaar_left
                self.say(f"Nothing fits: you draw {TILE_NAMES[drawn]} ({left} left to draw).")
                drew = True
            elif len(moves) == 1 and isinstance(moves[0], Knock):
                match.push(moves[0])
                self.say("Nothing fits and there is nothing to draw: you knock.")
                return
            else:
                break
        if drew:
            self.show_hand(view_for(match, self.seat))
        while True:
            move = self.read_move()
            try:
                match.push(move)
            except IllegalMove as e:  # legal_moves() offered it, so this would be an engine bug
                self.warn(str(e))
                continue
            self.say(self.describe(self.seat, move))
            return

    def _between_rounds(self) -> None:
        while True:
            answer = self.ask(NEXT_ROUND_PROMPT).strip().lower()
            if answer in QUIT_WORDS:
                raise Quit
            if answer in SHEET_WORDS:
                self.show_sheet()
                continue
            return

    # --- reading the human's move ---------------------------------------------------------

    def read_move(self) -> Move:
        """Prompt until the human names a legal move (asking the arm and closing as needed)."""
        while True:
            answer = self.ask(MOVE_PROMPT).strip().lower()
            view = view_for(self.match, self.seat)
            try:
                move = self.understand(answer, view)
            except ValueError as e:
                self.warn(str(e))
                continue
            if move is not None:
                return move

    def understand(self, answer: str, view: SeatView) -> Move | None:
        """The move an answer names, ``None`` after a command; ``ValueError`` if it is wrong."""
        legal = view.legal_moves
        if answer in QUIT_WORDS:
            raise Quit
        if answer in HELP_WORDS:
            self.show_help(view)
            return None
        if answer in SHEET_WORDS:
            self.show_sheet()
            return None
        if answer in LOOK_WORDS:
            self.show_state()
            return None
        if answer == "":
            if len(legal) == 1:
                return legal[0]
            raise ValueError("type a tile, e.g. 2-5 (? lists your moves)")
        if answer in DRAW_WORDS and DRAW in legal:  # a draw although a tile fits
            return DRAW
        if answer in KNOCK_WORDS and KNOCK in legal:  # a pass although a tile fits (Bykovo)
            return KNOCK
        if answer in DRAW_WORDS or answer in KNOCK_WORDS:
            action = "draw" if answer in DRAW_WORDS else "knock"
            fits = sorted({TILE_NAMES[p.tile] for m in legal for p in plays_of(m)})
            verb = "fits" if len(fits) == 1 else "fit"
            raise ValueError(f"you cannot {action}: {_words(fits)} {verb}, so you must play")
        return self.choose_play(parse_entries(answer), view)

    def choose_play(self, entries: list[TileEntry], view: SeatView) -> Move:
        """The legal move laying the typed tiles, asking which arm and whether to close."""
        wanted = {e.tile for e in entries}
        candidates: list[tuple[Move, dict[Tile, Play]]] = []
        for move in view.legal_moves:
            by_tile = {p.tile: p for p in plays_of(move)}
            if set(by_tile) != wanted or len(by_tile) != len(entries):
                continue
            if any(
                by_tile[e.tile].arm is not None
                and (
                    (e.arm is not None and by_tile[e.tile].arm != e.arm)
                    or (e.close and not by_tile[e.tile].close)
                )
                for e in entries
            ):
                continue
            candidates.append((move, by_tile))
        if not candidates:
            raise ValueError(self.why_not(entries, view))
        shows = {a.number: a.shows for a in view.arms}
        for e in entries:
            arms = sorted({a for _, c in candidates if (a := c[e.tile].arm) is not None})
            if len(arms) > 1:
                chosen = arms[0]
                if len({shows[a] for a in arms}) > 1:
                    chosen = self.ask_arm(e.tile, arms, shows)
                candidates = [(m, c) for m, c in candidates if c[e.tile].arm == chosen]
        for e in entries:
            closes = {c[e.tile].close for _, c in candidates}
            if len(closes) > 1:
                arm = candidates[0][1][e.tile].arm
                close = self.ask_yes_no(f"{TILE_NAMES[e.tile]} on arm {arm}: close the arm? [y/N] ")
                candidates = [(m, c) for m, c in candidates if c[e.tile].close == close]
        if len({isinstance(m, Play) and m.hundred for m, _ in candidates}) > 1:
            hundred = self.ask_yes_no("Declare the hundred with 6-6? [y/N] ")
            candidates = [
                (m, c) for m, c in candidates if isinstance(m, Play) and m.hundred == hundred
            ]
        return candidates[0][0]

    def why_not(self, entries: list[TileEntry], view: SeatView) -> str:
        """Why the typed tiles are not a legal move, in words."""
        names = [TILE_NAMES[e.tile] for e in entries]
        if len(set(names)) < len(names):
            return f"you typed {_words(sorted({n for n in names if names.count(n) > 1}))} twice"
        missing = [TILE_NAMES[e.tile] for e in entries if e.tile not in view.hand]
        if missing:
            return f"you do not hold {_words(missing)}"
        if view.first_tile < 0:
            leads = [move_text(m) for m in view.legal_moves]
            if len(entries) > 1:
                return "the first tile of a round is a single tile"
            return f"{names[0]} may not lead: lead {_words(leads) if len(leads) < 4 else 'any'}"
        if len(entries) > 1:
            if not self.rules.has_multi_doubles(self.opts):
                return f"{self.rules.id} lays one tile a turn: type one tile"
            singles = [n for e, n in zip(entries, names, strict=True) if not IS_DOUBLE[e.tile]]
            if singles:
                return f"only doubles go several at once; {_words(singles)} is not a double"
            return (
                f"{_words(names)} cannot go down together: each double needs its own open arm "
                "showing its value"
            )
        entry, name = entries[0], names[0]
        arms = {a.number: a for a in view.arms}
        if entry.close and not self.rules.closing:
            return f"{self.rules.id} has no closing of arms"
        if entry.close and not IS_DOUBLE[entry.tile]:
            return f"only a double can close an arm; {name} is not a double"
        if entry.arm is not None:
            if entry.arm not in arms:
                return f"there is no arm {entry.arm}; the arms are {_words([str(k) for k in arms])}"
            arm = arms[entry.arm]
            if arm.closed:
                return f"arm {entry.arm} is closed"
            if OTHER_HALF[entry.tile][arm.shows] < 0:
                return f"{name} does not fit arm {entry.arm}, which shows {arm.shows}"
        ends = [f"{a.shows} (arm {a.number})" for a in view.arms if not a.closed]
        if not any(SUIT_MASK[a.shows] >> entry.tile & 1 for a in view.arms if not a.closed):
            return f"{name} does not fit: the open arms show {_words(ends)}"
        return f"{name} cannot be played that way; ? lists your moves"

    def ask_arm(self, t: Tile, arms: list[int], shows: dict[int, int]) -> int:
        """Ask on which of ``arms`` to lay ``t``."""
        where = ", ".join(f"arm {k} shows {shows[k]}" for k in arms)
        choices = "/".join(str(k) for k in arms)
        while True:
            answer = self.ask(f"{TILE_NAMES[t]} fits two ways ({where}). Which arm? [{choices}] ")
            answer = answer.strip().lower().removeprefix("arm").strip()
            if answer in QUIT_WORDS:
                raise Quit
            if answer.isdigit() and int(answer) in arms:
                return int(answer)
            self.warn(f"answer with one of {_words([str(k) for k in arms])}")

    def ask_yes_no(self, prompt: str) -> bool:
        """Ask a yes/no question whose default (Enter) is no."""
        while True:
            answer = self.ask(prompt).strip().lower()
            if answer in QUIT_WORDS:
                raise Quit
            if answer in YES_WORDS:
                return True
            if answer in NO_WORDS:
                return False
            self.warn("answer y or n")

    # --- what the human sees --------------------------------------------------------------

    def say(self, message: str | Text) -> None:
        self.console.print(message, markup=False, highlight=False)

    def warn(self, message: str) -> None:
        self.console.print(Text(message[:1].upper() + message[1:] + ".", style="bold red"))

    def name(self, seat: int) -> str:
        """How a seat is called: "you", "seat 2" or "seat 2 (partner)"."""
        if seat == self.seat:
            return "you"
        if self.opts.teams and self.opts.unit_of(seat) == self.opts.unit_of(self.seat):
            return f"seat {seat} (partner)"
        return f"seat {seat}"

    def unit_name(self, unit: int) -> str:
        """A scoring unit: "seat 1", "you" or "team 0+2 (yours)"."""
        if not self.opts.teams:
            return self.name(unit)
        seats = "+".join(str(s) for s in self.opts.seats_of(unit))
        mine = unit == self.opts.unit_of(self.seat)
        return f"team {seats}" + (" (yours)" if mine else "")

    def describe(self, seat: int, move: Move) -> str:
        """What a seat did, as everybody may see it (another seat's drawn tile is not named)."""
        who = self.name(seat)
        you = seat == self.seat
        if isinstance(move, Draw):
            return f"{who} {'draw' if you else 'draws'}"
        if isinstance(move, Knock):
            return f"{who} {'knock' if you else 'knocks'}"
        if isinstance(move, DeclineHundred):
            return f"{who} {'do' if you else 'does'} not declare the hundred"
        plays = plays_of(move)
        if plays[0].arm is None:
            return f"{who} {'lead' if you else 'leads'} {TILE_NAMES[plays[0].tile]}"
        verb = "play" if you else "plays"
        laid = _words([f"{TILE_NAMES[p.tile]} on arm {p.arm}" for p in plays])
        closed = [str(p.arm) for p in plays if p.close]
        if not closed:
            return f"{who} {verb} {laid}"
        if len(plays) == 1:
            return f"{who} {verb} {laid} and {'close' if you else 'closes'} it"
        return f"{who} {verb} {laid}, closing arm{'s' * (len(closed) > 1)} {_words(closed)}"

    def _welcome(self) -> None:
        opts = self.opts
        self.console.print(Text(self.rules.title, style="bold"), highlight=False)
        bots = _words([str(s) for s in self.bots])
        lines = [
            f"{opts.players} players: you are seat {self.seat}; computer players ({self.level}) "
            f"sit at seat{'s' * (len(self.bots) > 1)} {bots}."
        ]
        if opts.teams:
            partner = (self.seat + 2) % opts.players
            lines.append(f"Teams: you and seat {partner} against the other two.")
        lines.append(self.match.scoring.goal())
        if self.seed is not None:
            lines.append(f"Seed {self.seed}.")
        lines.append("Type ? at the prompt for help.")
        self.say(" ".join(lines))

    def show_state(self) -> None:
        """The table, the other seats, the eggs and the human's hand."""
        view = view_for(self.match, self.seat)
        self.show_table(view)
        others = [
            f"{self.name(s)}: {n} tile{'s' * (n != 1)}"
            for s, n in enumerate(view.hand_sizes)
            if s != self.seat
        ]
        if view.bazaar_left or view.reserve:
            reserve = f" (+{view.reserve} never drawn)" if view.reserve else ""
            others.append(f"bazaar: {view.bazaar_left}{reserve}")
        if view.eggs:
            others.append(f"eggs: +{view.eggs}")
        self.say(" · ".join(others))
        self.show_hand(view)

    def show_table(self, view: SeatView) -> None:
        """The layout: the line of arms 0 and 1, the spinner's cross arms, and every end."""
        if view.first_tile < 0:
            self.say("Table: empty.")
            return
        arms = {a.number: a for a in view.arms}
        first = view.first_tile
        parts = [
            chain_text(view, arms[0], leftwards=True),
            Text(TILE_NAMES[first], style="bold" if first == view.spinner else ""),
            chain_text(view, arms[1]),
        ]
        line = Text("Table: ").append_text(Text(" ").join(p for p in parts if p.plain))
        if view.spinner >= 0:
            line.append(f"   (spinner {TILE_NAMES[view.spinner]})")
        self.say(line)
        for k in (2, 3):
            if k in arms:
                chain = chain_text(view, arms[k])
                self.say(Text(f"       arm {k}: ").append_text(chain if chain.plain else Text("—")))
        ends = [
            f"arm {a.number} shows {a.shows}" + (" (closed)" if a.closed else "") for a in view.arms
        ]
        self.say("Ends: " + " · ".join(ends))

    def show_hand(self, view: SeatView) -> None:
        playable = {p.tile for m in view.legal_moves for p in plays_of(m)}
        pips = sum(PIPS[t] for t in view.hand)
        size = len(view.hand)
        text = Text(f"Your hand ({size} tile{'s' * (size != 1)}, {pips} pips): ")
        for i, t in enumerate(view.hand):
            if i:
                text.append(" ")
            text.append(TILE_NAMES[t], style="bold green" if t in playable else "")
        self.say(text)

    def show_help(self, view: SeatView) -> None:
        moves = "  ".join(move_text(m) for m in view.legal_moves)
        self.say(f"Your moves: {moves}")
        self.say(
            "Type a tile as 2-5 (or 5-2, 25, 2 5); add @N to name the arm (2-5@1). "
            "I ask for the arm when a tile fits two."
        )
        if self.rules.closing:
            self.say("Add ! to close the arm with a double (3-3@2!), or answer the question.")
        if self.rules.has_multi_doubles(self.opts):
            self.say("Several doubles at once: type them together, e.g. 3-3 5-5.")
        self.say("Also: sheet (the score sheet), look (the table again), quit (q).")

    def _account(self, account: Cell) -> Text:
        """A unit's sheet cell: an account (red when open, remembered in yellow) or a score."""
        if not isinstance(account, Account):
            return Text(str(account))
        style = OPEN_STYLE if account.open else REMEMBERED_STYLE if account.remembered else ""
        return Text(account.show(), style=style)

    def show_sheet(self) -> None:
        """The whole sheet: each round's charge and the account after it, per unit."""
        match = self.match
        if not match.results:
            self.say("The sheet is empty: no round has been played yet.")
            return
        table = Table(title="Score sheet", title_justify="left")
        table.add_column("round", justify="right")
        table.add_column("end")
        for unit in range(self.opts.units):
            table.add_column(self.unit_name(unit), justify="right")
        for number, result in enumerate(match.results, 1):
            cells: list[Text | str] = [str(number), self._end_word(result)]
            for unit in range(self.opts.units):
                cell = Text(f"{result.charged[unit]} → ")
                cell.append_text(self._account(result.after[unit]))
                cells.append(cell)
            table.add_row(*cells)
        self.console.print(table)
        if match.eggs:
            self.say(f"Eggs pending: +{match.eggs}")

    def _end_word(self, result: RoundResult) -> str:
        kind, seat = result.end
        return {"fish": f"fish by {seat}", "sortir": f"sortir, {seat} laid last"}.get(
            kind, f"{seat} out"
        )

    def _round_over(self, result: RoundResult) -> None:
        opts = self.opts
        kind, seat = result.end
        who = self.name(seat)
        if kind == "out":
            self.say(f"{who.capitalize()} went out.")
        elif kind == "sortir":
            self.say(f"Sortir: twelve passes in a row; {who} laid the last tile and wins.")
        else:
            self.say(f"Fish! {who.capitalize()} blocked the layout (the fisherman).")
        if result.places is not None:
            places = ", ".join(f"{n}. {self.name(s)}" for n, s in enumerate(result.places, 1))
            self.say(f"Places: {places}.")
        if result.decides is not None:
            side = self.name(result.decides["seat"])
            verdict = "wins" if result.decides["won"] else "loses"
            self.say(f"This round decides the game at once: {side}'s side {verdict}.")
        table = Table(title=f"Round {len(self.match.results)} over", title_justify="left")
        for column in ("", "hand count", "before", "this round", "after"):
            table.add_column(column, justify="left" if not column else "right")
        for unit in range(opts.units):
            counts = " + ".join(str(result.counts[s]) for s in opts.seats_of(unit))
            table.add_row(
                self.unit_name(unit),
                counts,
                self._account(result.before[unit]),
                str(result.charged[unit]),
                self._account(result.after[unit]),
            )
        self.console.print(table)
        eggs_before = self.match.results[-2].eggs if len(self.match.results) > 1 else 0
        if result.eggs > eggs_before:
            self.say(f"Eggs: +{result.eggs} carried to the next round's highest count.")
        elif result.eggs:
            self.say(f"Eggs still pending: +{result.eggs}.")
        elif eggs_before:
            self.say(f"The eggs (+{eggs_before}) were paid this round.")

    def _game_over(self) -> None:
        result = self.match.result
        assert result is not None
        opts = self.opts
        self.console.rule("Game over", style="cyan")
        if result.kind == "winners":
            winners = [self.unit_name(u) for u in result.winners]
            mine = opts.unit_of(self.seat) in result.winners
            if not winners:
                self.say("The game was interrupted.")
            else:
                self.say(f"Won by {_words(winners)}" + (" — that is you!" if mine else "."))
        else:
            goats = [self.unit_name(u) for u in result.losers]
            mine = opts.unit_of(self.seat) in result.losers
            if opts.teams:
                self.say(f"The Goat: {_words(goats)}" + (" — that is you!" if mine else "."))
            elif mine:
                self.say("You are the Goat!")
            else:
                self.say(f"The Goat: {_words(goats)}.")
        table = Table(title="Rating", title_justify="left")
        table.add_column("seat")
        table.add_column("account" if result.kind == "losers" else "score", justify="right")
        table.add_column("rating", justify="right")
        for s in range(opts.players):
            account = result.accounts[opts.unit_of(s)]
            table.add_row(self.name(s), str(account), f"+{result.rating[s]}")
        self.console.print(table)


def play_in_terminal(
    rules: Ruleset,
    opts: Options,
    level: str,
    seat: int,
    seed: int | None,
    console: Console,
    *,
    ask: Ask = input,
) -> None:
    """Play one game of ``rules`` at ``seat`` against ``level`` bots, reading moves from ``ask``.

    Returns when the game is over or the human quits. Raises ``InvalidOption`` for an unknown
    bot level or a seat that is not at the table; ``EOFError``/``KeyboardInterrupt`` from
    ``ask`` pass through to the caller.
    """
    TerminalGame(rules, opts, level, seat, seed, console, ask).run()
