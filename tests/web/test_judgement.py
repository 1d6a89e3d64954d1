"""The expert's judgement in the browser's review: a person plays a game badly on purpose
(always the lightest tile that fits), opens its review, and finds the large mistakes marked,
an accuracy for each player, and the expert's word on the position a mistake led to."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.server.client import Player
from tests.server.conftest import RunningServer
from tests.server.test_analysis import badly_played
from tests.web.conftest import Contexts, running_club
from tests.web.test_i18n import strings


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    yield from running_club(
        tmp_path_factory,
        round_pause_seconds=0,
        analysis_poll_seconds=0.2,
    )


def test_the_review_marks_a_bad_players_mistakes(contexts: Contexts, shots: Path) -> None:
    alice = Player(contexts.club.url, contexts.club.ws)
    alice.guest()
    number, data = badly_played(alice)
    bad = data["seats"][0]
    en = strings("en", "ui")
    page = contexts.page()
    page.goto(f"/games/{number}/review")
    card = page.locator("section.judgement")
    expect(card.locator("h2")).to_have_text(en["judge.title"])
    expect(card).to_have_attribute("data-status", "done", timeout=180_000)
    # each player's accuracy; the bad player's large mistakes counted and listed
    rows = card.locator("table.judgement-summary tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0).locator("td.accuracy")).to_have_text(f"{bad['accuracy']:g}%")
    expect(rows.nth(0).locator("td.mistake-count")).to_have_text(str(bad["mistakes"]))
    mine = card.locator("details.seat-judgement[data-seat='0']")
    expect(mine).to_have_attribute("open", "")
    expect(mine.locator("tr.decision")).to_have_count(len(bad["decisions"]))
    mistakes = mine.locator("tr.decision.mistake")
    expect(mistakes).to_have_count(bad["mistakes"])
    expect(mistakes.first).to_be_visible()
    expect(mistakes.first.locator(".mistake-mark")).to_contain_text(en["judge.mistake"])
    card.screenshot(path=shots / "review-judgement.png")
    played = mistakes.first.locator("td.played").inner_text()
    best = mistakes.first.locator("td.best").inner_text()
    assert played and best and played != best
    # the mistake's position: the move played, and the expert's word on it
    mistakes.first.locator("button.link").click()
    here = page.locator("p.judgement-here.mistake")
    expect(here).to_be_visible()
    expect(here).to_contain_text(best)
    page.locator(".review").screenshot(path=shots / "review-mistake.png")
