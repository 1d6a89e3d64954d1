"""Kozel: an online domino club — Goat, Donkey and their relatives.

The package reads from the top down, each floor importing only the floors below it
(tests/test_imports.py holds it to that):

- :mod:`kozel.games` is the registry of every game. Each is a :class:`kozel.engine.game.Game`:
  it starts a match, reads and replays its records, and gives each seat its view. The command
  line (:mod:`kozel.cli`) and the club (:mod:`kozel.server`) reach every game through it alone.
- Two wings implement the games. :mod:`kozel.layout` holds the twelve games played on a layout
  (Goat, Donkey, the races, the end-count games, Bergen, Bykovo): their rules as data, the
  round, the match, the scoring policies, the views, the records, the bots and the C playout
  kernel. :mod:`kozel.hands` is the shared base of the games played in hands, with Domino Poker
  (:mod:`kozel.poker`) and Trumps (:mod:`kozel.trumps`) on it.
- At the bottom, :mod:`kozel.engine` (the game protocol, options, errors, results, the record's
  frame), :mod:`kozel.core` (tiles and moves) and :mod:`kozel.shuffle` (the verifiable shuffle)
  know no game.

Beside them, :mod:`kozel.patch` is all a client of the club needs besides its socket, and
:mod:`kozel.web` is the browser client the server serves.
"""
