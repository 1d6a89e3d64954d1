"""Every string in all four languages: the same keys, the same placeholders, and every key the
client's code asks for exists."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from kozel.games import ALL_GAMES
from kozel.layout.views import LEAD_REASONS
from kozel.server.offer import DRAWN_TABLES

PACKAGE = Path(__file__).resolve().parents[2] / "kozel"
WEB = PACKAGE / "web"
LANGUAGES = ("en", "ru", "bg", "uz")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
# keys the code builds from data: t(`error.${code}`) and the like
DYNAMIC = {
    "error": [
        *("bad_json", "too_big", "unknown_type", "not_seated", "bad_move", "over", "stale"),
        *("turn", "illegal", "no_table", "read_only"),
    ],
    "level": ["beginner", "amateur", "strong", "expert", "random", "greedy"],
    "level_help": [
        f"{table}{level}"
        for table in ("", "poker.", "tricks.")
        for level in ("beginner", "amateur", "strong", "expert")
    ],
    "judge.unit": ["points", "chips"],
    "bot.animal": [str(n) for n in range(12)],
    "status": ["playing", "finished", "interrupted"],
    "game": list(ALL_GAMES),
    "preset": [p for rules in ALL_GAMES.values() for p in rules.presets],
    "decides": ["hundred_made", "hundred_failed", "bald_goat", "six_six", "won", "lost"],
    # the view's lead reasons: the lot's with the lot's strings, the others' own
    "score": [why for why in LEAD_REASONS if why.startswith("lot_")],
    "lead": [why for why in LEAD_REASONS if not why.startswith("lot_")],
}


def strings(lang: str, part: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((WEB / "i18n" / lang / f"{part}.json").read_text("utf-8"))
    return data


# The plural forms (as Intl.PluralRules names them) each language's counted words take: a count
# string is a key per form, "table.tiles.one", "table.tiles.few"… (i18n.js's plural()); every
# language has "other", the one it falls back to. Uzbek nouns do not change after a number.
PLURAL_FORMS = {
    "en": {"one", "other"},
    "bg": {"one", "other"},
    "ru": {"one", "few", "many", "other"},
    "uz": {"other"},
}
FORM = re.compile(r"\.(zero|one|two|few|many|other)$")


def plural_bases(table: dict[str, str]) -> dict[str, set[str]]:
    """The count strings of a table: base key -> its forms."""
    bases: dict[str, set[str]] = {}
    for key in table:
        found = FORM.search(key)
        if found:
            bases.setdefault(key[: found.start()], set()).add(found.group(1))
    return bases


def unpluralized(table: dict[str, str]) -> list[str]:
    """The keys in order, each count string once (by its base key)."""
    keys: list[str] = []
    for key in table:
        base = FORM.sub("", key)
        if not keys or keys[-1] != base:
            keys.append(base)
    return keys


@pytest.mark.parametrize("part", ["ui", "options"])
@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_language_has_every_string(lang: str, part: str) -> None:
    english, other = strings("en", part), strings(lang, part)
    assert unpluralized(other) == unpluralized(english), f"{lang}/{part}.json: keys differ"
    for key, text in english.items():
        if FORM.search(key):
            continue
        assert other[key].strip(), f"{lang}: {key} is empty"
        assert set(PLACEHOLDER.findall(other[key])) == set(PLACEHOLDER.findall(text)), (
            f"{lang}: {key} has other placeholders than English"
        )
    english_counts = plural_bases(english)
    for base, forms in plural_bases(other).items():
        assert forms == PLURAL_FORMS[lang], f"{lang}: {base} has the forms {forms}"
        wanted = set(PLACEHOLDER.findall(english[f"{base}.other"]))
        for form in forms:
            text = other[f"{base}.{form}"]
            assert text.strip() and set(PLACEHOLDER.findall(text)) == wanted, (lang, base, form)
    assert set(english_counts) == set(plural_bases(other))


def test_english_count_strings_have_their_forms() -> None:
    for base, forms in plural_bases(strings("en", "ui")).items():
        assert forms == PLURAL_FORMS["en"], base
        assert "{n}" in strings("en", "ui")[f"{base}.other"], base


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_ending_is_glued_to_a_placeholder(lang: str) -> None:
    """A name or a number fills a placeholder as it is: an ending glued to it reads as part of
    it (Uzbek "{side}ga" made "Tulki · yaxshiga", the level "good" declined, and
    "guest-77d52fga")."""
    for part in ("ui", "options"):
        for key, text in strings(lang, part).items():
            assert not re.search(r"\}[^\W\d_]", text), f"{lang}: {key}: {text}"


# Russian past-tense verbs agree with their subject's sex ("объявил" / "объявила"), which the
# club does not know: a sentence about a named player says what happened with a noun or the
# present tense ("{name}: сотня объявлена", "Выход: {name}"). The verbs such sentences used.
MASCULINE_PAST = re.compile(
    r"\b(объявил|вышел|вытянул|выложил|закрыл|взял|выиграл|проиграл|сходил|попался|сдался|"
    r"спасовал|ушёл|вернулся|отключился|пропустил|сбросил|уравнял|повысил|добрал|предложил|"
    r"принял|отклонил|отказался|сыграл|набрал|заказал|назвал|занял)\b"
)


def test_russian_sentences_about_a_player_are_gender_neutral() -> None:
    for part in ("ui", "options"):
        for key, text in strings("ru", part).items():
            if re.search(r"\{(name|player|person|who|computer)\}", text):
                assert not MASCULINE_PAST.search(text), f"{key}: {text}"


def test_game_terms_are_each_languages_own_words() -> None:
    fish = {lang: strings(lang, "options")["term.fish"].lower() for lang in LANGUAGES}
    assert fish == {"en": "fish", "ru": "рыба", "bg": "риба", "uz": "baliq"}
    assert strings("ru", "options")["term.close_arm_question"] == "Закрыть направление?"


def raised_codes(exception: str) -> set[str]:
    """The codes the package raises ``exception`` with (or calls ``send_error`` with): its
    second argument, a string (a code built at run time is listed in ``BUILT_CODES``)."""
    codes = set()
    for source in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text("utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == exception
                and len(node.args) >= 2
            ):
                code = node.args[1]
                if isinstance(code, ast.Constant) and isinstance(code.value, str):
                    codes.add(code.value)
                elif isinstance(code, ast.JoinedStr):
                    codes.update(BUILT_CODES[ast.unparse(code)])
    return codes


BUILT_CODES = {"f'request_{request.status}'": {"request_started", "request_cancelled"}}


def test_every_error_the_server_gives_is_worded_by_the_client() -> None:
    """The server answers with codes; the client words them in the player's language
    (docs/protocol.md). An HTTP refusal (ClubError, or an option the engine refuses) is worded
    by ``error.<code>``, an illegal move's reason by ``error.illegal.<reason>``."""
    known = strings("en", "ui")
    http = raised_codes("ClubError") | raised_codes("InvalidOption")
    assert {"name_taken", "unavailable", "option_value", "option_needs_value"} <= http
    missing = sorted(f"error.{code}" for code in http if f"error.{code}" not in known)
    assert not missing, f"codes the client cannot word: {missing}"
    reasons = raised_codes("IllegalMove")
    assert {"not_held", "does_not_fit", "must_play"} <= reasons
    missing = sorted(
        f"error.illegal.{code}" for code in reasons if f"error.illegal.{code}" not in known
    )
    assert not missing, f"reasons the client cannot word: {missing}"
    sent = raised_codes("send_error")
    assert {"chat_watchers", "sign_in", "bad_json"} <= sent
    missing = sorted(f"error.{code}" for code in sent if f"error.{code}" not in known)
    assert not missing, f"socket errors the client cannot word: {missing}"
    # a table's refusals (a move, a vote for a computer player) travel as Reply(ok, code, ...)
    table = raised_codes("Reply")
    assert {"stale", "turn", "replace_seat", "replace_connected", "replaced"} <= table
    missing = sorted(f"error.{code}" for code in table if f"error.{code}" not in known)
    assert not missing, f"table errors the client cannot word: {missing}"
    # the refusals the app builds itself
    for code in ("foreign_origin", "length_required", "body_too_big", "bad_request", "bad_text"):
        assert f"error.{code}" in known, code
    for code in ("server_error", "sign_in", "csrf", "not_found"):
        assert f"error.{code}" in known, code


