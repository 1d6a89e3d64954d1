"""The expert's inference: the real hands always explain greedy players' plays."""

from __future__ import annotations

import math

from kozel.layout.bots import make_bot
from kozel.layout.bots.inference import past_decisions
from kozel.layout.bots.kernel import GREEDY, _kernel, pack_model, pack_round
from kozel.layout.match import Match
from kozel.layout.views import view_for
from tests.randomplay import option_sets


def test_the_real_hands_explain_greedy_plays_and_other_hands_often_do_not() -> None:
    checked = unexplained = 0
    for index, (rules, opts) in enumerate(option_sets()):
        for seed in range(3):
            match = Match(rules, opts, seed)
            bots = [make_bot("greedy", seed + i) for i in range(opts.players)]
            for _ in range(2):
                if match.over:
                    break
                rnd = match.next_round()
                while not rnd.over:
                    moves = rnd.legal_moves()
                    view = view_for(match, rnd.turn)
                    decisions = past_decisions(view)
                    assert all(d[0] != rnd.turn for d in decisions)
                    if decisions:
                        model = pack_model(view, GREEDY, 0, GREEDY, 0)
                        hands = tuple(rnd.hands)
                        # the other seats' hands rotated: usually not what they played from
                        others = [s for s in range(opts.players) if s != rnd.turn]
                        swapped = list(hands)
                        for a, b in zip(others, others[1:] + others[:1], strict=True):
                            swapped[a] = hands[b]
                        real, wrong = _kernel.explain(
                            pack_round(rnd), model, decisions, [hands, tuple(swapped)], 0.0
                        )
                        assert all(x > -math.inf for x in real[::2]), (index, seed)
                        checked += 1
                        unexplained += any(x == -math.inf for x in wrong[::2])
                    match.push(moves[0] if len(moves) == 1 else bots[rnd.turn].choose(view))
    assert checked > 300
    assert unexplained > checked // 4
