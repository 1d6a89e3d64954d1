"""The browser reads what the view carries and works no rule out (docs/protocol.md §6.1):
layout.js's value each tile was laid on (the table's and the review's move log) and its
drawing's chains, from the view's outer halves, against the engine on random games of every
layout game; and sheet.js's one copy of a rule, a seat's unit for the pages that have a record
and no view, against the engine's for every game and seating."""

from __future__ import annotations

import random
from typing import Any

from kozel.core import TILE_NAMES
from kozel.games import ALL_GAMES, GAMES
from kozel.layout.history import plays_of
from kozel.layout.match import Match
from kozel.layout.views import view_for
from tests.randomplay import option_matrix
from tests.web.conftest import Contexts

CHAINS = """async (cases) => {
  const { chains, laidOn } = await import("/static/layout.js");
  const problems = [];
  for (const [i, [layout, on]] of cases.entries()) {
    const got = Object.fromEntries(laidOn(layout));
    if (JSON.stringify(got, Object.keys(got).sort()) !== JSON.stringify(on, Object.keys(on).sort()))
      problems.push(`layout ${i}: laid on ${JSON.stringify(got)}, not ${JSON.stringify(on)}`);
    // the drawing: along every side each tile touches the one before it (the centre first)
    const c = chains(layout);
    const first = c.center.first;
    const starts = { left: first, right: c.center.second, up: first, down: first };
    for (const side of ["left", "right", "up", "down"]) {
      let touching = starts[side];
      for (const item of c[side]) {
        if (item.inner !== touching)
          problems.push(`layout ${i}, ${side}: ${item.name} shows ${item.inner} to a ${touching}`);
        touching = item.outer;
      }
    }
  }
  return problems.slice(0, 10);
}"""


def laid_layouts() -> list[list[Any]]:
    """Spectator layouts from random games of every layout game (a few option sets each, two
    rounds), each with the value the engine's layout showed on the arm where each of its tiles
    was laid: ``[layout, {tile: value}]``."""
    cases: list[list[Any]] = []
    for rules in GAMES.values():
        for k, raw in enumerate(option_matrix(rules)[:5]):
            rng = random.Random(k)
            match = Match(rules, rules.options(raw), k)
            for _ in range(2):
                if match.over:
                    break
                rnd = match.next_round()
                on: dict[str, int] = {}
                while not rnd.over:
                    moves = rnd.legal_moves()
                    move = moves[rng.randrange(len(moves))]
                    before = list(rnd.layout.ends)
                    match.push(move)
                    for play in plays_of(move):
                        if play.arm is not None:
                            on[TILE_NAMES[play.tile]] = before[play.arm]
                    if plays_of(move) and (rnd.over or rng.random() < 0.25):
                        cases.append([view_for(match, None).to_dict()["layout"], dict(on)])
    return cases


def test_the_move_log_and_the_drawing_read_the_engines_outer_halves(contexts: Contexts) -> None:
    cases = laid_layouts()
    assert len(cases) > 500
    layouts = [layout for layout, _ in cases]
    assert any(lay["spinner"] and lay["spinner"] != lay["first"] for lay in layouts)
    assert any(lay["spinner"] and lay["spinner"] == lay["first"] for lay in layouts)
    assert any(arm["closed"] for lay in layouts for arm in lay["arms"])
    page = contexts.page()
    page.goto("/rules/goat")
    assert page.evaluate(CHAINS, cases) == []


UNITS = """async (cases) => {
  const { seatUnits, unitNames, unitOfSeat } = await import("/static/sheet.js");
  return cases.map(([players, teams, units]) => {
    const names = Array.from({ length: players }, (_, seat) => `s${seat}`);
    const one = names.map((_, seat) => unitOfSeat(seat, teams));
    return [seatUnits(players, teams), one, unitNames(names, teams), unitNames(names, units)];
  });
}"""


