"""A player who drops, in the browser: his seat is dimmed and marked "disconnected", the others
are warned, and when both agree a computer player takes his seat and the game goes on."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.server.client import Player, receive
from tests.server.conftest import RunningServer
from tests.web.conftest import PHONE, Contexts, running_club
from tests.web.play import play_to_end, until

AWAY = re.compile(r"\baway\b")


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """A club that shows a dropped player soon (the other browser tests' club waits 5 s)."""
    yield from running_club(tmp_path_factory, round_pause_seconds=0, presence_grace_seconds=0.5)


def seated(contexts: Contexts, player: Player, game: int) -> Page:
    """A browser signed in as ``player`` (its session cookie), at the table."""
    page = contexts.page()
    page.context.add_cookies(
        [{"name": k, "value": v, "url": contexts.club.url} for k, v in player.http.cookies.items()]
    )
    page.goto(f"/games/{game}")
    expect(page.locator(".table")).to_be_visible()
    return page


def test_the_others_see_a_dropped_player_and_let_a_computer_finish_for_him(
    contexts: Contexts, club: RunningServer, shots: Path
) -> None:
    players = [Player(club.url, club.ws) for _ in range(3)]
    for player, name in zip(players, ["alice", "bob", "carol"], strict=True):
        assert player.register(name).status_code == 200
    alice, bob, carol = players
    body = {
        "game": "goat",
        "options": {"players": 3, "loss_limit": 5, "open_threshold": 1},
        "rated": False,
        "seconds_per_move": 120,
    }
    request = alice.post("/api/requests", body).json()
    bob.post(f"/api/requests/{request['id']}/join")
    game = carol.post(f"/api/requests/{request['id']}/join").json()["game_id"]
    with carol.socket(game) as sock:  # carol comes, then her connection drops
        receive(sock)
        pages = [seated(contexts, alice, game), seated(contexts, bob, game)]
    for page in pages:
        carol_seat = page.locator('li.player[data-seat="2"]')
        expect(carol_seat).to_have_class(AWAY)
        expect(carol_seat.locator(".away-mark")).to_have_text("⚠ disconnected")
        expect(page.locator(".away-panel")).to_contain_text("carol")
    page_a, page_b = pages
    if page_a.evaluate("kozel.page.state.view.turn") == 2:  # her clock runs: the time left
        expect(page_a.locator(".away-turn")).to_contain_text("carol has disconnected — ")
        expect(page_a.locator(".away-turn")).to_contain_text(" s left")
    page_a.screenshot(path=shots / "disconnected.png")
    page_b.set_viewport_size(PHONE)  # bob plays on a phone: the warning fits it
    expect(page_b.locator('button.replace-vote[data-seat="2"]')).to_be_visible()
    width = page_b.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide"
    page_b.screenshot(path=shots / "disconnected-phone.png")
    page_a.click('button.replace-vote[data-seat="2"]')
    expect(page_a.locator(".replace-waiting")).to_have_text("You agreed. Waiting for: bob.")
    expect(page_b.locator('button.replace-vote[data-seat="2"]')).to_be_visible()
    page_b.click('button.replace-vote[data-seat="2"]')
    for page in pages:
        until(page, "kozel.page.state.seats[2] === 'bot:expert'")
        seat = page.locator('li.player[data-seat="2"]')
        expect(seat).not_to_have_class(AWAY)
        expect(seat.locator(".replaced")).to_have_text("in place of carol")
        expect(seat.locator(".level")).to_contain_text("expert")
        expect(page.locator(".away-panel")).to_have_count(0)
    # the sheet names both who played the seat: carol, then the computer (from the move the
    # state's takeovers say)
    computer = pages[0].locator('li.player[data-seat="2"] .name').get_attribute("title")
    for page in pages:
        until(page, "(kozel.page.state.takeovers || []).length === 1")
        taken = page.evaluate("kozel.page.state.takeovers[0]")
        assert (taken["seat"], taken["player"], taken["by"]) == (2, "carol", "bot:expert")
        header = page.locator("table.sheet thead th").nth(3)
        expect(header).to_have_text(f"carol → {computer}")
    version = page_a.evaluate("kozel.page.state.version")
    play_to_end(pages, seconds=240)
    # the computer played on in carol's seat, and the game rated nobody
    assert page_a.evaluate("kozel.page.state.version") > version + 3
    for page in pages:
        expect(page.locator(".game-over")).to_contain_text("Not rated")
    # the review too: the sheet names both, each move its maker
    page_a.goto(f"/games/{game}/review")
    expect(page_a.locator(".final-sheet table.sheet thead th").nth(3)).to_have_text(
        f"carol → {computer}"
    )
