"""The table page's choices in the browser, on real positions from the engine: a state is given
to kozel/web/static/table.js as the server would send it, the test clicks like a player, and
the move the page sends must be the legal move meant."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page

from kozel.core import Play, PlayDoubles
from kozel.games import DONKEY, GOAT
from kozel.match import Match
from kozel.round import Round
from kozel.rules import Ruleset
from kozel.views import view_for
from tests.randomplay import play_random
from tests.web.conftest import Contexts

# Give the page a state; then `act(main)` clicks; returns the moves the page sent.
RUN = """async ([view, steps]) => {
  const { TablePage } = await import("/static/table.js");
  const main = document.createElement("main");
  document.body.replaceChildren(main);
  const table = new TablePage(1);
  table.main = main;
  const sent = [];
  window.sentMoves = sent;
  table.socket = { send: (message) => { sent.push(message); return true; } };
  const seats = view.hand_sizes.map((_, s) => `p${s}`);
  await table.receive({ type: "state", game: 1, version: 7, status: "playing", seats,
    you: view.seat, seconds_per_move: 60, rated: false, view, rounds: [],
    clock: { seat: view.seat, deadline_ms: 0, remaining_ms: 60000 } });
  const seen = [];
  for (const step of steps) {
    // "?selector": click it if the page shows it (it asks only when there is a choice)
    const optional = step.startsWith("?");
    const selector = optional ? step.slice(1) : step;
    const el = main.querySelector(selector);
    if (!el && optional) continue;
    if (!el) return { sent, seen, missing: selector };
    el.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    seen.push(selector);
  }
  const hand = [...main.querySelectorAll(".hand-tile")].map((b) => b.dataset.tile);
  return { sent, seen, missing: null, hand, html: main.innerHTML.length };
}"""


def position(
    rules: Ruleset, raw: dict[str, object], wanted: Callable[[list[Any]], bool]
) -> dict[str, Any]:
    """The first position of random games where the seat to move has moves ``wanted`` likes."""
    found: list[dict[str, Any]] = []

    def look(match: Match, rnd: Round) -> None:
        if not found and wanted(rnd.legal_moves()):
            found.append(view_for(match, rnd.turn).to_dict())

    for seed in range(500):
        play_random(rules, rules.options(raw), seed, look)
        if found:
            return found[0]
    raise AssertionError("no such position in 500 games")


def run(page: Page, view: dict[str, Any], steps: list[str]) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(RUN, [view, steps])
    assert result["missing"] is None, f"nothing to click for {result['missing']!r}"
    return result


def sent_moves(result: dict[str, Any]) -> list[dict[str, Any]]:
    assert all(m["type"] == "move" and m["version"] == 7 for m in result["sent"])
    return [m["move"] for m in result["sent"]]


def open_page(contexts: Contexts) -> Page:
    page = contexts.page()
    page.goto("/rules/goat")
    page.wait_for_selector(".rules-text h2")
    return page


def test_several_doubles_at_once_are_chosen_one_by_one(contexts: Contexts) -> None:
    view = position(DONKEY, {}, lambda moves: any(isinstance(m, PlayDoubles) for m in moves))
    target = next(m for m in view["legal_moves"] if "doubles" in m)
    steps = ["button.several"]
    for d in target["doubles"]:
        steps += [f".hand-tile[data-tile='{d['tile']}']", f"?button.arm[data-arm='{d['arm']}']"]
        steps.append("?button.close-yes" if d.get("close") else "?button.close-no")
    steps.append("button.lay-doubles")
    page = open_page(contexts)
    assert sent_moves(run(page, view, steps)) == [target]


def test_closing_asks_the_question_and_sends_the_answer(contexts: Contexts) -> None:
    def closable(moves: list[Any]) -> bool:
        return any(isinstance(m, Play) and m.close for m in moves)

    view = position(DONKEY, {}, closable)
    target = next(m for m in view["legal_moves"] if m.get("close"))
    arms = {m["arm"] for m in view["legal_moves"] if m.get("play") == target["play"]}
    steps = [f".hand-tile[data-tile='{target['play']}']"]
    if len(arms) > 1:  # the marker drawn at that arm's end of the layout
        steps.append(f".layout-svg g.arm-target[data-arm='{target['arm']}']")
    page = open_page(contexts)
    asked = run(page, view, [*steps])
    assert asked["sent"] == []
    question = page.locator("main .actions .prompt").inner_text()
    assert question == "Close the direction?"
    result = run(page, view, [*steps, "button.close-yes"])
    assert sent_moves(result) == [target]


def test_a_tile_that_fits_one_arm_is_played_at_once_and_two_arms_ask(
    contexts: Contexts,
) -> None:
    def two_arms(moves: list[Any]) -> bool:
        tiles = [m.tile for m in moves if isinstance(m, Play) and m.arm is not None]
        return any(tiles.count(t) > 1 for t in tiles) and any(tiles.count(t) == 1 for t in tiles)

    view = position(GOAT, {}, two_arms)
    plays = [m for m in view["legal_moves"] if "play" in m]
    single = next(m for m in plays if [p["play"] for p in plays].count(m["play"]) == 1)
    double = next(m for m in plays if [p["play"] for p in plays].count(m["play"]) == 2)
    page = open_page(contexts)
    assert sent_moves(run(page, view, [f".hand-tile[data-tile='{single['play']}']"])) == [single]
    chosen = run(
        page,
        view,
        [f".hand-tile[data-tile='{double['play']}']", f"button.arm[data-arm='{double['arm']}']"],
    )
    assert sent_moves(chosen) == [double]


def test_clicking_a_value_groups_the_hand(contexts: Contexts) -> None:
    view = position(GOAT, {"players": 2}, lambda moves: len(moves) >= 1)
    page = open_page(contexts)
    value = int(view["hand"][-1].split("-")[1])
    result = run(page, view, [f".sorter button[data-value='{value}']"])
    having = [t for t in result["hand"] if str(value) in t.split("-")]
    assert result["hand"][: len(having)] == having and len(having) >= 1
    assert sorted(result["hand"]) == sorted(view["hand"])


def test_a_tile_can_be_dragged_to_the_arm_it_should_go_to(contexts: Contexts) -> None:
    def two_arms(moves: list[Any]) -> bool:
        tiles = [m.tile for m in moves if isinstance(m, Play) and m.arm is not None]
        return any(tiles.count(t) > 1 for t in tiles)

    view = position(GOAT, {}, two_arms)
    plays = [m for m in view["legal_moves"] if "play" in m]
    target = next(m for m in plays if [p["play"] for p in plays].count(m["play"]) == 2)
    page = open_page(contexts)
    run(page, view, [])
    tile = page.locator(f"main .hand-tile[data-tile='{target['play']}']").bounding_box()
    assert tile is not None
    page.mouse.move(tile["x"] + tile["width"] / 2, tile["y"] + tile["height"] / 2)
    page.mouse.down()
    page.mouse.move(tile["x"] + tile["width"] / 2, tile["y"] - 30, steps=4)
    marker = page.locator(f"main g.arm-target[data-arm='{target['arm']}']").bounding_box()
    assert marker is not None, "no marker at the arm's end while dragging"
    page.mouse.move(marker["x"] + marker["width"] / 2, marker["y"] + marker["height"] / 2, steps=6)
    page.mouse.up()
    sent = page.evaluate("window.sentMoves")
    assert [m["move"] for m in sent] == [target]
