"""The club in a real browser: two people and two computers play a game to the end through
the pages, the sheet shown equals the record, languages switch, a Donkey round is played with
closing, the table reconnects by itself, a 360-px phone can play, and every winner-scoring game
(Draw, Block, Classic, Sea Goat and the five that score during play) is played against the
computer to its end, its race sheet checked against the record cell by cell."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, WebSocketRoute, expect

from kozel.games import replay_layout
from kozel.server.offer import CLUB_GAMES
from tests.server.client import Player, in_thread, play_to_the_end
from tests.web.conftest import PHONE, Contexts
from tests.web.play import (
    STEPS,
    game_over,
    my_turn,
    play_to_end,
    record_race_sheet,
    record_sheet,
    shown_race_sheet,
    shown_sheet,
    step,
    until,
)

I18N = Path(__file__).resolve().parents[2] / "kozel" / "web" / "i18n"


def strings(lang: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in ("ui", "options"):
        out.update(json.loads((I18N / lang / f"{part}.json").read_text(encoding="utf-8")))
    return out


def register(page: Page, name: str) -> None:
    page.goto("/")
    page.fill("#name", name)
    page.fill("#password", "correct horse battery")
    page.click("#register")
    # a password is hashed at the lowest priority: on a busy machine that takes a while
    expect(page.locator("#play-computer")).to_be_visible(timeout=30_000)


def game_id(page: Page) -> int:
    page.wait_for_url(re.compile(r"/games/\d+$"))
    return int(page.url.rsplit("/", 1)[1])


def record_of(page: Page, game: int) -> dict[str, Any]:
    response = page.request.get(f"/api/games/{game}/record")
    assert response.ok, response.text()
    record: dict[str, Any] = response.json()
    return record


def seat_name(seats: list[str], game: int, seat: int, lang: str = "en") -> str:
    """A seat's name as the client shows it: a person's own, a computer's animal and level
    (kozel/web/static/names.js)."""
    label = seats[seat]
    if not label.startswith("bot:"):
        return label
    words = strings(lang)
    animal = words[f"bot.animal.{(game * 5 + seat) % 12}"]
    level = words[f"level.{label[4:]}"]
    return words["bot.name"].replace("{animal}", animal).replace("{level}", level)


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width} px wide"  # type: ignore[index]


def test_two_people_and_two_computers_play_a_game_to_the_end(
    contexts: Contexts, shots: Path
) -> None:
    alice, bob = contexts.page(), contexts.page()
    register(alice, "alice")
    register(bob, "bob")
    alice.screenshot(path=shots / "lobby-desktop.png")

    # a request with house rules: all to the loser, a short game, two minutes a move; a game
    # to 31 cannot be rated (and computers will take two seats)
    alice.click("details.more summary")
    alice.select_option("#opt-fish_mode", label=strings("en")["option.fish_mode.all_to_loser"])
    alice.fill("#opt-loss_limit", "31")
    alice.fill("#seconds", "120")
    expect(alice.locator("#rated")).to_be_disabled()
    alice.click("#create")
    request = bob.locator("li.request").filter(has_text="alice")
    expect(request).to_contain_text(strings("en")["option.fish_mode.all_to_loser"])
    expect(request.locator(".meta")).to_contain_text(strings("en")["lobby.unrated"])
    request.locator("button.join").click()
    mine = alice.locator("li.request").filter(has_text="bob")
    mine.locator("button.bots").click()
    game = game_id(alice)
    assert game_id(bob) == game

    taken: list[int] = []

    def snapshot(page: Page) -> None:
        """On alice's turn (the table waits for her), once the layout is well under way."""
        if page is alice and not taken and page.locator(".layout-svg g.tile").count() >= 8:
            page.wait_for_timeout(600)  # the last tiles have landed
            table_fits_and_logs_the_round(page)
            page.screenshot(path=shots / "table-desktop.png")
            taken.append(1)

    play_to_end([alice, bob], on_turn=snapshot)

    record = record_of(alice, game)
    assert record["options"]["fish_mode"] == "all_to_loser"
    assert record["options"]["loss_limit"] == 31
    assert record["seats"][:2] == ["alice", "bob"]
    assert replay_layout(record).over  # raises RecordError on any discrepancy
    for page in (alice, bob):
        expect(page.locator(".game-over")).to_be_visible()
        assert shown_sheet(page) == record_sheet(record)
        fish_rows = page.locator("table.sheet tbody tr").evaluate_all(
            "rows => rows.map(r => r.querySelector('th svg.fish') !== null)"
        )
        assert fish_rows == [r["end"]["kind"] == "fish" for r in record["rounds"]]
    losers = [seat_name(record["seats"], game, u) for u in record["result"]["losers"]]
    expect(alice.locator(".game-over .loser")).to_contain_text(", ".join(losers))
    alice.locator(".sheet-box").screenshot(path=shots / "sheet-desktop.png")

    # the finished game: replay, all hands, the chart, the same sheet
    alice.click("text=" + strings("en")["table.review"])
    alice.wait_for_url(f"**/games/{game}/review")
    expect(alice.locator("svg.chart polyline")).to_have_count(4)
    assert shown_sheet(alice) == record_sheet(record)
    alice.locator("nav.rounds button").first.click()
    alice.click("button.first")
    hands = alice.locator(".seat-hand").evaluate_all(
        "rows => rows.map(r => r.querySelectorAll('svg').length)"
    )
    assert hands == [len(h) for h in record["rounds"][0]["deal"]["hands"]]
    alice.keyboard.press("ArrowRight")
    expect(alice.locator(".layout-svg g.tile")).to_have_count(1)
    alice.click("button.last")
    played = sum(1 for m in record["rounds"][0]["moves"] if "play" in m) + sum(
        len(m["doubles"]) for m in record["rounds"][0]["moves"] if "doubles" in m
    )
    expect(alice.locator(".layout-svg g.tile")).to_have_count(played)

    # the player page: the game, not rated, so no rating history
    alice.goto("/players/alice")
    expect(alice.locator("ul.games")).to_contain_text(f"#{game}")
    expect(alice.locator("ul.games")).to_contain_text(strings("en")["lobby.unrated"])
    expect(alice.locator(".player-page")).to_contain_text(strings("en")["player.no_rated_games"])
    alice.goto("/leaderboard")
    expect(alice.locator("table.leaderboard")).to_contain_text("bob")


