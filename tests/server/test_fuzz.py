"""Fuzzing the club: the HTTP API from its OpenAPI schema (schemathesis), the table WebSocket
with generated messages (hypothesis).

HTTP: every operation is called with generated (valid and invalid) data, anonymously and with a
signed-in session carrying its CSRF header; the server must never answer 500 and its answers
must match the schema it publishes. WebSocket: whatever a seated player sends, the connection
stays up, still answers ``ping`` with ``pong``, and the game does not change.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from schemathesis import Case
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
)
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from kozel.core import IllegalMove
from kozel.engine.errors import RecordError
from kozel.layout.notation import parse_move
from kozel.server.app import create_app
from kozel.server.settings import Settings
from tests.server.client import Player, http_get, http_post, receive
from tests.server.conftest import RunningServer

HTTP_EXAMPLES = 30
WS_EXAMPLES = 150


def conforms(ctx: Any, response: Any, case: Case[Any]) -> bool | None:
    """The response matches the published schema; a 422's ``detail`` is checked to be the
    club's message string (as the published schema says)."""
    if response.status_code == 422:
        body = response.json()
        assert isinstance(body, dict) and isinstance(body.get("detail"), str), body
        return True
    return response_schema_conformance(ctx, response, case)


CHECKS = [not_a_server_error, content_type_conformance, conforms]
ERROR_CODES = {"bad_json", "too_big", "unknown_type", "bad_move", "stale", "turn", "illegal"}


# --- a club for the whole module -------------------------------------------------------------


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """One running club for the module, on SQLite: fuzzing needs many calls, not many fresh
    servers (on PostgreSQL the file takes twice as long; the storage tests cover both)."""
    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('fuzz') / 'club.db'}"
    # one server for the whole module: its many guests, tables and sockets are not the
    # attack the limits stop
    running = RunningServer(
        Settings(
            db_url=url,
            min_seconds_per_move=1,
            bot_delay_ms=0,
            round_pause_seconds=0,
            seed_seconds=0,
            guests_per_minute=100_000,
            registrations_per_minute=100_000,
            requests_per_minute=100_000,
            sockets_per_address=100_000,
        )
    )
    try:
        yield running
    finally:
        running.stop()


class Session:
    """A signed-in guest (renewed when a fuzzed call logged it out)."""

    def __init__(self, club: RunningServer) -> None:
        self.club = club
        self.token = ""
        self.csrf = ""

    def ensure(self) -> tuple[str, str]:
        if self.token:
            me = http_get(f"{self.club.url}/api/me", cookies={"kozel_session": self.token})
            if me.status_code == 200:
                return self.token, self.csrf
        response = http_post(f"{self.club.url}/api/auth/guest")
        assert response.status_code == 200
        self.token, self.csrf = response.cookies["kozel_session"], response.json()["csrf"]
        return self.token, self.csrf


@pytest.fixture(scope="module")
def session(club: RunningServer) -> Session:
    return Session(club)


# The published schema does not depend on the database: read it without starting a club (and
# without schemathesis's fixture loader, which does not work with pytest 9).
schema = schemathesis.openapi.from_dict(create_app(Settings()).openapi())
fuzz = settings(
    max_examples=HTTP_EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)


# --- HTTP ------------------------------------------------------------------------------------


@schema.parametrize()
@fuzz
def test_http_anonymous(case: Case[Any], club: RunningServer) -> None:
    """Whatever anyone sends: never a 500, always an answer the schema allows."""
    case.call_and_validate(base_url=club.url, checks=CHECKS, timeout=30)


@schema.parametrize()
@fuzz
def test_http_signed_in(case: Case[Any], club: RunningServer, session: Session) -> None:
    """The same with a live session and its CSRF token, so the calls reach the club's logic."""
    token, csrf = session.ensure()
    case.cookies = {**(case.cookies or {}), "kozel_session": token}
    case.headers["x-csrf-token"] = csrf
    case.call_and_validate(base_url=club.url, checks=CHECKS, timeout=30)


