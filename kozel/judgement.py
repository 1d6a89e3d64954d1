"""The expert's judgement of one seat's decisions in a finished game, as plain JSON: every
decision with a choice (the move played, the expert's move, the expected loss and the most
the decision could lose), the large mistakes marked, and an accuracy for the game.

The review of each game is its own (:meth:`kozel.engine.game.Game.review`): in a layout game the
expert's playouts (:mod:`kozel.layout.review`, at the budget given here), in Domino Poker the
poker expert's chips, in Trumps the trumps expert's points (its bids are not judged). Every
decision is valued from the seat's own view at that moment (its hand, the public history):
the hidden tiles are sampled consistently with what the seat knew, never read from the
record. A layout game whose scoring the playout kernel does not know has no judgement (the
expert ranks its moves by the amateur's heuristic there, which is no expected loss).

Definitions (docs/bots.md, "The expert's judgement"):

- a decision's *expected loss* is what the move played is expected to cost against the
  expert's move, and its *spread* what the worst legal move would have cost;
- a *large mistake* loses at least :data:`MISTAKE_SHARE` of the spread and at least
  :data:`MISTAKE_LEAST` of the unit;
- a player's *accuracy* is ``100 × (1 − Σ expected loss / Σ spread)`` over the player's
  decisions: the share of what the game's decisions could have lost that the player kept
  (100 when every move was the expert's; a player whose decisions could lose nothing has 100).

Pure: no I/O (the club runs it in a worker process, :mod:`kozel.server.analysis`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kozel.engine.game import Decision, Game

MISTAKE_SHARE = 0.5
"""A large mistake loses at least this share of what the decision could lose,"""
MISTAKE_LEAST = {"points": 3.0, "chips": 2.0}
"""and at least this much of the unit (a choice between nearly equal moves is no mistake)."""


def is_mistake(loss: float, spread: float, unit: str) -> bool:
    """Whether a decision's expected loss makes it a large mistake."""
    return loss >= MISTAKE_SHARE * spread and loss >= MISTAKE_LEAST.get(unit, 3.0)


def accuracy(decisions: Iterable[dict[str, Any]]) -> float | None:
    """The accuracy of judged decisions (their ``loss`` and ``spread``), in percent, one
    decimal; ``None`` without decisions.

    >>> accuracy([{"loss": 0.0, "spread": 4.0}, {"loss": 2.0, "spread": 4.0}])
    75.0
    >>> accuracy([{"loss": 0.0, "spread": 0.0}]), accuracy([])
    (100.0, None)
    """
    listed = list(decisions)
    if not listed:
        return None
    spread = float(sum(d["spread"] for d in listed))
    if spread <= 0:
        return 100.0
    lost = float(sum(d["loss"] for d in listed))
    return round(100.0 * max(0.0, 1.0 - lost / spread), 1)


def judge_seat(record: dict[str, Any], seat: int, worlds: int, playouts: int) -> dict[str, Any]:
    """The judgement of ``seat``'s decisions in ``record`` (a finished game's, already checked
    by the club): ``{"seat", "unit", "skipped", "judged", "decisions": [...], "accuracy",
    "mistakes", "loss"}``. ``worlds`` and ``playouts``: the layout expert's budget for each
    decision. Raises ``kozel.engine.errors.RecordError`` if the record does not replay."""
    from kozel.games import ALL_GAMES
    from kozel.layout.game import LayoutGame

    rules = ALL_GAMES[record["game"]]
    unit = "points"
    skipped = ""
    decisions: Iterable[Decision]
    if isinstance(rules, LayoutGame):
        from kozel.layout.bots.expert import Budget
        from kozel.layout.bots.kernel import supports
        from kozel.layout.review import review

        if not supports(rules):
            return {
                "seat": seat,
                "unit": unit,
                "judged": False,
                "skipped": "no_evaluator",
                "decisions": [],
                "accuracy": None,
                "mistakes": 0,
                "loss": 0.0,
            }
        decisions = review(rules.replay(record), seat, Budget(worlds, playouts), seed=seat)
    else:
        reviewed = rules.review(record, seat)
        unit = reviewed.unit
        skipped = "bids" if reviewed.skipped.startswith("bids") else reviewed.skipped
        decisions = reviewed.decisions()
    listed = [_decision_dict(rules, d, unit) for d in decisions]
    return {
        "seat": seat,
        "unit": unit,
        "judged": True,
        "skipped": skipped,
        "decisions": listed,
        "accuracy": accuracy(listed),
        "mistakes": sum(int(d["mistake"]) for d in listed),
        "loss": round(sum(d["loss"] for d in listed), 2),
    }


def _decision_dict(rules: Game, decision: Decision, unit: str) -> dict[str, Any]:
    """One judged decision as JSON: its moves, its expected loss and spread (two decimals;
    the spread at least the loss), its choices and whether it is a large mistake."""
    loss = round(decision.expected_loss, 2)
    spread = round(max(decision.spread, decision.expected_loss), 2)
    return {
        "round": decision.round,
        "move": decision.move_number,
        "played": rules.move_to_dict(decision.played),
        "best": rules.move_to_dict(decision.best),
        "loss": loss,
        "spread": spread,
        "choices": decision.choices,
        "mistake": is_mistake(loss, spread, unit),
    }
