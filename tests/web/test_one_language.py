"""Every string a person reads comes from the translation files of the language chosen: the
test plays into a table in each language (the lobby, a table mid-game, the end of the game,
its review, the rules; the table's questions and a round's end are shown from positions) and
checks every visible text node, every option of a shown list, and every tooltip, label and
placeholder. Each word of them must be a word of that language's ui.json and options.json (so
a string composed of translations and numbers, tiles, names passes, and an English fallback,
an internal id or another language's word does not); the only other words allowed are the
players' own names (the signed-in player's, and what the page marks as a player's name:
``.player-name``), the club's name and the names of the languages in the switcher. A hash
(the shuffle's commitment and seeds: 8 hex digits or more) is data, as a number is. The rules
pages' own text is their HTML's (tests/web/test_i18n.py)."""

from __future__ import annotations

import functools
import re
import time
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from kozel.core import Play, PlayDoubles
from kozel.games import ALL_FIVES, DONKEY, SEA_GOAT
from tests.web.conftest import PHONE, Contexts
from tests.web.play import game_over, step, until
from tests.web.test_i18n import LANGUAGES, PLACEHOLDER, strings
from tests.web.test_phone_table import SHOW, donkey_positions, message
from tests.web.test_table_ui import position, run

WORD = re.compile(r"[^\W\d_]+")
HASH = re.compile(r"\b[0-9a-f]{8,}\b")
# the names of the languages in the switcher, each in its own language, and the club's name
OWN_NAMES = {"Kozel", "Русский", "Български", "Oʻzbekcha", "English"}
# what is not the client's to word: the rules' own HTML, what people wrote in the chat
NOT_OURS = ".rules-text, .chat-lines, noscript, script, style"

SHOWN = """(skip) => {
  const seen = [];
  const shown = (el) => {
    if (el.closest("option")) return el.closest("select").checkVisibility();
    const tooltip = el.closest("svg") && el.tagName.toLowerCase() === "title";
    if (tooltip) return el.parentElement.checkVisibility();
    return el.checkVisibility();
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    if (!node.textContent.trim() || !el || el.closest(skip) || !shown(el)) continue;
    seen.push(node.textContent.trim());
  }
  for (const el of document.body.querySelectorAll("[title], [aria-label], [placeholder]")) {
    if (el.closest(skip) || !shown(el)) continue;
    for (const name of ["title", "aria-label", "placeholder"]) {
      if (el.getAttribute(name)) seen.push(el.getAttribute(name));
    }
  }
  seen.push(document.title);
  // the names the page marks, read with the texts (a list redrawn between two reads could
  // show a name the first read did not see)
  const names = [...document.querySelectorAll(".player-name")].map((el) => el.textContent);
  return { seen, names };
}"""


TOURNAMENT = """import("/static/api.js").then((api) => api.post("/api/tournaments", {
  players: 5, rated: false, seconds_per_move: 60,
  bots: { 1: "greedy", 2: "random", 3: "greedy", 4: "random" },
})).then((request) => request.tournament_id)"""
PLANT = """(text) => document.querySelector("main").append(
  Object.assign(document.createElement("p"), { className: "planted", textContent: text }))"""


def words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(HASH.sub(" ", text))}


def language_words(lang: str) -> set[str]:
    """Every word of the language's strings, the placeholders' names left out."""
    found: set[str] = set()
    for part in ("ui", "options"):
        for value in strings(lang, part).values():
            found |= words(PLACEHOLDER.sub(" ", value))
    return found


def foreign(page: Page, lang: str, names: set[str]) -> list[tuple[str, list[str]]]:
    """The shown strings with words that are not the language's (with those words)."""
    shown = page.evaluate(SHOWN, NOT_OURS)
    marked = names | set(shown["names"]) | OWN_NAMES
    allowed = language_words(lang) | {w for name in marked for w in words(name)}
    out = []
    for text in shown["seen"]:
        strange = sorted(words(text) - allowed)
        if strange:
            out.append((text, strange))
    return out


class Checker:
    def __init__(self, page: Page, lang: str) -> None:
        self.page, self.lang = page, lang
        self.names: set[str] = set()
        self.problems: dict[str, list[tuple[str, list[str]]]] = {}

    def __call__(self, where: str) -> None:
        user = self.page.evaluate("import('/static/app.js').then((m) => m.session.user?.name)")
        if user:
            self.names.add(user)
        shown = ".player-name"
        self.names |= set(
            self.page.locator(shown).evaluate_all("els => els.map(e => e.textContent)")
        )
        found = foreign(self.page, self.lang, self.names)
        if found:
            self.problems[where] = found