def test_two_people_chat_at_their_table_and_in_the_lobby(contexts: Contexts) -> None:
    """Lines go both ways, markup shows as typed text, a player can mute another, and a
    line typed while the table moves stays in the box."""
    en = strings("en")
    olga, petr = contexts.page(), contexts.page()
    register(olga, "olga")
    register(petr, "petr")
    olga.fill("#chat-input", "who plays?")
    olga.click("#chat-send")
    expect(petr.locator(".chat-lines li").filter(has_text="who plays?")).to_be_visible()

    olga.click("details.more summary")
    olga.select_option("#opt-players", "2")
    olga.click("#create")
    petr.locator("li.request").filter(has_text="olga").locator("button.join").click()
    game = game_id(olga)
    assert game_id(petr) == game
    for page in (olga, petr):
        expect(page.locator(".table .hand")).to_be_visible()
    olga.fill("#chat-input", "<b>good luck</b>")
    olga.press("#chat-input", "Enter")
    line = petr.locator(".chat-lines li").filter(has_text="good luck")
    expect(line.locator(".chat-text")).to_have_text("<b>good luck</b>")
    assert petr.locator(".chat-lines b").count() == 0
    petr.fill("#chat-input", "thanks")
    petr.click("#chat-send")
    expect(olga.locator(".chat-lines li").filter(has_text="thanks")).to_be_visible()
    # the lobby's lines stay in the lobby
    expect(olga.locator(".chat-lines")).not_to_contain_text("who plays?")

    # a line being typed survives the table's redraws (petr's moves)
    olga.fill("#chat-input", "half a thou")
    for _ in range(3):
        if my_turn(petr):
            step(petr)
    expect(olga.locator("#chat-input")).to_have_value("half a thou")

    # petr mutes olga: her lines are hidden, and come back when he asks
    petr.locator(".chat-name").filter(has_text="olga").first.click()
    expect(petr.locator(".chat-lines li[data-id]").filter(has_text="good luck")).to_have_count(0)
    olga.fill("#chat-input", "are you there?")
    olga.click("#chat-send")
    expect(olga.locator(".chat-lines li").filter(has_text="are you there?")).to_be_visible()
    expect(petr.locator(".chat-lines")).not_to_contain_text("are you there?")
    petr.locator(".chat-unmute").click()
    expect(petr.locator(".chat-lines li").filter(has_text="are you there?")).to_be_visible()
    # the whole chat can be turned off
    petr.check("#chat-off")
    expect(petr.locator(".chat-lines")).to_have_text(en["chat.muted"])
    expect(petr.locator("#chat-input")).to_be_hidden()


def test_the_form_offers_only_combinations_the_game_allows(contexts: Contexts) -> None:
    """Pairs need four players, and the partner's lead needs pairs: the form takes them away
    (unticked, unselected) while they cannot be played, and gives them back. (It once let a
    player tick pairs with three players and read the refusal.) Yard Goat's doubles need no
    pairs any more (the rulebook's corrections): they stay on with three players."""
    page = contexts.page()
    register(page, "fiona")
    page.click("details.more summary")
    partner = page.locator("#opt-lead_by option[value='\"winner_partner\"']")
    page.check("#opt-teams")
    page.check("#opt-special_doubles")
    page.select_option("#opt-lead_by", '"winner_partner"')
    page.select_option("#opt-players", "3")
    expect(page.locator("#opt-teams")).to_be_disabled()
    expect(page.locator("#opt-teams")).not_to_be_checked()
    expect(page.locator("#opt-special_doubles")).to_be_enabled()
    expect(page.locator("#opt-special_doubles")).to_be_checked()
    expect(partner).to_be_disabled()
    assert page.eval_on_selector("#opt-lead_by", "s => s.value") == '"winner"'
    page.select_option("#opt-players", "4")
    expect(page.locator("#opt-teams")).to_be_enabled()
    expect(partner).to_be_disabled()  # not before pairs
    page.check("#opt-teams")
    expect(partner).to_be_enabled()
    # the Yard preset (pairs with both) is one valid combination as a whole
    page.select_option("#preset", "yard")
    for box in ("#opt-teams", "#opt-special_doubles"):
        expect(page.locator(box)).to_be_checked()
    page.click("#create")
    expect(page.locator("li.request").filter(has_text="fiona")).to_be_visible()


