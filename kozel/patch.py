"""Patches of JSON documents: what changed between two versions of a seat's state.

A table sends a seat its whole state once (on connecting, on ``sync``), and after every event
only a **patch**: the operations that turn the state the seat holds into the next one. A
patch is a list of operations, each a JSON array whose first item is a JSON Pointer
(RFC 6901: ``/view/hand_sizes/2``; ``~1`` stands for ``/`` and ``~0`` for ``~`` in a key):

- ``[pointer, value]`` sets the member or array element the pointer names to ``value`` (a
  new member is added); when the pointer's last token is ``-`` the value is appended to the
  array;
- ``[pointer]`` removes the member.

The operations apply in order. A patch knows no rule of any game: :func:`diff` finds it by
comparing the two documents, and :func:`apply` (or the browser's ``patch.js``) follows it.

>>> before = {"turn": 1, "history": [{"seat": 0, "play": "1-1"}], "sizes": [6, 7], "gone": 0}
>>> after = {"turn": 2, "history": [{"seat": 0, "play": "1-1"}, {"seat": 1, "draw": True}],
...          "sizes": [6, 8]}
>>> ops = diff(before, after)
>>> ops
[['/gone'], ['/turn', 2], ['/history/-', {'seat': 1, 'draw': True}], ['/sizes/1', 8]]
>>> apply(before, ops) == after
True
"""

from __future__ import annotations

from typing import Any

Op = list[Any]
"""One operation: ``[pointer, value]`` (set, or append at ``-``) or ``[pointer]`` (remove)."""


class PatchError(ValueError):
    """A patch that does not fit the document it is applied to."""


def diff(old: Any, new: Any, at: str = "") -> list[Op]:
    """The operations that turn ``old`` into ``new`` (JSON-ready data: dicts with string
    keys, lists, strings, numbers, booleans, ``None``), or, with a pointer ``at``, the
    member of a document that ``at`` names. An empty list when they are equal.

    Arrays that grew at their end get appends, arrays of the same length get their changed
    elements, and a container most of whose members changed is set whole (it is shorter).
    Values are compared with ``==``: a member that turns from ``1`` to ``true`` (equal in
    Python) is not seen to change, so the documents must keep each member's JSON type."""
    ops: list[Op] = []
    if old is not new and old != new:
        _diff(old, new, at, ops)
    return ops


def _diff(old: Any, new: Any, at: str, ops: list[Op]) -> None:
    """Append to ``ops`` what turns ``old`` into ``new`` at pointer ``at`` (they differ)."""
    kind = type(new)
    if kind is dict and type(old) is dict:
        changed = [key for key, value in new.items() if key not in old or old[key] != value]
        removed = [key for key in old if key not in new]
        if at and 2 * (len(changed) + len(removed)) > len(new) + len(removed):
            ops.append([at, new])  # most of it changed: whole
            return
        for key in removed:
            ops.append([at + "/" + _token(key)])
        for key in changed:
            pointer = at + "/" + _token(key)
            if key in old:
                _diff(old[key], new[key], pointer, ops)
            else:
                ops.append([pointer, new[key]])
        return
    if kind is list and type(old) is list:
        n, m = len(old), len(new)
        if 0 < n <= m and new[:n] == old:
            for value in new[n:]:
                ops.append([at + "/-", value])
            return
        if n == m:
            differ = [i for i in range(n) if old[i] != new[i]]
            if 2 * len(differ) <= n:
                for i in differ:
                    _diff(old[i], new[i], f"{at}/{i}", ops)
                return
    ops.append([at, new])


def _token(key: str) -> str:
    """A key as a JSON Pointer token."""
    if "~" in key or "/" in key:
        return key.replace("~", "~0").replace("/", "~1")
    return key


def _key(token: str) -> str:
    if "~" in token:
        return token.replace("~1", "/").replace("~0", "~")
    return token


def apply(document: Any, ops: list[Op]) -> Any:
    """``document`` with ``ops`` applied, as a new document: ``document`` itself is not
    changed (each container on an operation's path is copied, once per patch; the rest is
    shared). ``PatchError`` when an operation does not fit."""
    root: Any = document
    copied: dict[int, Any] = {}
    """The containers this patch has made, by id (they may be changed in place; holding
    them keeps their ids from being reused)."""

    def own(container: Any) -> Any:
        if id(container) in copied:
            return container
        made = _copy(container)
        copied[id(made)] = made
        return made

    for op in ops:
        if not isinstance(op, list) or len(op) not in (1, 2) or not isinstance(op[0], str):
            raise PatchError(f"not an operation: {op!r}")
        pointer = op[0]
        if pointer == "":
            if len(op) == 1:
                raise PatchError("the whole document cannot be removed")
            root = op[1]
            continue
        if not pointer.startswith("/"):
            raise PatchError(f"a pointer starts with '/': {pointer!r}")
        tokens = [_key(token) for token in pointer[1:].split("/")]
        root = parent = own(root)
        for token in tokens[:-1]:
            child = own(_member(parent, token, pointer))
            _put(parent, token, child, pointer)
            parent = child
        last = tokens[-1]
        if len(op) == 1:
            if not isinstance(parent, dict) or last not in parent:
                raise PatchError(f"nothing to remove at {pointer}")
            del parent[last]
        elif last == "-" and isinstance(parent, list):
            parent.append(op[1])
        else:
            _put(parent, last, op[1], pointer)
    return root


def _copy(container: Any) -> Any:
    if isinstance(container, dict):
        return dict(container)
    if isinstance(container, list):
        return list(container)
    raise PatchError(f"{container!r} has no members")


def _member(parent: Any, token: str, pointer: str) -> Any:
    if isinstance(parent, dict):
        if token not in parent:
            raise PatchError(f"no member {token!r} on the way to {pointer}")
        return parent[token]
    return parent[_index(parent, token, pointer)]


def _put(parent: Any, token: str, value: Any, pointer: str) -> None:
    if isinstance(parent, dict):
        parent[token] = value
    elif isinstance(parent, list):
        parent[_index(parent, token, pointer)] = value
    else:
        raise PatchError(f"{pointer} does not name a member")


def _index(array: list[Any], token: str, pointer: str) -> int:
    if not (token.isascii() and token.isdigit()) or (token != "0" and token.startswith("0")):
        raise PatchError(f"{token!r} is not an index ({pointer})")
    index = int(token)
    if index >= len(array):
        raise PatchError(f"index {index} is past the end ({pointer})")
    return index
