"""`make bench`: engine, kernel and expert speed on one core, against the targets."""

from __future__ import annotations

import json
from statistics import median

from kozel.benchmark import (
    engine_rounds_per_second,
    expert_decision_ms,
    playout_rounds_per_second,
)
from kozel.games import DONKEY

TARGETS = {
    "engine_rounds_per_second": 35_000,
    "playout_rounds_per_second": 1_000_000,
}
DECISION_MS_TARGET = 250


def main() -> None:
    goat = engine_rounds_per_second(seconds=5.0)
    donkey = engine_rounds_per_second(seconds=3.0, rules=DONKEY)
    kernel = playout_rounds_per_second(2_000_000)
    timings = expert_decision_ms(games=3)
    decision = median(timings)
    figures = {
        "engine_rounds_per_second": round(goat),
        "playout_rounds_per_second": round(kernel),
        "expert_decision_ms_median": round(decision, 2),
    }
    print(json.dumps(figures))
    for key, target in TARGETS.items():
        print(f"{key:28} {figures[key]:>12,}  ({figures[key] / target:.2f}x the {target:,} target)")
    print(
        f"{'expert_decision_ms_median':28} {decision:>12.1f}  "
        f"({decision / DECISION_MS_TARGET:.2f}x the {DECISION_MS_TARGET} ms limit; "
        f"{len(timings)} decisions, slowest {max(timings):.0f} ms)"
    )
    print(f"{'donkey engine rounds/s':28} {donkey:>12,.0f}")


if __name__ == "__main__":
    main()