def test_the_rated_box_follows_the_rules_of_rating(contexts: Contexts) -> None:
    """A game shortened below its rated bound cannot be asked for rated: the box is cleared and
    disabled with the reason, and comes back when the option does. Computers filling a rated
    request make its game unrated, and the page says so; play with the computer is never
    rated, even with the box ticked."""
    en = strings("en")
    page = contexts.page()
    register(page, "rita")
    page.click("details.more summary")
    page.check("#rated")
    page.fill("#opt-loss_limit", "50")
    expect(page.locator("#rated")).to_be_disabled()
    expect(page.locator("#rated")).not_to_be_checked()
    why = en["lobby.rated_minimum"].format(option=en["option.loss_limit"], value=51)
    expect(page.locator("#rated-why")).to_have_text(why)
    page.fill("#opt-loss_limit", "51")
    expect(page.locator("#rated")).to_be_enabled()
    expect(page.locator("#rated")).to_be_checked()
    expect(page.locator("#rated-why")).to_be_hidden()
    page.fill("#opt-lone_zero_value", "51")
    expect(page.locator("#rated")).to_be_disabled()
    page.fill("#opt-lone_zero_value", "10")
    page.select_option("#opt-players", "2")
    page.click("#create")
    mine = page.locator("li.request").filter(has_text="rita")
    expect(mine.locator(".meta")).to_contain_text(en["lobby.rated"])
    fill = mine.locator("button.bots")
    expect(fill).to_have_attribute("title", en["lobby.fill_bots_unrated"])
    fill.click()
    expect(page.locator(".toast").filter(has_text=en["lobby.now_unrated"])).to_be_visible()
    game = game_id(page)
    assert page.request.get(f"/api/games/{game}").json()["rated"] is False

    page.goto("/")
    page.click("details.more summary")
    page.check("#rated")
    page.click("#play-computer")
    game = game_id(page)
    assert page.request.get(f"/api/games/{game}").json()["rated"] is False


def test_a_rated_game_between_people_shows_on_their_pages(contexts: Contexts) -> None:
    """Two people play a rated game (over the API, quickly); the player page draws the rating
    history and the leaderboard ranks them."""
    server = contexts.club
    carol, dave = Player(server.url, server.ws), Player(server.url, server.ws)
    carol.register("carol", "correct horse battery")
    dave.register("dave", "correct horse battery")
    wanted = {"game": "goat", "options": {"players": 2, "loss_limit": 51}, "rated": True}
    request = carol.post("/api/requests", wanted).json()
    game = dave.post(f"/api/requests/{request['id']}/join").json()["game_id"]
    with carol.socket(game) as one, dave.socket(game) as two:
        threads = [in_thread(play_to_the_end, sock) for sock in (one, two)]
        for thread, _ in threads:
            thread.join(120)
    rating = carol.http.get(f"/api/games/{game}/record").json()["result"]["rating"]
    page = contexts.page()
    page.goto("/players/carol")
    expect(page.locator("svg.chart polyline")).to_have_count(1)
    expect(page.locator(".rating-value")).to_have_text(str(rating[0]))
    expect(page.locator("ul.games")).to_contain_text(f"#{game}")
    expect(page.locator("ul.games")).not_to_contain_text(strings("en")["lobby.unrated"])
    page.goto("/leaderboard")
    expect(page.locator("table.leaderboard")).to_contain_text("carol")
    expect(page.locator("table.leaderboard")).to_contain_text("dave")