def test_every_key_the_code_uses_exists() -> None:
    known = strings("en", "ui") | strings("en", "options")
    used: set[str] = set()
    for source in (WEB / "static").glob("*.js"):
        code = source.read_text("utf-8")
        # a count string is asked for by its base key: its forms are checked above
        counted = re.findall(r"\bplural\(\s*[`\"]([^`\"]+)[`\"]", code)
        used.update(f"{key}.other" for key in counted)
        for key in re.findall(r"\bt\(\s*[`\"]([^`\"]+)[`\"]", code):
            if "${" not in key:
                used.add(key)
            else:
                prefix = key.split("${")[0].rstrip(".")
                if prefix in DYNAMIC:
                    used.update(f"{prefix}.{v}" for v in DYNAMIC[prefix])
                else:  # option.${name}... : checked against the options the server offers
                    assert prefix.startswith("option"), f"{source.name}: unchecked key {key}"
    missing = sorted(used - set(known))
    assert not missing, f"keys used by the client but missing in en: {missing}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_option_of_every_game_is_labelled_and_explained(lang: str) -> None:
    known = strings(lang, "options")
    for rules in ALL_GAMES.values():
        assert f"game.{rules.id}" in known and f"game.{rules.id}.summary" in known, rules.id
        if rules.sheet_kind == "goat":  # the loser has a name: the Goat, the Donkey
            assert f"game.{rules.id}.loser" in known, rules.id
        for spec in rules.option_specs:
            key = spec.label or spec.name  # Goat's hand_sizes is not Threes and Fives'
            assert f"option.{key}" in known and f"option.{key}.help" in known, key
            if spec.kind == "choice":
                for choice in spec.choices:
                    assert f"option.{key}.{choice}" in known, (key, choice)
        for preset in rules.presets:
            assert f"preset.{preset}" in known and f"preset.{preset}.help" in known


