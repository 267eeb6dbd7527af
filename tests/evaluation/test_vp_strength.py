"""``python -m evaluation.vp_strength``: W/D/L, VP and how the games ended, for any game with VP."""

from __future__ import annotations

from collections import Counter

import numpy as np

import fof_env
from agents.base import make_agent
from evaluation import vp_strength


def test_the_endings_are_the_games_outcomes_in_the_specs_words():
    game = fof_env.make_game("lost_and_found", rules="quick")
    (tally,) = vp_strength.run(game, 3, seed=5, pairings=(("random", "random"),))
    words = {"turn limit": "turn 9 ended", "air strike": "the pilot's air strike called in",
             "auto victory": "the pilot still on the table at the end of turn 8"}  # fmt: skip
    expected = Counter()
    for seed in range(5, 8):  # the same games, played again: the same agents seeded alike
        state = game.new_initial_state(seed)
        bots = [make_agent("random", game, p, seed=seed * 2 + p) for p in (0, 1)]
        while not state.is_terminal:
            state.apply(bots[state.current_player].act(state))
        expected[words[state.outcome().termination]] += 1
        assert state.victory_points()[0] in tally.vp[0]
    assert tally.endings == expected and tally.games == 3 and sum(tally.wins) + tally.draws == 3


def test_the_command_prints_every_pairing_with_the_games_side_names(capsys):
    assert vp_strength.main(["--game", "fubar_village_patrol", "--games", "1", "--pairings", "heuristic-random"]) == 0
    out = capsys.readouterr().out
    names = fof_env.make_game("fubar_village_patrol").player_names
    assert "| heuristic | random | 1 |" in out and f"* heuristic {names[0]} vs random {names[1]}: " in out
    assert np.isfinite(float(out.rsplit("in ", 1)[1].split(" s)")[0]))
