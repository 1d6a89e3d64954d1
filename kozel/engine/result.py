"""How a game ended, as every game reports it and its record writes it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal


@dataclass(frozen=True)
class MatchResult:
    """How a game ended: its losers (loser-scoring games) or winners (races), every unit's
    final score, the rating points each seat gains, and the seat eliminated by a timeout."""

    kind: Literal["losers", "winners"]
    units: list[int]
    scores: list[int]
    rating: list[int]
    timeout: int | None = None
    places: list[int] | None = None
    """Games that list places (Bykovo): the seats by place, the winner first."""
    score_name: str = "scores"
    """What the record calls a winner-scoring game's final scores (Poker: ``chips``)."""

    @property
    def losers(self) -> list[int]:
        return self.units if self.kind == "losers" else []

    @property
    def winners(self) -> list[int]:
        return self.units if self.kind == "winners" else []

    @property
    def accounts(self) -> list[int]:
        return self.scores

    def to_dict(self) -> dict[str, Any]:
        """As the record's ``result`` writes it."""
        if self.kind == "losers":
            out: dict[str, Any] = {
                "losers": list(self.units),
                "accounts": list(self.scores),
                "rating": list(self.rating),
            }
        else:
            out = {"winners": list(self.units)}
            if self.places is not None:
                out["places"] = list(self.places)
            out[self.score_name] = list(self.scores)
            out["rating"] = list(self.rating)
        if self.timeout is not None:
            out["timeout"] = self.timeout
        return out
