"""A person and three computer players play a Bykovo micro-tournament through the pages: the
request in the lobby, the tournament page, each game's table and back, to the final
standings (the README's screenshot)."""

from __future__ import annotations

import re
import time
from pathlib import Path

from playwright.sync_api import Page, expect

from kozel.layout.tournament import replay_tournament
from tests.server.client import http_get
from tests.web.conftest import Contexts
from tests.web.play import game_over, play_to_end, until


def finished(page: Page) -> bool:
    return page.locator(".tournament[data-status='finished']").count() == 1


def entrant_names(page: Page, game: int) -> list[str]:
    """The names the tournament page gives the players of its game ``game``, seat by seat."""
    rows = page.locator("table.standings tbody tr")
    named = dict(
        zip(
            rows.evaluate_all("(rows) => rows.map((r) => r.dataset.player)"),
            rows.locator("td:nth-child(2)").all_inner_texts(),
            strict=True,
        )
    )
    labels = page.evaluate("kozel.page.state.players")
    seated = page.evaluate(f"kozel.page.state.games.at({game}).players")
    return [named[labels[p]] for p in seated]


def test_a_person_and_computers_play_a_tournament_to_the_end(
    contexts: Contexts, shots: Path
) -> None:
    page = contexts.page()
    page.goto("/")
    page.click("#guest")
    page.select_option("#tournament-players", "4")
    page.click("#create-tournament")
    request = page.locator("li.request").filter(has=page.locator("button.bots"))
    expect(request).to_have_count(1)
    expect(page.locator("section.waiting")).to_contain_text("Bykovo micro-tournament")
    # three seats are free: it says so, and that the tournament (not a game) starts then
    expect(page.locator("section.waiting h2")).to_have_text("Waiting for opponents")
    expect(page.locator("section.waiting")).to_contain_text("The tournament starts as soon")
    request.locator("button.bots").click()
    page.wait_for_url(re.compile(r"/tournaments/\d+$"))
    tournament_id = int(page.url.rsplit("/", 1)[1])
    page.wait_for_selector("table.standings")
    deadline = time.monotonic() + 240
    games = 0
    while not finished(page):
        assert time.monotonic() < deadline, "the tournament did not end in time"
        mine = page.locator("#to-my-game")
        if not mine.count():
            page.wait_for_timeout(50)
            continue
        # the tournament page's names of this game's players, seat by seat
        listed = entrant_names(page, -1)
        mine.click()
        page.wait_for_url(re.compile(r"/games/\d+$"))
        # the table names its computer players as the tournament page does, says which game of
        # the tournament it is (the standings a click away) and shows no bazaar (Bykovo has none)
        expect(page.locator("#tournament-standings")).to_have_text(
            re.compile(rf"^Game {games + 1} of tournament #{tournament_id}")
        )
        seats = page.locator("li.player .who .name")
        until(page, "document.querySelectorAll('li.player .who .name').length === 4")
        at_table = {
            int(s.evaluate("(el) => el.closest('li.player').dataset.seat")): s.get_attribute(
                "title"
            )
            for s in seats.all()
        }
        assert [at_table[seat] for seat in range(4)] == listed
        expect(page.locator(".board-info .bazaar")).to_have_count(0)
        play_to_end([page], seconds=120)
        assert game_over(page)
        games += 1
        # the end of a game leads to the next one, seated already, unless it was the last
        over = http_get(f"{contexts.club.url}/api/tournaments/{tournament_id}").json()
        expect(page.locator("#next-game")).to_have_count(0 if over["status"] == "finished" else 1)
        page.locator("#to-tournament").click()
        page.wait_for_url(re.compile(r"/tournaments/\d+$"))
        page.wait_for_selector("table.standings")
        # the page shows the tournament as it is now: the game just played is in it
        until(page, f"kozel.page?.state?.games?.length >= {games}")
    assert games >= 1  # with four players, everyone plays every game
    standings = page.locator("table.standings tbody tr")
    expect(standings).to_have_count(4)
    expect(page.locator(".tournament-chart svg polyline")).to_have_count(4)
    out = page.locator("table.standings tr.out")
    assert out.count() >= 1  # the tournament ends once someone is out
    page.locator(".tournament").screenshot(path=shots / "tournament-standings.png")
    # every game is a click away: its review now that it is over
    first_game = entrant_names(page, 0)
    ids = page.evaluate("kozel.page.state.games.map((g) => g.id)")
    every_game = {game: entrant_names(page, k) for k, game in enumerate(ids)}
    page.locator(".tournament-games li a").first.click()
    page.wait_for_url(re.compile(r"/games/\d+/review$"))
    # the review names the game's players as the tournament page does
    reviewed = page.locator(".all-hands .seat-hand .name")
    expect(reviewed).to_have_count(4)
    assert reviewed.all_inner_texts() == first_game
    record = http_get(f"{contexts.club.url}/api/tournaments/{tournament_id}/record").json()
    assert len(replay_tournament(record).games) >= games
    # the player's page lists every game with the names the tournament gave its players (the
    # seating turns from game to game: the game's own number and seat would name them otherwise)
    me = page.request.get("/api/me").json()["name"]
    page.goto(f"/players/{me}")
    for game, names in every_game.items():
        listed_game = page.locator(f"ul.games li:has(a[href='/games/{game}/review'])")
        expect(listed_game).to_contain_text(", ".join(names))