def test_ratings_are_shown_where_they_moved(contexts: Contexts) -> None:
    """The header's rating follows a rated game as it ends (no reload); the review of an
    unrated game shows no rating change (it once listed what the rating would have been)."""
    server = contexts.club
    erin, fred = Player(server.url, server.ws), Player(server.url, server.ws)
    erin.register("erin", "correct horse battery")
    fred.register("fred", "correct horse battery")
    page = contexts.page()
    page.goto("/")
    page.fill("#name", "erin")
    page.fill("#password", "correct horse battery")
    page.click("#login")
    expect(page.locator("header .rating")).to_have_text("0")
    for rated in (True, False):
        options = {"players": 2, "loss_limit": 51 if rated else 20}
        wanted = {"game": "goat", "options": options, "rated": rated}
        request = erin.post("/api/requests", wanted).json()
        game = fred.post(f"/api/requests/{request['id']}/join").json()["game_id"]
        page.goto(f"/games/{game}")
        expect(page.locator(".table")).to_be_visible()
        with erin.socket(game) as one, fred.socket(game) as two:
            threads = [in_thread(play_to_the_end, sock) for sock in (one, two)]
            for thread, _ in threads:
                thread.join(120)
        expect(page.locator(".game-over")).to_be_visible()
        rating = erin.http.get(f"/api/games/{game}/record").json()["result"]["rating"]
        if rated:
            expect(page.locator("header .rating")).to_have_text(str(rating[0]))
    page.goto(f"/games/{game}/review")
    result = page.locator(".review p.result")
    expect(result).to_contain_text(strings("en")["lobby.unrated"])
    assert "+" not in (result.inner_text().split("·")[-1])


def test_languages_follow_the_browser_and_the_switcher(contexts: Contexts) -> None:
    page = contexts.page(locale="bg-BG")
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "bg")
    expect(page.locator("#guest")).to_have_text(strings("bg")["signin.guest"])
    page.select_option("#lang", "uz")
    expect(page.locator("#guest")).to_have_text(strings("uz")["signin.guest"])
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "uz")
    page.select_option("#lang", "ru")
    page.click("#guest")
    expect(page.locator("#play-computer")).to_have_text(strings("ru")["lobby.play_computer"])
    page.click("details.more summary")
    expect(page.locator("label[for=opt-fish_mode]")).to_have_text(strings("ru")["option.fish_mode"])
    page.goto("/rules/goat")
    expect(page.locator(".rules-text")).to_contain_text(strings("ru")["term.fish"].capitalize())
    page.select_option("#lang", "en")
    expect(page.locator("nav.tabs a").first).to_have_text(strings("en")["game.goat"])


def test_a_first_visit_an_unknown_page_and_the_title(contexts: Contexts) -> None:
    """A first visit asks nothing it must be refused (no 401 in the console); an unknown
    address is the client's page saying so, not raw JSON; a table's title names its game."""
    en = strings("en")
    page = contexts.page()
    failed: list[str] = []
    page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    page.goto("/")
    expect(page.locator("#guest")).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert failed == []
    response = page.goto("/nope")
    assert response is not None and response.status == 404
    expect(page.locator("main h1")).to_have_text(en["error.no_page"])
    page.goto("/")
    page.click("#guest")
    page.click("#play-computer")
    game = game_id(page)
    expect(page).to_have_title(f"{en['game.goat']} #{game} · Kozel")


def test_refusals_are_worded_in_the_players_language(contexts: Contexts) -> None:
    """The server answers with codes; a Russian player reads Russian only (no server English
    in brackets, as once: «Проверьте введённые данные. (teams needs players = 4; …)»)."""
    words = strings("ru")
    first = contexts.page(locale="ru-RU")
    register(first, "Варвара")
    page = contexts.page(locale="ru-RU")
    page.goto("/")
    page.fill("#name", "варвара")  # the same name in other letters' case
    page.fill("#password", "correct horse battery")
    page.click("#register")
    taken = words["error.name_taken"].replace("{name}", "варвара")
    expect(page.locator(".signin p.error")).to_have_text(taken)
    page.fill("#password", "a wrong password")
    page.click("#login")
    expect(page.locator(".signin p.error")).to_have_text(words["error.wrong_password"])


def test_a_donkey_round_with_closing(contexts: Contexts, shots: Path) -> None:
    """Play Donkey against the computer, laying doubles first, until the page asks
    «Закрыть направление?» and we close an arm; then play that round to its end."""
    page = contexts.page(locale="ru-RU")
    page.goto("/")
    page.click("#guest")
    page.select_option("#game", "donkey")
    page.click("#play-computer")
    game_id(page)
    question = strings("ru")["term.close_arm_question"]
    closed = False
    several = False
    doubles_first = (
        "button.arm",
        ".hand-tile.playable[data-tile='0-0'], .hand-tile.playable[data-tile='1-1'], "
        ".hand-tile.playable[data-tile='2-2'], .hand-tile.playable[data-tile='3-3'], "
        ".hand-tile.playable[data-tile='4-4'], .hand-tile.playable[data-tile='5-5'], "
        ".hand-tile.playable[data-tile='6-6']",
        ".hand-tile.playable",
        "button.draw",
        "button.knock",
    )
    for _ in range(3000):
        if game_over(page) or closed:
            break
        if page.locator("button.close-yes").count():
            expect(page.locator(".actions .prompt")).to_have_text(question)
            rounds_before = page.evaluate("kozel.page.state.rounds.length")
            page.click("button.close-yes")
            until(page, "!document.querySelector('button.close-yes')")
            page.wait_for_timeout(200)
            if page.evaluate("kozel.page.state.rounds.length") == rounds_before:
                arms = page.evaluate("kozel.page.state.view.layout.arms")
                assert any(a["closed"] for a in arms), arms
                expect(page.locator(".layout-svg g.tile.closed")).to_have_count(
                    sum(1 for a in arms if a["closed"])
                )
                page.wait_for_timeout(600)  # the computers' tiles have landed
                page.screenshot(path=shots / "donkey-closing.png")
                closed = True
            continue
        if not several and page.locator("button.several").count():
            several = lay_several_doubles(page)
            continue
        if not step(page, doubles_first):
            page.wait_for_timeout(50)
    assert closed, "no chance to close an arm in a whole game"
    rounds = page.evaluate("kozel.page.state.rounds.length")
    for _ in range(3000):
        if game_over(page) or page.evaluate("kozel.page.state.rounds.length") > rounds:
            break
        if page.locator("button.close-no").count():
            page.click("button.close-no")
        elif not step(page):
            page.wait_for_timeout(50)
    expect(page.locator(".notice, .game-over").first).to_be_visible()


