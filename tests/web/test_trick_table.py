"""Trumps at the trick table (kozel/web/static/tricks.js): a person plays a whole game against
three computer players through the page, clicking only what it offers (a bid or a pass, the
trumps when he holds the bid, a highlighted tile); the page shows the bidding box, the trumps,
the trick at the players' sides, the pairs' tricks and points, each hand's end and the sheet,
and its final scores are the record's, which replays clean. On a 360-px phone the same table
fits without scrolling sideways. The README's screenshots of the trick table come from here."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from kozel.games import get_game
from tests.web.conftest import PHONE, Contexts
from tests.web.play import game_over, my_turn
from tests.web.test_browser import game_id, no_sideways_scroll, record_of, seat_name, strings

GAME = "trumps"

# what the page shows of the position, beside what the state says
LOOK = """() => {
  const state = kozel.page.state;
  const main = document.querySelector("main");
  const all = (selector) => [...main.querySelectorAll(selector)];
  const texts = (selector) => all(selector).map((el) => el.textContent.trim());
  const tiles = (selector) => all(selector).map((el) => el.dataset.tile);
  return {
    view: state.view,
    phase: main.querySelector(".table").dataset.phase,
    bids: [...main.querySelectorAll(".bid-box button.bid")].map((b) => Number(b.dataset.bid)),
    pass: main.querySelectorAll(".bid-box button.pass").length,
    trumpsChoices: [...main.querySelectorAll("button.trumps-choice")].map((b) => [
      Number(b.dataset.trumps), Number(b.querySelector(".held").textContent.replace("×", ""))]),
    trumpsNamed: main.querySelector(".trumps-named")?.dataset.trumps ?? null,
    trick: [...main.querySelectorAll(".trick-area .trick-tile")].map((el) => [
      Number(el.dataset.seat), el.dataset.tile, el.dataset.place, el.classList.contains("led")]),
    finished: main.querySelector(".trick-area")?.classList.contains("finished") ?? false,
    playable: tiles(".hand-tile.playable"),
    dimmed: tiles(".hand-tile.dimmed"),
    trumpTiles: tiles(".hand-tile.trump"),
    hand: tiles(".hand-tile"),
    tricksWon: texts(".pairs-box .tricks-won dd").map(Number),
    taken: texts(".pairs-box .taken dd").map(Number),
    scores: texts(".pairs-box .pair-score dd").map(Number),
    notice: texts(".notice h2"),
  };
}"""

PLACES = {0: "you", 1: "left", 2: "across", 3: "right"}  # seen from seat 0


def start(page: Page, target: int) -> int:
    """The guest asks for a game of Trumps to ``target`` against the computer."""
    page.goto("/")
    page.click("#guest")
    page.select_option("#game", GAME)
    page.click("details.more summary")
    page.fill("#opt-target", str(target))
    page.click("#play-computer")
    number = game_id(page)
    expect(page.locator(".table")).to_have_attribute("data-game", GAME)
    return number


def check(seen: dict[str, Any]) -> None:
    """What the page shows on the person's turn is what the state says."""
    view = seen["view"]
    legal = view["legal_moves"]
    assert seen["phase"] == view["phase"]
    if view["phase"] == "bid":
        assert seen["bids"] == [m["bid"] for m in legal if "bid" in m]
        assert seen["pass"] == sum(1 for m in legal if m.get("pass"))
    if view["phase"] == "naming":
        held = [sum(1 for t in view["hand"] if str(v) in t.split("-")) for v in range(7)]
        assert seen["trumpsChoices"] == [[v, held[v]] for v in range(7)]
    if view["phase"] == "play":
        assert seen["trumpsNamed"] == str(view["trumps"])
        trumps = str(view["trumps"])
        assert sorted(seen["trumpTiles"]) == sorted(
            t for t in view["hand"] if trumps in t.split("-")
        )
        plays = sorted(m["play"] for m in legal)
        assert sorted(seen["playable"]) == plays
        assert sorted(seen["dimmed"]) == sorted(set(view["hand"]) - set(plays))
        # the trick at its players' sides, the led tile marked
        on_table = view["trick"] or (view["played"][-1] if view["played"] else [])
        assert seen["trick"] == [
            [e["seat"], e["tile"], PLACES[e["seat"]], i == 0] for i, e in enumerate(on_table)
        ]
        assert seen["finished"] == (not view["trick"] and bool(view["played"]))
    assert sorted(seen["hand"]) == sorted(view["hand"])
    assert seen["tricksWon"] == view["tricks_won"]
    assert seen["taken"] == view["taken"]
    assert seen["scores"] == view["scores"]


