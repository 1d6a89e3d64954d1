"""The end sum of a layout (docs/rules.md#end-count-games): what the end-count games score on.

Each open arm contributes the value it shows; an arm ending in a double laid crosswise
contributes both halves (a ``3-3`` at an end counts 6), once even when the double ends two
arms (a double led). The spinner (the first double, arms 0–3) counts both halves while one of
its two line sides is still empty; once both are covered, each of its unplayed cross arms
counts the spinner's value when ``spinner_arms_count`` is true and nothing when it is false.

Worked example of §6.1 (``5-5`` led, the spinner):

>>> from kozel.core import parse_tile as t, Play
>>> plays = [Play(t("5-5")), Play(t("0-5"), 0), Play(t("3-5"), 1), Play(t("0-2"), 0)]
>>> [end_sum(plays[: n + 1], spinner=True, spinner_arms_count=True) for n in range(4)]
[10, 10, 13, 15]
>>> [end_sum(plays[: n + 1], spinner=True, spinner_arms_count=False) for n in range(4)]
[10, 10, 3, 5]
"""

from __future__ import annotations

from collections.abc import Iterable

from kozel.core import IS_DOUBLE, LOW, PIPS, Layout, Play
from kozel.layout.history import lay

LINE_ARMS = (0, 1)
CROSS_ARMS = (2, 3)


def end_sum(plays: Iterable[Play], spinner: bool, spinner_arms_count: bool) -> int:
    """The end sum after ``plays`` (every tile of the round so far, in order; the first has no
    arm) in a game with or without a spinner."""
    layout = Layout()
    tips = [-1, -1, -1, -1]
    """The last tile laid on each arm (the first tile, or the spinner, while none is)."""
    spinner_line: tuple[int, ...] = LINE_ARMS
    for play in plays:
        lay(layout, play, spinner)
        t = play.tile
        if play.arm is None:
            tips = [t, t, t, t] if layout.spinner == t else [t, t, -1, -1]
            continue
        tips[play.arm] = t
        if layout.spinner == t:
            tips[2] = tips[3] = t
            spinner_line = (play.arm,)  # its other line side is the tile it was laid on
    total = 0
    counted: set[int] = set()
    hub = layout.spinner
    covered = hub >= 0 and all(tips[k] != hub for k in spinner_line)
    for k in range(4):
        end, tip = layout.ends[k], tips[k]
        if end < 0 or layout.closed[k]:
            continue
        if tip == hub and hub >= 0:
            if not covered:
                if hub not in counted:
                    total += PIPS[hub]
                    counted.add(hub)
            elif k in CROSS_ARMS and spinner_arms_count:
                total += LOW[hub]
        elif IS_DOUBLE[tip]:
            if tip not in counted:
                total += PIPS[tip]
                counted.add(tip)
        else:
            total += end
    return total
