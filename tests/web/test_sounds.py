"""The table's sounds (kozel/web/static/sounds.js): on but quiet at first, a switch at the
table turns them off at once, the choice survives a reload, and with the sounds off no audio
is started at all. The page's AudioContext is replaced by one that counts what it is asked
to play (a headless browser has no speakers to listen to)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.web.conftest import Contexts
from tests.web.play import step, until, version

COUNTING_AUDIO = """
window.audio = { contexts: 0, tones: 0, gains: [] };
const param = () => ({
  setValueAtTime(v) { window.audio.gains.push(v); },
  exponentialRampToValueAtTime(v) { window.audio.gains.push(v); },
});
class CountingAudio {
  constructor() { window.audio.contexts += 1; this.state = "running"; this.currentTime = 0;
    this.destination = {}; }
  resume() { this.state = "running"; return Promise.resolve(); }
  suspend() { this.state = "suspended"; return Promise.resolve(); }
  createGain() { return { gain: param(), connect: (next) => next }; }
  createOscillator() {
    return { type: "sine", frequency: param(), connect: (next) => next,
      start() { window.audio.tones += 1; }, stop() {} };
  }
}
window.AudioContext = CountingAudio;
window.webkitAudioContext = CountingAudio;
"""


def tones(page: Page) -> int:
    return int(page.evaluate("window.audio.tones"))


def play_moves(page: Page, moves: int) -> None:
    """Make `moves` of this seat's moves (the computers answer each at once)."""
    for _ in range(moves):
        until(page, "document.querySelector('.table.my-turn, .game-over') !== null")
        if page.locator(".game-over").count():
            return
        seen = version(page)
        while version(page) == seen and not page.locator(".game-over").count():
            if not step(page):
                page.wait_for_timeout(30)


def test_the_sounds_switch_off_at_once_and_stay_off(contexts: Contexts) -> None:
    page = contexts.page()
    page.context.add_init_script(COUNTING_AUDIO)
    page.goto("/")
    page.click("#guest")
    page.click("#play-computer")
    switch = page.locator(".board-info button.sound-switch")
    expect(switch).to_have_attribute("aria-pressed", "true")  # on at first
    play_moves(page, 2)
    until(page, "window.audio.tones > 0")  # a tile laid or drawn, the others', your turn
    assert page.evaluate("window.audio.contexts") == 1
    loudest = max(page.evaluate("window.audio.gains.filter((v) => v < 1)"))
    assert loudest <= 0.2  # quiet

    switch.click()
    expect(page.locator(".board-info button.sound-switch")).to_have_attribute(
        "aria-pressed", "false"
    )
    assert page.evaluate("localStorage.getItem('kozel.sound')") == "off"
    before = tones(page)
    play_moves(page, 2)
    assert tones(page) == before, "a sound while the sounds are off"

    page.reload()
    switch = page.locator(".board-info button.sound-switch")
    expect(switch).to_have_attribute("aria-pressed", "false")
    play_moves(page, 2)
    assert page.evaluate("window.audio") == {"contexts": 0, "tones": 0, "gains": []}

    switch.click()  # on again: the next moves are heard
    expect(page.locator(".board-info button.sound-switch")).to_have_attribute(
        "aria-pressed", "true"
    )
    play_moves(page, 2)
    if not page.locator(".game-over").count():
        until(page, "window.audio.tones > 0")


def test_the_switch_is_labelled_in_the_players_language(contexts: Contexts) -> None:
    page = contexts.page(locale="ru-RU")
    page.context.add_init_script(COUNTING_AUDIO)
    page.goto("/")
    page.click("#guest")
    page.click("#play-computer")
    switch = page.locator(".board-info button.sound-switch")
    expect(switch).to_have_text("Звук")
    expect(switch).to_have_attribute("title", "Выключить звуки")
    switch.click()
    expect(page.locator(".board-info button.sound-switch")).to_have_attribute(
        "title", "Включить звуки"
    )
