"""The engine every game stands on: the game protocol (:mod:`~kozel.engine.game`), options
(:mod:`~kozel.engine.options`), the errors and JSON checks of malformed input
(:mod:`~kozel.engine.errors`), how a game ended (:mod:`~kozel.engine.result`), the record's
frame and the one replay loop of every game's records (:mod:`~kozel.engine.record`) and the
review of a game from its record (:mod:`~kozel.engine.record_review`). It imports no game: the
games import it, and the registry of every game (:mod:`kozel.games`) stands on them all."""