def lay_several_doubles(page: Page) -> bool:
    """Lay doubles on several arms at once when the page offers it; True if it worked."""
    page.click("button.several")
    for _ in range(8):
        lay = page.locator("button.lay-doubles")
        if lay.count() and lay.is_enabled():
            before = page.evaluate("kozel.page.state.version")
            lay.click()
            until(page, f"kozel.page.state.version > {before}")
            return True
        for selector in ("button.arm", "button.close-no", ".hand-tile.playable"):
            if page.locator(selector).count():
                page.locator(selector).first.click()
                break
    page.keyboard.press("Escape")
    return False


def test_the_table_reconnects_by_itself(contexts: Contexts) -> None:
    page = contexts.page()
    page.goto("/")
    page.click("#guest")
    page.click("#play-computer")
    game = game_id(page)
    expect(page.locator(".hand-tile").first).to_be_visible()
    seen = page.evaluate("kozel.page.seen")
    page.evaluate("kozel.page.socket.drop()")
    expect(page.locator("#banner")).to_have_class(re.compile("shown"))
    until(page, "kozel.page.socket.opens === 2")
    expect(page.locator("#banner")).not_to_have_class(re.compile("shown"))
    assert page.evaluate("kozel.page.seen") >= seen
    # and the game goes on from where it was
    for _ in range(200):
        if page.evaluate(f"kozel.page.seen > {seen}"):
            break
        if not step(page):
            page.wait_for_timeout(50)
    assert page.evaluate(f"kozel.page.seen > {seen}")
    seats = page.evaluate("kozel.page.state.seats")
    # a page opened anew finds the same game in the lobby's list of your games, the computer
    # players by their names
    page.goto("/")
    yours = page.locator("#your-games")
    expect(yours).to_contain_text(f"#{game}")
    expect(yours).to_contain_text(seat_name(seats, game, 1))
    expect(yours).not_to_contain_text("bot:")
    # somebody who does not sit there watches: every seat's count, nobody's tiles
    watcher = contexts.page()
    watcher.goto(f"/games/{game}")
    expect(watcher.locator(".spectator")).to_be_visible()
    expect(watcher.locator("li.player")).to_have_count(4)
    expect(watcher.locator(".hand-tile")).to_have_count(0)


def test_the_lobby_follows_changes_and_resyncs_after_a_lost_one(contexts: Contexts) -> None:
    """Requests appear and disappear live, sent one change at a time; a change lost on the
    way (dropped here between the server and the page) shows up as a gap in the versions,
    and the page asks for a snapshot that brings the list back in step."""
    dropping: list[bool] = []
    dropped: list[dict[str, Any]] = []
    asked: list[dict[str, Any]] = []

    def relay(page_side: WebSocketRoute) -> None:
        server_side = page_side.connect_to_server()

        def to_page(text: str | bytes) -> None:
            message = json.loads(text)
            if message["type"] == "lobby" and dropping:
                dropping.clear()
                dropped.append(message)
            else:
                page_side.send(text)

        def to_server(text: str | bytes) -> None:
            message = json.loads(text)
            if message["type"] != "ping":  # the socket's keep-alive, every 25 s
                asked.append(message)
            server_side.send(text)

        server_side.on_message(to_page)
        page_side.on_message(to_server)

    watcher = contexts.page()
    watcher.route_web_socket(re.compile(r"/ws/lobby$"), relay)
    watcher.goto("/")
    until(watcher, "kozel.page && kozel.page.version !== null")
    alice, bob = (Player(contexts.club.url, contexts.club.ws) for _ in range(2))
    alice.guest()
    bob.guest()

    def shown(request: dict[str, Any]) -> Locator:
        return watcher.locator(f"li.request[data-request='{request['id']}']")

    first = alice.post("/api/requests", {"game": "goat"}).json()
    expect(shown(first)).to_be_visible()
    bob.post(f"/api/requests/{first['id']}/join")
    expect(shown(first)).to_contain_text(bob.name)
    bob.post(f"/api/requests/{first['id']}/leave")
    expect(shown(first)).not_to_contain_text(bob.name)
    version = watcher.evaluate("kozel.page.version")

    dropping.append(True)
    lost = alice.post("/api/requests", {"game": "draw"}).json()
    for _ in range(500):  # the relay runs while Playwright waits
        if dropped:
            break
        watcher.wait_for_timeout(20)
    assert dropped and dropped[0]["request"]["id"] == lost["id"]
    assert shown(lost).count() == 0 and asked == []
    alice.post(f"/api/requests/{first['id']}/cancel")
    expect(shown(lost)).to_be_visible()
    expect(shown(first)).to_have_count(0)
    assert asked == [{"type": "sync"}]
    assert watcher.evaluate("kozel.page.version") == version + 2
    assert watcher.evaluate("kozel.page.requests") == alice.http.get("/api/requests").json()

    alice.post(f"/api/requests/{lost['id']}/cancel")
    expect(shown(lost)).to_have_count(0)


