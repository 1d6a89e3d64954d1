"""The table as domino players expect it, on positions from the engine shown in the page at
360×740 and 1280×800: the others seated round the board with their hands face down, whose turn
it is and their clock at their seat, partners marked; the round's moves in a log a screen
reader follows; each other player's last move at the seat and on the board; a laid tile
sliding in from its seat; computer players with distinct names, never `bot:…`."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from kozel.games import DONKEY, GOAT
from kozel.layout.match import Match
from kozel.layout.round import Round
from kozel.layout.rules import Ruleset
from kozel.layout.views import view_for
from tests.randomplay import play_random
from tests.web.conftest import DESKTOP, PHONE, Contexts
from tests.web.test_browser import seat_name
from tests.web.test_i18n import strings

GAME = 6  # the table's number: the computer players' animals depend on it

SHOW = """async (messages) => {
  const { TablePage } = await import("/static/table.js");
  const { rules } = await import("/static/options.js");
  await rules();
  const main = document.getElementById("page");
  const table = new TablePage(messages[0].game);
  table.main = main;
  table.socket = { send: () => true };
  window.table = table;
  for (const message of messages) await table.receive(message);
}"""


def views(rules: Ruleset, raw: dict[str, object], seed: int) -> list[dict[str, Any]]:
    """Seat 0's view at every moment of the first round of a random game."""
    found: list[dict[str, Any]] = []

    def keep(match: Match, rnd: Round) -> None:
        if len(match.results) == 0:
            found.append(view_for(match, 0).to_dict())

    play_random(rules, rules.options(raw), seed, keep)
    return found


def state(view: dict[str, Any], seats: list[str], version: int = 5) -> dict[str, Any]:
    return {
        "type": "state", "game": GAME, "version": version, "status": "playing", "you": 0,
        "seats": seats, "seconds_per_move": 60, "rated": False, "view": view, "rounds": [],
        "clock": {"seat": view["turn"], "deadline_ms": 0, "remaining_ms": 42_000},
    }  # fmt: skip


def open_table(contexts: Contexts, viewport: dict[str, int], locale: str = "en-US") -> Page:
    page = contexts.page(locale=locale, viewport=viewport)
    page.goto("/")
    page.click("#guest")
    page.wait_for_selector("#play-computer")
    page.goto("/rules/goat")
    page.wait_for_selector(".rules-text h2")
    return page


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).bounding_box()
    assert found is not None, selector
    return found


SEATS = {
    4: ["alice", "bot:greedy", "bot:greedy", "bot:greedy"],
    3: ["alice", "bot:random", "bot:expert"],
    2: ["alice", "bot:expert"],
}


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("players", [4, 3, 2])
def test_the_others_sit_round_the_board(
    contexts: Contexts, viewport: dict[str, int], players: int
) -> None:
    """Play passes clockwise: the next seat on your left, then across, then on your right; on
    a phone they sit in a row above the board in that order. Each hand lies face down with
    its count; the seat to move shows its clock."""
    seq = views(GOAT, {"players": players}, 3)
    view = next(v for v in seq if v["turn"] not in (0, None) and len(v["history"]) >= players)
    page = open_table(contexts, viewport)
    page.evaluate(SHOW, [state(view, SEATS[players])])
    board = box(page, ".board")
    places = {2: ["across"], 3: ["left", "right"], 4: ["left", "across", "right"]}[players]
    seats = {place: box(page, f"li.player[data-place={place}]") for place in places}
    for seat, place in enumerate(["you", *places]):
        assert page.locator(f"li.player[data-seat='{seat}']").get_attribute("data-place") == place
    you = box(page, "li.player[data-place=you]")
    assert you["y"] >= board["y"] + board["height"] - 1
    phone = viewport["width"] < 720
    for place, seat in seats.items():
        if phone or place == "across":
            assert seat["y"] + seat["height"] <= board["y"] + 1, place
        elif place == "left":
            assert seat["x"] + seat["width"] <= board["x"] + 1
        else:
            assert seat["x"] >= board["x"] + board["width"] - 1
    if phone and players > 2:
        xs = [seats[place]["x"] for place in places]
        assert xs == sorted(xs)
    for seat in range(1, players):
        backs = page.locator(f"li.player[data-seat='{seat}'] .backs .back").count()
        assert backs == min(view["hand_sizes"][seat], 10)
    turn = page.locator("li.player.turn")
    assert turn.get_attribute("data-seat") == str(view["turn"])
    assert turn.locator(".clock").inner_text() == "0:42"
    assert page.locator("li.player .clock").count() == 1


