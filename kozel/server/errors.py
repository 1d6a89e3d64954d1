"""The refusal every service of the club raises: :class:`ClubError`."""

from __future__ import annotations


class ClubError(Exception):
    """A refusal with an HTTP status, a ``code`` naming the case with ``params`` to fill it
    in (clients word it in the player's language; docs/protocol.md lists the codes), and a
    message in English for API users and logs."""

    def __init__(self, status: int, code: str, message: str, **params: str | int) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.params = params