def test_the_record_pages_copy_of_a_seats_unit_is_the_engines(contexts: Contexts) -> None:
    """Every game and every seating it allows: sheet.js's seatUnits (the review of a record) and
    unitOfSeat (a lobby request's seats), and its unit names, from a record's ``teams`` and from a
    view's ``units``."""
    cases: list[list[Any]] = []
    for game in ALL_GAMES.values():
        seatings: list[dict[str, object]] = [{}]
        seatings += [{"players": n, "teams": t} for n in (2, 3, 4) for t in (False, True)]
        seen = set()
        for raw in seatings:
            try:
                opts = game.options(raw)
            except ValueError:
                continue  # a seating the game does not allow
            if (opts.players, opts.teams) in seen:
                continue
            seen.add((opts.players, opts.teams))
            units = [opts.unit_of(s) for s in range(opts.players)]
            cases.append([opts.players, bool(opts.teams), units])
    assert any(teams for _, teams, _ in cases) and len(cases) >= 20
    page = contexts.page()
    page.goto("/rules/goat")
    for (players, _, units), (copied, one, by_teams, by_units) in zip(
        cases, page.evaluate(UNITS, cases), strict=True
    ):
        assert copied == units and one == units
        names = [
            " & ".join(f"s{s}" for s in range(players) if units[s] == u)
            for u in range(max(units) + 1)
        ]
        assert by_teams == names and by_units == names


BY_SUIT = """async (cases) => {
  const { bySuit } = await import("/static/tricks.js");
  return cases.map(([hand, suits]) => bySuit(hand, suits).map((e) => [e.tile, e.suit, e.other]));
}"""


def trumps_hands() -> list[tuple[list[str], list[dict[str, Any]], int | None]]:
    """Each seat's hand in random Trumps games, with the suits its view gives, whether the
    trumps are named yet or not: ``(hand, suits, trumps)``."""
    rules = ALL_GAMES["trumps"]
    cases = []
    for seed in range(6):
        rng = random.Random(seed)
        match = rules.new_match(rules.options({}), seed)
        while not match.over and len(cases) < 40 * (seed + 1):
            if match.needs_deal:
                match.deal_next()
                continue
            seat = match.to_move
            assert seat is not None
            view = match.view_dicts([seat])[0]
            cases.append((view["hand"], view["suits"], view["trumps"]))
            moves = list(match.legal_moves())
            match.push(moves[rng.randrange(len(moves))])
    return cases


def test_the_trick_tables_hand_goes_by_the_engines_suits(contexts: Contexts) -> None:
    """Trumps' view gives each tile of the hand its suit (the engine's rule: trumps hold the
    trump number, any other tile belongs to its higher half); tricks.js sorts the hand by it
    (trumps first, then from 6 down, the double first) and shows the suit's number first."""
    cases = trumps_hands()
    for hand, suits, trumps in cases:
        for name, suit in zip(hand, suits, strict=True):
            a, b = (int(x) for x in name.split("-"))
            if trumps is not None and trumps in (a, b):
                assert suit == {"suit": trumps, "trumps": True}
            else:
                assert suit == {"suit": max(a, b), "trumps": False}
    page = contexts.page()
    page.goto("/")
    shown = page.evaluate(BY_SUIT, [[hand, suits] for hand, suits, _ in cases])
    for (hand, _suits, _), order in zip(cases, shown, strict=True):
        assert sorted(tile for tile, _, _ in order) == sorted(hand)
        keys = [(0 if s["trumps"] else 1, -s["suit"]) for _, s, _ in order]
        assert keys == sorted(keys)  # trumps first, then each suit from 6 down
        for tile, suit, other in order:
            a, b = (int(x) for x in tile.split("-"))
            assert sorted((suit["suit"], other)) == sorted((a, b))  # the suit's number first
        for i in range(1, len(order)):
            (tile, suit, other), (before, suit_before, other_before) = order[i], order[i - 1]
            if suit == suit_before:  # the double first, then the other half, highest first
                assert before.split("-")[0] == before.split("-")[1] or other_before > other