def test_validation_errors_match_the_published_schema(club: RunningServer) -> None:
    published = http_get(f"{club.url}/openapi.json").json()
    answer_schema = published["paths"]["/api/games/{game_id}"]["get"]["responses"]["422"]
    ref = answer_schema["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    detail = published["components"]["schemas"][ref]["properties"]["detail"]
    answer = http_get(f"{club.url}/api/games/not-a-number")
    assert answer.status_code == 422
    assert detail["type"] == "string" and isinstance(answer.json()["detail"], str)


def test_ids_beyond_the_database_range_are_not_found(club: RunningServer) -> None:
    """A 64-bit-overflowing id is a client's mistake (404 or 422), never a 500."""
    paths = [
        "/api/games/2147483648",  # PostgreSQL's integer ends at 2**31 - 1
        "/api/games/99999999999999999999999",
        "/api/games/-9223372036854775809/record",
    ]
    for path in paths:
        assert http_get(club.url + path).status_code in (404, 422), path


# --- the table WebSocket -------------------------------------------------------------------------


class Seat:
    """A seated player's socket at a game against the computer, at its own turn."""

    def __init__(self, club: RunningServer) -> None:
        self.player = Player(club.url, club.ws)
        assert self.player.guest().status_code == 200
        game = self.player.post(
            "/api/play/computer", {"game": "donkey", "level": "random", "seconds_per_move": 600}
        ).json()
        self.game_id: int = game["game_id"]
        self.stack = contextlib.ExitStack()
        self.sock: ClientConnection = self.stack.enter_context(self.player.socket(self.game_id))
        state = receive(self.sock)
        while not (state["type"] == "state" and state.get("view", {}).get("legal_moves")):
            state = receive(self.sock)
        self.version: int = state["version"]
        self.legal: list[dict[str, Any]] = state["view"]["legal_moves"]

    def exchange(self, payload: str | bytes) -> list[dict[str, Any]]:
        """Send ``payload``, then a ping and a sync; the messages up to the sync's state."""
        self.sock.send(payload)
        self.sock.send(json.dumps({"type": "ping"}))
        self.sock.send(json.dumps({"type": "sync"}))
        got: list[dict[str, Any]] = []
        ponged = False
        while True:
            message = receive(self.sock, timeout=10)
            got.append(message)
            ponged = ponged or message["type"] == "pong"
            if ponged and message["type"] == "state":
                return got

    def check_unchanged(self, payload: str | bytes) -> list[dict[str, Any]]:
        got = self.exchange(payload)
        assert any(m["type"] == "pong" for m in got)
        assert got[-1]["version"] == self.version, "the game changed"
        for message in got:
            if message["type"] == "error":
                assert message["code"] in ERROR_CODES, message
                assert isinstance(message["message"], str) and message["message"]
        return got

    def close(self) -> None:
        self.stack.close()
        self.player.http.close()


@pytest.fixture(scope="module")
def seat(club: RunningServer) -> Iterator[Seat]:
    seated = Seat(club)
    try:
        yield seated
    finally:
        seated.close()


def _is_legal(move: object, legal: list[dict[str, Any]]) -> bool:
    """Whether the club would accept ``move`` (to keep the game unchanged, those are skipped)."""
    try:
        wanted = parse_move({**move, "seat": 0}, "move", 4)[1] if isinstance(move, dict) else None
    except (RecordError, IllegalMove, ValueError, TypeError):
        return False
    return any(parse_move({**m, "seat": 0}, "legal", 4)[1] == wanted for m in legal)


scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63)
    | st.floats(allow_nan=False)
    | st.text(max_size=30)
)
json_values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5)
    ),
    max_leaves=20,
)
tiles = st.builds(
    lambda a, b: f"{a}-{b}", st.integers(-1, 7), st.integers(-1, 7)
) | st.sampled_from(["6-6", "0-0", "5-2", "x", "", "1-1-1"])
arms = st.none() | st.integers(-3, 6) | st.sampled_from([2**70, -(2**70), "0", 1.0, True])
plays = st.fixed_dictionaries(
    {"play": tiles | json_values}, optional={"arm": arms, "close": st.booleans() | json_values}
)
doubles = st.fixed_dictionaries(
    {
        "doubles": st.lists(
            st.fixed_dictionaries({"tile": tiles}, optional={"arm": arms, "close": st.booleans()}),
            max_size=5,
        )
        | json_values
    }
)
moves = (
    plays
    | doubles
    | st.fixed_dictionaries({"draw": st.just(True) | tiles | json_values})
    | st.fixed_dictionaries({"knock": st.just(True) | json_values})
    | st.dictionaries(st.sampled_from(["play", "doubles", "draw", "knock", "arm"]), json_values)
    | json_values
)