# At once (the page does not redraw during one evaluate): the log's entries and the round's
# history, the layout's and the board's boxes, the bottom of the hand.
LOOK = """async () => {
  const { moveLog } = await import("/static/movelog.js");
  const view = kozel.page.state.view;
  const box = (selector) => {
    const r = document.querySelector(selector).getBoundingClientRect();
    return [r.left, r.top + scrollY, r.right, r.bottom + scrollY];
  };
  return {
    log: [...document.querySelectorAll("ol.move-log li")].map((li) => Number(li.dataset.seat)),
    history: moveLog(view.history, view.layout).map((entry) => entry.seat),
    layout: box(".layout"), svg: box(".layout-svg"), hand: box(".hand-box"),
  };
}"""


def table_fits_and_logs_the_round(page: Page) -> None:
    """In a live game: the move log tells the round's history, the layout lies inside its
    board, and the hand ends above the fold."""
    seen = page.evaluate(LOOK)
    assert seen["log"] == seen["history"] and len(seen["log"]) >= 8
    (bx0, by0, bx1, by1), (sx0, sy0, sx1, sy1) = seen["layout"], seen["svg"]
    assert bx0 <= sx0 and sx1 <= bx1 and by0 <= sy0 and sy1 <= by1
    assert seen["hand"][3] <= page.viewport_size["height"]  # type: ignore[index]


def test_a_phone_can_play(contexts: Contexts, shots: Path) -> None:
    page = contexts.page(viewport=PHONE)
    page.goto("/")
    page.click("#guest")
    no_sideways_scroll(page)
    page.screenshot(path=shots / "lobby-phone.png", full_page=True)
    page.click("#play-computer")
    game_id(page)
    turns = 0
    shot = False
    while not game_over(page) and turns < 40:
        # on the guest's turn (the table waits for it), once the layout is well under way
        if not shot and page.locator(".layout-svg g.tile").count() >= 8 and my_turn(page):
            page.wait_for_timeout(600)  # the last tiles have landed
            no_sideways_scroll(page)
            table_fits_and_logs_the_round(page)
            page.screenshot(path=shots / "table-phone.png")
            shot = True
        if step(page):
            turns += 1
        else:
            page.wait_for_timeout(50)
    assert turns == 40 or game_over(page)
    assert shot, "the layout never reached 8 tiles in 40 moves"
    no_sideways_scroll(page)
    if page.locator("details.sheet-box").get_attribute("open") is None:
        page.click("details.sheet-box summary")
    expect(page.locator("table.sheet")).to_be_visible()
    no_sideways_scroll(page)
    page.locator(".sheet-box").screenshot(path=shots / "sheet-phone.png")


RACES = {
    # small targets keep the games short; Sea Goat in pairs opens records at 10 so that
    # records, write-offs and the hundred can happen before a pair reaches the target
    "draw": {"target": 50},
    "block": {"target": 30},
    "classic": {"target": 80},
    "sea_goat": {"teams": True, "target": 40, "open_at": 10},
    # the games that score during play (their sheet has the points during play in every round)
    "all_fives": {"target": 40},
    "telephone": {"target": 12},
    "all_threes": {"target": 25},
    "threes_fives": {"target": 35},
    "bergen": {"target": 6},
}
DURING_PLAY = {"all_fives", "telephone", "all_threes", "threes_fives", "bergen"}


