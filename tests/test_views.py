"""Hidden information: a view never holds another hand's tile or the bazaar order."""

from __future__ import annotations

import dataclasses
import json
import random
import re

from kozel.core import TILE_NAMES, tiles_of
from kozel.match import Match
from kozel.round import Deal, Round
from kozel.views import SeatView, view_dicts, view_for, view_from_dict
from tests.randomplay import option_sets, play_random

TILE_TEXT = re.compile(r"\b[0-6]-[0-6]\b")


def visible_tiles(match: Match, rnd: Round, seat: int | None) -> set[str]:
    """The tiles ``seat`` may know: its own hand and the table."""
    mine = rnd.hands[seat] if seat is not None else 0
    return {TILE_NAMES[t] for t in tiles_of(mine | rnd.layout.table)}


def check_views(match: Match, rnd: Round) -> None:
    seats = [*range(match.opts.players), None]
    # with hints, as an unrated table asks (without, the views lack only the hint)
    together = view_dicts(match, seats, hints=True)
    for seat, built_together in zip(seats, together, strict=True):
        view = view_for(match, seat, hints=True)
        text = json.dumps(view.to_dict())
        assert json.dumps(built_together) == text, f"seat {seat}: view_dicts differs"
        leaked = set(TILE_TEXT.findall(text)) - visible_tiles(match, rnd, seat)
        assert not leaked, f"seat {seat} sees {sorted(leaked)}"
        assert view.hand_sizes == tuple(h.bit_count() for h in rnd.hands)
        if seat is None:
            assert view.hand == () and view.legal_moves == ()
        else:
            assert set(view.hand) == set(tiles_of(rnd.hands[seat]))
            if rnd.turn == seat:
                assert list(view.legal_moves) == rnd.legal_moves()


def test_no_view_leaks_a_hidden_tile() -> None:
    """Over a thousand random games, every seat's and a spectator's view at sampled moves."""
    sample = random.Random(99)
    games = 0
    for rules, opts in option_sets():
        for seed in range(90):
            play_random(
                rules,
                opts,
                seed,
                lambda m, r: check_views(m, r) if sample.random() < 0.05 else None,
            )
            games += 1
    assert games >= 1000


def _reachable(value: object, seen: set[int]) -> list[object]:
    if id(value) in seen:
        return []
    seen.add(id(value))
    found = [value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            found += _reachable(getattr(value, f.name), seen)
    elif isinstance(value, tuple | list):
        for item in value:
            found += _reachable(item, seen)
    return found


def test_a_view_holds_no_reference_to_the_game() -> None:
    """What a bot is given reaches no Round, Match or Deal (so no hands, no bazaar)."""
    rules, opts = option_sets()[2]  # 3 players, with a bazaar

    def check(match: Match, rnd: Round) -> None:
        view = view_for(match, rnd.turn)
        assert isinstance(view, SeatView)
        for obj in _reachable(view, set()):
            assert not isinstance(obj, Round | Match | Deal)

    play_random(rules, opts, 5, check)


def test_others_draws_are_redacted() -> None:
    rules, opts = option_sets()[1]  # 2 players, 14 in the bazaar
    seen_draws = 0

    def check(match: Match, rnd: Round) -> None:
        nonlocal seen_draws
        for seat in range(opts.players):
            for event in view_for(match, seat).to_dict()["history"]:
                if "draw" in event:
                    seen_draws += 1
                    assert (event["draw"] is True) == (event["seat"] != seat)

    play_random(rules, opts, 11, check)
    assert seen_draws > 0


def test_a_view_survives_json() -> None:
    """What a client receives rebuilds the same view (so remote bots see exactly this)."""
    checked = 0
    for rules, opts in option_sets():

        def check(match: Match, rnd: Round) -> None:
            nonlocal checked
            for seat in [*range(match.opts.players), None]:
                view = view_for(match, seat)
                assert view_from_dict(json.loads(json.dumps(view.to_dict()))) == view
                checked += 1

        play_random(rules, opts, 1, check)
    assert checked > 5000
