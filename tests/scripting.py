"""Helpers to script deals and moves from short strings in tests.

Tiles are written ``"a-b"``; a hand or a bazaar is a space separated list of tiles.
A move is written:

- ``"1-1"`` — the first tile of a round (no arm);
- ``"2-5@1"`` — lay ``2-5`` on arm 1; ``"3-3@0!"`` — lay ``3-3`` on arm 0 and close it;
- ``"2-2@0+5-5@1!"`` — several doubles laid in one turn (Donkey), in the order listed;
- ``"draw"``, ``"knock"``;
- ``"hundred"`` — Sea Goat's lead of 6-6 that declares the hundred; ``"no-hundred"`` — the
  record holder asked about the hundred declines it.

A script is a whitespace separated list of moves, each optionally prefixed by the seat that is
expected to make it: ``"0:1-1 1:1-2@1 2:draw"``. Every move is checked against
``legal_moves()`` before it is pushed, so a script that the rules do not allow fails loudly.
"""

from __future__ import annotations

from kozel.core import (
    DECLINE_HUNDRED,
    DOUBLE_OF,
    DRAW,
    KNOCK,
    PIPS,
    Move,
    Play,
    PlayDoubles,
    Tile,
    parse_tile,
)
from kozel.layout.deal import Deal
from kozel.layout.match import Match
from kozel.layout.round import Round
from kozel.layout.scoring.goat import Account


def tiles(text: str) -> tuple[Tile, ...]:
    """The tiles of a space separated list, e.g. ``"1-1 0-4 2-6"``."""
    return tuple(parse_tile(word) for word in text.split())


def t(text: str) -> Tile:
    """One tile, e.g. ``t("2-5")``."""
    return parse_tile(text)


def pips(text: str) -> int:
    """Total pips of a space separated list of tiles (for expected hand counts)."""
    return sum(PIPS[x] for x in tiles(text))


def make_deal(*hands: str, bazaar: str = "") -> Deal:
    """A deal of the whole set: one string per hand (seat 0 first), the bazaar in draw order.

    Asserts the deal is the 28-tile set and does not have to be thrown in (docs/rules.md#goat-deal).
    """
    deal = Deal(tuple(tiles(hand) for hand in hands), tiles(bazaar))
    deal.validate(len(hands))
    assert not deal.needs_redeal(), "a scripted deal must not need a redeal"
    return deal


def _play(text: str) -> Play:
    close = text.endswith("!")
    name, sep, arm = text.removesuffix("!").partition("@")
    return Play(parse_tile(name), int(arm) if sep else None, close)


def move(text: str) -> Move:
    """One move from its short form (see the module docstring)."""
    if text == "draw":
        return DRAW
    if text == "knock":
        return KNOCK
    if text == "hundred":
        return Play(DOUBLE_OF[6], None, False, True)
    if text == "no-hundred":
        return DECLINE_HUNDRED
    if "+" in text:
        return PlayDoubles(tuple(_play(part) for part in text.split("+")))
    return _play(text)


def run(game: Round | Match, script: str) -> None:
    """Push every move of ``script``, asserting the seat to move and that the move is legal."""
    for token in script.split():
        seat_text, sep, move_text = token.rpartition(":")
        rnd = game.round if isinstance(game, Match) else game
        assert rnd.end is None, f"{token}: the round is already over ({rnd.end})"
        if sep:
            assert rnd.turn == int(seat_text), f"{token}: it is seat {rnd.turn}'s turn"
        mv = move(move_text)
        legal = rnd.legal_moves()
        assert mv in legal, f"{token}: not legal; legal moves are {[str(m) for m in legal]}"
        game.push(mv)


def legal(game: Round | Match) -> set[str]:
    """The legal moves of the seat to move, in short form."""
    rnd = game.round if isinstance(game, Match) else game
    return {str(m) for m in rnd.legal_moves()}


def acct(text: str) -> Account:
    """An account as the sheet shows it: ``"0"``, ``"+7"`` (remembered), ``"20"`` (open)."""
    if text.startswith("+"):
        return Account(0, False, int(text[1:]))
    if text == "0":
        return Account()
    return Account(int(text), True, 0)


def accts(text: str) -> list[Account]:
    """Several accounts, e.g. ``accts("+19 0 +7 +4")``."""
    return [acct(word) for word in text.split()]


