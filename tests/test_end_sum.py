"""The end sum of docs/rules.md#end-count-games on its worked examples (All Fives, Telephone, All
Threes)."""

from __future__ import annotations

import pytest

from kozel.core import Play, parse_tile
from kozel.layout.scoring.ends import end_sum


def plays(script: str) -> list[Play]:
    """``"5-5 0-5@0 3-5@1"``: the first tile, then tiles on arms."""
    out = []
    for word in script.split():
        tile, _, arm = word.partition("@")
        out.append(Play(parse_tile(tile), int(arm) if arm else None))
    return out


def sums(script: str, spinner: bool = True, arms_count: bool = True) -> list[int]:
    laid = plays(script)
    return [end_sum(laid[: n + 1], spinner, arms_count) for n in range(len(laid))]


ALL_FIVES = "5-5 0-5@0 3-5@1 0-2@0 4-5@2 2-2@0 2-5@0 3-3@1"


def test_all_fives_worked_example_with_the_spinners_arms_counting() -> None:
    """§6.1 a–d: 5-5 led = 10; 0-5 = 10; 3-5 = 13, then 0-2 = 15; then 4-5 on a cross arm,
    2-2 on the 2, 2-5 on the 2-2, 3-3 on the 3: 5 + 4 + (3+3) + 5 = 20."""
    assert sums(ALL_FIVES) == [10, 10, 13, 15, 14, 16, 17, 20]


def test_all_fives_worked_example_without() -> None:
    """§6.1 with spinner_arms_count = false: c gives 3 then 5; d gives 4 + (3+3) + 5 = 15."""
    assert sums(ALL_FIVES, arms_count=False)[2:4] == [3, 5]
    assert sums(ALL_FIVES, arms_count=False)[-1] == 15


def test_telephone_worked_example() -> None:
    """§6.2: a 6 at one end, a 3 at the other, the house 4-4 with both sides covered: 6-6 on
    the 6 gives 6 + 6 + 3 = 15; then 4-5 on the house: 6 + 6 + 3 + 5 = 20."""
    script = "4-4 3-4@0 4-6@1 6-6@1 4-5@2"
    assert sums(script, arms_count=False)[-2:] == [15, 20]


def test_all_threes_worked_example() -> None:
    """§6.3: 6-6 led = 12; 3-6 = 15; 0-6 on the other side = 15; 0-2 on the 0 = 17; 5-6 on a
    cross arm = 16; 1-5 on it = 12."""
    assert sums("6-6 3-6@0 0-6@1 0-2@1 5-6@2 1-5@2") == [12, 15, 15, 17, 16, 12]


@pytest.mark.parametrize("arms_count", [True, False])
def test_a_spinner_laid_later_counts_both_halves_until_its_far_side_is_covered(
    arms_count: bool,
) -> None:
    """A spinner that is not the first tile: laid on arm 1, its near side is the tile it was
    laid on; it counts both halves until a tile covers its far side (arm 1)."""
    script = "1-4 4-4@1 1-2@0 4-6@1"
    assert sums(script, arms_count=arms_count)[:3] == [5, 9, 10]
    assert sums(script, arms_count=arms_count)[3] == 2 + 6 + (8 if arms_count else 0)


def test_a_double_led_without_a_spinner_counts_once_and_a_double_at_each_end() -> None:
    """Without a spinner a double led counts both halves once; doubles at several ends each
    count both halves."""
    assert sums("5-5 5-6@0 6-6@0 0-5@1 0-0@1", spinner=False) == [10, 16, 22, 12, 12]
