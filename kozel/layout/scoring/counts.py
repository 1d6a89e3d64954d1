"""The count of a hand left at a round's end in the layout games whose 0-0 and 6-6 count more
than their pips (the rest count pips: :func:`kozel.layout.rules.plain_count`). The games
(:mod:`kozel.layout.game`) and the kernel's bots (:mod:`kozel.layout.bots.kernel`) both use them."""

from __future__ import annotations

from kozel.core import DOUBLE_OF, pips_of
from kozel.engine.options import Options
from kozel.layout.scoring.goat import GoatOptions

ZERO_ZERO, SIX_SIX = 1 << DOUBLE_OF[0], 1 << DOUBLE_OF[6]
"""The hands that hold only 0-0, only 6-6."""


def goat_count(hand: int, opts: Options) -> int:
    """Goat's hand count: a lone 0-0 counts ``lone_zero_value``; Yard Goat's lone 0-0 and 6-6
    count 25 and 50."""
    assert isinstance(opts, GoatOptions)
    if hand == ZERO_ZERO:
        return 25 if opts.special_doubles else opts.lone_zero_value
    if hand == SIX_SIX and opts.special_doubles:
        return 50
    return pips_of(hand)


def classic_count(hand: int, opts: Options) -> int:
    """Classic: 0-0 counts 25 and 6-6 counts 50 wherever they are held."""
    count = pips_of(hand)
    if hand & ZERO_ZERO:
        count += 25
    if hand & SIX_SIX:
        count += 50 - 12
    return count


def sea_goat_count(hand: int, opts: Options) -> int:
    """Sea Goat: a lone 0-0 counts 25, a lone 6-6 50, exactly 0-0 and 6-6 together 75."""
    if hand == ZERO_ZERO:
        return 25
    if hand == SIX_SIX:
        return 50
    if hand == ZERO_ZERO | SIX_SIX:
        return 75
    return pips_of(hand)
