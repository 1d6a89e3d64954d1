"""Scoring policies: how each game turns rounds into a score sheet and a result.

A game's :class:`~kozel.layout.scoring.base.Scoring` is built from its options. Goat's sheet
(remembered points, open accounts, eggs) is :mod:`kozel.layout.scoring.goat`; the winner-scoring
race of Draw, Block and Classic is :mod:`kozel.layout.scoring.race`; Sea Goat's race with its one
scorer and instant ends is :mod:`kozel.layout.scoring.sea_goat`. The games that score during play
are races too: the end-count games in :mod:`kozel.layout.scoring.end_count` (on the end sum of
:mod:`kozel.layout.scoring.ends`) and Bergen in :mod:`kozel.layout.scoring.bergen`.
"""
