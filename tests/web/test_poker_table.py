"""Domino Poker in the browser (kozel/web/static/poker.js): a person plays short sessions
against computer players by clicking what the table offers — check and call, a bet, a raise
with the no-limit amount, two tiles changed in the draw — to the game-over panel. The table
shows the pot and each seat's chips as the server's view says, the showdown's hands face up
with their categories, the chips hand by hand; the record replays to the chips the page shows;
a 360-px phone plays without scrolling sideways (the README's screenshots)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from kozel.core import parse_tile
from kozel.games import get_game
from kozel.poker.match import PokerMatch, PokerOptions
from kozel.poker.moves import Bet, Call, Discard
from kozel.poker.ranking import POKER_TILES
from tests.server.conftest import RunningServer
from tests.web.conftest import PHONE, Contexts, running_club
from tests.web.play import game_over, my_turn, until
from tests.web.test_browser import game_id, no_sideways_scroll, record_of, register, seat_name
from tests.web.test_one_language import NOT_OURS, OWN_NAMES, SHOWN, language_words, words

UI = Path(__file__).resolve().parents[2] / "kozel" / "web" / "i18n" / "en" / "ui.json"
EN: dict[str, str] = json.loads(UI.read_text("utf-8"))
PAUSE = 120.0
# the sheet's cells of one kind (".after": the chips after each hand), row by row
CELLS = (
    "(rows, kind) => rows.map(r => [...r.querySelectorAll(`td ${kind}`)].map(c => c.textContent))"
)


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """A club whose finished hands wait for "next": the showdown stays on the table."""
    yield from running_club(
        tmp_path_factory,
        round_pause_seconds=PAUSE,
        guests_per_minute=100_000,
        requests_per_minute=100_000,
        sockets_per_address=100_000,
    )


SAY = """([key, n, params]) => import("/static/i18n.js").then((i18n) =>
  n === null ? i18n.t(key, params) : i18n.plural(key, n, params))"""


def say(page: Page, key: str, count: int | None = None, **params: str | int) -> str:
    """A string in the page's language, as its own translation module words it (a count
    string's form chosen for ``count``)."""
    text: str = page.evaluate(SAY, [key, count, params])
    if page.evaluate("document.documentElement.lang") == "en":  # the file's own words
        form = "" if count is None else ".one" if count == 1 else ".other"
        wanted = EN[key + form]
        filled = params if count is None else {**params, "n": count}
        for name, value in filled.items():
            wanted = wanted.replace(f"{{{name}}}", str(value))
        assert text == wanted, key
    return text


def pips_words(page: Page, category: str, hand: list[str]) -> str:
    """A category and its pips as the table words them ("Flush, 27 pips")."""
    pips = sum(int(v) for tile in hand for v in tile.split("-"))
    return say(page, "poker.category_pips", pips, category=say(page, f"poker.category.{category}"))


def start(page: Page, options: dict[str, Any]) -> int:
    """A guest asks for a game of Domino Poker against the computer through the lobby's form."""
    page.goto("/")
    page.click("#guest")
    page.select_option("#game", "poker")
    page.click("details.more summary")
    for name, value in options.items():
        if name in ("players", "limit"):
            page.select_option(f"#opt-{name}", json.dumps(value))
        else:
            page.fill(f"#opt-{name}", str(value))
    page.click("#play-computer")
    number = game_id(page)
    page.wait_for_selector(".poker-table")
    return number


