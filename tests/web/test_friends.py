"""A club for friends in the browser (issue #25): a private table by link, where friends pick
their seats (partners sit across), the link's page in the visitor's language, a link to a
table that started or was cancelled, the games being played watched from the lobby, the
rematch, and the verifiable shuffle (the browser adds its seed; the review shows the check).
The club here waits for the browsers' seeds before a first deal, as a real club does."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from kozel.verify import verify
from tests.server.client import http_get
from tests.server.conftest import RunningServer
from tests.web.conftest import DESKTOP, Contexts, running_club
from tests.web.play import play_to_end
from tests.web.test_i18n import strings

EN = strings("en", "ui")


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    yield from running_club(
        tmp_path_factory,
        round_pause_seconds=0,
        seed_seconds=5,
        guests_per_minute=100_000,
        requests_per_minute=100_000,
        sockets_per_address=100_000,
    )


def guest(contexts: Contexts, locale: str = "en-US") -> Page:
    page = contexts.page(viewport=DESKTOP, locale=locale)
    page.goto("/")
    page.click("#guest")
    page.wait_for_selector("#play-person")
    return page


def open_private_team_game(page: Page) -> str:
    """Open a private request of team Goat from the lobby's form; the link's page opens with
    the link to send. Returns the link."""
    page.click("details.more summary")
    page.select_option("#opt-players", "4")
    page.check("#opt-teams")
    page.check("#private")
    page.click("#create")
    page.wait_for_url(re.compile(r"/invite/[A-Za-z0-9_-]+$"))
    link = page.locator("#invite-url").input_value()
    assert link.endswith(page.url.split("/invite/")[1])
    return link


def test_a_friend_follows_the_link_and_sits_across(contexts: Contexts) -> None:
    alice = guest(contexts)
    name = alice.locator("a.me").inner_text()
    link = open_private_team_game(alice)
    # a private request is not in the lobby's list
    lobby = guest(contexts)
    expect(lobby.locator("#requests")).not_to_contain_text(name)
    # the friend has no account: the page says who invites, to what, and with which rules
    bob = contexts.page(viewport=DESKTOP, locale="ru-RU")
    bob.goto(link)
    ru = strings("ru", "ui")
    expect(bob.locator(".card.invite h1")).to_contain_text(name)
    expect(bob.locator(".house-rules")).to_be_visible()
    expect(bob.locator(".guest-note")).to_have_text(ru["invite.guest_note"])
    seats = bob.locator("ol.invite-seats > li")
    expect(seats).to_have_count(4)
    expect(seats.nth(2)).to_contain_text(ru["table.team"].replace("{n}", "1"))
    # across from alice: her partner's seat; he is signed in as a guest on the way
    seats.nth(2).locator("button.sit").click()
    expect(bob.locator(".you-sit")).to_have_text(ru["invite.you_sit"].replace("{n}", "3"))
    expect(bob.locator("a.me")).to_have_count(1)
    expect(alice.locator("ol.invite-seats > li").nth(2)).not_to_contain_text(EN["lobby.free_seat"])
    # the creator lets computer players take the other seats: both go to the table
    alice.click("button.bots")
    for page in (alice, bob):
        page.wait_for_url(re.compile(r"/games/\d+$"))
    assert alice.url == bob.url
    expect(bob.locator("li.player.partner")).to_contain_text(name)
    # the link now says the table has started, in the visitor's language
    late = contexts.page(viewport=DESKTOP, locale="bg-BG")
    late.goto(link)
    expect(late.locator(".invite-status.started")).to_contain_text(
        strings("bg", "ui")["invite.started"]
    )
    game = alice.url.split("/games/")[1]
    expect(late.locator("a.watch")).to_have_attribute("href", f"/games/{game}")


def test_a_cancelled_link_says_so(contexts: Contexts) -> None:
    alice = guest(contexts)
    link = open_private_team_game(alice)
    alice.click("#cancel-invite")
    expect(alice.locator(".invite-status.cancelled")).to_be_visible()
    visitor = contexts.page(viewport=DESKTOP, locale="uz-UZ")
    visitor.goto(link)
    expect(visitor.locator(".invite-status.cancelled")).to_contain_text(
        strings("uz", "ui")["invite.cancelled"]
    )
    expect(visitor.locator("button.sit")).to_have_count(0)
    nowhere = contexts.page(viewport=DESKTOP)
    nowhere.goto("/invite/no-such-link")
    expect(nowhere.locator(".invite-status")).to_have_text(EN["invite.nowhere"])


def test_a_game_being_played_is_watched_from_the_lobby(contexts: Contexts) -> None:
    alice = guest(contexts)
    name = alice.locator("a.me").inner_text()
    alice.select_option("#game", "draw")
    alice.click("#play-computer")
    alice.wait_for_url(re.compile(r"/games/\d+$"))
    game = alice.url.split("/games/")[1]
    carol = contexts.page(viewport=DESKTOP)
    carol.goto("/")
    entry = carol.locator(f"li.live-game[data-game='{game}']")
    expect(entry).to_contain_text(name)
    # filtered by game: another game's list does not hold it
    carol.select_option("#live-game", "goat")
    expect(entry).to_have_count(0)
    carol.select_option("#live-game", "draw")
    expect(entry.locator(".meta")).to_contain_text(EN["live.round"].replace("{n}", "1"))
    entry.locator("a.watch-game").click()
    carol.wait_for_url(re.compile(rf"/games/{game}$"))
    expect(carol.locator(".spectator")).to_have_text(EN["table.spectator"])
    # the player's page shows the game he plays now
    carol.goto(f"/players/{name}")
    expect(carol.locator(f".playing-now li.live-game[data-game='{game}']")).to_be_visible()


def test_friends_play_across_rematch_with_seats_kept_and_are_watched(contexts: Contexts) -> None:
    """The issue's whole story: two friends play a private game of pairs sitting across
    from each other, a third person watches it from the lobby's list, and the friends play
    it again with the seats kept."""
    alice = guest(contexts)
    name = alice.locator("a.me").inner_text()
    alice.click("details.more summary")
    alice.select_option("#game", "draw")
    alice.select_option("#opt-players", "4")
    alice.check("#opt-teams")
    alice.fill("#opt-target", "1")  # over after the first hand won
    alice.check("#private")
    alice.click("#create")
    alice.wait_for_url(re.compile(r"/invite/[A-Za-z0-9_-]+$"))
    link = alice.locator("#invite-url").input_value()
    bob = contexts.page(viewport=DESKTOP)
    bob.goto(link)
    bob.locator("ol.invite-seats > li").nth(2).locator("button.sit").click()
    expect(bob.locator(".you-sit")).to_be_visible()
    friend = bob.locator("a.me").inner_text()
    alice.click("button.bots")
    for page in (alice, bob):
        page.wait_for_url(re.compile(r"/games/\d+$"))
    first = alice.url.split("/games/")[1]
    expect(alice.locator("li.player.partner")).to_contain_text(friend)
    # a third person finds it in the lobby's list and watches
    carol = guest(contexts)
    entry = carol.locator(f"li.live-game[data-game='{first}']")
    expect(entry).to_contain_text(name)
    expect(entry).to_contain_text(friend)
    entry.locator("a.watch-game").click()
    expect(carol.locator(".spectator")).to_be_visible()
    play_to_end([alice, bob])
    # alice offers the rematch, bob accepts: both go to the new table, the seats kept
    expect(carol.locator(".game-over")).to_be_visible()
    alice.click("#rematch-offer")
    expect(bob.locator(".rematch-offered")).to_contain_text(name)
    expect(carol.locator(".rematch-offered")).to_contain_text(name)
    bob.click("#rematch-accept")
    for page in (alice, bob):
        page.wait_for_url(re.compile(rf"/games/(?!{first}$)\d+$"))
    assert alice.url == bob.url
    expect(alice.locator("li.player.partner")).to_contain_text(friend)
    expect(bob.locator("li.player.you")).to_have_attribute("data-seat", "2")
    # the spectator stays and is shown the way to the new table
    expect(carol.locator("#rematch-watch")).to_have_attribute(
        "href", "/games/" + alice.url.split("/games/")[1]
    )


def test_the_browser_adds_its_seed_and_the_review_shows_the_check(
    contexts: Contexts, club: RunningServer
) -> None:
    alice = guest(contexts)
    alice.click("details.more summary")
    alice.select_option("#game", "draw")
    alice.fill("#opt-target", "1")
    alice.click("#play-computer")
    alice.wait_for_url(re.compile(r"/games/\d+$"))
    game = alice.url.split("/games/")[1]
    line = alice.locator(".table .shuffle-line")
    committed = line.get_attribute("data-commitment")
    assert committed and len(committed) == 64
    expect(line).to_contain_text(committed[:12])
    expect(line).to_contain_text("1 player's seed")
    play_to_end([alice])
    expect(alice.locator(".game-over")).to_be_visible()
    record = http_get(f"{club.url}/api/games/{game}/record").json()
    assert record["shuffle"]["commitment"] == committed
    assert re.fullmatch(r"[0-9a-f]{32}", record["shuffle"]["seeds"][0])  # the browser's own
    assert verify(record).ok
    expect(line).to_contain_text(record["shuffle"]["server_seed"][:12])  # revealed
    line.locator("a", has_text=EN["shuffle.check"]).click()
    alice.wait_for_url(re.compile(rf"/games/{game}/review$"))
    check = alice.locator(".shuffle-check")
    expect(check).to_have_attribute("data-ok", "true")
    expect(check.locator(".verdict")).to_contain_text(
        EN["shuffle.verified.one"].replace("{n}", str(len(record["rounds"])))
        if len(record["rounds"]) == 1
        else EN["shuffle.verified.other"].replace("{n}", str(len(record["rounds"])))
    )
    # the players' page of the rules says it in their language
    reader = contexts.page(viewport=DESKTOP, locale="ru-RU")
    reader.goto("/rules/shuffle")
    expect(reader.locator(".rules-text h2")).to_have_text(strings("ru", "ui")["rules.page.shuffle"])


def test_a_free_seat_of_the_lobby_is_taken_by_a_click(contexts: Contexts) -> None:
    """A listed request of pairs: each seat says its team, a free one is taken by its own
    button (the partner chosen), and the creator's card holds the link to send."""
    alice = guest(contexts)
    alice.click("details.more summary")
    alice.select_option("#opt-players", "4")
    alice.check("#opt-teams")
    alice.click("#create")
    card = alice.locator("section.waiting")
    expect(card.locator(".invite-link a")).to_have_attribute("href", re.compile(r"^/invite/"))
    request = card.get_attribute("data-request")
    bob = guest(contexts)
    friend = bob.locator("a.me").inner_text()
    seats = bob.locator(f"li.request[data-request='{request}'] ol.seats > li")
    expect(seats).to_have_count(4)
    expect(seats.nth(2).locator(".team")).to_have_text(EN["table.team"].replace("{n}", "1"))
    seats.nth(2).locator("button.sit").click()
    expect(
        alice.locator(f"li.request[data-request='{request}'] ol.seats > li").nth(2)
    ).to_contain_text(friend)
    expect(seats.locator("button.sit")).to_have_count(0)  # he sits there now


