"""Domino Poker (docs/rules.md#poker-game): five-tile draw poker with chips on 20 tiles.

A game played in hands, on the shared base of :mod:`kozel.hands`: :mod:`~kozel.poker.ranking`
(the tiles and the ranking), :mod:`~kozel.poker.moves`, :mod:`~kozel.poker.hand` (one hand),
:mod:`~kozel.poker.options`, :mod:`~kozel.poker.match` (the session, its record of a hand and
how a recorded hand is checked), :mod:`~kozel.poker.views`, :mod:`~kozel.poker.record` (a
record against its verifiable shuffle), :mod:`~kozel.poker.bots`, :mod:`~kozel.poker.terminal`
and :mod:`~kozel.poker.game` (the registry entry).
"""
