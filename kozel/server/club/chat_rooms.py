"""Chat rooms: a line said (checked by :mod:`kozel.server.chat`, stored, sent to the room's
sockets in every process) and a room's last lines."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select

from kozel.server import auth, chat
from kozel.server.db import ChatMessage, User, now
from kozel.server.errors import ClubError

from .services import Services, aware


class ChatRooms:
    """The club's chat: the lobby's room and each table's."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.sessions = services.sessions
        self.chat_limit = auth.RateLimit(services.settings.chat_per_minute)

    async def say(self, user: User, room: str, text: object, channels: list[str]) -> None:
        """``user`` says ``text`` in ``room``: checked, stored, and sent on ``channels`` (the
        room's sockets in every process) as ``{"type": "chat", ...}``."""
        line = chat.clean(text)
        if line is None:
            raise ClubError(
                422,
                "chat_bad",
                f"a chat line is 1 to {chat.MAX_CHARS} characters",
                limit=chat.MAX_CHARS,
            )
        if not self.chat_limit.take(str(user.id)):
            raise ClubError(429, "chat_too_fast", "too many chat lines: wait a little")
        await self.services.available()
        async with self.sessions() as session, session.begin():
            row = ChatMessage(room=room, user_id=user.id, name=user.name, text=line, at=now())
            session.add(row)
        message = json.dumps({"type": "chat", **chat_json(row)})
        await self.services.pubsub.publish_many([(channel, message) for channel in channels])

    async def history(self, room: str) -> list[dict[str, Any]]:
        """The room's last lines, oldest first."""
        async with self.sessions() as session:
            rows = await session.scalars(
                select(ChatMessage)
                .where(ChatMessage.room == room)
                .order_by(ChatMessage.id.desc())
                .limit(chat.HISTORY)
            )
            return [chat_json(row) for row in reversed(list(rows))]


def chat_json(row: ChatMessage) -> dict[str, Any]:
    return {
        "room": row.room,
        "id": row.id,
        "name": row.name,
        "text": row.text,
        "at": aware(row.at).isoformat(),
    }
