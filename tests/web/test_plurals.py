"""Counts in words take the form each language gives the number (i18n.js's plural(), with
Intl.PluralRules): 1 tile / 2 tiles; 1 кость, 2 кости, 5 костей, 21 кость; 1 кост, 2 кости;
Uzbek's one form."""

from __future__ import annotations

import pytest

from tests.web.conftest import Contexts
from tests.web.test_i18n import LANGUAGES, plural_bases, strings

SAY = """async ([lang, keys, numbers]) => {
  const i18n = await import("/static/i18n.js");
  await i18n.setLanguage(lang);
  const params = { name: "N", side: "S", tiles: "T" };
  return keys.map((key) => numbers.map((n) => i18n.plural(key, n, params)));
}"""

NUMBERS = [1, 2, 5, 11, 21, 22, 25, 101, 0]
TILES = {
    "en": ["1 tile", "2 tiles", "5 tiles", "11 tiles", "21 tiles", "22 tiles", "25 tiles",
           "101 tiles", "0 tiles"],
    "ru": ["1 кость", "2 кости", "5 костей", "11 костей", "21 кость", "22 кости", "25 костей",
           "101 кость", "0 костей"],
    "bg": ["1 кост", "2 кости", "5 кости", "11 кости", "21 кости", "22 кости", "25 кости",
           "101 кости", "0 кости"],
    "uz": ["1 ta tosh", "2 ta tosh", "5 ta tosh", "11 ta tosh", "21 ta tosh", "22 ta tosh",
           "25 ta tosh", "101 ta tosh", "0 ta tosh"],
}  # fmt: skip


def test_every_count_takes_its_languages_form(contexts: Contexts) -> None:
    page = contexts.page()
    page.goto("/rules")
    page.wait_for_selector("nav.tabs a")
    keys = sorted(plural_bases(strings("en", "ui")))
    assert {"table.tiles", "log.drew", "score.just_made", "notice.during"} <= set(keys)
    for lang in LANGUAGES:
        said = page.evaluate(SAY, [lang, keys, NUMBERS])
        assert said[keys.index("table.tiles")] == TILES[lang], lang
        table = strings(lang, "ui")
        for key, texts in zip(keys, said, strict=True):
            forms = {k.rsplit(".", 1)[1]: v for k, v in table.items() if k.startswith(key + ".")}
            for n, text in zip(NUMBERS, texts, strict=True):
                # the form this language gives n: Intl's, else "other" (Uzbek's only one)
                form = FORM_OF[lang](n)
                wanted = forms.get(form, forms["other"])
                for name, value in {"n": n, "name": "N", "side": "S", "tiles": "T"}.items():
                    wanted = wanted.replace(f"{{{name}}}", str(value))
                assert text == wanted, (lang, key, n)


def russian(n: int) -> str:
    if n % 10 == 1 and n % 100 != 11:
        return "one"
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return "few"
    return "many"


FORM_OF = {
    "en": lambda n: "one" if n == 1 else "other",
    "bg": lambda n: "one" if n == 1 else "other",
    "uz": lambda n: "one" if n == 1 else "other",
    "ru": russian,
}


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_seats_count_their_tiles_in_words(contexts: Contexts, lang: str) -> None:
    """A phone hides the count behind the face-down tiles: a desktop shows it."""
    page = contexts.page(locale=lang)
    page.goto("/")
    page.click("#guest")
    page.click("#play-computer")
    page.wait_for_selector("li.player .count")
    shown = page.evaluate(COUNTS)
    forms = {k: v for k, v in strings(lang, "ui").items() if k.startswith("table.tiles.")}
    for count, text in shown:
        assert text == forms[f"table.tiles.{FORM_OF[lang](count)}"].replace("{n}", str(count))


COUNTS = """() => [...document.querySelectorAll("li.player")].map((li) => [
  kozel.page.state.view.hand_sizes[Number(li.dataset.seat)],
  li.querySelector(".count").textContent,
])"""
