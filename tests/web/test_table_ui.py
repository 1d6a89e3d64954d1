"""The table page's choices in the browser, on real positions from the engine: a state is given
to kozel/web/static/table.js as the server would send it, the test clicks like a player (the
hand and the move being chosen are hand.js's), and the move the page sends must be the legal
move meant."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from kozel.core import Play, PlayDoubles
from kozel.games import DONKEY, DRAW, GOAT, SEA_GOAT
from kozel.layout.match import Match
from kozel.layout.round import Round
from kozel.layout.rules import Ruleset
from kozel.layout.views import view_for
from tests.randomplay import play_random
from tests.web.conftest import Contexts
from tests.web.test_i18n import strings

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
    rules: Ruleset,
    raw: dict[str, object],
    wanted: Callable[[list[Any]], bool],
    tiles_in_hand: int | None = None,
) -> dict[str, Any]:
    """The first position of random games where the seat to move has moves ``wanted`` likes
    (and, if given, that many tiles in hand)."""
    found: list[dict[str, Any]] = []

    def look(match: Match, rnd: Round) -> None:
        held = rnd.hands[rnd.turn].bit_count()
        if tiles_in_hand is not None and held != tiles_in_hand:
            return
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


def open_page(contexts: Contexts, locale: str = "en-US") -> Page:
    page = contexts.page(locale=locale)
    page.goto("/rules/goat")
    page.wait_for_selector(".rules-text h2")
    return page


@pytest.mark.parametrize("rules", [DONKEY, SEA_GOAT], ids=["donkey-cross", "sea_goat-line"])
def test_several_doubles_at_once_are_chosen_one_by_one(contexts: Contexts, rules: Ruleset) -> None:
    """Donkey on its cross, Sea Goat on both ends of a line: the same control."""
    view = position(rules, {}, lambda moves: any(isinstance(m, PlayDoubles) for m in moves))
    target = next(m for m in view["legal_moves"] if "doubles" in m)
    steps = ["button.several"]
    for d in target["doubles"]:
        steps += [f".hand-tile[data-tile='{d['tile']}']", f"?button.arm[data-arm='{d['arm']}']"]
        steps.append("?button.close-yes" if d.get("close") else "?button.close-no")
    page = open_page(contexts)
    planned = run(page, view, steps)
    prompt = page.locator("main .actions .prompt").first.inner_text()
    assert "→" not in prompt, f"the plan names arm numbers: {prompt}"  # e.g. 2-2→0, 4-4→1
    assert planned["sent"] == []
    steps.append("button.lay-doubles")
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


def test_the_last_tile_does_not_ask_whether_to_close(contexts: Contexts) -> None:
    """Going out ends the round: whether the last tile closes its direction does not matter,
    so the table lays it open without asking."""

    def closable(moves: list[Any]) -> bool:
        return any(isinstance(m, Play) and m.close for m in moves)

    view = position(DONKEY, {}, closable, tiles_in_hand=1)
    tile = view["hand"][0]
    arms = sorted({m["arm"] for m in view["legal_moves"] if m.get("play") == tile})
    steps = [f".hand-tile[data-tile='{tile}']"]
    if len(arms) > 1:
        steps.append(f"button.arm[data-arm='{arms[0]}']")
    page = open_page(contexts)
    sent = sent_moves(run(page, view, steps))
    assert sent == [{"play": tile, "arm": arms[0]}]


def test_a_tile_dropped_on_the_board_that_fits_two_ends_asks_which(contexts: Contexts) -> None:
    """Dropped anywhere on the board (not on an end's marker), a tile that fits two ends is
    not put back silently: the table asks which end."""

    def two_arms(moves: list[Any]) -> bool:
        tiles = [m.tile for m in moves if isinstance(m, Play) and m.arm is not None]
        return any(tiles.count(t) > 1 for t in tiles)

    view = position(GOAT, {}, two_arms)
    plays = [m for m in view["legal_moves"] if "play" in m]
    target = next(m for m in plays if [p["play"] for p in plays].count(m["play"]) == 2)
    page = open_page(contexts)
    run(page, view, [])
    tile = page.locator(f"main .hand-tile[data-tile='{target['play']}']").bounding_box()
    board = page.locator("main .board").bounding_box()
    assert tile is not None and board is not None
    page.mouse.move(tile["x"] + tile["width"] / 2, tile["y"] + tile["height"] / 2)
    page.mouse.down()
    page.mouse.move(board["x"] + 10, board["y"] + 10, steps=6)  # a corner, far from the ends
    page.mouse.up()
    assert page.evaluate("window.sentMoves") == []
    expect(page.locator("main button.arm")).to_have_count(2)
    page.locator(f"main button.arm[data-arm='{target['arm']}']").click()
    assert [m["move"] for m in page.evaluate("window.sentMoves")] == [target]


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


def hundred_lead(moves: list[Any]) -> bool:
    return any(isinstance(m, Play) and m.hundred for m in moves)


@pytest.mark.parametrize(
    ("locale", "question"), [("en-US", "Declare the hundred?"), ("ru-RU", "Объявить сотню?")]
)
def test_sea_goat_asks_whether_to_declare_the_hundred(
    contexts: Contexts, locale: str, question: str
) -> None:
    """A Sea Goat leader with a record who holds 6-6: leading it asks «Объявить сотню?», and
    the answer picks the lead with or without the hundred."""
    view = position(SEA_GOAT, {}, hundred_lead)
    assert view["layout"]["first"] is None and view["sheet"][view["seat"]] > 0
    declared = next(m for m in view["legal_moves"] if m.get("hundred"))
    plain = next(m for m in view["legal_moves"] if m.get("play") == "6-6" and not m.get("hundred"))
    tile = ".hand-tile[data-tile='6-6']"
    page = open_page(contexts, locale)
    asked = run(page, view, [tile])
    assert asked["sent"] == []
    assert page.locator("main .actions .prompt").inner_text() == question
    assert sent_moves(run(page, view, [tile, "button.hundred-yes"])) == [declared]
    assert sent_moves(run(page, view, [tile, "button.hundred-no"])) == [plain]
    # another lead is sent at once, without the question
    other = next((m for m in view["legal_moves"] if m.get("play") not in (None, "6-6")), None)
    if other is not None:
        single = run(page, view, [f".hand-tile[data-tile='{other['play']}']"])
        assert sent_moves(single) == [other]


def test_a_declared_hundred_is_shown_at_the_table(contexts: Contexts) -> None:
    """After the lead that declared it, every seat sees who declared the hundred."""
    found: list[dict[str, Any]] = []

    def look(match: Match, rnd: Round) -> None:
        if not found and rnd.hundred >= 0 and rnd.turn != rnd.hundred:
            found.append(view_for(match, rnd.turn).to_dict())

    for seed in range(500):
        play_random(SEA_GOAT, SEA_GOAT.options({}), seed, look)
        if found:
            break
    assert found, "no declared hundred in 500 random games"
    view = found[0]
    page = open_page(contexts)
    run(page, view, [])
    badge = page.locator("main .hundred-declared").inner_text()
    assert badge == f"p{view['hundred']} declared the hundred"


SHOW = """async (message) => {
  const { TablePage } = await import("/static/table.js");
  const { rules } = await import("/static/options.js");
  await rules();
  const main = document.createElement("main");
  document.body.replaceChildren(main);
  const table = new TablePage(1);
  table.main = main;
  table.socket = { send: () => true };
  await table.receive(message);
  return main.innerHTML.length;
}"""


def finished_sea_goat(reason: str) -> dict[str, Any]:
    """The final state of a random Sea Goat game that a round of ``reason`` decided at once."""
    for seed in range(2000):
        match = play_random(SEA_GOAT, SEA_GOAT.options({"players": 3}), seed)
        facts = match.round_summaries()
        if facts[-1]["decided_by"] == reason:
            result = match.result
            assert result is not None
            view = view_for(match, 0).to_dict()
            return {
                "type": "state", "game": 1, "version": 99, "status": "finished",
                "seats": ["p0", "p1", "p2"], "you": 0, "seconds_per_move": 60, "rated": True,
                "view": view, "rounds": facts, "result": {**result.to_dict(), "timeout": None},
            }  # fmt: skip
    raise AssertionError(f"no Sea Goat game decided by {reason} in 2000 random games")


@pytest.mark.parametrize("reason", ["bald_goat", "six_six", "hundred_made", "hundred_failed"])
def test_an_instant_end_of_sea_goat_is_explained(contexts: Contexts, reason: str) -> None:
    message = finished_sea_goat(reason)
    en = {**strings("en", "ui"), **strings("en", "options")}
    page = open_page(contexts)
    page.evaluate(SHOW, message)
    decides = message["rounds"][-1]["end"]["decides"]
    name = f"p{decides['seat']}"
    over = page.locator("main .game-over")
    assert over.locator(".decided").inner_text() == en[f"decides.{reason}"].replace("{name}", name)
    winners = ", ".join(f"p{u}" for u in message["result"]["winners"])
    assert over.locator(".winner strong").inner_text() == winners
    rating = over.locator(".rating li").all_inner_texts()
    assert rating == [
        f"p{s}: " + en["table.rating_change"].replace("{delta}", f"+{d}" if d >= 0 else str(d))
        for s, d in enumerate(message["result"]["rating"])
    ]
    marks = page.locator("main table.sheet tbody tr th .decided-mark").count()
    assert marks == 1


NOTICE = """async ([before, after]) => {
  const { TablePage } = await import("/static/table.js");
  const { rules } = await import("/static/options.js");
  await rules();
  const main = document.createElement("main");
  document.body.replaceChildren(main);
  const table = new TablePage(1);
  table.main = main;
  table.socket = { send: () => true };
  await table.receive(before);
  await table.receive(after);
  const notice = main.querySelector(".notice");
  if (!notice) return null;
  const words = (el) => [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.data);
  const credited = notice.querySelector(".credited").textContent;
  return [words(notice.querySelector("h2")).join(""), credited];
}"""


def after_a_round(
    rules: Ruleset, raw: dict[str, object], wanted: Callable[[dict[str, Any]], bool]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two states of a random game of three players: one before and one just after a round
    that ``wanted`` likes ended, the game going on (the page shows its notice)."""
    found: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []

    def look(match: Match, rnd: Round) -> None:
        if found or rnd.history or not match.results:
            return
        facts = match.round_summaries()
        if wanted(facts[-1]):
            found.append((view_for(match, 0).to_dict(), facts))

    for seed in range(500):
        play_random(rules, rules.options(raw), seed, look)
        if found:
            view, facts = found[0]
            state = {
                "type": "state", "game": 1, "version": 50, "status": "playing",
                "seats": ["p0", "p1", "p2"], "you": 0, "seconds_per_move": 60, "rated": False,
                "view": view, "rounds": facts,
            }  # fmt: skip
            return {**state, "version": 49, "rounds": facts[:-1]}, state
    raise AssertionError("no such round in 500 random games")


def test_the_round_end_notice_of_a_race(contexts: Contexts) -> None:
    """Who went out or won the fish, and what was credited: a write-off, a credit too small
    to open a record (Sea Goat), a fish with a shared lowest count (Draw)."""
    en = {**strings("en", "ui"), **strings("en", "options")}

    def fill(key: str, **values: object) -> str:
        text = en[key]
        for name, value in values.items():
            text = text.replace(f"{{{name}}}", str(value))
        return text

    page = open_page(contexts)
    written_off = after_a_round(
        SEA_GOAT, {"players": 3}, lambda r: any(e.get("written_off") for e in r["sheet"])
    )
    heading, credited = page.evaluate(NOTICE, list(written_off))
    last = written_off[1]["rounds"][-1]
    unit = next(u for u, e in enumerate(last["sheet"]) if e["credited"] > 0)
    assert credited == fill("notice.written_off", side=f"p{unit}", credit=last["credit"])

    small = after_a_round(
        SEA_GOAT,
        {"players": 3},
        lambda r: (
            r["end"]["kind"] == "out"
            and 0 < r["credit"] < 25
            and r["sheet"][r["winner"]]["credited"] == 0
        ),
    )
    heading, credited = page.evaluate(NOTICE, list(small))
    last = small[1]["rounds"][-1]
    assert heading.strip() == fill("round.out", name=f"p{last['end']['seat']}")
    assert credited == fill(
        "notice.not_opened", side=f"p{last['winner']}", credit=last["credit"], n=25
    )

    tie = after_a_round(
        DRAW, {"players": 3}, lambda r: r["end"]["kind"] == "fish" and r["winner"] is None
    )
    heading, credited = page.evaluate(NOTICE, list(tie))
    seat = tie[1]["rounds"][-1]["end"]["seat"]
    assert heading.strip() == fill("round.fish", name=f"p{seat}") + " — " + en["notice.fish_nobody"]
    assert credited == en["notice.fish_tie"]

    won = after_a_round(
        DRAW, {"players": 3}, lambda r: r["end"]["kind"] == "fish" and r["winner"] is not None
    )
    heading, credited = page.evaluate(NOTICE, list(won))
    last = won[1]["rounds"][-1]
    side = f"p{last['winner']}"
    assert heading.strip().endswith(fill("notice.fish_won", side=side))
    assert credited == fill("notice.credited", side=side, credit=last["credit"])
