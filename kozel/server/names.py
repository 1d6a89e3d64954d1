"""Look-alike names: the confusable *skeleton* of Unicode Technical Standard #39, §4.

Two names that look alike have the same skeleton: ``ахе`` (Cyrillic) and ``axe``, Greek
``ΑΒΕ`` and ``ABE``, ``alıce`` with a dotless ı and ``alice``. The skeleton is the name in
its decomposed form (NFD) with every character replaced by its *prototype* from Unicode's
confusables data, then decomposed again.

Names are one account whatever their case, so a name has three look-alike keys: the
skeleton of the name as typed (``aIice`` with a capital I looks like ``alice``), of its
case-folded form (``ахе`` / ``axe``) and of its capitals (``ΑΒΕ`` / ``ABE``: small Greek
beta does not look like b, capital Beta does). A new name is refused when any of its keys is
a key of a taken name (:class:`kozel.server.db.NameKey`).

The data is ``confusables-names.txt`` beside this module: the lines of Unicode's
``confusables.txt`` whose source can occur in a name after its compatibility normalization
(a letter, a number, a combining mark, ``.``, ``-`` or ``_`` that NFKD leaves as it is),
about 2,100 of its 6,600. It is written from Unicode's file by this module's
:func:`write_table` (``python -m kozel.server.names PATH/confusables.txt``); the file's
header names the Unicode version it came from.
"""

from __future__ import annotations

import sys
import unicodedata
from functools import cache
from pathlib import Path

TABLE = Path(__file__).with_name("confusables-names.txt")


@cache
def prototypes() -> dict[str, str]:
    """Each confusable character's prototype (one or more characters)."""
    table: dict[str, str] = {}
    for line in TABLE.read_text("utf-8").splitlines():
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        source, target = (part.strip() for part in data.split(";")[:2])
        table[chr(int(source, 16))] = "".join(chr(int(c, 16)) for c in target.split())
    return table


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, each character's prototype, NFD again.

    >>> skeleton("ахе") == skeleton("axe"), skeleton("ΑΒΕ") == skeleton("ABE")
    (True, True)
    >>> skeleton("alıce") == skeleton("alice"), skeleton("alice") == skeleton("alike")
    (True, False)
    """
    table = prototypes()
    mapped = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def look_alike_keys(name: str) -> set[str]:
    """The keys that make ``name`` (in its NFKC normal form) taken for any name that
    looks like it in any case: its skeleton as typed, in small letters and in capitals.

    >>> look_alike_keys("ΑΒΕ") & look_alike_keys("abe") != set()
    True
    >>> look_alike_keys("aIice") & look_alike_keys("alice") != set()
    True
    >>> look_alike_keys("Ilia") & look_alike_keys("Lila")
    set()
    """
    folded = unicodedata.normalize("NFKC", name.casefold())
    capitals = unicodedata.normalize("NFKC", folded.upper())
    return {skeleton(name), skeleton(folded), skeleton(capitals)}


def write_table(source: Path, target: Path = TABLE) -> int:
    """Write the name-relevant lines of Unicode's ``confusables.txt`` (``source``) to
    ``target``; the number of lines written."""
    lines = source.read_text("utf-8-sig").splitlines()
    header = [line for line in lines[:12] if line.startswith("#")]
    kept = []
    for line in lines:
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        fields = [part.strip() for part in data.split(";")]
        char = chr(int(fields[0], 16))
        if _in_names(char):
            kept.append(f"{fields[0]} ; {fields[1]}")
    target.write_text(
        "\n".join(
            [
                "# The lines of Unicode's confusables.txt (UTS #39) whose source can occur in a",
                "# player's name after NFKC: letters, numbers, combining marks, '.', '-', '_' that",
                "# NFKD leaves unchanged. Written by kozel/server/names.py (write_table) from:",
                *header,
                "#",
                "# source ; prototype",
                *kept,
                "",
            ]
        ),
        "utf-8",
    )
    return len(kept)


def _in_names(char: str) -> bool:
    if unicodedata.normalize("NFKD", char) != char:
        return False  # a name is in NFKC: this character never reaches a skeleton
    return (
        char.isalpha()
        or char.isnumeric()
        or unicodedata.category(char).startswith("M")
        or char in "._-"
    )


if __name__ == "__main__":  # pragma: no cover - run by hand when Unicode's data changes
    print(f"{write_table(Path(sys.argv[1]))} lines written to {TABLE}")
