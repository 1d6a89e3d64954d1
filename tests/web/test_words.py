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


# --- one term per thing -------------------------------------------------------------------


PLACEHOLDER = re.compile(r"\{\w+\}")


def glossary(lang: str) -> dict[str, dict[str, object]]:
    data = json.loads((WEB / "i18n" / lang / "glossary.json").read_text("utf-8"))
    return {concept: entry for concept, entry in data.items() if not concept.startswith("_")}


def word(pattern: str) -> re.Pattern[str]:
    """A glossary pattern matched as whole words, case aside."""
    return re.compile(rf"(?<!\w)(?:{pattern})(?!\w)", re.IGNORECASE)


def glossary_faults(
    entry: dict[str, object], strings: dict[str, str], pages: dict[str, str]
) -> tuple[list[str], bool]:
    """Where the strings (key -> text) and the rules pages (game -> text) in the concept's
    scope use a forbidden synonym; and whether its term is used there at all."""
    keys = entry.get("keys")
    games = entry.get("pages")
    scoped = [
        (f"string {key}", PLACEHOLDER.sub(" ", text))  # a placeholder's name is not a word shown
        for key, text in strings.items()
        if keys is None or any(key.startswith(str(k)) for k in keys)  # type: ignore[attr-defined]
    ]
    scoped += [
        (f"rules page {game}", text)
        for game, text in pages.items()
        if games is None or game in games  # type: ignore[operator]
    ]
    faults = []
    for pattern in entry["forbidden"]:  # type: ignore[attr-defined]
        for where, text in scoped:
            for found in word(str(pattern)).finditer(text):
                context = text[max(0, found.start() - 30) : found.end() + 30]
                faults.append(f"{where}: «{found.group()}» for «{entry['term']}»: …{context}…")
    used = any(word(str(entry["term"])).search(text) for _, text in scoped)
    return faults, used


def test_the_glossary_check_finds_what_it_should() -> None:
    tile = {"term": "кост(ь|и)", "forbidden": ["кам(ень|ни)"]}
    assert glossary_faults(tile, {"a": "Остались камни: 1-2"}, {})[0]
    assert glossary_faults(tile, {"a": "Остались кости: 1-2"}, {}) == ([], True)
    assert glossary_faults(tile, {}, {"goat": "<p>Камень</p>"})[0]
    # a scoped concept looks only at its strings and pages
    hand = {"term": "раздач\\w*", "forbidden": ["раунд"], "keys": ["poker."], "pages": ["poker"]}
    assert glossary_faults(hand, {"sheet.x": "раунд", "poker.x": "раздача"}, {}) == ([], True)
    assert glossary_faults(hand, {"poker.x": "раунд"}, {})[0]
    full = {"term": "Фулл-хаус", "forbidden": ["фулл?(?!-хаус)"]}
    assert glossary_faults(full, {"a": "Фулл"}, {})[0]
    assert glossary_faults(full, {"a": "Фулл-хаус"}, {}) == ([], True)


def test_every_language_has_a_term_for_every_concept() -> None:
    concepts = {lang: set(glossary(lang)) for lang in LANGUAGES}
    assert all(found == concepts["en"] for found in concepts.values()), concepts
    assert {"tile", "bazaar", "call", "raise", "full_hand", "round", "hand"} <= concepts["en"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_term_per_thing(lang: str) -> None:
    """Each concept of the language's glossary (kozel/web/i18n/LANG/glossary.json) has one
    word in its strings and rules pages: its term, never a synonym the glossary forbids
    («уравнять» on the button and «колл» in the log, «камни» among «кости»)."""
    strings = ui_strings(lang)
    pages = {p.name.split(".")[0]: page_text(p) for p in (WEB / "rules").glob(f"*.{lang}.html")}
    problems = []
    for concept, entry in glossary(lang).items():
        faults, used = glossary_faults(entry, strings, pages)
        problems += faults
        if not used:
            problems.append(f"{concept}: the term «{entry['term']}» is used nowhere")
    assert problems == [], "\n".join(problems)