@pytest.mark.parametrize("game", list(RACES))
def test_a_race_against_the_computer_to_its_end(contexts: Contexts, shots: Path, game: str) -> None:
    """Through the lobby's form (the game's own options), the table (the race's sheet, the
    round-end notice, the winners), the review (positions, chart of scores) and the player's
    page; the sheet shown equals the record's, and the record replays clean."""
    en = strings("en")
    page = contexts.page()
    page.goto("/")
    page.click("#guest")
    page.select_option("#game", game)
    expect(page.locator(".game-summary")).to_have_text(en[f"game.{game}.summary"])
    page.click("details.more summary")
    for name, value in RACES[game].items():
        if isinstance(value, bool):
            page.set_checked(f"#opt-{name}", value)
            continue
        expect(page.locator(f"label[for=opt-{name}]")).to_have_text(en[f"option.{name}"])
        expect(page.locator(f"#opt-{name}")).to_have_attribute("max", re.compile(r"\d+"))
        page.fill(f"#opt-{name}", str(value))
    page.click("#play-computer")
    number = game_id(page)
    expect(page.locator(".table")).to_have_attribute("data-game", game)

    notices: list[str] = []
    taken: list[int] = []

    def watch(page: Page) -> None:
        """On the guest's turn: the round-end notice, and Sea Goat's picture mid-game (the
        layout well under way; taken again once a round has been scored, if one is)."""
        # the notice goes when the game ends meanwhile: read what is there, without waiting
        notices.extend(page.locator(".notice .credited").all_inner_texts())
        if game != "sea_goat" or len(taken) == 2:
            return
        scored = page.evaluate("kozel.page.state.rounds.length") > 0
        if (scored or not taken) and page.locator(".layout-svg g.tile").count() >= 7:
            page.wait_for_timeout(500)  # the last tiles have landed
            page.screenshot(path=shots / "table-sea-goat.png")
            taken.append(1 if scored else 0)

    # Sea Goat: declare the hundred whenever the page offers it (an instant end, made or failed)
    order = ("button.hundred-yes", *STEPS) if game == "sea_goat" else STEPS
    play_to_end([page], on_turn=watch, order=order)

    record = record_of(page, number)
    assert record["game"] == game
    for name, value in RACES[game].items():
        assert record["options"][name] == value
    assert replay_layout(record).over  # raises RecordError on any discrepancy
    result = record["result"]
    assert result["winners"]
    assert shown_race_sheet(page) == record_race_sheet(record, during=game in DURING_PLAY)
    fish_rows = page.locator("table.sheet tbody tr").evaluate_all(
        "rows => rows.map(r => r.querySelector('th svg.fish') !== null)"
    )
    assert fish_rows == [r["end"]["kind"] == "fish" for r in record["rounds"]]
    off_rows = page.locator("table.sheet tbody tr").evaluate_all(
        "rows => rows.map(r => r.querySelector('th .written-off-mark') !== null)"
    )
    assert off_rows == [any(e.get("written_off") for e in r["sheet"]) for r in record["rounds"]]
    labels = [seat_name(record["seats"], number, s) for s in range(len(record["seats"]))]
    teams = record["options"]["teams"]
    units = [f"{labels[0]} & {labels[2]}", f"{labels[1]} & {labels[3]}"] if teams else labels
    over = page.locator(".game-over")
    expect(over.locator(".winner")).to_contain_text(", ".join(units[u] for u in result["winners"]))
    expect(over.locator(".loser")).to_have_count(0)
    expect(over.locator(".scores")).to_contain_text(f"{units[0]}: {result['scores'][0]}")
    seat_scores = page.locator("li.player .score").all_inner_texts()
    # the players are listed from seat 0 (the guest's own), each with his unit's score
    unit_of = [s % 2 if teams else s for s in range(len(labels))]
    assert seat_scores == [str(result["scores"][u]) for u in unit_of]
    last = record["rounds"][-1]
    if "decides" in last["end"]:
        expect(over.locator(".decided")).to_be_visible()
    if len(record["rounds"]) > 1:
        assert notices, "no round-end notice was shown"
        assert all(notices), "a round-end notice without what was credited"
    if game == "sea_goat":
        page.locator(".sheet-box").screenshot(path=shots / "sheet-race.png")

    # the review: positions from the server, the chart of scores, the same sheet
    page.click("text=" + en["table.review"])
    page.wait_for_url(f"**/games/{number}/review")
    expect(page.locator("svg.chart polyline")).to_have_count(len(units))
    expect(page.locator(".review h2").first).to_have_text(en["review.scores"])
    assert shown_race_sheet(page) == record_race_sheet(record)
    expect(page.locator(".review .result .winner")).to_be_visible()
    page.locator("nav.rounds button").first.click()
    page.click("button.first")
    hands = page.locator(".seat-hand").evaluate_all(
        "rows => rows.map(r => r.querySelectorAll('svg').length)"
    )
    assert hands == [len(h) for h in record["rounds"][0]["deal"]["hands"]]
    page.keyboard.press("ArrowRight")
    expect(page.locator(".layout-svg g.tile")).to_have_count(1)
    # the moves in the move log's words: the lead, then a tile on the value it was laid on
    first, second = record["rounds"][0]["moves"][:2]
    lead = en["log.lead"].format(name=labels[first["seat"]], tile=first["play"])
    expect(page.locator(".review p.move")).to_contain_text(lead)
    if "play" in second:
        page.keyboard.press("ArrowRight")
        lead_tile = set(first["play"].split("-"))
        value = next(v for v in second["play"].split("-") if v in lead_tile)
        mover = labels[second["seat"]]
        played = en["log.play"].format(name=mover, tile=second["play"], value=value)
        expect(page.locator(".review p.move")).to_contain_text(played)
        page.keyboard.press("ArrowLeft")
    page.click("button.last")
    moves = record["rounds"][0]["moves"]
    played = sum(1 for m in moves if "play" in m) + sum(
        len(m["doubles"]) for m in moves if "doubles" in m
    )
    expect(page.locator(".layout-svg g.tile")).to_have_count(played)

    # the player's page lists the game
    name = record["seats"][0]
    page.goto(f"/players/{name}")
    expect(page.locator("ul.games")).to_contain_text(f"{en[f'game.{game}']} #{number}")


