"""The end of a round in the browser: the final position stays, every hand is turned face up,
the notice says what the round did, no clock runs, and the next deal waits for "next"."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.server.conftest import RunningServer
from tests.web.conftest import PHONE, Contexts, running_club
from tests.web.play import step, until

PAUSE = 120.0


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """A club whose finished rounds wait (the other browser tests' club deals at once)."""
    yield from running_club(tmp_path_factory, round_pause_seconds=PAUSE)


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_a_finished_round_waits_with_every_hand_face_up(
    contexts: Contexts, shots: Path, phone: bool
) -> None:
    page = contexts.page(viewport=PHONE) if phone else contexts.page()
    page.goto("/")
    page.click("#guest")
    page.click("details.more summary")
    page.select_option("#opt-players", "3")
    page.click("#play-computer")
    page.wait_for_url("**/games/*")
    deadline = time.monotonic() + 180
    while page.locator("#next-round").count() == 0:
        assert time.monotonic() < deadline, "the first round did not end"
        if not step(page):
            page.wait_for_timeout(50)
    state = page.evaluate("kozel.page.state")
    assert state["view"]["round"] == 1 and "clock" not in state
    shown = state["shown"]
    # the others' hands, face up at their seats, exactly as they were left
    for seat in (1, 2):
        tiles = page.locator(f'.player[data-seat="{seat}"] .shown svg')
        expect(tiles).to_have_count(len(shown[seat]))
        assert [tiles.nth(i).get_attribute("aria-label") for i in range(len(shown[seat]))] == (
            shown[seat]
        )
        expect(page.locator(f'.player[data-seat="{seat}"] .back')).to_have_count(0)
    notice = page.locator("section.notice")
    expect(notice).to_be_visible()
    expect(notice.locator(".counts li")).to_have_count(3)
    expect(notice.locator(".next-in")).to_contain_text(str(int(PAUSE) - 1)[:2])
    expect(page.locator(".clock")).to_have_count(0)
    # the final position stays: the layout still holds the round's tiles
    laid = page.locator(".layout-svg g.tile").count()
    assert laid > 0
    page.wait_for_timeout(1500)
    assert page.evaluate("kozel.page.state.version") == state["version"]  # nothing dealt
    page.screenshot(path=shots / f"round-end-{'phone' if phone else 'desktop'}.png")
    page.click("#next-round")  # the computers are always ready: the next deal comes at once
    until(page, "kozel.page.state.view.round === 2")
    expect(page.locator("section.notice")).to_have_count(0)
    expect(page.locator(".player .shown")).to_have_count(0)
    expect(page.locator(".player .back").first).to_be_visible()
