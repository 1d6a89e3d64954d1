"""The shared base of the games played in hands, without a layout (Domino Poker,
:mod:`kozel.poker`; Trumps, :mod:`kozel.trumps`): what their matches have alike
(:mod:`~kozel.hands.match`, a recorded hand played again among it, for the one replay loop of
every game's records, :func:`kozel.engine.record.replay_rounds`), their game objects
(:mod:`~kozel.hands.game`) and the terminal's loop (:mod:`~kozel.hands.terminal`). It stands
on the engine (:mod:`kozel.engine`) alone; each game fills in its hands, moves, views and
records."""
