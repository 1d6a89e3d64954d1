"""The review of a game not played on a layout: hand by hand from its record (every hand as
dealt, each move in words, how the hand ended) and a chart of the chips or scores."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.client import Player, play_to_the_end
from tests.web.conftest import Contexts
from tests.web.test_i18n import strings

GAMES: dict[str, dict[str, Any]] = {
    "poker": {"players": 3, "hands": 3},
    "trumps": {"target": 40},
}


def finished_game(contexts: Contexts, game: str) -> tuple[int, dict[str, Any]]:
    """A game a person played to its end against computer players (its first legal move each
    time): its number and its record."""
    alice = Player(contexts.club.url, contexts.club.ws)
    alice.guest()
    options = GAMES[game]
    seats = 4 if game == "trumps" else options["players"]
    bots = {str(s): "greedy" for s in range(1, seats)}
    request = alice.post(
        "/api/requests", {"game": game, "options": options, "rated": False, "bots": bots}
    ).json()
    with alice.socket(request["game_id"]) as sock:
        assert play_to_the_end(sock)["status"] == "finished"
    record: dict[str, Any] = alice.http.get(f"/api/games/{request['game_id']}/record").json()
    return request["game_id"], record


@pytest.mark.parametrize("game", list(GAMES))
def test_a_game_of_hands_is_reviewed_hand_by_hand(contexts: Contexts, game: str) -> None:
    number, record = finished_game(contexts, game)
    en = strings("en", "ui")
    page = contexts.page()
    page.goto(f"/games/{number}/review")
    expect(page.locator(".review[data-table] .hand-review")).to_be_visible()
    hands = page.locator("nav.rounds button.round")
    expect(hands).to_have_count(len(record["rounds"]))
    # the last hand first, then the first: its dealt hands face up and every move in words
    expect(page.locator(".hand-review")).to_have_attribute("data-hand", str(len(record["rounds"])))
    hands.first.click()
    first = record["rounds"][0]
    review = page.locator(".hand-review[data-hand='1']")
    expect(review.locator(".hand-moves li")).to_have_count(len(first["moves"]))
    dealt = [tile for hand in first["deal"]["hands"] for tile in hand]
    shown = review.locator(".all-hands svg[role=img]").evaluate_all(
        "svgs => svgs.map(s => s.getAttribute('aria-label'))"
    )
    assert shown == dealt
    if game == "poker":
        expect(review.locator(".hand-moves li").first).to_contain_text("antes 1")
        chart = en["review.chips"]
    else:
        bid = next(m for m in first["moves"] if "bid" in m)["bid"]
        expect(review.locator(".hand-moves")).to_contain_text(f"bids {bid}")
        made = en["review.bid_made" if first["end"]["made"] else "review.bid_set"]
        expect(review.locator(".hand-end")).to_contain_text(made.split("{n}")[1].strip())
        chart = en["review.scores"]
    expect(page.locator(".review section.card:not(.judgement) h2").last).to_have_text(chart)
    expect(page.locator(".review .legend")).to_be_visible()