def shown(accounts: list[Account]) -> str:
    """Accounts as the sheet shows them, space separated."""
    return " ".join(a.show() for a in accounts)


# --- scripted rounds shared by the test modules -------------------------------------------

OUT_HANDS = (
    "2-2 1-6 4-5 1-2 2-3 3-4 4-4",
    "1-1 5-5 2-4 3-6 0-2 0-3 4-6",
    "0-1 1-3 0-6 0-0 6-6 3-5 1-4",
    "2-6 5-6 0-5 1-5 2-5 3-3 0-4",
)
"""A 4-player deal (no bazaar) that seat 1, the holder of ``1-1``, wins by going out."""

OUT_SCRIPT = """
    1:1-1   2:0-1@1 3:0-5@1 0:1-6@0
    1:5-5@1 2:6-6@0 3:2-5@1 0:1-2@1
    1:4-6@0 2:1-4@1 3:0-4@0 0:4-5@1
    1:0-2@0 2:3-5@1 3:2-6@0 0:3-4@1
    1:2-4@1 2:0-6@0 3:knock 0:2-2@1
    1:0-3@0 2:1-3@0 3:1-5@0 0:2-3@1
    1:3-6@1
"""
"""Seat 3 knocks once (nothing fits 4 and 6); seat 1 goes out with ``3-6``. Left in hand:
seat 0 ``4-4`` (8), seat 2 a lone ``0-0`` (10 by default), seat 3 ``5-6 3-3`` (17)."""

FISH_ROLES = ("1-1 1-4 3-5", "1-2 0-6 2-4", "2-2 0-2 2-5", "2-6 2-3")
"""The tiles each role (0 = the leader, then clockwise) lays in :data:`FISH_MOVES`."""

FISH_MOVES = (
    (0, "1-1"),
    (1, "1-2@1"),
    (2, "2-2@1"),
    (3, "2-6@1"),
    (0, "1-4@0"),
    (1, "0-6@1"),
    (2, "0-2@1"),
    (3, "2-3@1"),
    (0, "3-5@1"),
    (1, "2-4@0"),
    (2, "2-5@1"),
)
"""The line of the rulebook's §2.4 (docs/rules.md#goat-round-end),
``2-4 1-4 1-1 1-2 2-2 2-6 0-6 0-2 2-3 3-5 2-5``: every tile of suit 2 is on the table and both
ends show 2, so the last tile (role 2's ``2-5``) makes a fish."""

FISH_FILLERS = "0-0 0-1 0-3 0-4 0-5 1-3 1-5 1-6 3-3 3-4 3-6 4-4 4-5 4-6 5-5 5-6 6-6"
"""The 17 tiles the fish line does not use (112 pips): roles 0-2 hold 4 of them, role 3 five.
None shows a 2, so they never stop the fish; they are exactly the hands left at the end."""


def fish_round(leader: int, fillers: tuple[str, str, str, str]) -> tuple[Deal, str]:
    """A 4-player Goat deal and script that ends in a fish after 11 tiles.

    Role ``r`` is seat ``(leader + r) % 4``; ``fillers[r]`` is what that seat keeps in hand, so
    the round's counts are the fillers' pips. The fisherman is role 2, ``(leader + 2) % 4``.
    The leader lays ``1-1`` (the compulsory first lead, or any tile in a later round).
    """
    assert sorted(tiles(" ".join(fillers))) == sorted(tiles(FISH_FILLERS))
    hands = ["", "", "", ""]
    for role, own in enumerate(FISH_ROLES):
        hands[(leader + role) % 4] = f"{own} {fillers[role]}"
    script = " ".join(f"{(leader + role) % 4}:{text}" for role, text in FISH_MOVES)
    return make_deal(*hands), script


# 4-player Donkey: 1-1 led (spinner); each arm is turned to 0, 2, 3, 4 and closed by its double.
CLOSED_HANDS = (
    "1-1 1-4 4-4 0-2 0-3 5-6 6-6",
    "0-1 0-0 0-4 0-5 0-6 1-5 2-3",
    "1-2 2-2 1-6 2-4 2-5 3-4 5-5",
    "1-3 3-3 2-6 3-5 3-6 4-5 4-6",
)
CLOSED_SCRIPT = """
    0:1-1    1:0-1@0  2:1-2@1  3:1-3@2
    0:1-4@3  1:0-0@0! 2:2-2@1! 3:3-3@2!
    0:4-4@3!
"""
