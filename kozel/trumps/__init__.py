"""Trumps (docs/rules.md#trumps-game): four players in pairs bid, the highest bidder names trumps,
and seven tricks are played for the counting tiles.

A game played in hands, on the shared base of :mod:`kozel.hands`: :mod:`~kozel.trumps.tiles`
(suits, ranks and counters), :mod:`~kozel.trumps.moves`, :mod:`~kozel.trumps.hand` (one hand),
:mod:`~kozel.trumps.options`, :mod:`~kozel.trumps.match` (the game to the target, its record of
a hand and the fields a replay compares), :mod:`~kozel.trumps.views`,
:mod:`~kozel.trumps.bots`, :mod:`~kozel.trumps.terminal` and :mod:`~kozel.trumps.game` (the
registry entry).
"""
