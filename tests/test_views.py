"""Hidden information: a view never holds another hand's tile or the bazaar order."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections.abc import Callable
from functools import partial
from typing import Any

from kozel.core import TILE_NAMES, parse_tile, tiles_of
from kozel.games import ALL_FIVES, BYKOVO, CLASSIC, DRAW, GOAT, get_layout_game
from kozel.layout.deal import Deal
from kozel.layout.match import Match
from kozel.layout.round import Round
from kozel.layout.views import (
    LEAD_REASONS,
    SeatView,
    first_lead_order,
    lead_reason,
    view_dicts,
    view_for,
    view_from_dict,
)
from tests.randomplay import DURING_MATRIX, MATRIX, option_sets, play_random

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


def test_views_built_together_follow_every_game_as_it_grows() -> None:
    """:func:`view_dicts` grows the round's public history and arms with each event (the
    match's trail) and, given the views it built last, builds again only what a move can
    change; a copy of the match grows its own: at every position of random games of every
    layout game (the scores of lays and the hints too), and of a copy played on from a
    position, the views built together so are those built from scratch. A hand a move did
    not change is the very list built before (a table holds what it sent: no new copy)."""
    raw_sets = [*MATRIX[::5], *DURING_MATRIX[::4], (BYKOVO, {})]
    sets = [*option_sets()[::3], *((rules, rules.options(raw)) for rules, raw in raw_sets)]
    positions = 0
    reused = 0
    hands = kept_hands = 0

    def follow(match: Match, held: list[list[dict[str, Any]]]) -> None:
        nonlocal positions, reused, hands, kept_hands
        positions += 1
        chosen: list[int | None] = [*range(match.opts.players), None]
        built = view_dicts(match, chosen, hints=True, previous=held[0] if held else None)
        alone = match.copy()
        alone.trail = None  # its own trail, grown from the round's start
        fresh = [view_for(alone, seat, hints=True).to_dict() for seat in chosen]
        for seat, together, alone in zip(chosen, built, fresh, strict=True):
            assert json.dumps(together) == json.dumps(alone), f"seat {seat}: views differ"
        if held:
            reused += built[-1]["options"] is held[0][-1]["options"]
            hands += len(chosen) - 1
            kept_hands += sum(
                new["hand"] is old["hand"]
                for new, old in zip(built[:-1], held[0][:-1], strict=True)
            )
        held[:] = [built]

    for number, (rules, opts) in enumerate(sets):
        held: list[list[dict[str, Any]]] = []
        copies: list[Match] = []
        play_random(rules, opts, number, partial(_follow_and_fork, follow, held, copies))
        assert copies, rules.id
        fork, fork_held = copies[0], []
        pushed = 0
        while not fork.over and pushed < 30:
            if fork.round.over:
                fork.next_round()
            fork.push(fork.round.legal_moves()[-1])
            follow(fork, fork_held)
            pushed += 1
    assert positions > 2000
    assert reused > positions // 2  # most positions were built on the last ones
    assert kept_hands > hands // 2  # a move changes one hand (two with a draw)


def _follow_and_fork(
    follow: Callable[[Match, list[list[dict[str, Any]]]], None],
    held: list[list[dict[str, Any]]],
    copies: list[Match],
    match: Match,
    rnd: Round,
) -> None:
    """Follow a position, and keep a copy of the match at the sixth move of a round."""
    follow(match, held)
    if len(rnd.history) == 6 and not copies:
        copies.append(match.copy())


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
                assert (
                    view_from_dict(json.loads(json.dumps(view.to_dict())), get_layout_game) == view
                )
                checked += 1

        play_random(rules, opts, 1, check)
    assert checked > 5000


def lead_of(rules: Any, raw: dict[str, Any], hands: list[str], seat: int | None) -> Any:
    """The view's ``lead`` for ``seat`` when the first round is dealt ``hands`` (tiles apart by
    spaces), the other tiles to the bazaar."""
    opts = rules.options(raw)
    dealt = tuple(tuple(parse_tile(t) for t in hand.split()) for hand in hands)
    used = {t for hand in dealt for t in hand}
    match = Match(rules, opts, 1)
    match.next_round(Deal(dealt, tuple(t for t in range(28) if t not in used)), 0)
    return view_for(match, seat).to_dict()["lead"]


def test_the_first_lead_is_explained_from_the_order() -> None:
    """Goat leads 1-1, then the doubles up to 6-6, then 0-0, then the heaviest tile; Draw from
    6-6 down; Classic from 0-0 up: the view says which tile decided and why, as the lead
    itself tells the table (a lower double further down the order is not ruled out)."""
    two = {"players": 2}
    other = "0-4 1-5 2-6 3-4 0-5 1-6"  # tiles that decide nothing
    goat = ["1-1 0-2 0-3 1-4 2-5 3-6 4-5", f"2-2 {other}"]
    assert lead_of(GOAT, two, goat, 0) == {"seat": 0, "why": "first_tile", "tile": "1-1"}
    goat = ["0-0 0-2 0-3 1-4 2-5 3-6 4-5", f"2-2 {other}"]
    # 2-2 leads: 1-1 is nowhere, and 0-0 (lower, later in the order) may be: "next"
    assert lead_of(GOAT, two, goat, 1) == {"seat": 1, "why": "next_double", "tile": "2-2"}
    draw = ["4-4 0-2 0-3 1-4 2-5 3-6 4-5", f"3-3 {other}"]
    assert lead_of(DRAW, two, draw, 0) == {"seat": 0, "why": "highest_double", "tile": "4-4"}
    classic = draw
    assert lead_of(CLASSIC, two, classic, 1) == {"seat": 1, "why": "lowest_double", "tile": "3-3"}
    singles = ["0-1 0-2 0-3 1-4 2-5 3-6 1-2", "4-6 1-3 0-4 1-5 2-6 3-4 0-5"]
    assert lead_of(GOAT, two, singles, 1) == {"seat": 1, "why": "highest_tile", "tile": "4-6"}
    assert lead_of(CLASSIC, two, singles, 0) == {"seat": 0, "why": "lowest_tile", "tile": "0-1"}
    # the others learn the tile when it is laid: before, their view has no reason
    assert lead_of(GOAT, two, goat, 0) is None
    assert lead_of(GOAT, two, goat, None) is None


def test_every_lead_is_explained() -> None:
    """Over random games of every layout game: every round's lead has a reason the client
    words, once the viewer may know it; the first round's reason names the tile led."""
    seen: set[str] = set()

    def look(match: Match, rnd: Round) -> None:
        why, tile = lead_reason(match)
        assert why in LEAD_REASONS
        seen.add(why)
        public = view_for(match, None).to_dict()["lead"]
        if tile >= 0:
            assert match.results == [] and rnd.lead_mask == 1 << tile
            # the tile is the first of the game's order that a hand holds: the reason says
            # what the order says of the tiles before it, which no hand holds
            order = first_lead_order(match)
            dealt = 0
            for hand in rnd.deal.masks:
                dealt |= hand
            assert not any(dealt >> t & 1 for t in order[: order.index(tile)]), (why, tile)
            assert (public is None) == (not rnd.history)
        if public is not None:
            assert public == {
                "seat": rnd.leader,
                "why": why,
                "tile": TILE_NAMES[tile] if tile >= 0 else None,
            }
        leader = view_for(match, rnd.leader).to_dict()["lead"]
        assert leader is not None and leader["why"] == why

    for rules, opts in option_sets():
        for seed in range(6):
            play_random(rules, opts, seed, look)
    for rules in (DRAW, CLASSIC, ALL_FIVES, BYKOVO):
        for seed in range(10):
            play_random(rules, rules.options({}), seed, look)
    assert {"first_tile", "went_out", "fisherman", "lot_lowest"} <= seen, seen