def move(page: Page, seen: dict[str, Any], bid: str) -> bool:
    """Click one of the moves the page offers: in the bidding the highest bid (``bid`` "high"),
    else a pass when the page offers one, else the lowest bid; the number most held as trumps;
    the first highlighted tile. True if something was clicked."""
    try:
        phase = seen["phase"]
        if phase == "bid":
            box = page.locator(".bid-box")
            if bid == "high":
                target = box.locator("button.bid").last
            elif box.locator("button.pass").count():
                target = box.locator("button.pass")
            else:
                target = box.locator("button.bid").first
        elif phase == "naming":
            most = max(seen["trumpsChoices"], key=lambda c: c[1])[0]
            target = page.locator(f"button.trumps-choice[data-trumps='{most}']")
        else:
            target = page.locator(".hand-tile.playable").first
        target.click(timeout=2000)
        return True
    except PlaywrightError:  # the page redrew under the click: look again
        return False


def test_a_person_plays_trumps_against_the_computer_to_the_end(
    contexts: Contexts, shots: Path
) -> None:
    en = strings("en")
    page = contexts.page()
    number = start(page, 100)
    phases: set[str] = set()
    notices: list[str] = []
    taken_shot = {"bidding": False, "desktop": False}
    trick_shown = bidding_shown = False
    deadline = time.monotonic() + 300
    while not game_over(page):
        assert time.monotonic() < deadline, "the game did not end in time"
        if not my_turn(page):
            page.wait_for_timeout(40)
            continue
        seen = page.evaluate(LOOK)
        if not seen["view"]["legal_moves"] or seen["view"]["turn"] != 0:
            continue  # between two states
        check(seen)
        view = seen["view"]
        phases.add(view["phase"])
        if seen["notice"]:
            # the last hand's end, until read: made or set, each pair's tricks and points
            notices += seen["notice"]
            expect(page.locator(".notice .pair-lines li")).to_have_count(2)
            page.locator(".notice button.ok").click()
            expect(page.locator(".notice")).to_have_count(0)
        # the bidding box, and the others' bids at their sides once some have bid (the second
        # hand: the person deals and bids last)
        if view["phase"] == "bid" and not taken_shot["bidding"]:
            expect(page.locator(".bid-box")).to_be_visible()
            expect(page.locator(".trick-area .trick-bid")).to_have_count(len(view["bids"]))
            page.screenshot(path=shots / "trumps-bidding.png")
            taken_shot["bidding"] = len(view["bids"]) >= 2
            bidding_shown = True
        # mid-hand, a trick on the table that the person must follow (some tiles dimmed); until
        # one comes, any trick on the table
        following = len(view["trick"]) >= 2 and 0 < len(seen["playable"]) < len(view["hand"])
        if view["phase"] == "play" and view["trick"] and not taken_shot["desktop"]:
            page.wait_for_timeout(500)  # the last tiles have slid in
            page.screenshot(path=shots / "trumps-desktop.png")
            taken_shot["desktop"] = following
            trick_shown = True
        # the first hand: the person bids first (seat 3 deals) and bids 42, which nobody can
        # top, so he names trumps; later he passes whenever he may
        move(page, seen, "high" if view["hand_number"] == 1 else "low")
        page.wait_for_timeout(20)
    assert {"bid", "naming", "play"} <= phases
    assert bidding_shown, "the bidding box was never shown"
    assert trick_shown, "no trick was on the table on the person's turn"

    record = record_of(page, number)
    assert record["game"] == GAME and record["options"]["target"] == 100
    match = get_game(GAME).replay(record)  # raises RecordError on any discrepancy
    assert match.over
    result = record["result"]
    scores = result["scores"]
    assert list(match.scores) == scores
    # the first hand was the person's bid of 42
    assert record["rounds"][0]["end"]["bid"] == 42 and record["rounds"][0]["end"]["bidder"] == 0
    labels = [seat_name(record["seats"], number, s) for s in range(4)]
    units = [f"{labels[0]} & {labels[2]}", f"{labels[1]} & {labels[3]}"]
    over = page.locator(".game-over")
    expect(over.locator(".winner")).to_contain_text(units[result["winners"][0]])
    expect(over.locator(".scores")).to_have_text(
        f"{units[0]}: {scores[0]} · {units[1]}: {scores[1]}"
    )
    last = record["rounds"][-1]["end"]
    made = en["tricks.made" if last["made"] else "tricks.set"]
    words = made.replace("{side}", units[last["bidder"] % 2]).replace("{bid}", str(last["bid"]))
    expect(over.locator(".last-round")).to_have_text(words)
    shown = page.locator(".pairs-box .pair-score dd").all_inner_texts()
    assert [int(s) for s in shown] == scores
    # the sheet: every hand's before, taken, recorded and after, per pair, as in the record
    if page.locator("details.sheet-box").get_attribute("open") is None:
        page.click("details.sheet-box summary")
    cells = page.locator("table.tricks-sheet tbody tr").evaluate_all(
        """rows => rows.map(r => [...r.querySelectorAll("td")].map(td => ["before", "taken",
            "credited", "after"].map(c => td.querySelector("." + c).textContent)))"""
    )
    assert cells == [
        [
            [str(e["before"]), str(e["taken"]), f"+{e['credited']}" if e["credited"] else "0",
             str(e["after"])]
            for e in rnd["sheet"]
        ]
        for rnd in record["rounds"]
    ]  # fmt: skip
    if len(record["rounds"]) > 1:
        assert notices, "no hand's end was shown"
        assert all(n.startswith(units[0]) or n.startswith(units[1]) for n in notices), notices


