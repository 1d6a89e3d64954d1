"""Domino Poker (docs/rules.md#poker-game): five-tile draw poker with chips on 20 tiles.

A separate implementation of the game protocol (:mod:`kozel.engine.game`): :mod:`~kozel.poker.hands`
(the tiles and the ranking), :mod:`~kozel.poker.moves`, :mod:`~kozel.poker.hand` (one hand),
:mod:`~kozel.poker.match` (the session), :mod:`~kozel.poker.views`,
:mod:`~kozel.poker.record`, :mod:`~kozel.poker.bots` and :mod:`~kozel.poker.game` (options
and the registry entry).
"""