def test_every_game_is_offered_and_has_its_rules(contexts: Contexts) -> None:
    """The lobby's game select and the rules tabs come from the club's list of games, in the
    player's language."""
    ru = strings("ru")
    page = contexts.page(locale="ru-RU")
    page.goto("/")
    page.click("#guest")
    expect(page.locator("#game option")).to_have_count(len(CLUB_GAMES))
    offered = page.locator("#game option").evaluate_all("os => os.map(o => [o.value, o.text])")
    assert offered == [[g, ru[f"game.{g}"]] for g in CLUB_GAMES]
    page.select_option("#game", "sea_goat")
    page.click("details.more summary")
    expect(page.locator("label[for=opt-open_at]")).to_have_text(ru["option.open_at"])
    expect(page.locator("#opt-open_at-help")).to_have_text(ru["option.open_at.help"])
    expect(page.locator("#preset")).to_be_disabled()
    page.click("text=" + ru["lobby.how_to_play"])
    page.wait_for_url("**/rules/sea_goat")
    expect(page.locator(".rules-text h2")).to_have_text(ru["game.sea_goat"])
    tabs = page.locator("nav.tabs a")
    assert tabs.all_inner_texts() == [ru[f"game.{g}"] for g in CLUB_GAMES]
    for game in CLUB_GAMES:
        tabs.filter(has_text=ru[f"game.{game}"]).first.click()
        page.wait_for_url(f"**/rules/{game}")
        expect(page.locator(f".rules-text[data-game={game}] h2").first).to_be_visible()
    page.goto("/rules")
    first = next(iter(CLUB_GAMES))
    expect(page.locator("nav.tabs a[aria-current=page]")).to_have_text(ru[f"game.{first}"])
    page.goto("/rules/chess")
    expect(page.locator("h1")).to_have_text(ru["error.no_page"])


@pytest.mark.parametrize("lang", ["ru", "bg", "uz", "en"])
def test_every_rules_page_fits_a_phone(contexts: Contexts, lang: str) -> None:
    """Each game's rules page, in each language, is titled with the game's name and needs no
    sideways scrolling on a 360-px phone (examples and options are lists, not wide tables)."""
    names = strings(lang)
    page = contexts.page(locale=lang, viewport=PHONE)
    for game in CLUB_GAMES:
        page.goto(f"/rules/{game}")
        title = page.locator(f".rules-text[data-game={game}] h2")
        expect(title).to_have_text(names[f"game.{game}"])
        no_sideways_scroll(page)


def test_a_lone_bykovo_game_against_the_computer(contexts: Contexts) -> None:
    """Bykovo in the club: the rated box is off with the reason (rated only as a
    micro-tournament); at the table the pass button is offered on every turn after the lead,
    beside the tiles that fit; the game ends after one deal, unrated, and its record replays."""
    en = strings("en")
    page = contexts.page()
    page.goto("/")
    page.click("#guest")
    page.select_option("#game", "bykovo")
    expect(page.locator(".game-summary")).to_have_text(en["game.bykovo.summary"])
    page.click("details.more summary")
    expect(page.locator("#rated")).to_be_disabled()
    expect(page.locator("#rated-why")).to_have_text(en["error.never_rated"])
    page.click("#play-computer")
    number = game_id(page)
    turns = 0

    # the state and the page it drew, read at once: a move just sent may be answered (even by
    # the end of the game) between two separate looks
    look = """() => {
      const view = kozel.page.state.view;
      const shown = (selector) => [...document.querySelectorAll(selector)]
        .some((el) => el.offsetParent !== null);
      return { lead: view.layout.first === null, legal: view.legal_moves.length,
               arm: shown("button.arm"), knock: shown("button.knock") };
    }"""

    def offered_the_pass(page: Page) -> None:
        nonlocal turns
        seen = page.evaluate(look)
        # after the lead, with moves to make and no direction being asked
        if not seen["lead"] and seen["legal"] and not seen["arm"]:
            assert seen["knock"], "no pass offered"
            turns += 1

    play_to_end([page], on_turn=offered_the_pass)
    assert turns > 0
    expect(page.locator(".game-over")).to_contain_text(en["notice.places"].split(":")[0])
    record = record_of(page, number)
    assert record["game"] == "bykovo" and len(record["rounds"]) == 1
    assert record["result"]["rating"] == [0, 0, 0, 0]
    replay_layout(record)
    assert page.request.get(f"/api/games/{number}").json()["rated"] is False