def test_trumps_fits_a_phone(contexts: Contexts, shots: Path) -> None:
    page = contexts.page(viewport=PHONE)
    start(page, 70)
    no_sideways_scroll(page)
    shot = shown = False
    deadline = time.monotonic() + 240
    width, height = PHONE["width"], PHONE["height"]
    while not game_over(page):
        assert time.monotonic() < deadline, "the game did not end in time"
        if not my_turn(page):
            page.wait_for_timeout(40)
            continue
        seen = page.evaluate(LOOK)
        view = seen["view"]
        if not view["legal_moves"] or view["turn"] != 0:
            continue
        check(seen)
        if seen["notice"]:
            page.locator(".notice button.ok").click()
            continue
        no_sideways_scroll(page)
        # every button of the bidding box and the trumps chooser, and the hand, on the screen
        boxes = page.locator(
            ".bid-box button, button.trumps-choice, .hand-tile, .hand-box"
        ).evaluate_all("els => els.map(e => { const r = e.getBoundingClientRect(); "
                       "return [r.left, r.right, r.bottom + scrollY]; })")  # fmt: skip
        assert all(left >= 0 and right <= width for left, right, _ in boxes), boxes
        assert all(bottom <= height for _, _, bottom in boxes), ("below the fold", boxes)
        # a trick on the table; until one comes, a trick just won
        if view["phase"] == "play" and (view["trick"] or view["played"]) and not shot:
            page.wait_for_timeout(500)  # the last tiles have slid in
            page.screenshot(path=shots / "trumps-phone.png")
            shot = bool(view["trick"])
            shown = True
        move(page, seen, "high" if view["hand_number"] == 1 else "low")
        page.wait_for_timeout(20)
    no_sideways_scroll(page)
    assert shown, "no trick was on the table on the person's turn"
    if page.locator("details.sheet-box").get_attribute("open") is None:
        page.click("details.sheet-box summary")
    expect(page.locator("table.tricks-sheet")).to_be_visible()
    no_sideways_scroll(page)


# Give the page a state as the server sends it; click the selectors in turn; return the moves
# the page sent and what it showed.
RUN = """async ([view, rounds, steps, extra]) => {
  const { TablePage } = await import("/static/table.js");
  const { rules } = await import("/static/options.js");
  await rules();
  const main = document.getElementById("page");
  const table = new TablePage(5);
  table.main = main;
  if (extra.next_round) table.roundsSeen = rounds.length - 1;  // the hand has just ended
  const sent = [];
  table.socket = { send: (message) => { sent.push(message); return true; } };
  await table.receive({ type: "state", game: 5, version: 7, status: "playing", you: view.seat,
    seats: ["ann", "bot:greedy", "bob", "bot:expert"], seconds_per_move: 60, rated: false, view,
    rounds, clock: { seat: view.turn, deadline_ms: 0, remaining_ms: 60000 }, ...extra });
  for (const step of steps) {
    const el = main.querySelector(step);
    if (!el) return { missing: step };
    el.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    table.busy = false;  // the server's answer never comes here: the next click may send
  }
  const mark = (selector) => [...main.querySelectorAll(selector)].map((el) => el.dataset.tile);
  return {
    missing: null,
    moves: sent.map((m) => m.move),
    winner: mark(".trick-area.finished .trick-tile.winner"),
    led: mark(".trick-area .trick-tile.led"),
    status: main.querySelector(".trick-status")?.textContent ?? null,
    notice: main.querySelector(".notice h2")?.textContent ?? null,
    next: main.querySelectorAll(".notice #next-round").length,
    seats: [...main.querySelectorAll("li.player")].map((li) => [li.dataset.place,
      li.querySelectorAll(".backs .back").length]),
    hand: main.querySelectorAll(".hand-box").length,
  };
}"""


