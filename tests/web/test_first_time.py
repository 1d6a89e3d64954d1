"""What a first-time player trips on, at the table page of the club: real positions from the
engine are given to the page as the server would send them, and what it shows is read back —
a round's whole summary on a phone, the hands left and their totals at a game's end, a
timeout said once, no bazaar where a game has none, both names of a seat a computer player
took, the first lead explained, round steps on a chart's axis."""

from __future__ import annotations

import functools
import itertools
import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from kozel.core import TILE_NAMES
from kozel.games import ALL_FIVES, BYKOVO, GOAT, SEA_GOAT
from kozel.layout.match import Match
from kozel.layout.rules import Ruleset
from kozel.layout.views import view_for
from tests.randomplay import play_random
from tests.web.conftest import DESKTOP, PHONE, Contexts

SHOW = """async ([message, roundsSeen]) => {
  const { TablePage } = await import("/static/table.js");
  const { rules } = await import("/static/options.js");
  await rules();
  const main = document.getElementById("page");
  const table = new TablePage(message.game);
  table.main = main;
  table.socket = { send: () => true };
  table.roundsSeen = roundsSeen;
  await table.receive(message);
  window.shownTable = table;
  return true;
}"""

# where each line of the round's notice is, and its button
NOTICE = """() => {
  const notice = document.querySelector("main .board .notice");
  const rect = (el) => {
    const r = el.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const button = notice.querySelector(".next-round, .ok");
  const fold = notice.querySelector(".notice-fold");
  const lines = [...notice.children].filter((el) => el !== button && el !== fold);
  return {
    notice: rect(notice), scroll: notice.scrollHeight, client: notice.clientHeight,
    button: rect(button), lines: lines.map((el) => [el.tagName + "." + el.className, ...rect(el)]),
    text: notice.innerText, wide: document.documentElement.scrollWidth,
    page: document.documentElement.scrollHeight,
  };
}"""


def message(
    view: dict[str, Any] | None, rounds: list[dict[str, Any]], seats: int = 4, **extra: Any
) -> dict[str, Any]:
    labels = ["guest-1c9329a7", "bot:expert", "bot:greedy", "bot:random"][:seats]
    state = {
        "type": "state", "game": 7, "version": 9, "status": "playing", "you": 0,
        "seats": labels, "seconds_per_move": 60, "rated": False, "view": view,
        "rounds": rounds, **extra,
    }  # fmt: skip
    if view is not None and view["turn"] is not None and state["status"] == "playing":
        state["clock"] = {"seat": view["turn"], "deadline_ms": 0, "remaining_ms": 30_000}
    return state


def show(page: Page, state: dict[str, Any], rounds_seen: int | None = None) -> None:
    page.evaluate(SHOW, [state, rounds_seen])


def open_page(contexts: Contexts, locale: str = "en", viewport: dict[str, int] = DESKTOP) -> Page:
    page = contexts.page(viewport=viewport, locale=locale, reduced_motion=True)
    page.goto("/rules/goat")
    page.wait_for_selector(".rules-text h2")
    return page


@functools.cache
def all_fives_round_end() -> tuple[dict[str, Any], list[dict[str, Any]], list[list[str]]]:
    """All Fives for four: the final position of a first round in which three or more
    players scored during play (the longest summary), with the hands turned face up."""
    for seed in range(300):
        rng = random.Random(seed)
        match = Match(ALL_FIVES, ALL_FIVES.options({"players": 4}), seed)
        rnd = match.next_round()
        while not rnd.over:
            moves = rnd.legal_moves()
            match.push(moves[int(rng.random() * len(moves))])
        summary = match.round_summaries(0)
        if not match.over and sum(1 for e in summary[0]["sheet"] if e.get("during")) >= 3:
            return view_for(match, 0).to_dict(), summary, match.shown_hands()
    raise AssertionError("no such round in 300 games")