def play_until(page: Page, expression: str, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"still false after {seconds} s: {expression}"
        if not step(page):
            page.wait_for_timeout(30)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_shown_string_is_in_the_players_language(contexts: Contexts, lang: str) -> None:
    # another guest's open request is listed, with his name (made of letters and hex digits)
    other = contexts.page()
    other.goto("/")
    other.click("#guest")
    other.click("#create")
    expect(other.locator("section.waiting")).to_have_count(1)
    page = contexts.page(locale=lang)
    check = Checker(page, lang)
    page.goto("/")
    page.wait_for_selector("#guest")
    expect(page.locator("#requests .occupant .player-name")).not_to_have_count(0)
    check("lobby, signed out")
    # the check itself: an internal id and an English word shown are found
    page.evaluate(PLANT, "bot:greedy · seat 2")
    planted = {text: strange for text, strange in foreign(page, lang, set())}
    assert "bot:greedy · seat 2" in planted and "greedy" in planted["bot:greedy · seat 2"]
    page.evaluate("document.querySelector('.planted').remove()")
    page.click("#guest")
    page.click("details.more summary")
    page.click("#create")  # a request of one's own: the waiting card, the request's buttons
    expect(page.locator("section.waiting")).to_have_count(1)
    check("lobby with a request")
    page.locator("section.waiting button.stop-waiting").click()
    expect(page.locator("section.waiting")).to_have_count(0)
    # a game of one round (a loser at its end): the notice of a round's end while the game
    # goes on is shown in the next test
    page.fill("#opt-open_threshold", "1")
    page.fill("#opt-loss_limit", "1")
    page.click("#play-computer")
    page.wait_for_url(re.compile(r"/games/\d+$"))
    play_until(page, "(kozel.page?.state?.view?.history.length ?? 0) >= 6")
    until(page, "document.querySelector('.table.my-turn, .game-over') !== null")
    check("table mid-game")
    if page.locator(".hand-tile.playable").count():
        page.locator(".hand-tile.playable").first.click()
        check("table, a tile picked")
    play_until(page, "document.querySelector('.game-over') !== null", 240)
    assert game_over(page)
    check("game over")
    page.locator(".game-over a[href$='/review']").click()
    page.wait_for_selector(".review .layout-svg, .review svg")
    check("review")
    # a tournament of five in progress (the person and four computers): its page
    tournament = page.evaluate(TOURNAMENT)
    page.goto(f"/tournaments/{tournament}")
    page.wait_for_selector("table.standings")
    check("tournament page")
    page.goto("/rules")
    page.wait_for_selector(".rules-text h2")
    check("rules")
    page.goto(f"/players/{next(iter(check.names))}")
    page.wait_for_selector("h1")
    check("player page")
    page.goto("/leaderboard")
    page.wait_for_selector("h1")
    check("leaderboard")
    page.goto("/nope")
    page.wait_for_selector("h1")
    check("no such page")
    assert check.problems == {}, "\n".join(
        f"{where}: {text!r} ({', '.join(strange)})"
        for where, found in check.problems.items()
        for text, strange in found
    )


@functools.cache
def questions() -> list[tuple[dict[str, Any], list[str]]]:
    """Positions that ask the player something, with the clicks that bring the question up: a
    direction to close (Donkey), several doubles at once, the hundred (Sea Goat), and a race
    that scores during play."""

    def closable(moves: list[Any]) -> bool:
        return any(isinstance(m, Play) and m.close for m in moves)

    def doubles(moves: list[Any]) -> bool:
        return any(isinstance(m, PlayDoubles) for m in moves)

    def hundred(moves: list[Any]) -> bool:
        return any(isinstance(m, Play) and m.hundred for m in moves)

    close = position(DONKEY, {}, closable)
    tile = next(m for m in close["legal_moves"] if m.get("close"))["play"]
    several = position(DONKEY, {}, doubles)
    first = next(m for m in several["legal_moves"] if "doubles" in m)["doubles"][0]["tile"]
    sea = position(SEA_GOAT, {}, hundred)
    six = next(m for m in sea["legal_moves"] if m.get("hundred"))["play"]
    race = position(ALL_FIVES, {}, lambda moves: len(moves) > 1)
    return [
        (close, [f".hand-tile[data-tile='{tile}']", "?.layout-svg g.arm-target"]),
        (several, ["button.several", f".hand-tile[data-tile='{first}']"]),
        (sea, [f".hand-tile[data-tile='{six}']"]),
        (race, [".hand-tile.playable"]),
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_tables_questions_are_in_the_players_language(contexts: Contexts, lang: str) -> None:
    """On a phone: its short direction buttons and the notice's fold are shown there only."""
    page = contexts.page(locale=lang, viewport=PHONE)
    page.goto("/rules/goat")
    page.wait_for_selector(".rules-text h2")
    names = {f"p{seat}" for seat in range(4)}
    problems = []
    for view, steps in questions():
        run(page, view, steps)
        if view["game"] != "all_fives":  # the question is asked
            assert page.locator("main .actions .prompt").count() >= 1, view["game"]
        problems += [(view["game"], text, strange) for text, strange in foreign(page, lang, names)]
    # a round's end while the game goes on: its notice, waiting for "next", and folded
    page.goto("/rules/donkey")
    page.wait_for_selector(".rules-text h2")
    _, _, second, rounds = donkey_positions()
    waiting = {"next_round": {"waiting": [0], "remaining_ms": 60_000}}
    names = {"guest-1c9329a7"}
    for extra in ({}, waiting):
        seen = page.evaluate(SHOW, [message(second, rounds, **extra), 0, None])
        assert seen["notice"] is not None
        problems += [("notice", text, strange) for text, strange in foreign(page, lang, names)]
    page.locator("main .notice-fold").click()
    problems += [("folded", text, strange) for text, strange in foreign(page, lang, names)]
    assert problems == []
