"""Chat: short lines said in the lobby or at a table, checked, stored and sent to the room.

A line is at most :data:`MAX_CHARS` characters after its ends are trimmed, with runs of white
space (line breaks and tabs included) made one space and other control and format characters
(bidirectional overrides) taken out; it is stored as typed and
escaped by whoever shows it (the browser sets it as text, never as HTML). The rooms are the
lobby and each table: a table's lines go to that table's sockets only.
"""

from __future__ import annotations

import unicodedata

MAX_CHARS = 200
HISTORY = 50
"""How many of a room's last lines a client gets when it opens the room."""
LOBBY_ROOM = "lobby"
ZWJ = "\u200d"
"""Kept: it joins emoji (a family, a flag) into one."""


def game_room(game_id: int) -> str:
    return f"game:{game_id}"


def clean(text: object) -> str | None:
    """A line fit to say, or ``None`` (not a string, empty, or too long).

    >>> clean("  hi\\u202e there\\n "), clean(""), clean("x" * 201), clean(5)
    ('hi there', None, None, None)

    A line break (or a tab) is a space, not nothing:

    >>> clean("good\\nluck"), clean("good\\r\\n\\tluck")
    ('good luck', 'good luck')
    """
    if not isinstance(text, str) or len(text) > 4 * MAX_CHARS:
        return None
    kept = "".join(
        c for c in text if c == ZWJ or c.isspace() or unicodedata.category(c) not in ("Cc", "Cf")
    )
    kept = " ".join(kept.split())
    return kept if 0 < len(kept) <= MAX_CHARS else None
