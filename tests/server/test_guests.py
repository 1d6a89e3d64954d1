"""A guest's name is looked for on a reading connection, outside the transaction that
stores the guest (kozel/server/club/accounts.py): a name taken in between is not an error."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from kozel.server import auth
from kozel.server.club import Club
from kozel.server.settings import Settings


def test_a_guest_name_taken_between_the_look_and_the_insert_is_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> tuple[str, str, str]:
        club = Club(Settings(db_url=f"sqlite:///{tmp_path / 'club.db'}"))
        await club.start()
        try:
            first, _, _ = await club.accounts.guest("client")
            names = iter(["guest-000001", first.name, "guest-000002"])

            async def racing() -> str:  # the look saw the name free; another took it since
                return next(names)

            monkeypatch.setattr(club.accounts, "_free_guest_name", racing)
            second, _, _ = await club.accounts.guest("client")
            third, _, _ = await club.accounts.guest("client")
            return first.name, second.name, third.name
        finally:
            await club.stop()

    first, second, third = asyncio.run(scenario())
    assert first.startswith("guest-") and second == "guest-000001"
    assert third == "guest-000002"  # the taken name was tried, failed, and replaced


def test_the_look_for_a_free_guest_name_skips_taken_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> str:
        club = Club(Settings(db_url=f"sqlite:///{tmp_path / 'club.db'}"))
        await club.start()
        try:
            first, _, _ = await club.accounts.guest("client")
            names = iter([first.name, first.name, "guest-00000a"])
            monkeypatch.setattr(auth, "guest_name", lambda: next(names))
            second, _, _ = await club.accounts.guest("client")
            return second.name
        finally:
            await club.stop()

    assert asyncio.run(scenario()) == "guest-00000a"