def positions() -> dict[str, tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Seat 0's views of greedy games: its bid, its trumps, a trick it must follow, a trick
    just won (nothing on the table yet), a hand just over; each with the finished hands'
    summaries."""
    from kozel.trumps.bots import make_trumps_bot

    game = get_game(GAME)
    found: dict[str, tuple[dict[str, Any], list[dict[str, Any]]]] = {}
    for seed in range(50):
        match = game.new_match(game.options({"target": 250}), seed)
        bots = [make_trumps_bot("greedy", seed * 4 + s) for s in range(4)]
        while not match.over and len(found) < 5:
            if match.needs_deal:
                if match.hands and "over" not in found:
                    found["over"] = (match.view_dicts([0])[0], match.round_summaries(0))
                match.deal_next()
            seat = match.to_move
            assert seat is not None
            if seat == 0:
                view = match.view_dicts([0])[0]
                legal = view["legal_moves"]
                kind = view["phase"]
                if kind == "play" and view["trick"]:
                    kind = "follow" if len(legal) < len(view["hand"]) else ""
                elif kind == "play" and view["played"]:
                    kind = "won"
                if kind in ("bid", "naming", "follow", "won") and kind not in found:
                    found[kind] = (view, match.round_summaries(0))
            match.push(bots[seat].choose(match.view(seat)))
        if len(found) == 5:
            return found
    raise AssertionError(f"only {sorted(found)} in 50 games")


def test_the_page_sends_the_move_clicked_and_only_a_legal_one(contexts: Contexts) -> None:
    page = contexts.page()
    page.goto("/rules")
    page.wait_for_selector("nav.tabs a")
    found = positions()

    def run(kind: str, steps: list[str], **extra: Any) -> dict[str, Any]:
        view, rounds = found[kind]
        result: dict[str, Any] = page.evaluate(RUN, [view, rounds, steps, extra])
        assert result["missing"] is None, f"{kind}: nothing to click for {result['missing']!r}"
        return result

    bid = found["bid"][0]["legal_moves"][-1]
    assert run("bid", [f".bid-box button.bid[data-bid='{bid['bid']}']"])["moves"] == [bid]
    if any(m.get("pass") for m in found["bid"][0]["legal_moves"]):
        assert run("bid", [".bid-box button.pass"])["moves"] == [{"pass": True}]
    assert run("naming", ["button.trumps-choice[data-trumps='4']"])["moves"] == [{"trumps": 4}]
    view = found["follow"][0]
    plays = [m["play"] for m in view["legal_moves"]]
    other = next(t for t in view["hand"] if t not in plays)
    shown = run(
        "follow", [f".hand-tile[data-tile='{other}']", f".hand-tile[data-tile='{plays[0]}']"]
    )
    assert shown["moves"] == [{"play": plays[0]}]  # the tile that does not follow sends nothing
    assert shown["led"] == [view["trick"][0]["tile"]]
    # a trick just won stays on the table, its winner (who leads now) marked
    view = found["won"][0]
    shown = run("won", [])
    last = view["played"][-1]
    assert shown["winner"] == [next(e["tile"] for e in last if e["seat"] == view["turn"])]
    assert shown["led"] == [last[0]["tile"]]
    assert "won the trick" in shown["status"]
    # a hand just over, waiting for the next deal: its last trick and who won it, the notice
    # with the button for the next deal
    view, rounds = found["over"]
    shown = run("over", [], next_round={"waiting": [0], "remaining_ms": 15_000})
    last = rounds[-1]
    winner = last["tricks"][-1]["winner"]
    assert shown["winner"] == [next(e["tile"] for e in view["played"][-1] if e["seat"] == winner)]
    assert shown["notice"] is not None and str(last["end"]["bid"]) in shown["notice"]
    assert shown["next"] == 1
    # a spectator: every seat's tiles face down, no hand of his own
    view = {**found["naming"][0], "seat": None, "hand": [], "legal_moves": []}
    watched = page.evaluate(RUN, [view, [], [], {}])
    assert watched["hand"] == 0
    assert watched["seats"] == [["you", 7], ["left", 7], ["across", 7], ["right", 7]]
