"""Patches of JSON documents (kozel.patch): a diff applied gives the new document, never
changes the old one, and a patch that does not fit is refused."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kozel.patch import PatchError, apply, diff

# the members of one document keep their JSON type (a patch compares with ==, where 1 == true)
leaves = st.one_of(st.none(), st.integers(-5, 5), st.text("ab/~-0", max_size=3))
documents = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(st.text("ab/~-0", max_size=3), inner, max_size=5),
    ),
    max_leaves=30,
)


def text(document: Any) -> str:
    return json.dumps(document, sort_keys=True)


@given(documents, documents)
def test_a_diff_applied_gives_the_new_document(old: Any, new: Any) -> None:
    kept = copy.deepcopy(old)
    ops = diff(old, new)
    assert text(apply(old, ops)) == text(new)
    assert text(old) == text(kept)  # applying copies what it changes
    assert (ops == []) == (text(old) == text(new))


@given(documents)
def test_a_document_grown_at_its_arrays_ends_is_patched_by_appends(old: Any) -> None:
    new = {"list": [old], "more": 1}
    grown = {"list": [old, old, 3], "more": 1}
    assert diff(new, grown) == [["/list/-", old], ["/list/-", 3]]


def test_small_changes_name_their_members_and_large_ones_set_the_whole() -> None:
    state = {"view": {"sizes": [7, 7, 7, 7], "clock": {"seat": 1, "ms": 5}, "a/b": 1}}
    assert diff(state, {"view": {**state["view"], "sizes": [7, 6, 7, 7]}}) == [["/view/sizes/1", 6]]
    assert diff(state, {"view": {**state["view"], "a/b": 2}}) == [["/view/a~1b", 2]]
    clock = {"seat": 2, "ms": 9}
    assert diff(state, {"view": {**state["view"], "clock": clock}}) == [["/view/clock", clock]]
    assert diff([], [1]) == [["", [1]]]


@pytest.mark.parametrize(
    "ops",
    [
        [["/missing/x", 1]],
        [["/list/5", 1]],
        [["/list/01", 1]],
        [["/list/x", 1]],
        [["/n/x", 1]],
        [["/gone"]],
        [["no-slash", 1]],
        [[1, 2]],
        ["/x"],
        [[""]],
        [["/list/-/0", 1]],
    ],
)
def test_a_patch_that_does_not_fit_is_refused(ops: list[Any]) -> None:
    with pytest.raises(PatchError):
        apply({"list": [1, 2], "n": 3}, ops)
