"""The browser applies the table's events: ``patch.js`` turns each state into the next
exactly as the server's own patch logic does (every event of real games, every seat), and the
table page asks for the whole state when a version is missing."""

from __future__ import annotations

import json
import random
from types import SimpleNamespace
from typing import Any

import pytest

from kozel.games import get_game
from kozel.server.pubsub import MemoryPubSub
from kozel.server.tables import Table
from kozel.server.writer import Writer
from tests.web.conftest import Contexts

APPLY = """async (cases) => {
  const { applyPatch } = await import("/static/patch.js");
  return cases.map(([state, event]) => {
    const next = applyPatch(state, event.patch);
    const unchanged = JSON.stringify(state);
    return [JSON.stringify({ ...next, version: event.version }), unchanged];
  });
}"""


def timeless(state: dict[str, Any]) -> dict[str, Any]:
    """A state without its clock's time left (counted when a message is made)."""
    if "clock" not in state:
        return state
    return {**state, "clock": {k: v for k, v in state["clock"].items() if k != "remaining_ms"}}


def game_events(game: str, options: dict[str, Any], seed: int) -> list[tuple[Any, Any, Any]]:
    """(state held, event, state after it) for every seat, every event of one game."""
    rules = get_game(game)
    opts = rules.options(options)
    row = SimpleNamespace(
        id=3,
        fence=1,
        game=game,
        options=rules.options_dict(opts),
        seats=[{"user": s, "name": f"p{s}"} for s in range(opts.players)],
        seconds_per_move=60,
        rated=False,
        status="playing",
        tournament_id=None,
        server_seed=None,
    )
    table = Table(row, Writer(None), MemoryPubSub())  # type: ignore[arg-type]
    table.match = rules.new_match(opts, seed)
    seats = [*range(opts.players), None]
    held = [table.state(seat) for seat in seats]
    rng = random.Random(seed)
    cases = []
    while not table.match.over:
        if table.match.needs_deal:
            table.match.deal_next()
            kind = "deal"
        else:
            table.match.push(rng.choice(list(table.match.legal_moves())))
            kind = "move"
        table.version += 1
        table.deadline = 2e9 + table.version  # a clock runs anew after every event
        for index, (_, text) in enumerate(table._messages(kind)):
            after = table.state(seats[index])
            cases.append((held[index], json.loads(text), after))
            held[index] = after
    return cases


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("goat", {"players": 3, "loss_limit": 40}),
        ("donkey", {"players": 4, "loss_limit": 40}),
        ("all_fives", {"players": 2, "target": 60}),
        ("poker", {"players": 3, "hands": 3}),
        ("trumps", {"target": 60}),
    ],
)
def test_the_browser_applies_events_as_the_server_makes_them(
    contexts: Contexts, game: str, options: dict[str, Any]
) -> None:
    page = contexts.page()
    page.goto("/rules")
    cases = game_events(game, options, seed=11)
    results = page.evaluate(APPLY, [[held, event] for held, event, _ in cases])
    assert len(results) == len(cases) > 20
    for (held, event, after), (applied, unchanged) in zip(cases, results, strict=True):
        assert timeless(json.loads(applied)) == timeless(after), event
        assert json.loads(unchanged) == held  # the state held before is left as it was


RECEIVE = """async ([state, events]) => {
  const { TablePage } = await import("/static/table.js");
  const main = document.createElement("main");
  document.body.replaceChildren(main);
  const table = new TablePage(1);
  table.main = main;
  const sent = [];
  table.socket = { send: (message) => { sent.push(message); return true; } };
  await table.receive(state);
  const seen = [];
  for (const event of events) {
    await table.receive(event);
    seen.push(table.seen);
  }
  return { seen, sent, held: JSON.stringify(table.state) };
}"""


def test_the_table_follows_events_and_asks_for_the_state_after_a_gap(contexts: Contexts) -> None:
    cases = game_events("goat", {"players": 2, "loss_limit": 20}, seed=5)
    cases = [case for n, case in enumerate(cases) if n % 3 == 0]  # seat 0's channel
    first, events = cases[1][0], [event for _, event, _ in cases[1:8]]
    page = contexts.page()
    page.goto("/rules")
    followed = page.evaluate(RECEIVE, [first, events])
    assert followed["seen"] == [e["version"] for e in events]
    assert followed["sent"] == []
    assert timeless(json.loads(followed["held"])) == timeless(cases[7][2])
    # the third event is lost: the page keeps the version it holds and asks for the state
    gap = page.evaluate(RECEIVE, [first, [events[0], events[2], events[3]]])
    assert gap["seen"] == [events[0]["version"]] * 3
    assert gap["sent"] == [{"type": "sync"}]  # once, not at every later event
    assert timeless(json.loads(gap["held"])) == timeless(cases[1][2])
