"""Playing through the page the way a person does: click what is highlighted."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from kozel.layout.scoring.goat import Account

STEPS = (
    "button.arm",
    "button.close-no",
    "button.hundred-no",
    ".hand-tile.playable",
    "button.draw",
    "button.knock",
)


def my_turn(page: Page) -> bool:
    table = page.locator(".table")
    return table.count() == 1 and "my-turn" in (table.get_attribute("class") or "")


def version(page: Page) -> int:
    value = page.locator(".table").get_attribute("data-version")
    return int(value) if value is not None else -1


def step(page: Page, order: tuple[str, ...] = STEPS, keyboard: bool = False) -> bool:
    """Make one step of a move if it is this page's turn (a tile, an arm, a yes/no answer, a
    draw or a knock); True if something was pressed. The page redraws on every state, so an
    element may vanish under the click: that is not an error, the next call looks again."""
    try:
        if not my_turn(page):
            return False
        for selector in order:
            target = page.locator(selector).first
            if target.count():
                if keyboard:
                    target.focus(timeout=2000)
                    page.keyboard.press("Enter")
                else:
                    target.click(timeout=2000)
                return True
    except PlaywrightError:
        return False
    return False


def until(page: Page, expression: str, seconds: float = 20) -> None:
    """Wait until a JavaScript expression is true in the page. (Playwright's own
    wait_for_function evaluates strings with eval, which the club's CSP forbids.)"""
    deadline = time.monotonic() + seconds
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"still false after {seconds} s: {expression}"
        page.wait_for_timeout(30)


def game_over(page: Page) -> bool:
    return page.locator(".game-over").count() == 1


def play_to_end(
    pages: list[Page],
    seconds: float = 300,
    each_step: Any = None,
    order: tuple[str, ...] = STEPS,
    on_turn: Any = None,
) -> None:
    """Play every page's seat until every page shows the end of the game. ``each_step(page,
    turns)`` is called after each step; ``on_turn(page)`` when the page is to move, before the
    step (the table then waits for it: a steady moment to look at it)."""
    deadline = time.monotonic() + seconds
    turns = 0
    while not all(game_over(p) for p in pages):
        assert time.monotonic() < deadline, "the game did not end in time"
        moved = False
        for page in pages:
            if on_turn is not None and my_turn(page) and not game_over(page):
                on_turn(page)
            if step(page, order, keyboard=turns % 5 == 0):
                moved = True
                turns += 1
                if each_step:
                    each_step(page, turns)
        if not moved:
            pages[0].wait_for_timeout(60)


def shown_sheet(page: Page) -> list[list[tuple[str, str, str]]]:
    """The sheet as the page shows it: per round, per unit (before, this round, after)."""
    rows = []
    for row in page.locator("table.sheet tbody tr").all():
        cells = []
        for cell in row.locator("td").all():
            cells.append(
                (
                    cell.locator(".before").inner_text(),
                    cell.locator(".charged").inner_text(),
                    cell.locator(".after").inner_text(),
                )
            )
        rows.append(cells)
    return rows


def record_sheet(record: dict[str, Any]) -> list[list[tuple[str, str, str]]]:
    """The same three numbers from the server's record, as docs/rules.md#club shows them."""
    return [
        [
            (Account(**e["before"]).show(), str(e["charged"]), Account(**e["after"]).show())
            for e in rnd["sheet"]
        ]
        for rnd in record["rounds"]
    ]


RACE_CELLS = """rows => rows.map(r => [...r.querySelectorAll("td")].map(td => [
  td.querySelector(".before").textContent,
  td.querySelector(".during") ? td.querySelector(".during").textContent : null,
  td.querySelector(".credited").textContent,
  td.querySelector(".after").textContent,
  td.classList.contains("written-off"),
]))"""

RaceCell = tuple[str, str | None, str, str, bool]


def shown_race_sheet(page: Page) -> list[list[RaceCell]]:
    """A race's sheet as the page shows it: per round, per unit (before, during or None,
    credited, after, written off)."""
    rows = page.locator("table.sheet tbody tr").evaluate_all(RACE_CELLS)
    return [[(b, d, c, a, w) for b, d, c, a, w in row] for row in rows]


def plus(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def record_race_sheet(record: dict[str, Any], during: bool = False) -> list[list[RaceCell]]:
    """The same from the server's record: the points during play when some round has any, or
    always (``during``: a game that scores during play); a round's own points with "+"."""
    during = during or any(e["during"] for rnd in record["rounds"] for e in rnd["sheet"])
    return [
        [
            (
                str(e["before"]),
                plus(e["during"]) if during else None,
                plus(e["credited"]),
                str(e["after"]),
                bool(e.get("written_off")),
            )
            for e in rnd["sheet"]
        ]
        for rnd in record["rounds"]
    ]