def test_a_seat_kept_for_a_player_names_him_as_a_player(contexts: Contexts) -> None:
    """The creator keeps a seat for a friend by name, her choice surviving a redraw: the seat
    says so in the page's words, the friend's name marked as a name (so the page's language
    test allows it)."""
    friend = guest(contexts).locator("a.me").inner_text()
    alice = guest(contexts, locale="ru")
    link = open_private_team_game(alice)
    alice.select_option("#keep-seat", "2")
    alice.select_option("#keep-how", "name")
    alice.fill("#keep-name", friend)
    # another player sits down by the link meanwhile: the page is drawn again, and what she
    # chose in the form is still there
    carol = contexts.page(viewport=DESKTOP)
    carol.goto(link)
    carol.locator("ol.invite-seats > li").nth(3).locator("button.sit").click()
    expect(alice.locator("ol.invite-seats > li").nth(3).locator(".player-name")).to_have_count(1)
    expect(alice.locator("#keep-seat")).to_have_value("2")
    expect(alice.locator("#keep-how")).to_have_value("name")
    expect(alice.locator("#keep-name")).to_have_value(friend)
    alice.click("#keep")
    kept = alice.locator("ol.invite-seats > li").nth(2)
    expect(kept.locator(".player-name")).to_have_text(friend)
    words = strings("ru", "ui")["seats.kept_for"].replace("{name}", friend)
    expect(kept.locator(".occupant")).to_have_text(words)
