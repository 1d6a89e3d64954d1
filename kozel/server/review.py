"""What the club shows of finished rounds and games beyond the record: each game's description
for the client, the public facts of a finished round, and every position of a finished game.

Everything here is computed by the engine (:mod:`kozel.games`, :mod:`kozel.match`,
:mod:`kozel.views`); the browser client only draws it.
"""

from __future__ import annotations

from typing import Any

from kozel.codec import event_to_dict, parse_move
from kozel.core import DOUBLE_OF, TILE_NAMES, Play, PlayDoubles, parse_tile, tiles_of
from kozel.games import get_game
from kozel.match import Match, RoundResult
from kozel.notation import round_sheet
from kozel.round import Deal
from kozel.rules import Ruleset
from kozel.scoring.race import RaceScoring
from kozel.scoring.sea_goat import last_turn_tiles
from kozel.views import view_for


def game_info(rules: Ruleset) -> dict[str, Any]:
    """One game as ``/api/rules`` lists it: what a client needs to offer and draw it."""
    return {
        "id": rules.id,
        "title": rules.title,
        "summary": rules.summary,
        "family": "goat" if rules.sheet_kind == "goat" else "race",
        "board": "cross" if rules.spinner else "line",
        "sheet": rules.sheet_kind,
        "closing": rules.closing,
        "multi_doubles": rules.multi_doubles,
        "options": [
            {
                "name": s.name,
                "kind": s.kind,
                "default": s.default,
                "choices": list(s.choices),
                "minimum": s.minimum,
                "maximum": s.maximum,
                "help": s.help,
            }
            for s in rules.option_specs
        ],
        "presets": {k: dict(v) for k, v in rules.presets.items()},
    }


def decided_by(result: RoundResult) -> str | None:
    """Why a round decided the game at once (Sea Goat): ``hundred_made``, ``hundred_failed``,
    ``bald_goat`` (out on 0-0) or ``six_six`` (out on 6-6 with a loser holding more than 25);
    ``None`` for a round that did not."""
    decides = result.decides
    if decides is None:
        return None
    rnd = result.round
    if rnd.hundred >= 0 and decides["seat"] == rnd.hundred:
        return "hundred_made" if decides["won"] else "hundred_failed"
    return "bald_goat" if DOUBLE_OF[0] in last_turn_tiles(rnd) else "six_six"


def round_facts(match: Match, result: RoundResult) -> dict[str, Any]:
    """A finished round's public sheet entry (as in the record) and what the client says of
    it, in numbers only (the table's messages name no tile but the hand's and the layout's):
    the seat that declared Sea Goat's ``hundred`` (or -1), why the round decided the game at
    once (``decided_by``, see :func:`decided_by`), and in the races the unit that won the
    hand (``winner``, ``null`` after a fish with a shared lowest count or a timeout) and the
    hand's ``credit`` before the game's opening rule."""
    out = round_sheet(result)
    out["hundred"] = result.round.hundred
    out["decided_by"] = decided_by(result)
    scoring = match.scoring
    if isinstance(scoring, RaceScoring):
        if result.end.kind == "timeout":
            out["winner"], out["credit"] = None, 0
        else:
            out["winner"], out["credit"] = scoring.hand_credit(result.round, list(result.counts))
    return out


def _laid(move: Any) -> list[str]:
    if isinstance(move, PlayDoubles):
        return [TILE_NAMES[p.tile] for p in move.plays]
    if isinstance(move, Play):
        return [TILE_NAMES[move.tile]]
    return []


def _position(match: Match, event: dict[str, Any] | None, laid: list[str]) -> dict[str, Any]:
    rnd = match.round
    layout = view_for(match, None).to_dict()["layout"]
    return {
        "move": event,
        "turn": None if rnd.over else rnd.turn,
        "hands": [[TILE_NAMES[t] for t in tiles_of(hand)] for hand in rnd.hands],
        "bazaar_left": rnd.bazaar_left,
        "reserve": rnd.reserve,
        "layout": layout,
        "laid": laid,
        "hundred": rnd.hundred,
    }


FACTS = ("hundred", "decided_by", "winner", "credit")


def positions(record: dict[str, Any]) -> dict[str, Any]:
    """Every position of every round of a finished game's record, as the engine computes it:
    position 0 is the deal, position ``k`` the table after the round's ``k``-th move (all
    hands, the bazaar's size, the layout with its arms, whose move it is, the tiles just laid).
    The record is the club's own (already checked when it was written); a record that does
    not replay raises ``kozel.notation.RecordError`` or ``kozel.core.IllegalMove``."""
    rules = get_game(record["game"])
    opts = rules.options(record["options"], complete=True)
    match = Match(rules, opts, record.get("seed"))
    rounds = []
    for i, raw in enumerate(record["rounds"], start=1):
        deal = Deal(
            tuple(tuple(parse_tile(t) for t in hand) for hand in raw["deal"]["hands"]),
            tuple(parse_tile(t) for t in raw["deal"]["bazaar"]),
        )
        rnd = match.next_round(deal, raw["redeals"])
        steps = [_position(match, None, [])]
        for j, raw_move in enumerate(raw["moves"], start=1):
            seat, move, drawn = parse_move(raw_move, f"round {i}, move {j}", opts.players)
            match.push(move)
            steps.append(_position(match, event_to_dict(seat, move, drawn), _laid(move)))
        end = raw["end"]
        if not rnd.over and end.get("kind") == "timeout":
            match.timeout(end["seat"])
        facts = round_facts(match, match.results[-1])
        rounds.append(
            {
                "leader": rnd.leader,
                **{k: v for k, v in facts.items() if k in FACTS},
                "positions": steps,
            }
        )
    return {"game": rules.id, "rounds": rounds}
