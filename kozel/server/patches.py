"""The patches a table publishes after an event (:mod:`kozel.patch`): what turns the state each
seat's channel (and the spectators') holds into its new state, derived from the states the
table built before and after the event (:meth:`~kozel.server.tables.Table._messages`).

The states of one build share what is the same for every seat (the common members, the public
parts of the views, as the same objects): that is compared once, and a seat's own members (its
hand, its legal moves …) apart (docs/benchmarks.md).
"""

from __future__ import annotations

from typing import Any

import orjson

from kozel.patch import Op, diff

_ABSENT = object()
"""A member a state does not have."""


def state_patches(
    before: list[dict[str, Any]],
    after: list[dict[str, Any]],
    owned: list[dict[str, None]] | None = None,
) -> tuple[list[list[Op]], list[dict[str, None]]]:
    """Each channel's patch from its state in ``before`` to its state in ``after`` (the
    spectators' last), and the members of each view in ``after`` that are not the shared
    view's (``owned``: those of ``before``, from the last call). What the seats share (the
    common members; the public parts of the views, the same objects in every state of one
    build) is compared once; a seat's own members (its hand, its legal moves …) apart.
    ``version`` is not in a patch: the event carries it."""
    old_public, new_public = before[-1], after[-1]
    common = [
        op
        for key in _changed(old_public, new_public)
        if key not in _NOT_PATCHED
        for op in _member_diff(
            f"/{key}", old_public.get(key, _ABSENT), new_public.get(key, _ABSENT)
        )
    ]
    old_shared, new_shared = old_public.get("view", _ABSENT), new_public.get("view", _ABSENT)
    if old_shared is _ABSENT or new_shared is _ABSENT:  # before the first deal
        patches = [
            common + _member_diff("/view", old_shared, new.get("view", _ABSENT)) for new in after
        ]
        return patches, [_own(new["view"], new_shared) if "view" in new else {} for new in after]
    shared: dict[str, list[Op]] = {}
    for key in _changed(old_shared, new_shared):
        ops = _member_diff(
            f"/view/{key}", old_shared.get(key, _ABSENT), new_shared.get(key, _ABSENT)
        )
        if ops:
            shared[key] = ops
    patches, now_owned = [], []
    for index, (old, new) in enumerate(zip(before, after, strict=True)):
        old_view, new_view = old["view"], new["view"]
        new_own = _own(new_view, new_shared)
        now_owned.append(new_own)
        own = {**new_own, **(owned[index] if owned else _own(old_view, old_shared))}
        ops = list(common)
        for key, key_ops in shared.items():
            if key not in own:
                ops += key_ops
        for key in own:
            ops += _member_diff(
                f"/view/{key}", old_view.get(key, _ABSENT), new_view.get(key, _ABSENT)
            )
        patches.append(ops)
    return patches, now_owned


_NOT_PATCHED = frozenset(("type", "version", "you", "view"))
"""The state's members no patch sets: constant, the event's own (``version``), or patched apart
(``view``)."""


def _changed(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """The members whose values differ, then those only ``old`` has."""
    get = old.get
    keys = [key for key, value in new.items() if get(key, _ABSENT) != value]
    return keys + [key for key in old if key not in new]


def _own(view: dict[str, Any], shared: dict[str, Any]) -> dict[str, None]:
    """The members of one seat's view that are not the shared view's (its hand …)."""
    if view is shared:
        return {}
    get = shared.get
    return {key: None for key, value in view.items() if value is not get(key, _ABSENT)}


def _member_diff(pointer: str, old: Any, new: Any) -> list[Op]:
    """What turns a member that was ``old`` into ``new`` (either may be absent)."""
    if new is _ABSENT:
        return [] if old is _ABSENT else [[pointer]]
    if old is _ABSENT:
        return [[pointer, new]]
    return diff(old, new, pointer)


def dumps(value: Any) -> str:
    """JSON text without spaces, as the table's messages are written (orjson: several times
    faster than the standard library, docs/benchmarks.md)."""
    return orjson.dumps(value).decode()