@pytest.mark.parametrize("locale", ["ru", "bg", "uz", "en"])
def test_a_phone_shows_the_whole_round_summary(
    contexts: Contexts, shots: Path, locale: str
) -> None:
    """360×740: every line of All Fives' round summary (the points made during play, the
    bonus) is in sight in the notice, none behind its «Next round» button, nothing left in a
    box to scroll."""
    view, rounds, shown = all_fives_round_end()
    page = open_page(contexts, locale, PHONE)
    for extra in ({}, {"next_round": {"waiting": [0], "remaining_ms": 60_000}}):
        show(page, message(view, rounds, shown=shown, **extra), rounds_seen=0)
        seen = page.evaluate(NOTICE)
        assert seen["scroll"] <= seen["client"] + 1, (locale, "the notice scrolls", seen)
        _, ny0, _, ny1 = seen["notice"]
        _, by0, _, by1 = seen["button"]
        assert len(seen["lines"]) >= 3, seen
        for name, _, y0, _, y1 in seen["lines"]:
            assert ny0 - 1 <= y0 and y1 <= ny1 + 1, (locale, name, "outside the notice", seen)
            assert y1 <= by0 + 1 or y0 >= by1 - 1, (locale, name, "behind the button", seen)
        assert seen["wide"] <= PHONE["width"]
        # the points during play and the bonus are in the text
        during = [e["during"] for e in rounds[0]["sheet"] if e.get("during")]
        assert all(str(n) in seen["text"] for n in during), seen["text"]
    page.screenshot(path=shots / f"round-end-summary-phone-{locale}.png", full_page=True)


def finished_game(rules: Ruleset, raw: dict[str, Any], seed: int) -> Match:
    return play_random(rules, rules.options(raw), seed)


def game_over_message(match: Match, **extra: Any) -> dict[str, Any]:
    assert match.result is not None
    result = {**match.result.to_dict(), "timeout": match.result.timeout}
    state = message(
        view_for(match, 0).to_dict(),
        match.round_summaries(0),
        seats=match.opts.players,
        status="interrupted" if match.result.timeout is not None else "finished",
        result=result,
        shown=match.shown_hands(),
        **extra,
    )
    return state


def test_the_end_of_a_game_shows_the_hands_left_and_their_totals(
    contexts: Contexts, shots: Path
) -> None:
    match = finished_game(GOAT, {"players": 4, "loss_limit": 25}, 3)
    last = match.round_summaries(0)[-1]
    page = open_page(contexts)
    for viewport in (DESKTOP, PHONE):
        page.set_viewport_size(viewport)  # type: ignore[arg-type]
        show(page, game_over_message(match))
        hands = page.locator(".game-over .final-hands li")
        assert hands.count() == 4
        for seat, tiles in enumerate(match.shown_hands()):
            line = hands.nth(seat)
            assert line.locator(".total").inner_text() == f"total {last['counts'][seat]}"
            svgs = line.locator("svg.tile-svg")
            assert svgs.count() == len(tiles)
            for k, tile in enumerate(tiles):
                svg = svgs.nth(k)
                assert svg.get_attribute("aria-label") == tile
                box = svg.bounding_box()
                assert box is not None and box["height"] >= 14 and box["width"] >= 28, box
                assert svg.locator("circle.pip").count() == sum(map(int, tile.split("-")))
        # the others' hands at their seats are readable too: 24 px wide and more
        for svg in page.locator("li.player .shown svg").all():
            box = svg.bounding_box()
            assert box is not None and box["width"] >= 24, box
        page.screenshot(path=shots / f"game-over-hands-{viewport['width']}.png", full_page=True)


def test_a_blank_tile_is_drawn_as_a_tile(contexts: Contexts) -> None:
    """0-0 has no pips: its outline and its middle bar are dark, so it reads as a tile."""
    page = open_page(contexts)
    found = page.evaluate(
        """async () => {
          const { tileSvg } = await import("/static/tiles.js");
          const holder = document.createElement("span");
          holder.className = "shown";
          holder.append(tileSvg(0, 0, { u: 15, label: "0-0" }));
          document.getElementById("page").append(holder);
          const face = getComputedStyle(holder.querySelector(".tile-face"));
          const bar = holder.querySelector(".tile-bar");
          return { stroke: face.stroke, width: parseFloat(face.strokeWidth), bar: Boolean(bar) };
        }"""
    )
    assert found["bar"] and found["width"] >= 1.5 and found["stroke"] == "rgb(29, 26, 22)", found


def test_a_timeout_is_said_once(contexts: Contexts) -> None:
    match = Match(GOAT, GOAT.options({"players": 4}), 5)
    match.next_round()
    match.push(match.round.legal_moves()[0])
    match.timeout(match.round.turn)
    page = open_page(contexts)
    show(page, game_over_message(match))
    text = page.locator(".game-over").inner_text()
    assert text.count("ran out of time") == 1, text


@pytest.mark.parametrize(("rules", "bazaar"), [(BYKOVO, False), (GOAT, True), (SEA_GOAT, True)])
def test_the_bazaar_is_shown_where_the_game_has_one(
    contexts: Contexts, rules: Ruleset, bazaar: bool
) -> None:
    """Bykovo deals every tile and never draws: no «Bazaar: 0» at its table."""
    match = Match(rules, rules.options({} if rules is BYKOVO else {"players": 4}), 1)
    match.next_round()
    page = open_page(contexts)
    show(page, message(view_for(match, 0).to_dict(), []))
    assert page.locator(".board-info .bazaar").count() == (1 if bazaar else 0)


