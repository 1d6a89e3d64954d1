"""The score as it happens, in the browser: an All Fives game against the computer played
through the page to its end — the end sum beside the layout, the "+N" by a name after a lay
that scores (and "→ +N" in the move log), every seat's running score equal to what the
server's record gives at that moment, the quiet hint on the tiles that would score, who won
the lot, the sheet's points during play and bonus per round; the hint's switch, remembered;
the same on a 360-px phone; and a rated game between people, where the hint is neither
offered nor sent."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from kozel.core import parse_tile
from kozel.games import ALL_FIVES
from tests.server.client import Player, in_thread, play_to_the_end
from tests.web.conftest import PHONE, Contexts
from tests.web.play import (
    game_over,
    my_turn,
    play_to_end,
    record_race_sheet,
    shown_race_sheet,
    step,
)
from tests.web.test_browser import game_id, no_sideways_scroll, record_of, seat_name, strings

# At once (the page does not redraw during one evaluate): what the page shows of the score
# and the state it was drawn from.
SHOWN = """() => {
  const state = kozel.page.state;
  const text = (el) => (el ? el.textContent : null);
  const all = (selector, f) => [...document.querySelectorAll(selector)].map(f);
  const seat = (el) => Number(el.closest("li").dataset.seat);
  return {
    mine: state.view.turn === state.you && state.status === "playing",
    version: state.version, round: state.view.round, moves: state.view.history.length,
    history: state.view.history, hint: state.view.hint, lot: state.view.lot,
    lead: state.view.lead,
    scores: all("li.player", (li) => [seat(li), text(li.querySelector(".score"))]),
    just: all("li.player .just-scored", (el) => [seat(el), el.textContent]),
    endSum: text(document.querySelector(".end-sum")), viewSum: state.view.end_sum,
    hinted: all(".hand-tile", (b) => [b.dataset.tile, text(b.querySelector(".hint"))]),
    lastLog: text(document.querySelector("ol.move-log li:last-child")),
    lotLine: text(document.querySelector(".log-lead")),
    current: document.querySelectorAll("table.sheet tr.current").length,
    switch: document.querySelectorAll(".hint-switch input").length,
  };
}"""


def running_from_record(record: dict[str, Any], round_number: int, moves: int) -> list[int]:
    """Each seat's score after the first ``moves`` moves of round ``round_number`` (from 1), as
    the record gives it: the score before the round plus the points of those moves."""
    entry = record["rounds"][round_number - 1]
    scores = [e["before"] for e in entry["sheet"]]
    for move in entry["moves"][:moves]:
        scores[move["seat"]] += move.get("points", 0)
    return scores


def test_all_fives_against_the_computer_shows_the_score_as_it_happens(
    contexts: Contexts, shots: Path
) -> None:
    en = strings("en")
    page = contexts.page()
    page.goto("/")
    page.click("#guest")
    page.select_option("#game", "all_fives")
    page.click("details.more summary")
    page.select_option("#opt-players", "2")
    page.fill("#opt-target", "100")
    page.click("#play-computer")
    number = game_id(page)
    expect(page.locator(".table")).to_have_attribute("data-game", "all_fives")
    seen: list[dict[str, Any]] = []
    taken: list[int] = []

    def look(page: Page) -> None:
        """On the guest's turn (the table waits for it): what the page shows."""
        page.wait_for_timeout(100)
        shown = page.evaluate(SHOWN)
        if not shown["mine"]:  # a move made just before came back meanwhile: look next time
            return
        seen.append(shown)
        # the picture: a score just made, taken again when the layout is well under way (or,
        # before that, a hint is shown too), and again when both are
        quality = 2 * (len(shown["history"]) >= 8) + any(mark for _, mark in shown["hinted"])
        if shown["just"] and (not taken or quality > taken[-1]):
            page.wait_for_timeout(500)  # the last tile has landed
            page.screenshot(path=shots / "table-all-fives.png")
            taken.append(quality)

    play_to_end([page], on_turn=look)

    record = record_of(page, number)
    assert record["game"] == "all_fives" and record["options"]["target"] == 100
    seats = record["seats"]
    assert seen, "the guest never had a turn"
    hinted = scored = 0
    for shown in seen:
        # the end sum shown is the view's, once a tile is down
        if shown["viewSum"] is None:
            assert shown["endSum"] is None
        else:
            assert shown["endSum"] == en["score.end_sum"].format(n=shown["viewSum"])
        # every seat's running score is the record's at that moment
        expected = running_from_record(record, shown["round"], shown["moves"])
        assert {seat: int(text) for seat, text in shown["scores"]} == dict(enumerate(expected))
        # "+N" by the name of the seat whose lay just scored, and in the log
        lays = [e for e in shown["history"] if "play" in e or "doubles" in e]
        if lays and lays[-1]["points"] > 0:
            last = lays[-1]
            assert shown["just"] == [[last["seat"], f"+{last['points']}"]]
            scored += 1
        else:
            assert shown["just"] == []
        last_event = shown["history"][-1] if shown["history"] else None
        if last_event and last_event.get("points"):
            assert shown["lastLog"].endswith(f"→ +{last_event['points']}")
        # the hint, on by default against the computer, on exactly the tiles that score
        best: dict[str, int] = {}
        for move in shown["hint"]:
            best[move["play"]] = max(best.get(move["play"], 0), move["points"])
        assert dict(shown["hinted"]) == {
            tile: (f"+{best[tile]}" if tile in best else None) for tile, _ in shown["hinted"]
        }
        hinted += len(best)
        assert shown["switch"] == 1 and shown["current"] == 1
        # who won the lot, above the first round's moves; in a later round who leads and why
        lead = shown["lead"]
        name = seat_name(seats, number, lead["seat"])
        if shown["round"] == 1:
            lot = shown["lot"]
            first = record["rounds"][0]
            winner = ALL_FIVES.lot_winner([parse_tile(t) for t in first["lot"]])
            assert lot == {"seat": winner, "by": "lowest"} and first["moves"][0]["seat"] == winner
            assert lead == {"seat": winner, "why": "lot_lowest", "tile": None}
            assert shown["lotLine"] == en["score.lot_lowest"].format(name=name)
        else:
            assert shown["lot"] is None and lead["tile"] is None
            assert lead["why"] in ("went_out", "fisherman", "fish_winner"), lead
            assert shown["lotLine"] == en[f"lead.{lead['why']}"].format(name=name)
    assert scored, "no lay scored before the guest's turn in a whole game"
    assert hinted, "no hint was shown in a whole game"
    assert taken, "no picture of a score just made"

    # the sheet: the points during play and the bonus of every round, as the record has them
    assert shown_race_sheet(page) == record_race_sheet(record, during=True)
    expect(page.locator(".sheet-legend")).to_have_text(en["sheet.legend_during"])
    expect(page.locator("table.sheet tr.current")).to_have_count(0)
    cells = page.locator("table.sheet tbody tr").first.locator("td")
    expect(cells.first.locator(".during")).to_have_attribute("title", en["sheet.during"])
    expect(cells.first.locator(".credited")).to_have_attribute("title", en["sheet.bonus"])
    page.locator(".sheet-box").screenshot(path=shots / "sheet-all-fives.png")


