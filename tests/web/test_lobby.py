"""The lobby as a person sees it: "play with a person" seats you at a request that waits for
the same game, else opens one, and says so (how many more players, that the game starts by
itself, how to stop waiting); your games in progress where you see them; the form's choices
as wide as their longest option in every language; a phone's score sheet whole."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import DESKTOP, PHONE, Contexts
from tests.web.test_i18n import LANGUAGES, strings

EN = strings("en", "ui")


def guest(contexts: Contexts, viewport: dict[str, int] = DESKTOP, locale: str = "en-US") -> Page:
    page = contexts.page(viewport=viewport, locale=locale)
    page.goto("/")
    page.click("#guest")
    page.wait_for_selector("#play-person")
    return page


def wish(page: Page, players: str, seconds: str) -> None:
    page.click("details.more summary")
    page.select_option("#opt-players", players)
    page.fill("#seconds", seconds)


def test_play_with_a_person_waits_with_a_hint_then_pairs(contexts: Contexts) -> None:
    alice, bob, carol = (guest(contexts) for _ in range(3))
    for page in (alice, bob, carol):
        wish(page, "3", "41")
    alice.click("#play-person")
    card = alice.locator("section.waiting")
    # two seats are free: the title waits for opponents, not for one
    expect(card.locator("h2")).to_have_text(EN["lobby.waiting_title_several"])
    expect(card.locator(".waiting-count")).to_have_text(
        "2 more players needed (1 of 3 at the table)."
    )
    expect(card).to_contain_text(EN["lobby.waiting_help"])
    # the next one is seated at alice's request, and told so (once "Your request is open")
    bob.click("#play-person")
    expect(bob.locator("section.waiting .waiting-count")).to_have_text(
        "1 more player needed (2 of 3 at the table)."
    )
    expect(bob.locator("section.waiting button.stop-waiting")).to_have_text(EN["lobby.leave"])
    expect(card.locator(".waiting-count")).to_have_text(
        "1 more player needed (2 of 3 at the table)."
    )
    assert EN["lobby.created"] not in bob.locator("#toasts").inner_text()
    carol.click("#play-person")
    for page in (alice, bob, carol):
        page.wait_for_url(re.compile(r"/games/\d+$"))
    assert alice.url == bob.url == carol.url


def test_waiting_can_be_stopped_and_other_requests_are_pointed_at(contexts: Contexts) -> None:
    dora, eve = guest(contexts), guest(contexts)
    wish(dora, "2", "42")
    dora.click("#create")  # a request of another wish: eve is told it waits too
    wish(eve, "2", "43")
    eve.click("#play-person")
    card = eve.locator("section.waiting")
    expect(card.locator(".waiting-count")).to_have_text(
        "1 more player needed (1 of 2 at the table)."
    )
    expect(card.locator(".waiting-others")).to_contain_text("1 other request is waiting")
    expect(card.locator("button.stop-waiting")).to_have_text(EN["lobby.cancel"])
    card.locator("button.stop-waiting").click()
    expect(eve.locator("section.waiting")).to_have_count(0)
    expect(dora.locator("section.waiting .waiting-others")).to_have_count(0)


def top(page: Page, selector: str) -> float:
    return float(page.locator(selector).first.evaluate("(el) => el.getBoundingClientRect().top"))


def test_your_games_are_in_sight(contexts: Contexts) -> None:
    """Beside the form on a desktop, above the requests; above the form on a phone."""
    for viewport in (DESKTOP, PHONE):
        page = guest(contexts, viewport)
        page.click("#play-computer")
        page.wait_for_url(re.compile(r"/games/\d+$"))
        page.goto("/")
        expect(page.locator("#your-games li")).to_have_count(1)
        assert top(page, ".your-games") < top(page, ".requests")
        assert top(page, ".your-games") + 60 < viewport["height"]
        if viewport is PHONE:
            assert top(page, ".your-games") < top(page, ".play-form")


# the select's own width against the width it takes to show its longest option whole
FITS = """() => [...document.querySelectorAll(".play-form .row.choose select")].map((select) => {
  const shown = select.getBoundingClientRect().width;
  const saved = select.getAttribute("style");
  select.style.width = "max-content";
  select.style.maxWidth = "none";
  const needed = select.getBoundingClientRect().width;
  select.setAttribute("style", saved || "");
  return [select.id, shown, needed, document.documentElement.scrollWidth];
})"""


def test_the_forms_choices_fit_their_longest_option(contexts: Contexts) -> None:
    for viewport in (DESKTOP, PHONE):
        page = guest(contexts, viewport)
        for lang in LANGUAGES:
            page.select_option("#lang", lang)
            page.wait_for_selector(f"html[lang={lang}] #preset")
            for name, shown, needed, wide in page.evaluate(FITS):
                assert shown >= needed - 0.5, (viewport, lang, name, shown, needed)
                assert wide <= viewport["width"], (viewport, lang, "the page scrolls sideways")


SHEET = """async () => {
  const { sheetTable } = await import("/static/sheet.js");
  const { naming, seatNames } = await import("/static/names.js");
  const account = (n) => ({ open: n > 12, account: n, remembered: n > 12 ? 0 : n });
  const entry = (n) => ({ before: account(n), charged: n, after: account(2 * n) });
  const round = { end: { kind: "fish", seat: 1 }, counts: [31, 17, 0, 44], eggs: 0,
    sheet: [entry(31), entry(17), entry(0), entry(44)] };
  const names = seatNames(["guest-1c9329a7", "bot:expert", "bot:greedy", "bot:random"], naming(6));
  const main = document.getElementById("page");
  main.replaceChildren(sheetTable([round, round, round, round], names, false, { kind: "goat" }));
  const box = main.querySelector(".sheet-scroll").getBoundingClientRect();
  const cells = main.querySelectorAll("table.sheet thead th, table.sheet tbody tr:first-child td");
  return [...cells].map((th) => {
    const r = th.getBoundingClientRect();
    return [th.textContent, r.left >= box.left - 0.5 && r.right <= box.right + 0.5];
  });
}"""


def test_a_phones_sheet_shows_all_four_columns(contexts: Contexts) -> None:
    for lang in ("ru", "bg", "uz", "en"):
        page = contexts.page(viewport=PHONE, locale=lang)
        page.goto("/rules")
        page.wait_for_selector("nav.tabs a")
        columns = page.evaluate(SHEET)
        assert len(columns) == 9 and all(inside for _, inside in columns), (lang, columns)


@pytest.mark.parametrize("lang", ["en", "uz"])
def test_the_levels_are_told_in_the_words_of_the_game_chosen(contexts: Contexts, lang: str) -> None:
    """A layout game's levels lay tiles; Poker's bet and draw; Trumps' bid and take tricks:
    the line under the level and the list of levels follow the game chosen."""
    ui = strings(lang, "ui")
    page = contexts.page(locale=lang)
    page.goto("/")
    page.click("#guest")
    help_line, listed = page.locator("#level-help"), page.locator("details.levels-help dd")
    for game, prefix in [("goat", ""), ("poker", "poker."), ("trumps", "tricks."), ("draw", "")]:
        page.select_option("#game", game)
        expect(help_line).to_have_text(ui[f"level_help.{prefix}amateur"])
        page.select_option("#level", "expert")
        expect(help_line).to_have_text(ui[f"level_help.{prefix}expert"])
        page.select_option("#level", "amateur")
        expect(listed).to_have_text(
            [
                ui[f"level_help.{prefix}{level}"]
                for level in ("beginner", "amateur", "strong", "expert")
            ]
        )
