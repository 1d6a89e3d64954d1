"""The words the club shows, checked as text (no browser): the Uzbek Latin alphabet's own
letters and sign, and one term per thing in each language (its glossary)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

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
