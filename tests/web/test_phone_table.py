"""A 360×740 phone keeps the hand in sight when the table asks the most of the screen: the end
of a round (its notice lies over the board) and a tile that fits three or four ends of a
Donkey cross (the direction buttons are short). Real positions from the engine are given to
the table page of the club, as the server would send them, and measured."""

from __future__ import annotations

import functools
from typing import Any

from playwright.sync_api import Page

from kozel.core import Play
from kozel.games import DONKEY
from kozel.layout.match import Match
from kozel.layout.round import Round
from kozel.layout.views import view_for
from tests.randomplay import play_random
from tests.web.conftest import PHONE, Contexts

SHOW = """async ([message, roundsSeen, tile]) => {
  const { TablePage } = await import("/static/table.js");
  const { rules } = await import("/static/options.js");
  await rules();
  const main = document.getElementById("page");
  const table = new TablePage(message.game);
  table.main = main;
  table.socket = { send: () => true };
  table.roundsSeen = roundsSeen;
  await table.receive(message);
  if (tile) table.choose(tile);
  const box = (selector) => {
    const el = main.querySelector(selector);
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return [r.left, r.top + scrollY, r.right, r.bottom + scrollY];
  };
  return {
    hand: box(".hand-box"), tiles: box(".hand"), board: box(".board"), notice: box(".notice"),
    next: box(".notice .next-round, .notice .ok"),
    arms: [...main.querySelectorAll("button.arm")].map((b) => {
      const r = b.getBoundingClientRect();
      return [b.innerText, r.left, r.top + scrollY, r.right, r.bottom + scrollY];
    }),
    wide: document.documentElement.scrollWidth,
  };
}"""


FOLDED = """() => {
  const box = (selector) => {
    const el = document.querySelector(`main ${selector}`);
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return [r.left, r.top + scrollY, r.right, r.bottom + scrollY];
  };
  return { notice: box(".notice"), next: box(".notice .next-round"), hand: box(".hand-box") };
}"""


@functools.cache
def donkey_positions() -> tuple[dict[str, Any], str, dict[str, Any], list[dict[str, Any]]]:
    """A view where a tile fits three or more ends, and a view of the second round's first
    move with the first round's summary."""
    choice: list[tuple[dict[str, Any], str]] = []
    second: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []

    def look(match: Match, rnd: Round) -> None:
        if not choice:
            arms: dict[Any, set[int | None]] = {}
            for move in rnd.legal_moves():
                if isinstance(move, Play):
                    arms.setdefault(move.tile, set()).add(move.arm)
            if any(len(a) >= 3 for a in arms.values()):
                view = view_for(match, rnd.turn).to_dict()
                counts: dict[str, set[int]] = {}
                for m in view["legal_moves"]:
                    if "play" in m:
                        counts.setdefault(m["play"], set()).add(m["arm"])
                choice.append((view, max(counts, key=lambda tile: len(counts[tile]))))
        if not second and match.round_summaries(0) and rnd.turn == 0:
            second.append((view_for(match, 0).to_dict(), match.round_summaries(0)))

    for seed in range(200):
        play_random(DONKEY, DONKEY.options({}), seed, look)
        if choice and second:
            return choice[0][0], choice[0][1], second[0][0], second[0][1]
    raise AssertionError("no such positions in 200 games")


def message(view: dict[str, Any], rounds: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {
        "type": "state", "game": 7, "version": 9, "status": "playing", "you": view["seat"],
        "seats": ["guest-1c9329a7", "bot:expert", "bot:greedy", "bot:random"],
        "seconds_per_move": 60, "rated": False, "view": view, "rounds": rounds,
        "clock": {"seat": view["turn"], "deadline_ms": 0, "remaining_ms": 30_000}, **extra,
    }  # fmt: skip


def open_table_page(contexts: Contexts, locale: str) -> Page:
    page = contexts.page(viewport=PHONE, locale=locale, reduced_motion=True)
    page.goto("/rules/donkey")
    page.wait_for_selector(".rules-text h2")
    return page


def test_the_hand_stays_in_sight_on_a_phone(contexts: Contexts) -> None:
    choice, tile, second, rounds = donkey_positions()
    height, width = PHONE["height"], PHONE["width"]
    for locale in ("ru", "uz", "en"):
        page = open_table_page(contexts, locale)
        # choosing among three or four ends: short buttons, in one or two rows
        seen = page.evaluate(SHOW, [message(choice, []), None, tile])
        assert len(seen["arms"]) >= 3, seen
        assert seen["hand"][3] <= height, (locale, "the hand ends below the fold", seen)
        assert seen["tiles"][3] <= height
        assert all(right <= width for _, _, _, right, _ in seen["arms"]), seen["arms"]
        assert len({top for _, _, top, _, _ in seen["arms"]}) <= 2, seen["arms"]
        assert seen["wide"] <= width
        # a round's end: the notice over the board (its button too), the hand below it
        waiting = {"waiting": [0], "remaining_ms": 60_000}
        for extra in ({}, {"next_round": waiting}):
            seen = page.evaluate(SHOW, [message(second, rounds, **extra), 0, None])
            assert seen["notice"] is not None, seen
            (bx0, by0, bx1, by1), (nx0, ny0, nx1, ny1) = seen["board"], seen["notice"]
            assert bx0 <= nx0 and nx1 <= bx1 and by0 <= ny0 and ny1 <= by1, seen
            assert seen["next"][3] <= ny1 + 1 and seen["next"][1] >= ny0 - 1, seen
            assert seen["hand"][3] <= height, (locale, "the hand ends below the fold", seen)
            assert seen["wide"] <= width
        # folded, the notice leaves most of the board (the final position) in sight
        open_height = ny1 - ny0
        page.locator("main .notice-fold").click()
        folded = page.evaluate(FOLDED)
        assert folded["notice"][3] - folded["notice"][1] < open_height / 2, (folded, open_height)
        assert folded["next"] is not None and folded["hand"][3] <= height
        page.locator("main .notice-fold").click()
        assert page.evaluate(FOLDED)["notice"][3] - page.evaluate(FOLDED)["notice"][1] > 100
