"""Text that comes in from clients is well-formed Unicode, or it is refused.

JSON can carry a lone UTF-16 surrogate (``"\\ud800"``): Python decodes it into a string that
no database stores and no UTF-8 encoder writes, so it failed deep inside (a chat line dropped
its socket, an option key turned a refusal into a 500). Every JSON body and socket message is
checked once, where it comes in, and refused with the code :data:`BAD_TEXT`.
"""

from __future__ import annotations

import re
from typing import Any

BAD_TEXT = "bad_text"
MESSAGE = "text must be well-formed Unicode (a lone UTF-16 surrogate is not a character)"
_SURROGATE = re.compile("[\ud800-\udfff]")


def has_lone_surrogate(value: Any) -> bool:
    """Whether a decoded JSON value holds a lone surrogate in any string, key or value
    (a surrogate pair written as two escapes decodes to its one character: that is fine).

    >>> has_lone_surrogate({"a": ["ok", "\\ud800"]}), has_lone_surrogate({"\\udc00": 1})
    (True, True)
    >>> has_lone_surrogate(["😀", 1, None, {"k": "v"}])
    False
    """
    if isinstance(value, str):
        return _SURROGATE.search(value) is not None
    if isinstance(value, dict):
        return any(has_lone_surrogate(k) or has_lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(has_lone_surrogate(item) for item in value)
    return False


def may_hold_surrogate(raw: str) -> bool:
    """A quick test of a JSON text before decoding: only a ``\\u`` escape can put a
    surrogate in it (a WebSocket text frame is valid UTF-8)."""
    return "\\u" in raw


def printable(text: str) -> str:
    """``text`` with any lone surrogate replaced, fit to be written as UTF-8 (a refusal
    that quotes what the client sent).

    >>> printable("a\\ud800b")
    'a\\ufffdb'
    """
    return _SURROGATE.sub("\ufffd", text)