def _would_move(text: str, seat: Seat) -> bool:
    """Whether ``text`` is a legal move at the current version (it would change the game)."""
    try:
        message = json.loads(text)
    except ValueError:
        return False
    return (
        isinstance(message, dict)
        and message.get("type") == "move"
        and type(message.get("version")) is int
        and message["version"] == seat.version
        and _is_legal(message.get("move"), seat.legal)
    )


@st.composite
def messages(draw: st.DrawFn, seat: Seat) -> str:
    kind = draw(st.sampled_from(["move", "json", "dict", "text", "big"]))
    if kind == "move":
        version = draw(st.just(seat.version) | st.integers(-5, 2**40) | json_values)
        body: dict[str, Any] = {"type": "move", "version": version, "move": draw(moves)}
        if draw(st.booleans()):
            extra = draw(st.dictionaries(st.text(max_size=8), json_values, max_size=3))
            body = {**body, **extra, "type": "move"}
        text = json.dumps(body)
    elif kind == "json":
        text = json.dumps(draw(json_values))
    elif kind == "dict":
        keys = st.just("type") | st.text(max_size=8)
        text = json.dumps(draw(st.dictionaries(keys, json_values, min_size=1)))
    elif kind == "text":
        text = draw(st.text(max_size=200))
        try:
            json.loads(text)
            assume(False)
        except ValueError:
            pass
    else:
        size = draw(st.integers(16_385, 30_000))  # at most 60 KB of UTF-8: under 64 KiB
        padded = json.dumps({"type": "ping", "pad": "é" * size}, ensure_ascii=False)
        text = draw(st.sampled_from([padded, "x" * size]))
    assume(not _would_move(text, seat))
    return text


@settings(
    max_examples=WS_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(data=st.data())
def test_websocket_survives_any_message(seat: Seat, data: st.DataObject) -> None:
    payload = data.draw(messages(seat), label="message")
    seat.check_unchanged(payload)


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ("{oops", "bad_json"),
        ("[1, 2]", "unknown_type"),
        ('"move"', "unknown_type"),
        ('{"type": "move"}', "bad_move"),
        ('{"type": "move", "version": true, "move": {"draw": true}}', "bad_move"),
        ('{"type": "move", "version": 0, "move": {"draw": true}}', "stale"),
        ("x" * 16_385, "too_big"),
    ],
)
def test_websocket_error_codes(seat: Seat, payload: str, code: str) -> None:
    got = seat.check_unchanged(payload)
    assert got[0] == {"type": "error", "code": code, "message": got[0]["message"]}
    if code == "stale":
        assert got[1]["type"] == "state" and got[1]["version"] == seat.version  # the resync


def test_websocket_illegal_move_at_the_current_version(seat: Seat) -> None:
    move = {"play": "6-6", "arm": 3, "close": True}
    assume_illegal = not _is_legal(move, seat.legal)
    assert assume_illegal
    got = seat.check_unchanged(json.dumps({"type": "move", "version": seat.version, "move": move}))
    assert got[0]["code"] == "illegal"


def test_websocket_frame_over_64_kib_closes_the_connection(club: RunningServer) -> None:
    other = Seat(club)
    try:
        other.sock.send("x" * 70_000)
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(100):
                receive(other.sock, timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    finally:
        other.close()


def test_websocket_survives_a_huge_integer(club: RunningServer) -> None:
    other = Seat(club)
    try:
        other.check_unchanged('{"type": "move", "version": ' + "9" * 5000 + ', "move": {}}')
    finally:
        other.close()


def test_websocket_survives_a_binary_frame(club: RunningServer) -> None:
    other = Seat(club)
    try:
        other.check_unchanged(b'{"type": "ping"}')
    finally:
        other.close()


def test_spectator_cannot_move_and_unknown_table(club: RunningServer, tmp_path: Path) -> None:
    seated = Seat(club)
    watcher = Player(club.url, club.ws)
    try:
        assert watcher.guest().status_code == 200
        with watcher.socket(seated.game_id) as sock:
            state = receive(sock)
            assert state["type"] == "state" and state["you"] is None
            move = {"type": "move", "version": state["version"], "move": seated.legal[0]}
            sock.send(json.dumps(move))
            while (message := receive(sock))["type"] != "error":
                pass
            assert message["code"] == "not_seated"
        with watcher.socket(10**9) as sock:
            assert receive(sock)["code"] == "no_table"
            with pytest.raises(ConnectionClosed):
                receive(sock, timeout=10)
    finally:
        seated.close()
        watcher.http.close()
