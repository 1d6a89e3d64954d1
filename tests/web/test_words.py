"""The words the club shows, checked as text (no browser): the Uzbek Latin alphabet's own
letters and sign, and one term per thing in each language (its glossary)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "kozel" / "web"
LANGUAGES = ("en", "ru", "bg", "uz")

OKINA = "\u02bb"  # ʻ: the letters oʻ and gʻ
TUTUQ = "\u02bc"  # ʼ: the tutuq belgisi (the glottal stop sign)


def ui_strings(lang: str) -> dict[str, str]:
    texts: dict[str, str] = {}
    for part in ("ui", "options"):
        texts.update(json.loads((WEB / "i18n" / lang / f"{part}.json").read_text("utf-8")))
    return texts


def page_text(path: Path) -> str:
    """A rules page's words: its tags taken out, its entities read."""
    return html.unescape(re.sub(r"<[^>]*>", " ", path.read_text("utf-8")))


def uzbek_texts() -> list[tuple[str, str]]:
    """Every Uzbek text the club shows, named by where it stands: the strings, the rules pages,
    the language menu and the page's note for browsers without JavaScript."""
    texts = [(f"i18n/uz: {key}", text) for key, text in ui_strings("uz").items()]
    texts += [(f"rules/{p.name}", page_text(p)) for p in sorted((WEB / "rules").glob("*.uz.html"))]
    menu = re.search(r'\["uz", "([^"]+)"\]', (WEB / "static" / "i18n.js").read_text("utf-8"))
    assert menu, "the language menu names Uzbek"
    texts.append(("the language menu", menu.group(1)))
    noscript = re.search(
        r"<noscript>(.*?)</noscript>", (WEB / "index.html").read_text("utf-8"), re.S
    )
    assert noscript
    texts.append(("index.html <noscript>", noscript.group(1).split("·")[-1]))
    return texts


def apostrophe_faults(text: str) -> list[str]:
    """Where a text writes Uzbek's apostrophe-like letters other than the alphabet does: oʻ and
    gʻ with U+02BB (never a plain ', a ’ or a ‘, nor U+02BC), and the tutuq belgisi as U+02BC
    (never a plain ', a ’ or U+02BB after another letter)."""
    faults = []
    for found in re.finditer(r"(\w?)(['\u2018\u2019`\u02bb\u02bc])", text):
        letter, mark = found.groups()
        context = text[max(0, found.start() - 10) : found.end() + 10]
        if letter.lower() in ("o", "g"):
            if mark != OKINA:
                faults.append(f"{letter}{mark!r} for {letter}{OKINA}: …{context}…")
        elif mark != TUTUQ:
            faults.append(f"{mark!r} for the tutuq {TUTUQ}: …{context}…")
    return faults


def test_the_apostrophe_check_finds_what_it_should() -> None:
    assert apostrophe_faults("Koʻzirlar, gʻalaba, eʼlon, sanʼat") == []
    assert len(apostrophe_faults("Ko'zirlar")) == 1
    assert len(apostrophe_faults("Ko\u2019zirlar")) == 1
    assert len(apostrophe_faults("Ko\u02bczirlar")) == 1  # the tutuq in place of the letter
    assert len(apostrophe_faults("e'lon")) == 1
    assert len(apostrophe_faults("e\u02bblon")) == 1  # the letter's sign in place of the tutuq


def test_uzbek_is_written_with_its_own_letters() -> None:
    texts = uzbek_texts()
    assert len(texts) > 500  # the strings, sixteen rules pages, the menu, the note
    faults = [f"{where}: {fault}" for where, text in texts for fault in apostrophe_faults(text)]
    assert faults == [], "\n".join(faults[:20])


# --- names stand as they are ---------------------------------------------------------------

NAME = re.compile(r"\{(name|names|side)\}")
# Russian words after which a name would have to be declined: the prepositions and the words
# that govern another case ("сообщения {name}", "показывать {name}"). A name is a login or
# a computer's animal, shown as it is: it stands alone ("{name}: …"), as the subject, or
# after a noun that takes the case for it ("игрока {name}").
RUSSIAN_GOVERNING = {
    *("без", "в", "вместо", "для", "до", "за", "из", "к", "ко", "между", "на", "над", "о"),
    *("об", "от", "перед", "по", "под", "после", "при", "про", "против", "с", "со", "у"),
    *("сообщения", "показывать", "скрыть", "поздравляем", "ждём", "ждем"),
}
# Uzbek adds a case as an ending: one written apart from a name ("{name} ni") is no word
UZBEK_ENDINGS = {"ni", "ning", "ga", "da", "dan", "niki", "larni", "lar"}


def name_faults(lang: str, texts: dict[str, str]) -> list[str]:
    faults = []
    for key, text in texts.items():
        for found in NAME.finditer(text):
            before = re.findall(r"[^\W\d_]+", text[: found.start()].lower())
            after = re.match(r"\s+([^\W\d_]+)", text[found.end() :])
            apart = re.search(r"[:—(,]\s*$", text[: found.start()])
            if lang == "ru" and before and before[-1] in RUSSIAN_GOVERNING and not apart:
                faults.append(f"{key}: «{text}» puts {found.group()} after «{before[-1]}»")
            if lang == "uz" and after and after.group(1).lower() in UZBEK_ENDINGS:
                faults.append(f"{key}: «{text}» writes an ending apart from {found.group()}")
    return faults


def test_the_name_check_finds_what_it_should() -> None:
    assert name_faults("ru", {"k": "Пусть за {name} играет компьютер"})
    assert name_faults("ru", {"k": "у {name} вышло время"})
    assert name_faults("ru", {"k": "Скрыть сообщения {name}"})
    assert not name_faults("ru", {"k": "Пусть вместо игрока {name} играет компьютер"})
    assert not name_faults("ru", {"k": "{name}: время вышло"})
    assert name_faults("uz", {"k": "{name} ni yana koʻrsatish"})
    assert not name_faults("uz", {"k": "{name}: xabarlarni yana koʻrsatish"})


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_name_stands_as_it_is(lang: str) -> None:
    """A name is never put in a case it cannot take («Пусть за Александра-Константинова
    играет компьютер»): the sentences are worded so that it stands as written."""
    assert name_faults(lang, ui_strings(lang)) == []