def test_a_seat_a_computer_took_shows_both_names(contexts: Contexts) -> None:
    """Seat 1's moves before the computer took it are its person's, the later ones the
    computer's; the sheet's column names both."""
    match = Match(GOAT, GOAT.options({"players": 4}), 11)
    rnd = match.next_round()
    while len(rnd.history) < 12 and not rnd.over:
        match.push(rnd.legal_moves()[0])
    own = [k for k, (seat, _, _) in enumerate(rnd.history) if seat == 1]
    assert len(own) >= 2
    taken_from = own[len(own) // 2]  # seat 1's moves from this one on are the computer's
    state = message(
        view_for(match, 0).to_dict(),
        [],
        replaced=[None, "ann", None, None],
        takeovers=[
            {"seat": 1, "player": "ann", "by": "bot:expert", "round": 1, "move": taken_from}
        ],
    )
    page = open_page(contexts)
    show(page, state)
    computer = page.locator('li.player[data-seat="1"] .name').inner_text()
    assert computer and computer != "ann"
    entries = page.locator('ol.move-log li[data-seat="1"]')
    assert entries.count() >= 2
    for k in range(entries.count()):
        entry = entries.nth(k)
        key = int(entry.get_attribute("data-key") or -1)
        expected = "ann" if key < taken_from else computer
        assert entry.inner_text().startswith(f"{expected} "), (key, entry.inner_text())
    header = page.locator("table.sheet thead th").nth(2).inner_text()
    assert header.startswith(f"ann → {computer}"), header


def test_a_chart_marks_round_steps(contexts: Contexts) -> None:
    page = open_page(contexts)
    found = page.evaluate(
        """async () => {
          const { ticks, lineChart } = await import("/static/chart.js");
          const series = [{ label: "a", values: [0, 30, 85] }, { label: "b", values: [5, 64, 21] }];
          const svg = lineChart(series);
          return {
            shown: [...svg.querySelectorAll("text.tick")].map((el) => el.textContent),
            cases: [[0, 85], [0, 7], [-13, 120], [0, 3000], [0, 1]].map(([a, b]) => ticks(a, b)),
          };
        }"""
    )
    assert found["shown"][:6] == ["0", "20", "40", "60", "80", "100"], found
    assert found["cases"] == [
        [0, 20, 40, 60, 80, 100],
        [0, 2, 4, 6, 8],
        [-50, 0, 50, 100, 150],
        [0, 500, 1000, 1500, 2000, 2500, 3000],
        [0, 1],
    ]
    for marks in found["cases"]:
        step = marks[1] - marks[0]
        assert all(b - a == step for a, b in itertools.pairwise(marks))
        assert str(step).strip("0") in ("1", "2", "5"), step


@pytest.mark.parametrize("rules", [GOAT, SEA_GOAT])
def test_the_first_lead_is_explained(contexts: Contexts, rules: Ruleset) -> None:
    """Goat and Sea Goat say who leads the first round and why, once the tile is on the
    table (before, only the leader knows it: his own view says it to him)."""
    match = Match(rules, rules.options({"players": 4}), 2)
    rnd = match.next_round()
    leader = rnd.leader
    tile = TILE_NAMES[rnd.lead_mask.bit_length() - 1]
    page = open_page(contexts)
    words = page.evaluate("""async () => (await import("/static/i18n.js")).t("lead.first_tile")""")
    # before the lead: the others see no reason, the leader sees his own
    show(page, message(view_for(match, (leader + 1) % 4).to_dict(), []))
    assert page.locator(".log-lead").count() == 0
    state = message(view_for(match, leader).to_dict(), [])
    state["you"] = leader
    show(page, state)
    name = page.locator(f'li.player[data-seat="{leader}"] .name').get_attribute("title")
    expected = words.replace("{name}", name or "").replace("{tile}", tile)
    assert page.locator(".log-lead").inner_text() == expected
    # after it, everyone
    match.push(rnd.legal_moves()[0])
    show(page, message(view_for(match, None).to_dict(), [], you=None))
    name = page.locator(f'li.player[data-seat="{leader}"] .name').get_attribute("title")
    expected = words.replace("{name}", name or "").replace("{tile}", tile)
    assert page.locator(".log-lead").inner_text() == expected