def test_the_hint_can_be_switched_off_and_is_remembered(contexts: Contexts) -> None:
    page = contexts.page()
    page.goto("/")
    page.click("#guest")
    page.select_option("#game", "all_fives")
    page.click("details.more summary")
    page.select_option("#opt-players", "2")
    page.click("#play-computer")
    game_id(page)
    switch = page.locator(".hint-switch input")
    expect(switch).to_be_checked()
    switch.uncheck()
    moved_at = -1  # the version the guest last moved at: its state is stale until the next
    # play on until the guest holds a scoring lay (a hint would be shown): it comes within a
    # game, at some turn or other whatever the deal; the time bound is the game's
    deadline = time.monotonic() + 300
    while not game_over(page):
        assert time.monotonic() < deadline, "the game did not end in time"
        at, hinted = page.evaluate("[kozel.page.state.version, kozel.page.state.view.hint.length]")
        if my_turn(page) and at != moved_at and hinted > 0:
            break
        if step(page):
            moved_at = at
        else:
            page.wait_for_timeout(50)
    assert page.evaluate("kozel.page.state.view.hint.length") > 0, "nothing to hint in a game"
    expect(page.locator(".hand-tile .hint")).to_have_count(0)
    page.reload()
    expect(page.locator(".hint-switch input")).not_to_be_checked()
    expect(page.locator(".hand-tile .hint")).to_have_count(0)
    page.locator(".hint-switch input").check()
    expect(page.locator(".hand-tile .hint").first).to_be_visible()


