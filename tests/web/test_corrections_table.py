"""The table and the rulebook's corrections (docs/rules.md#corrections), on positions from the
engine shown in the page: Sea Goat's record holder asked about the hundred before the regular leader
leads (the others told who decides), the eggs under the clock of the seat to move (§13.7), Donkey's
remembered points in red and Goat's in yellow (§13.7), Donkey's two closed doubles named in the
round's end (§13.2), and the fewest points named at a Goat game's end (§13.1)."""

from __future__ import annotations

import random
from typing import Any

from playwright.sync_api import Page

from kozel.games import DONKEY, GOAT
from kozel.layout.match import Match
from kozel.layout.scoring.goat import Account
from tests.test_corrections import donkey_match_with_a_closing_round, sea_goat_round
from tests.web.conftest import DESKTOP, PHONE, Contexts
from tests.web.test_i18n import strings
from tests.web.test_table_view import SHOW, open_table, state

EN = strings("en", "ui")
SENT = """() => {
  window.sent = [];
  window.table.socket = { send: (m) => { window.sent.push(m); return true; } };
}"""


def show(page: Page, message: dict[str, Any]) -> None:
    page.evaluate(SHOW, [message])
    page.evaluate(SENT)


def test_the_record_holder_is_asked_about_the_hundred(contexts: Contexts) -> None:
    """§13.3: a yes/no to the asked seat before the regular leader leads; "no" sends the
    refusal, "declare" the lead of 6-6 with the hundred."""
    m = sea_goat_round()
    page = open_table(contexts, PHONE)
    view = m.view(1).to_dict()
    show(page, {**state(view, ["alice", "bob"]), "you": 1})
    prompt = page.locator(".hundred-asked")
    assert prompt.inner_text() == EN["table.hundred_asked"]
    assert page.locator("button.declare-hundred").is_visible()
    page.click("button.refuse-hundred")
    assert page.evaluate("() => window.sent") == [
        {"type": "move", "version": 5, "move": {"hundred": False}}
    ]
    show(page, {**state(view, ["alice", "bob"], version=6), "you": 1})
    page.click("button.declare-hundred")
    assert page.evaluate("() => window.sent[0].move") == {"play": "6-6", "hundred": True}


def test_the_others_see_who_decides_about_the_hundred(contexts: Contexts) -> None:
    m = sea_goat_round()
    page = open_table(contexts, DESKTOP)
    show(page, state(m.view(0).to_dict(), ["alice", "bob"]))
    said = page.locator(".actions .muted").inner_text()
    assert said == EN["table.hundred_deciding"].replace("{name}", "bob")
    assert page.locator(".hundred-asked").count() == 0
    m.push(m.round.legal_moves()[1])  # no
    after = m.view(0).to_dict()
    assert after["history"] == [{"seat": 1, "hundred": False}]
    show(page, state(after, ["alice", "bob"], version=6))
    log = page.locator("ol.move-log li").all_inner_texts()
    assert log == [EN["log.no_hundred"].replace("{name}", "bob")]


def goat_view_with_eggs() -> dict[str, Any]:
    m = Match(GOAT, GOAT.options({"fish_mode": "all_to_loser"}), seed=2)
    m.eggs = 35
    m.next_round()
    view = m.view(0).to_dict()
    assert view["eggs"] == 35
    return view


def test_the_eggs_lie_under_the_clock_of_the_seat_to_move(contexts: Contexts) -> None:
    """§13.7 (002/004: «под таймером»): the fish icon and +35 under the clock of the seat
    whose move it is, not beside the layout."""
    view = goat_view_with_eggs()
    page = open_table(contexts, DESKTOP)
    show(page, state(view, ["alice", "bot:greedy", "bot:greedy", "bot:greedy"]))
    turn = page.locator("li.player.turn")
    assert turn.get_attribute("data-seat") == str(view["turn"])
    eggs = turn.locator(".clock-box .eggs-pending")
    assert eggs.inner_text().strip() == "+35" and eggs.locator("svg.fish").count() == 1
    clock, under = turn.locator(".clock").bounding_box(), eggs.bounding_box()
    assert clock is not None and under is not None
    assert under["y"] >= clock["y"] + clock["height"] - 1
    assert page.locator(".board-info .eggs-pending").count() == 0


def colour(page: Page, selector: str) -> str:
    return str(page.locator(selector).first.evaluate("(el) => getComputedStyle(el).color"))


def test_donkeys_remembered_points_are_red_and_goats_yellow(contexts: Contexts) -> None:
    """§13.7 (001: remembered points «пишутся красным» in Donkey; 004: Goat's are yellow)."""
    seats = ["alice", "bot:greedy", "bot:greedy", "bot:greedy"]
    page = open_table(contexts, DESKTOP)
    shown: dict[str, str] = {}
    for rules in (GOAT, DONKEY):
        m = Match(rules, rules.options(), seed=4)
        m.sheet = (Account(0, False, 7), Account(20, True, 0), Account(), Account())
        m.next_round()
        show(page, state(m.view(0).to_dict(), seats))
        shown[rules.id] = colour(page, "li.player[data-seat='0'] .score.remembered")
        shown[rules.id + "-open"] = colour(page, "li.player[data-seat='1'] .score.open")
    red, yellow, ink = "rgb(192, 57, 43)", "rgb(154, 116, 0)", "rgb(35, 32, 27)"
    assert shown == {"goat": yellow, "goat-open": red, "donkey": red, "donkey-open": ink}


def test_two_closed_doubles_are_named_at_the_rounds_end(contexts: Contexts) -> None:
    """§13.2: the round's notice says the closer closed two doubles at once (a fish)."""
    m = donkey_match_with_a_closing_round()
    closer = m.results[-1].end.seat
    rounds = m.round_summaries()
    view = m.view(0).to_dict()
    page = open_table(contexts, DESKTOP)
    message = {**state(view, ["alice", "bob"]), "rounds": rounds[:1]}
    page.evaluate(SHOW, [message, {**message, "version": 6, "rounds": rounds}])
    title = page.locator("section.notice h2").inner_text().strip()
    assert title == EN["round.closed_both"].replace("{name}", ["alice", "bob"][closer])


def test_a_goat_games_end_names_the_fewest_points(contexts: Contexts) -> None:
    """§13.1: the penalty classic's winner is the fewest points; every Goat game says who has
    them beside the Goat."""
    m = Match(GOAT, GOAT.options({**GOAT.presets["penalty-classic"], "players": 2}), seed=9)
    rng = random.Random(9)
    while not m.over:
        rnd = m.next_round()
        while not rnd.over:
            moves = rnd.legal_moves()
            m.push(moves[rng.randrange(len(moves))])
    assert m.result is not None
    result = m.result.to_dict()
    winner = min(range(2), key=lambda u: result["accounts"][u])
    page = open_table(contexts, DESKTOP)
    message = {
        **state(m.view(0).to_dict(), ["alice", "bob"]),
        "status": "finished",
        "result": result,
        "rounds": m.round_summaries(),
    }
    message.pop("clock")
    page.evaluate(SHOW, [message])
    fewest = page.locator(".game-over .fewest").inner_text()
    assert fewest == EN["table.fewest"].replace("{names}", ["alice", "bob"][winner])