def test_partners_are_marked(contexts: Contexts) -> None:
    view = next(v for v in views(GOAT, {"teams": True}, 4) if v["layout"]["first"])
    page = open_table(contexts, DESKTOP)
    page.evaluate(SHOW, [state(view, SEATS[4])])
    partner = page.locator("li.player.partner")
    assert partner.get_attribute("data-place") == "across"
    assert partner.locator(".team").inner_text() == strings("en", "ui")["table.partner"]


def laid_on(layout: dict[str, Any]) -> dict[str, int]:
    """The value each tile was laid against: arm 0 starts from the first tile's low half,
    arm 1 from its high half, a spinner's arms 2 and 3 from its value."""
    low, high = (int(v) for v in layout["first"].split("-"))
    spin = int(layout["spinner"].split("-")[0]) if layout["spinner"] else low
    on: dict[str, int] = {}
    for arm in layout["arms"]:
        shows = [low, high, spin, spin][arm["arm"]]
        for tile in arm["tiles"]:
            a, b = (int(v) for v in tile.split("-"))
            on[tile] = shows
            shows = b if a == shows else a
    return on


def log_of(view: dict[str, Any], seats: list[str]) -> list[tuple[int, str, str]]:
    """The log the page should show: (seat, kind, English text) per entry, a seat's draws in
    a row as one entry (its own draws naming the tiles)."""
    en = strings("en", "ui")
    on = laid_on(view["layout"])
    names = [seat_name(seats, GAME, s).split(" · ")[0] for s in range(len(seats))]
    entries: list[dict[str, Any]] = []
    previous: dict[str, Any] = {}
    for move in view["history"]:
        seat = move["seat"]
        if "draw" in move and "draw" in previous and previous["seat"] == seat:
            entries[-1]["n"] += 1
        elif "draw" in move:
            entries.append({"seat": seat, "kind": "drew", "n": 1, "tiles": []})
        elif "knock" in move:
            entries.append({"seat": seat, "kind": "knock"})
        elif "doubles" in move:
            entries.append({"seat": seat, "kind": "doubles"})
        else:
            kind = "lead" if move.get("arm") is None else "play"
            said = {"closed": move.get("close"), "hundred": move.get("hundred")}
            notes = [en[f"review.{note}"] for note, yes in said.items() if yes]
            entries.append({"seat": seat, "kind": kind, "tile": move["play"], "notes": notes})
        if isinstance(move.get("draw"), str):
            entries[-1]["tiles"].append(move["draw"])
        previous = move
    out = []
    for entry in entries:
        kind = entry["kind"]
        fill = {"name": names[entry["seat"]], "n": entry.get("n"), "tile": entry.get("tile")}
        fill["tiles"] = ", ".join(entry.get("tiles", []))
        fill["value"] = on.get(entry.get("tile") or "")
        key = {"drew": "log.drew_tiles" if entry.get("tiles") else "log.drew"}.get(kind)
        key = key or {"knock": "review.knock", "lead": "log.lead", "play": "log.play"}.get(kind)
        if key and kind == "drew":  # a count: English's two forms
            key += ".one" if entry["n"] == 1 else ".other"
        text = en[key] if key else ""
        for name, value in fill.items():
            text = text.replace(f"{{{name}}}", str(value))
        if entry.get("notes"):
            text += f" ({', '.join(entry['notes'])})"
        out.append((entry["seat"], kind, text))
    return out


LOG = """() => [...document.querySelectorAll("ol.move-log li")].map((li) =>
  [Number(li.dataset.seat), li.dataset.kind, li.textContent])"""


def drawn_and_knocked(rules: Ruleset, raw: dict[str, object]) -> tuple[dict[str, Any], ...]:
    """Two of seat 0's views one move apart, late in a first round with draws and knocks."""
    for seed in range(100):
        seq = views(rules, raw, seed)
        moves = seq[-1]["history"]
        if any("draw" in m for m in moves) and any("knock" in m for m in moves):
            return seq[-2], seq[-1]
    raise AssertionError("no round with draws and knocks in 100 games")


@pytest.mark.parametrize(("rules", "raw"), [(GOAT, {"players": 2}), (DONKEY, {"players": 3})])
def test_the_move_log_tells_the_round_in_order(
    contexts: Contexts, rules: Ruleset, raw: dict[str, object]
) -> None:
    """Who laid what on which value, who drew how many, who knocked — from the state's
    history, in order; a new move adds one entry and leaves the others be (a screen reader
    hears the new one)."""
    before, later = drawn_and_knocked(rules, raw)
    assert len(later["history"]) == len(before["history"]) + 1
    seats = SEATS[len(later["hand_sizes"])]
    page = open_table(contexts, DESKTOP)
    page.evaluate(SHOW, [state(before, seats, 5)])
    log = page.locator("ol.move-log")
    assert log.get_attribute("aria-live") == "polite"
    shown = page.evaluate(LOG)
    expected = log_of(before, seats)
    assert [(s, k) for s, k, _ in shown] == [(s, k) for s, k, _ in expected]
    assert [text for _, k, text in shown if k != "doubles"] == [
        text for _, k, text in expected if k != "doubles"
    ]
    page.evaluate("() => document.querySelectorAll('ol.move-log li').forEach((li) => li.kept = 1)")
    page.evaluate("(m) => window.table.receive(m)", state(later, seats, 6))
    shown = page.evaluate(LOG)
    assert [(s, k) for s, k, _ in shown] == [(s, k) for s, k, _ in log_of(later, seats)]
    kept = page.evaluate(
        "() => [...document.querySelectorAll('ol.move-log li')].map((li) => li.kept === 1)"
    )
    # every entry stays but the last, which is new (or the last draw's, its count raised)
    assert all(kept[: len(expected) - 1])
    assert not kept[-1] or shown[-1][1] == "drew"