def state(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate("kozel.page.state")
    return found


def shown_chips(page: Page) -> list[int]:
    """Each seat's chips as its place at the table shows them, by seat."""
    seats = page.locator("li.player").evaluate_all(
        "els => els.map(li => [Number(li.dataset.seat), li.querySelector('.chips').innerText])"
    )
    return [int(re.sub(r"\D", "", text)) for _, text in sorted(seats)]


def the_table_shows_the_view(page: Page) -> None:
    """The pot and every seat's chips are the view's; the log tells the hand's actions (the
    antes in one line)."""
    view = state(page)["view"]
    actions = [e for e in view["history"] if "ante" not in e]
    expect(page.locator(".poker-log li")).to_have_count(1 + len(actions))
    expect(page.locator(".pot-amount")).to_have_text(str(view["pot"]))
    assert shown_chips(page) == view["chips"]
    # a seat's chips in the pot this hand
    for seat, committed in enumerate(view["committed"]):
        in_pot = page.locator(f'li.player[data-seat="{seat}"] .in-pot')
        if committed:
            expect(in_pot).to_have_text(say(page, "poker.in_pot", n=committed))


@dataclass
class Session:
    """What a person did and saw in a session."""

    limit: str
    discarded: bool = False
    bet: bool = False
    raised: bool = False
    showdowns: int = 0
    hands_seen: set[int] = field(default_factory=set)


Look = Callable[[Page, Session, str], None]


def the_showdown_is_face_up(page: Page) -> bool:
    """At a finished hand: the hands that reached the showdown are face up at their seats with
    their categories, and the notice says who won; True if it was a showdown."""
    now = state(page)
    last = now["rounds"][-1]
    if last["end"]["kind"] != "showdown":
        return False
    for entry in last["showdown"]:
        if entry["seat"] == now["you"]:
            continue
        seat = page.locator(f'li.player[data-seat="{entry["seat"]}"]')
        expect(seat.locator(".shown-hand .category")).to_have_text(
            pips_words(page, entry["category"], entry["hand"])
        )
        labels = seat.locator(".shown-hand svg").evaluate_all(
            "svgs => svgs.map(s => s.getAttribute('aria-label'))"
        )
        assert labels == entry["hand"]
        expect(seat.locator(".back")).to_have_count(0)
    notice = page.locator("section.notice")
    expect(notice.locator("h2")).to_contain_text(f"{len(now['rounds'])}:")
    expect(notice.locator(".showdown li")).to_have_count(len(last["showdown"]))
    return True


def move(page: Page, session: Session, active: bool) -> None:
    """One move of the person's: in the draw, change two tiles the first time (else stand
    pat); in a betting round, bet or raise while ``active`` (the no-limit amount typed in),
    else check or call."""
    view = state(page)["view"]
    if view["phase"] == "draw":
        if not session.discarded:
            tiles = page.locator(".poker-hand button.hand-tile")
            tiles.nth(0).click()
            tiles.nth(2).click()
            expect(page.locator(".poker-hand .hand-tile.marked")).to_have_count(2)
            expect(page.locator("button.discard")).to_have_text(say(page, "poker.discard", 2))
            session.discarded = True
        else:
            expect(page.locator("button.discard")).to_have_text(say(page, "poker.stand_pat"))
        page.locator("button.discard").click()
        return
    amount = page.locator(".amount")
    for kind in ("raise", "bet"):
        # a run of every amount from n to m is one entry, {kind: n, "up_to": m}
        offered = [
            n
            for m in view["legal_moves"]
            if kind in m
            for n in range(m[kind], m.get("up_to", m[kind]) + 1)
        ]
        if not active or not offered or getattr(session, "raised" if kind == "raise" else kind):
            continue
        if len(offered) > 1:  # no limit: the amount, typed in
            chosen = min(offered[0] + 2, offered[-1])
            field_ = amount.locator("#poker-amount")
            expect(field_).to_have_attribute("min", str(offered[0]))
            expect(field_).to_have_attribute("max", str(offered[-1]))
            field_.fill(str(chosen))
            button = amount.locator(f"button.{kind}")
            expect(button).to_have_text(say(page, f"poker.{kind}", n=chosen))
            button.click()
        else:
            page.locator(f"button.{kind}").click()
        setattr(session, "raised" if kind == "raise" else "bet", True)
        return
    if page.locator("button.check").count():
        page.locator("button.check").click()
    else:
        page.locator("button.call").click()


Other = Callable[[], bool]
"""Another person's part at the table: one step of his if there is one to make (True)."""


def advance(page: Page, version: int, other: Other | None, seconds: float = 20) -> None:
    """Wait until the page's state is past ``version``, the other person playing his part
    meanwhile (the next hand waits for his "next" too)."""
    deadline = time.monotonic() + seconds
    while state(page)["version"] <= version:
        assert time.monotonic() < deadline, f"the table stayed at version {version}"
        if other is None or not other():
            page.wait_for_timeout(30)


def play_session(
    page: Page, session: Session, look: Look | None = None, other: Other | None = None
) -> None:
    """Play the person's seat to the end of the game, checking the table at each turn; ``look(
    page, session, moment)`` is called at each turn before the move ("turn") and at each
    finished hand before pressing "next" ("hand_end"); ``other()`` plays another person's
    seat at the table whenever it is not this one's turn."""
    deadline = time.monotonic() + 240
    hands = state(page)["view"]["options"]["hands"]
    while not game_over(page):
        assert time.monotonic() < deadline, "the session did not end in time"
        try:
            if page.locator("#next-round").count():
                if the_showdown_is_face_up(page):
                    session.showdowns += 1
                if look:
                    look(page, session, "hand_end")
                version = state(page)["version"]
                page.locator("#next-round").click()
                advance(page, version, other)  # the computers (and the other person) are ready
                continue
            if not my_turn(page):
                if other is None or not other():
                    page.wait_for_timeout(40)
                continue
            view = state(page)["view"]
            session.hands_seen.add(view["hand_number"])
            the_table_shows_the_view(page)
            if look:
                look(page, session, "turn")
            version = state(page)["version"]
            # the last hand is played quietly (check and call): it reaches the showdown
            move(page, session, active=view["hand_number"] < hands)
            advance(page, version, other)
        except PlaywrightError:
            page.wait_for_timeout(40)


def the_end_matches_the_record(page: Page, number: int) -> None:
    """The record replays; its chips are those the page shows at the seats, in the end panel
    and in the sheet, hand by hand."""
    record = record_of(page, number)
    match = get_game("poker").replay(record)
    assert match.over
    chips = record["result"]["chips"]
    assert list(match.chips) == chips
    assert shown_chips(page) == chips
    names = [seat_name(record["seats"], number, s) for s in range(len(chips))]
    expect(page.locator(".game-over .scores")).to_have_text(
        " · ".join(f"{name}: {c}" for name, c in zip(names, chips, strict=True))
    )
    winners = ", ".join(names[s] for s in record["result"]["winners"])
    expect(page.locator(".game-over .winner")).to_contain_text(winners)
    expect(page.locator(".game-over .last-round")).to_contain_text(f"Hand {len(record['rounds'])}")
    rows = page.locator("table.chips-sheet tbody tr")
    assert rows.evaluate_all(CELLS, ".after") == [
        [str(c) for c in hand["chips_after"]] for hand in record["rounds"]
    ]
    assert rows.evaluate_all(CELLS, ".gain") == [
        [
            f"+{a - b}" if a > b else f"−{b - a}" if a < b else "0"
            for a, b in zip(hand["chips_after"], hand["chips_before"], strict=True)
        ]
        for hand in record["rounds"]
    ]


def a_spectator_sees_no_hand(contexts: Contexts, page: Page, number: int) -> None:
    """Another guest watches game ``number``: every seat's tiles face down, no hand, no
    actions, the pot ``page`` shows."""
    watcher = contexts.page()
    watcher.goto("/")
    watcher.click("#guest")
    watcher.goto(f"/games/{number}")
    expect(watcher.locator(".poker-table .spectator")).to_be_visible()
    expect(watcher.locator(".poker-hand")).to_have_count(0)
    dealt = sum(not f for f in state(watcher)["view"]["folded"])
    expect(watcher.locator("li.player .backs")).to_have_count(dealt)
    expect(watcher.locator(".pot-amount")).to_have_text(str(state(page)["view"]["pot"]))
    watcher.close()


def test_a_person_plays_a_poker_session_to_its_end(contexts: Contexts, shots: Path) -> None:
    """Fixed limit round a table of four (the README's pictures): whatever the deal and the
    computers do, the person is offered a bet or a raise at his first turn (three computers
    before him make at most a bet and two raises of the round's three), and the last hand,
    checked and called, reaches the draw and the showdown."""
    page = contexts.page()
    number = start(page, {"players": 4, "hands": 3, "limit": "fixed"})
    expect(page.locator(".poker-table")).to_have_attribute("data-game", "poker")
    session = Session("fixed")
    taken: set[str] = set()

    def look(page: Page, session: Session, moment: str) -> None:
        if moment == "turn" and "spectator" not in taken:
            a_spectator_sees_no_hand(contexts, page, number)
            taken.add("spectator")
        if moment == "hand_end" and "showdown" not in taken and session.showdowns:
            page.screenshot(path=shots / "poker-showdown.png")
            taken.add("showdown")
        view = state(page)["view"]
        if moment == "turn" and view["phase"] == "draw" and "desktop" not in taken:
            # two tiles marked to change, the button saying so: the picture, then unmarked
            tiles = page.locator(".poker-hand button.hand-tile")
            tiles.nth(1).click()
            tiles.nth(3).click()
            expect(page.locator(".poker-hand .hand-tile.marked")).to_have_count(2)
            page.screenshot(path=shots / "poker-desktop.png")
            page.locator("button.unmark").click()
            expect(page.locator(".poker-hand .hand-tile.marked")).to_have_count(0)
            taken.add("desktop")

    play_session(page, session, look)
    assert game_over(page)
    assert session.discarded, "the person never changed tiles in the draw"
    assert session.bet or session.raised, "the person never bet"
    the_end_matches_the_record(page, number)
    # the last hand's showdown stays on the table at the end of the game
    record = record_of(page, number)
    assert record["rounds"][-1]["end"]["kind"] == "showdown"
    seats = [e["seat"] for e in record["rounds"][-1]["showdown"] if e["seat"] != 0]
    for seat in seats:
        expect(page.locator(f'li.player[data-seat="{seat}"] .shown-hand')).to_have_count(1)
    assert {"spectator", "desktop"} <= taken
    assert "showdown" in taken or session.showdowns == 0


def opener(page: Page) -> Other:
    """A person's part that leaves nothing to the deal: he bets the least he may whenever
    nobody has bet in the round, else checks or calls (never raises, never folds), stands pat
    in the draw and presses "next" once after each hand."""
    nexts: set[int] = set()

    def act() -> bool:
        try:
            if game_over(page) or page.evaluate("!kozel.page?.state"):
                return False  # over, or the table has not had its first state yet
            hands = len(state(page)["rounds"])
            if page.locator("#next-round").count():
                if hands in nexts:
                    return False
                page.locator("#next-round").click()
                nexts.add(hands)
                return True
            if not my_turn(page):
                return False
            version = state(page)["version"]
            if state(page)["view"]["phase"] == "draw":
                expect(page.locator("button.discard")).to_have_text(say(page, "poker.stand_pat"))
                page.locator("button.discard").click()
            elif page.locator("button.bet").count():
                least = page.locator("#poker-amount").get_attribute("min")
                expect(page.locator("button.bet")).to_have_text(say(page, "poker.bet", n=least))
                page.locator("button.bet").click()
            elif page.locator("button.call").count():
                page.locator("button.call").click()
            else:
                page.locator("button.check").click()
            until(page, f"kozel.page.state.version > {version}")
            return True
        except PlaywrightError:  # the table redrew under the click: look again
            return False

    return act


def test_two_people_play_no_limit_and_one_raises_by_a_typed_amount(contexts: Contexts) -> None:
    """No limit between two people, so that what the table offers hangs neither on the deal
    nor on a computer's choice: bob opens every betting round with the least bet and calls
    the rest, so alice, who raises when she first may and bets when she first may, faces his
    bet in the first hand (whoever of them acts first) and raises by the amount she types;
    she changes two tiles in the first draw, and the last hand, checked and called, ends in
    a showdown. The record says the same, move by move."""
    alice, bob = contexts.page(), contexts.page()
    register(alice, "nl_alice")
    register(bob, "nl_bob")
    alice.select_option("#game", "poker")
    alice.click("details.more summary")
    alice.select_option("#opt-players", "2")
    alice.select_option("#opt-limit", json.dumps("no_limit"))
    alice.fill("#opt-hands", "3")
    alice.click("#create")
    bob.locator("li.request").filter(has_text="nl_alice").locator("button.join").click()
    number = game_id(alice)
    assert game_id(bob) == number
    alice.wait_for_selector(".poker-table")
    session = Session("no_limit")
    seen: set[str] = set()

    def look(page: Page, session: Session, moment: str) -> None:
        if moment == "turn" and not seen:
            a_spectator_sees_no_hand(contexts, page, number)
            seen.add("spectator")

    play_session(alice, session, look, other=opener(bob))
    expect(bob.locator(".game-over")).to_be_visible()
    assert session.raised, "the person never raised by a typed amount"
    assert session.bet and session.discarded and seen
    the_end_matches_the_record(alice, number)
    record = record_of(alice, number)
    me = record["seats"].index("nl_alice")
    assert len(record["rounds"]) == 3  # nobody could lose every chip
    assert record["rounds"][-1]["end"]["kind"] == "showdown"
    # what was arranged, as the record tells it: bob's least bets (1 chip), alice's one raise
    # over one of them by the amount she typed, two above the least (the call and as much
    # again: 2), and her one bet
    moves = [m for rnd in record["rounds"] for m in rnd["moves"]]
    assert all(m["bet"] == 1 for m in moves if "bet" in m and m["seat"] != me)
    raises = [m for m in moves if "raise" in m]
    assert raises == [{"seat": me, "raise": 4}], raises
    assert moves[moves.index(raises[0]) - 1] == {"seat": 1 - me, "bet": 1}
    bets = [m for m in moves if "bet" in m and m["seat"] == me]
    assert len(bets) == 1, bets
    assert shown_chips(bob) == record["result"]["chips"]


def test_a_phone_plays_no_limit_poker(contexts: Contexts, shots: Path) -> None:
    """At 360 px: the seats, the felt, the hand and the no-limit amount fit the width; the
    picture is taken at a betting turn with the amount offered. The phone takes seat 1 of a
    desktop's request that computers fill: it is first to act in the first hand (left of the
    dealer, seat 0), when nobody has bet, so the amount is offered there whatever the deal."""
    host = contexts.page()
    register(host, "nl_host")
    host.select_option("#game", "poker")
    host.click("details.more summary")
    host.select_option("#opt-players", "4")  # three seats abreast
    host.select_option("#opt-limit", json.dumps("no_limit"))
    host.fill("#opt-hands", "2")
    host.click("#create")
    page = contexts.page(viewport=PHONE)
    register(page, "nl_phone")
    page.locator("li.request").filter(has_text="nl_host").locator("button.join").click()
    # once the phone has its seat, computers take the others
    host.locator("li.request").filter(has_text="nl_phone").locator("button.bots").click()
    number = game_id(host)
    # the phone's lobby follows it to the table, even though it signed in just before joining
    # and so reconnected its socket as the player while the table started (lobby.js)
    assert game_id(page) == number
    page.wait_for_selector(".poker-table")
    assert state(page)["you"] == 1
    no_sideways_scroll(page)
    session = Session("no_limit")
    turns: list[int] = []

    def look(page: Page, session: Session, moment: str) -> None:
        no_sideways_scroll(page)
        if moment == "hand_end":
            # the notice lies in the felt; the "next" button is within reach
            expect(page.locator("#next-round")).to_be_in_viewport()
            return
        turns.append(len(state(page)["view"]["history"]))
        if len(turns) == 1:  # the first turn of the first hand: nobody has bet
            assert not any("bet" in e or "raise" in e for e in state(page)["view"]["history"])
            expect(page.locator(".amount button.primary")).to_be_in_viewport()
            expect(page.locator(".poker-hand .hand-tile").last).to_be_in_viewport()
            page.screenshot(path=shots / "poker-phone.png")

    play_session(page, session, look, other=opener(host))
    assert game_over(page)
    no_sideways_scroll(page)
    the_end_matches_the_record(page, number)
    assert turns and session.bet


# what the poker table words itself: the table's head (the game's name and options, from the
# game's option strings) is the lobby's to translate
NOT_THE_TABLES = f"{NOT_OURS}, .table-head"


@pytest.mark.parametrize("lang", ["ru", "bg", "uz"])
def test_the_poker_table_speaks_the_players_language(contexts: Contexts, lang: str) -> None:
    """A short session in each other language: every word the table shows at a betting turn,
    in the draw, at a hand's end and at the end of the game is a word of that language."""
    page = contexts.page(locale=lang)
    start(page, {"players": 3, "hands": 2, "limit": "no_limit"})
    allowed = language_words(lang) | {w for name in OWN_NAMES for w in words(name)}
    problems: dict[str, list[tuple[str, list[str]]]] = {}

    def check(where: str) -> None:
        names = {w for label in state(page)["seats"] for w in words(label)}
        title = page.title()  # the game's name, as the table's head
        for text in page.evaluate(SHOWN, NOT_THE_TABLES)["seen"]:
            if text == title:
                continue
            strange = sorted(words(text) - allowed - names)
            if strange:
                problems.setdefault(where, []).append((text, strange))

    def look(page: Page, session: Session, moment: str) -> None:
        phase = state(page)["view"]["phase"]
        check(f"{moment} {phase}")
        if phase == "draw":
            page.locator(".poker-hand button.hand-tile").first.click()
            check("a tile marked")
            page.locator("button.unmark").click()

    play_session(page, Session("no_limit"), look)
    check("game over")
    assert problems == {}


SHOW = """async (message) => {
  const { TablePage } = await import("/static/table.js");
  const { rules } = await import("/static/options.js");
  await rules();
  const table = new TablePage(message.game);
  table.main = document.getElementById("page");
  table.socket = { send: () => true };
  table.roundsSeen = 0;  // the message's hands have just ended: their notice is shown
  await table.receive(message);
}"""


def deal_of(*hands: str) -> tuple[list[list[int]], list[int]]:
    """A deal of these hands (tiles apart by spaces; "" for a seat dealt nothing), the other
    tiles to the bazaar."""
    dealt = [[parse_tile(t) for t in hand.split()] for hand in hands]
    used = {t for hand in dealt for t in hand}
    return dealt, [t for t in POKER_TILES if t not in used]


def table_message(match: PokerMatch, **extra: Any) -> dict[str, Any]:
    """The state the table socket would send seat 0 of ``match`` (a game numbered 7)."""
    players = match.opts.players
    return {
        "type": "state", "game": 7, "version": 9, "status": "playing", "you": 0,
        "seats": ["guest-1c9329a7", "bot:expert", "bot:greedy", "bot:random"][:players],
        "seconds_per_move": 60, "rated": False, "view": match.view_dicts([0])[0],
        "rounds": match.round_summaries(), **extra,
    }  # fmt: skip


def test_side_pots_and_a_timeout_in_words(contexts: Contexts) -> None:
    """A hand of side pots (a short stack all in wins the main pot with a Royal flush, the
    side pot goes to a Four straight) and a session cut short by a timeout, as the engine
    plays them, drawn from the server's messages."""
    opts = get_game("poker").options({"players": 3, "limit": "no_limit", "hands": 5})
    assert isinstance(opts, PokerOptions)
    match = PokerMatch(opts, seed=3)
    match.chips = [5, 20, 30]
    match.start_hand(*deal_of("2-2 3-3 4-4 5-5 6-6", "1-6 2-6 3-6 4-6 1-2", "1-3 1-4 2-3 2-4 1-5"))
    for move in (Bet(19), Call(19), Call(4), Discard(()), Discard(()), Discard(())):
        match.push(move)
    assert match.hand is not None and match.hand.over
    page = contexts.page()
    page.goto("/rules/goat")
    page.wait_for_selector(".rules-text h2")
    waiting = {"waiting": [0], "remaining_ms": 60_000}
    page.evaluate(SHOW, table_message(match, shown=match.shown_hands(), next_round=waiting))
    notice = page.locator("section.notice")
    royal = pips_words(page, "royal_flush", ["2-2", "3-3", "4-4", "5-5", "6-6"])
    straight = pips_words(page, "four_straight", ["1-6", "2-6", "3-6", "4-6", "1-2"])
    expect(notice.locator("h2")).to_have_text(
        say(page, "poker.end.showdown", 15, hand=1, name="guest-1c9329a7", how=royal)
    )
    pots = notice.locator(".pots li")
    expect(pots).to_have_count(2)
    main = say(page, "poker.main_pot")
    expect(pots.nth(0)).to_have_text(
        f"{main} ({say(page, 'poker.chips_n', 15)}): guest-1c9329a7 — {royal}"
    )
    side = say(page, "poker.side_pot", k=1)
    expert = seat_name(["", "bot:expert"], 7, 1)
    expect(pots.nth(1)).to_have_text(
        f"{side} ({say(page, 'poker.chips_n', 30)}): {expert} — {straight}"
    )
    expect(notice.locator(".gains")).to_contain_text("guest-1c9329a7: +10")
    expect(notice.locator("#next-round")).to_be_visible()
    # the hands at the showdown face up at their seats, the middle's pots, no clock
    expect(page.locator('li.player[data-seat="1"] .shown-hand .category')).to_have_text(straight)
    expect(page.locator(".pot-area .pots li")).to_have_count(2)
    expect(page.locator(".clock")).to_have_count(0)
    assert shown_chips(page) == [15, 30, 10]

    # the next hand: the seat to move runs out of time and the session ends unscored
    match.deal_next()
    turn = match.to_move
    assert turn is not None
    match.timeout(turn)
    assert match.result is not None
    result = {**match.result.to_dict(), "timeout": turn}
    page.evaluate(SHOW, table_message(match, status="interrupted", result=result))
    names = [
        "guest-1c9329a7",
        seat_name(["", "bot:expert"], 7, 1),
        seat_name(["", "", "bot:greedy"], 7, 2),
    ]
    over = page.locator(".game-over")
    # the timeout is said once: by the verdict, not again as the last hand's end
    expect(over).to_contain_text(say(page, "table.timed_out", name=names[turn]))
    expect(over.locator(".last-round")).to_have_count(0)
    expect(over.locator(".scores")).to_have_text(
        " · ".join(f"{n}: {c}" for n, c in zip(names, [15, 30, 10], strict=True))
    )
    rows = page.locator("table.chips-sheet tbody tr")
    expect(rows).to_have_count(2)
    assert rows.evaluate_all(CELLS, ".gain") == [["+10", "+10", "−20"], ["0", "0", "0"]]


def test_a_player_out_of_chips_watches_the_others(contexts: Contexts) -> None:
    """A seat with no chips is dealt no tiles: it is marked out, its player is told the
    others play on, and nothing is offered to it."""
    opts = get_game("poker").options({"players": 3, "hands": 5})
    assert isinstance(opts, PokerOptions)
    match = PokerMatch(opts, seed=4)
    match.chips = [0, 25, 30]
    match.start_hand(*deal_of("", "1-2 1-3 1-4 1-5 1-6", "2-3 2-4 2-5 2-6 3-4"))
    page = contexts.page()
    page.goto("/rules/goat")
    page.wait_for_selector(".rules-text h2")
    page.evaluate(SHOW, table_message(match))
    expect(page.locator(".you-out")).to_have_text(say(page, "poker.you_out"))
    expect(page.locator('li.player[data-seat="0"] .out-mark')).to_have_text(say(page, "poker.out"))
    expect(page.locator('li.player[data-seat="0"] .backs')).to_have_count(0)
    expect(page.locator('li.player[data-seat="1"] .backs .back')).to_have_count(5)
    expect(page.locator(".poker-hand .hand-tile")).to_have_count(0)
    expect(page.locator(".table.my-turn")).to_have_count(0)
