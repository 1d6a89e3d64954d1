"""Seats of a request: who may take which, the seats the creator keeps for someone, and the
request's link.

A seat of a request (``requests.seats``) is taken (``{"user": id, "name": ...}`` or
``{"bot": level}``), free (``None``) or reserved by the creator: for one player by name
(``{"reserved": name}``) or for whoever holds the request's link (``{"link": true}``). A
player joining picks the seat he wants among those he may take, so that friends choose their
partners (in team play seats 0 and 2 are one pair, 1 and 3 the other); without a choice he
gets the seat kept for him by name, else the first he may take. Every request but a
tournament's has a link, ``/invite/CODE``: an unguessable code that a private request (one the
lobby does not list) is joined by, and that opens the seats reserved for the link.
"""

from __future__ import annotations

import secrets
from typing import Any

from kozel.server import auth
from kozel.server.errors import ClubError

LINK_SEAT: dict[str, Any] = {"link": True}


def channel(code: str) -> str:
    """The channel of the request behind a link: its JSON after every change."""
    return f"invite:{code}"


def new_code() -> str:
    """A link's code: 16 URL-safe characters, 96 random bits (no one guesses it)."""
    return secrets.token_urlsafe(12)


def taken(seat: Any) -> bool:
    """A person or a computer player sits there."""
    return isinstance(seat, dict) and ("user" in seat or "bot" in seat)


def full(seats: list[Any]) -> bool:
    return all(taken(seat) for seat in seats)


def has_free_seat(seats: list[Any]) -> bool:
    """A seat anyone may take (neither taken nor reserved)."""
    return any(seat is None for seat in seats)


def may_take(seat: Any, name: str, by_link: bool) -> bool:
    """Whether the player named ``name`` may take this seat (``by_link``: he came by the
    request's link)."""
    if seat is None:
        return True
    if not isinstance(seat, dict) or taken(seat):
        return False
    if seat.get("link"):
        return by_link
    reserved = seat.get("reserved")
    return isinstance(reserved, str) and auth.name_key(reserved) == auth.name_key(name)


def choose_seat(seats: list[Any], name: str, wanted: int | None, by_link: bool) -> int:
    """The seat the player named ``name`` takes: ``wanted`` when he may take it; without a
    wish the seat reserved for him, else the first he may take. ``ClubError`` when he may
    not."""
    if wanted is not None:
        if not 0 <= wanted < len(seats):
            raise ClubError(422, "no_seat", f"seat {wanted} is not at a table of {len(seats)}")
        seat = seats[wanted]
        if taken(seat):
            raise ClubError(409, "seat_taken", f"seat {wanted} is taken", seat=wanted)
        if not may_take(seat, name, by_link):
            raise ClubError(409, "seat_reserved", f"seat {wanted} is kept for someone else")
        return wanted
    for s, seat in enumerate(seats):
        if isinstance(seat, dict) and not taken(seat) and may_take(seat, name, False):
            return s  # kept for him by name
    for s, seat in enumerate(seats):
        if may_take(seat, name, by_link):
            return s
    if full(seats):
        raise ClubError(409, "request_full", "this request is full")
    raise ClubError(409, "seat_reserved", "the free seats are kept for others")


def reservation(name: str | None, link: bool) -> dict[str, Any] | None:
    """A free seat's value: kept for a player (by his name as the club spells it), for the
    link, or free (``None``)."""
    if name is not None and link:
        raise ClubError(422, "bad_request", "a seat is kept for a player or for the link, not both")
    if name is not None:
        return {"reserved": name}
    return dict(LINK_SEAT) if link else None