def test_each_players_last_move_is_at_the_seat_and_on_the_board(contexts: Contexts) -> None:
    seq = views(GOAT, {}, 5)
    view = next(v for v in seq if len(v["history"]) >= 9 and v["turn"] == 0)
    page = open_table(contexts, PHONE)
    page.evaluate(SHOW, [state(view, SEATS[4])])
    en = strings("en", "ui")
    places = ["you", "left", "across", "right"]
    for seat in range(1, 4):
        last = next(m for m in reversed(view["history"]) if m["seat"] == seat)
        shown = page.locator(f"li.player[data-seat='{seat}'] .last-move").inner_text()
        if "play" in last:
            assert shown.endswith(last["play"])
            tile = page.locator(f".layout-svg g.tile[data-tile='{last['play']}']")
            assert tile.get_attribute("data-by") == places[seat]
        elif "knock" in last:
            assert shown.endswith(en["seat.knocked"])
    final = next(m for m in reversed(view["history"]) if "play" in m)
    laid = page.locator(".layout-svg g.tile.last")
    assert laid.count() == 1 and laid.get_attribute("data-tile") == final["play"]


FLIGHT = """async ([message, wait]) => {
  await window.table.receive(message);
  const laid = (name) => document.querySelector(`.layout-svg g.tile[data-tile="${name}"]`);
  const tile = laid(message.view.history.at(-1).play);
  const start = [tile.classList.contains("flying"), tile.style.transform];
  await new Promise((done) => setTimeout(done, wait));
  const tileNow = laid(message.view.history.at(-1).play);
  return [start, [tileNow.classList.contains("flying"), tileNow.style.transform]];
}"""


@pytest.mark.parametrize("reduced", [False, True], ids=["motion", "reduced-motion"])
def test_a_laid_tile_slides_in_from_its_seat(contexts: Contexts, reduced: bool) -> None:
    seq = views(GOAT, {}, 8)
    at = next(
        i
        for i, v in enumerate(seq)
        if i and len(v["history"]) >= 4 and "play" in v["history"][-1] and v["history"][-1]["seat"]
    )
    page = contexts.page(viewport=DESKTOP, reduced_motion=reduced)
    page.goto("/rules/goat")
    page.wait_for_selector(".rules-text h2")
    page.evaluate(SHOW, [state(seq[at - 1], SEATS[4], 5)])
    start, end = page.evaluate(FLIGHT, [state(seq[at], SEATS[4], 6), 900])
    if reduced:
        assert start == [False, ""]
    else:
        assert start[0] and start[1].startswith("translate(")
    assert end == [False, ""]


@pytest.mark.parametrize("locale", ["ru-RU", "en-US"])
def test_computer_players_have_distinct_names_everywhere(contexts: Contexts, locale: str) -> None:
    """Three computer players of one level: three animals with the level, at the seats, in
    the log and on the sheet; no `bot:` label anywhere."""
    lang = locale[:2]
    view = next(v for v in views(GOAT, {}, 2) if len(v["history"]) >= 6)
    seats = SEATS[4]
    page = open_table(contexts, DESKTOP, locale)
    page.evaluate(SHOW, [state(view, seats)])
    names = [seat_name(seats, GAME, s, lang) for s in range(4)]
    assert len(set(names)) == 4
    words = strings(lang, "ui")
    assert names[1] == f"{words[f'bot.animal.{(GAME * 5 + 1) % 12}']} · {words['level.greedy']}"
    shown = page.locator("li.player .name").all_inner_texts()
    assert [n.split(" (")[0] for n in shown] == [n.split(" · ")[0] for n in names]
    levels = page.locator("li.player .level").all_inner_texts()
    assert levels == [f"· {words['level.greedy']}"] * 3
    header = page.locator("table.sheet thead").inner_text()
    assert all(name in header for name in names[1:])
    text = page.locator("main").inner_text()
    assert "bot:" not in text and words["lobby.computer"].split(" ")[0] not in text
