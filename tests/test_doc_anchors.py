"""The code and the tests cite the repository's own documents: every ``docs/<page>.md#anchor``
named in ``kozel/`` and ``tests/`` (and every link between the pages of ``docs/``) leads to an
anchor that page has, an explicit ``<a id>`` or a heading's; and every rulebook section the code
names by its number (``§2.5``) is a row of docs/rules.md's table of the rulebook's sections."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SOURCES = (".py", ".pyi", ".js", ".c", ".html", ".css")

CITED = re.compile(r"docs/([\w-]+\.md)#([\w-]+)")
LINK = re.compile(r"\]\(([\w-]+\.md)?#([\w-]+)\)")
SECTION = re.compile(r"(?<!protocol\.md )(?<!#39, )§\s?(\d+(?:\.\d+)?)")


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to '-'."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The explicit ``<a id="...">`` of a page and its headings' anchors (a repeated heading's
    with ``-1``, ``-2`` …)."""
    text = page.read_text(encoding="utf-8")
    found = set(re.findall(r'<a id="([\w-]+)"', text))
    seen: Counter[str] = Counter()
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        match = None if fenced else re.match(r"#{1,6} (.+)", line)
        if match:
            base = slug(match.group(1))
            found.add(base if not seen[base] else f"{base}-{seen[base]}")
            seen[base] += 1
    return found


def sources() -> list[Path]:
    return [
        path
        for folder in (ROOT / "kozel", ROOT / "tests")
        for path in sorted(folder.rglob("*"))
        if path.suffix in SOURCES and path.is_file()
    ]


def test_every_cited_anchor_exists() -> None:
    pages = {page.name: anchors(page) for page in DOCS.glob("*.md")}
    cited: list[tuple[str, str, str]] = []
    for path in sources():
        for page, anchor in CITED.findall(path.read_text(encoding="utf-8")):
            cited.append((str(path.relative_to(ROOT)), page, anchor))
    for page in DOCS.glob("*.md"):
        for target, anchor in LINK.findall(page.read_text(encoding="utf-8")):
            cited.append((f"docs/{page.name}", target or page.name, anchor))
    assert len(cited) > 60
    missing = [
        f"{where}: docs/{page}#{anchor}"
        for where, page, anchor in cited
        if anchor not in pages.get(page, set())
    ]
    assert missing == []


def test_no_citation_of_a_file_outside_the_repository() -> None:
    outside = [
        str(path.relative_to(ROOT))
        for path in sources()
        if re.search(r"\b(RULES|RECORD)\.md", path.read_text(encoding="utf-8"))
    ]
    assert outside == []


def test_every_rulebook_section_named_is_in_the_table() -> None:
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| §(\d+(?:\.\d+)?) \| <a id=", text, re.MULTILINE))
    assert {"1", "2.5", "8.5", "13.6"} <= rows
    named = {
        (str(path.relative_to(ROOT)), number)
        for path in sources()
        for number in SECTION.findall(path.read_text(encoding="utf-8"))
    }
    assert len(named) > 50
    assert sorted((where, n) for where, n in named if n not in rows) == []
