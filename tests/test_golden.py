"""The golden records replay clean and the engine still writes them byte for byte."""

from __future__ import annotations

from kozel.games import check_lines
from tests.golden import GAMES_PER_SET, OPTION_SETS, golden_lines, read


def test_golden_records_replay_clean() -> None:
    lines = read()
    assert len(lines) == GAMES_PER_SET * len(OPTION_SETS)
    errors = [r for r in check_lines(lines) if r.error is not None]
    assert errors == []


def test_golden_records_regenerate_byte_for_byte() -> None:
    for number, (written, made) in enumerate(zip(read(), golden_lines(), strict=True), 1):
        assert made == written, f"golden record {number} changed"
