"""Scoring policies: how each game turns rounds into a score sheet and a result.

A game's :class:`~kozel.scoring.base.Scoring` is built from its options. Goat's sheet
(remembered points, open accounts, eggs) is :mod:`kozel.scoring.goat`; the winner-scoring race
of Draw, Block and Classic is :mod:`kozel.scoring.race`; Sea Goat's race with its one scorer
and instant ends is :mod:`kozel.scoring.sea_goat`. The games that score during play are races
too: the end-count games in :mod:`kozel.scoring.end_count` (on the end sum of
:mod:`kozel.scoring.ends`) and Bergen in :mod:`kozel.scoring.bergen`.
"""
