"""What the club shows of games beyond the record: each game's description for the client and
every position of a finished game.

Everything here is computed by the engine (:mod:`kozel.games`, :mod:`kozel.layout.match`,
:mod:`kozel.layout.views`); the browser client only draws it.
"""

from __future__ import annotations

from typing import Any

from kozel.core import DECLINE_HUNDRED, DRAW, TILE_NAMES, Play, PlayDoubles, tiles_of
from kozel.engine.game import Game
from kozel.layout.codec import event_to_dict, parse_move
from kozel.layout.match import Match
from kozel.layout.rules import Ruleset
from kozel.layout.views import view_for
from kozel.server.offer import club_game


def game_info(game: Game) -> dict[str, Any]:
    """One game as ``/api/rules`` lists it: what a client needs to offer and draw it (its
    table; a layout game also its board and how its rounds close)."""
    info: dict[str, Any] = {
        "id": game.id,
        "title": game.title,
        "summary": game.summary,
        "table": game.table,
        # the game's family by how it scores: "goat" (the loser collects), "race" (the winner
        # scores) or "chips" (Poker); one word each, so it is the sheet's kind
        "family": game.sheet_kind,
        "sheet": game.sheet_kind,
        "never_rated": bool(game.unrated_reason),
        # played in pairs whatever the options (Trumps): a record's options do not say so
        "pairs": game.options({}).teams and all(s.name != "teams" for s in game.option_specs),
        "options": [
            {
                "name": s.name,
                "kind": s.kind,
                "default": s.default,
                "choices": list(s.choices),
                "minimum": s.minimum,
                "maximum": s.maximum,
                "rated_minimum": s.rated_minimum,
                "rated_maximum": s.rated_maximum,
                "needs": [
                    {"value": value, "option": other, "required": required}
                    for value, other, required in s.needs
                ],
                "help": s.help,
                "label": s.label or s.name,
            }
            for s in game.option_specs
        ],
        "presets": {k: dict(v) for k, v in game.presets.items()},
    }
    if isinstance(game, Ruleset):
        info["board"] = "cross" if game.spinner else "line"
        # False: the tiles left after the deal are never drawn (there is no bazaar to show)
        info["draws"] = game.draws
        info["closing"] = game.closing
        info["multi_doubles"] = game.multi_doubles
        info["remembered"] = game.remembered_colour
    return info


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


FACTS = ("hundred", "decided_by", "hundred_lost", "winner", "credit")


def positions(record: dict[str, Any]) -> dict[str, Any]:
    """Every position of every round of a finished game's record, as the engine computes it:
    position 0 is the deal, position ``k`` the table after the round's ``k``-th move (all
    hands, the bazaar's size, the layout with its arms, whose move it is, the tiles just laid).
    The record is the club's own (already checked when it was written); a record that does
    not replay raises ``kozel.engine.errors.RecordError`` or ``kozel.core.IllegalMove``."""
    rules = club_game(record["game"])
    assert isinstance(rules, Ruleset), "only a layout game has positions (the caller checks)"
    opts = rules.options(record["options"], complete=True)
    match = Match(rules, opts, record.get("seed"))
    rounds = []
    for i, raw in enumerate(record["rounds"], start=1):
        deal = {**raw["deal"], "redeals": raw["redeals"], "lot": raw.get("lot")}
        if rules.places_by_lot:  # the record's places order is the lot for equal counts
            deal["place_lot"] = raw["end"].get("places")
        match.apply_deal(deal)
        rnd = match.round
        moves = [
            parse_move(m, f"round {i}, move {j}", opts.players)
            for j, m in enumerate(raw["moves"], 1)
        ]
        # a refused hundred is not in the record: the deal's position is the one it led to
        first_seat = moves[0][0] if moves else raw["end"].get("seat")
        if isinstance(first_seat, int) and rnd.declines(first_seat, moves[0][1] if moves else DRAW):
            match.push(DECLINE_HUNDRED)
        steps = [_position(match, None, [])]
        for seat, move, drawn in moves:
            match.push(move)
            steps.append(_position(match, event_to_dict(seat, move, drawn), _laid(move)))
        end = raw["end"]
        if not rnd.over and end.get("kind") == "timeout":
            match.timeout(end["seat"])
        facts = match.round_summaries(len(match.results) - 1)[0]
        rounds.append(
            {
                "leader": rnd.leader,
                **{k: v for k, v in facts.items() if k in FACTS},
                "positions": steps,
            }
        )
    return {"game": rules.id, "rounds": rounds}
