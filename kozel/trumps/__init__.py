"""Trumps (docs/rules.md#trumps-game): four players in pairs bid, the highest bidder names trumps,
and seven tricks are played for the counting tiles.

A separate implementation of the game protocol (:mod:`kozel.engine.game`):
:mod:`~kozel.trumps.tiles` (suits, ranks and counters), :mod:`~kozel.trumps.moves`,
:mod:`~kozel.trumps.hand` (one hand), :mod:`~kozel.trumps.match` (the game to the target),
:mod:`~kozel.trumps.views`, :mod:`~kozel.trumps.record`, :mod:`~kozel.trumps.bots` and
:mod:`~kozel.trumps.game` (options and the registry entry).
"""