def test_a_rated_game_offers_no_hint(contexts: Contexts) -> None:
    """Erin plays in the page, Frank over the API: the end sum and the scores are there, the
    hint's switch and marks are not, and no state carried a hint."""
    server = contexts.club
    erin, frank = Player(server.url, server.ws), Player(server.url, server.ws)
    erin.register("erin", "correct horse battery")
    frank.register("frank", "correct horse battery")
    wanted = {"game": "all_fives", "options": {"players": 2}, "rated": True}
    request = erin.post("/api/requests", wanted).json()
    game = frank.post(f"/api/requests/{request['id']}/join").json()["game_id"]
    page = contexts.page()
    page.goto("/")
    page.fill("#name", "erin")
    page.fill("#password", "correct horse battery")
    page.click("#login")
    expect(page.locator("#play-computer")).to_be_visible()
    page.goto(f"/games/{game}")
    expect(page.locator(".table")).to_have_attribute("data-game", "all_fives")
    with frank.socket(game) as sock:
        # Frank stops when it is his turn after his 12th move; Erin moves until then
        thread, _ = in_thread(play_to_the_end, sock, None, 12)
        turns = 0
        deadline = time.monotonic() + 120
        while thread.is_alive():
            assert time.monotonic() < deadline, "twelve moves each took over two minutes"
            if my_turn(page):
                expect(page.locator(".hint-switch")).to_have_count(0)
                expect(page.locator(".hand-tile .hint")).to_have_count(0)
                assert page.evaluate("kozel.page.state.rated") is True
                assert page.evaluate("kozel.page.state.view.hint") == []
            if step(page):
                turns += 1
            else:
                page.wait_for_timeout(50)
        thread.join(30)
    assert turns >= 6
    expect(page.locator(".end-sum")).to_have_text(re.compile(r"\d+$"))
    expect(page.locator("li.player .score")).to_have_count(2)


HAND_BOTTOM = """() => {
  // not while a round's end that came meanwhile waits to be read (the next look), nor while
  // the directions of a tile are offered (four of them take the height of four buttons)
  const hand = document.querySelector(".hand-box");
  if (!hand || document.querySelector(".notice, button.arm")) return null;
  return hand.getBoundingClientRect().bottom + scrollY;
}"""


def test_the_score_fits_a_phone(contexts: Contexts, shots: Path) -> None:
    """On a 360-px phone the end sum, the switch, the "+N" and the hint fit without sideways
    scrolling, and the hand still ends above the fold (once the last round's end is read)."""
    page = contexts.page(viewport=PHONE)
    page.goto("/")
    page.click("#guest")
    page.select_option("#game", "all_fives")
    page.click("details.more summary")
    page.select_option("#opt-players", "2")
    page.click("#play-computer")
    game_id(page)
    looked = 0
    for _ in range(80):
        if my_turn(page) and page.locator(".notice button.ok").count():
            page.click(".notice button.ok")  # read, as a player does: the round's end
        if my_turn(page) and page.locator(".end-sum").count():
            no_sideways_scroll(page)
            expect(page.locator(".hint-switch")).to_be_visible()
            bottom = page.evaluate(HAND_BOTTOM)
            assert bottom is None or bottom <= PHONE["height"]
            looked += 1
            if page.locator(".just-scored").count() and page.locator(".hand-tile .hint").count():
                page.wait_for_timeout(500)  # the last tile has landed
                page.screenshot(path=shots / "table-all-fives-phone.png")
                break
        if not step(page):
            page.wait_for_timeout(50)
    assert looked
