"""`make bench`: engine speed (target >= 35,000 random 4-player Goat rounds/s on one core)."""

from __future__ import annotations

import json

from kozel.benchmark import engine_rounds_per_second
from kozel.rules import DONKEY

TARGET = 35_000


def main() -> None:
    goat = engine_rounds_per_second(seconds=5.0)
    donkey = engine_rounds_per_second(seconds=3.0, rules=DONKEY)
    print(json.dumps({"engine_rounds_per_second": round(goat)}))
    print(f"goat   4p random rounds/s: {goat:10,.0f}  ({goat / TARGET:.2f}x the {TARGET:,} target)")
    print(f"donkey 4p random rounds/s: {donkey:10,.0f}")


if __name__ == "__main__":
    main()
