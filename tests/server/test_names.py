"""Names that look like a taken name are refused, in any script and any case (UTS #39's
confusable skeleton); names of punctuation only are refused; older look-alikes keep their
accounts when the keys are added."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import text

from kozel.server.db import MIGRATIONS, make_engine, migrate
from kozel.server.names import prototypes
from tests.server.client import Player
from tests.server.conftest import RunningServer


def register(server: RunningServer, name: str) -> httpx.Response:
    return Player(server.url, server.ws).register(name)


@pytest.mark.parametrize(
    ("taken", "look_alike"),
    [
        ("axe", "ахе"),  # Cyrillic а, х, е
        ("coop", "соор"),  # Cyrillic с, о, о, р
        ("ABE", "ΑΒΕ"),  # Greek capitals
        ("abe", "ΑΒΕ"),  # ... of a name taken in small letters
        ("alice", "alıce"),  # a dotless ı
        ("alice", "aIice"),  # a capital I among small letters
        ("bob77", "ВОВ77"),  # Cyrillic capitals and digits
    ],
)
def test_a_look_alike_of_a_taken_name_is_refused(
    server: RunningServer, taken: str, look_alike: str
) -> None:
    assert register(server, taken).status_code == 200
    refused = register(server, look_alike)
    assert refused.status_code == 409, refused.text
    assert refused.json()["code"] == "name_taken"


def test_names_that_only_resemble_each_other_loosely_are_both_free(
    server: RunningServer,
) -> None:
    for name in ("Ilia", "Lila", "alike", "ivan", "Иван", "αβγ"):
        assert register(server, name).status_code == 200, name


@pytest.mark.parametrize("name", ["...", "-.-", "___", "._-"])
def test_a_name_of_punctuation_only_is_refused(server: RunningServer, name: str) -> None:
    refused = register(server, name)
    assert (refused.status_code, refused.json()["code"]) == (422, "bad_name")


def test_the_table_holds_only_characters_a_name_can_have() -> None:
    """The data file is Unicode's confusables cut to what can reach a skeleton of a name."""
    table = prototypes()
    assert 1500 < len(table) < 3000
    assert table["а"] == "a" and table["Β"] == "B" and table["ı"] == "i"
    assert "𝐚" not in table  # mathematical bold a: NFKC makes it a plain a first


def test_older_look_alikes_keep_their_accounts(tmp_path: Path) -> None:
    """0007 gives the keys out oldest account first: of two look-alikes registered before,
    both keep their accounts (the younger without the shared keys), and a third is refused."""

    async def scenario() -> list[Any]:
        engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'club.db'}")
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))

        def upgrade_to_0006(connection: Any) -> None:
            config.attributes["connection"] = connection
            command.upgrade(config, "0006")

        async with engine.begin() as conn:
            await conn.run_sync(upgrade_to_0006)
            for user, name, guest in ((1, "axe", 0), (2, "ахе", 0), (3, "guest-0a1b2c", 1)):
                await conn.execute(
                    text(
                        "INSERT INTO users (id, name, name_key, guest, rating, created_at)"
                        " VALUES (:id, :name, :name, :guest, 0, '2026-01-01')"
                    ),
                    {"id": user, "name": name, "guest": guest},
                )
        await migrate(engine)
        async with engine.connect() as conn:
            rows = await conn.execute(text("SELECT user_id, key FROM name_keys"))
            found = sorted(rows.all())
        await engine.dispose()
        return found

    keys = asyncio.run(scenario())
    assert {user for user, _ in keys} <= {1, 2}
    assert (1, "axe") in keys
    assert len({key for _, key in keys}) == len(keys)