def test_the_new_games_have_their_names() -> None:
    names = {lang: strings(lang, "options") for lang in LANGUAGES}
    wanted = {
        "ru": ["Традиционное домино", "Блок", "Классический козёл до 300", "Морской козёл"],
        "bg": ["Традиционно домино", "Блок", "Класически козел до 300", "Морски козел"],
        "uz": ["Anʼanaviy domino", "Blok", "Klassik echki 300 gacha", "Dengiz echkisi"],
        "en": ["Draw", "Block", "Classic Kozel to 300", "Sea Goat"],
    }
    for lang, titles in wanted.items():
        got = [names[lang][f"game.{g}"] for g in ("draw", "block", "classic", "sea_goat")]
        assert got == titles, lang
    assert names["ru"]["term.hundred_question"] == "Объявить сотню?"


def test_the_client_names_no_game() -> None:
    """What a game is comes from /api/rules: no game id in the client's code (the kinds of
    table it draws, which /api/rules names for each game, are not games, though the poker
    table shares Poker's name)."""
    for source in (WEB / "static").glob("*.js"):
        code = source.read_text("utf-8")
        for game in set(ALL_GAMES) - DRAWN_TABLES:
            assert not re.search(rf"[\"'`/]{game}[\"'`]", code), f"{source.name} names {game}"


@pytest.mark.parametrize("game", list(ALL_GAMES))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_game_has_rules_in_every_language(game: str, lang: str) -> None:
    text = (WEB / "rules" / f"{game}.{lang}.html").read_text("utf-8")
    assert "<h2>" in text and "<script" not in text.lower()
    # the page says which games are rated: it names every rated bound of the game
    for spec in ALL_GAMES[game].option_specs:
        for bound in (spec.rated_minimum, spec.rated_maximum):
            if bound is not None:
                assert f"<strong>{bound}</strong>" in text, (game, lang, spec.name, bound)


@pytest.mark.parametrize("lang", ["ru", "bg"])
@pytest.mark.parametrize("game", list(ALL_GAMES))
def test_cyrillic_rules_pages_use_their_own_letters(game: str, lang: str) -> None:
    """The Russian and Bulgarian pages' text (their examples' names included: once Masha,
    Alex, Olya, Serg) is in Cyrillic: no Latin word outside the markup."""
    text = re.sub(r"<[^>]*>", " ", (WEB / "rules" / f"{game}.{lang}.html").read_text("utf-8"))
    assert re.findall(r"[A-Za-z]{2,}", text) == []
