"""Every view says how a finished game ended (its ``outcome``), a resignation included."""

from __future__ import annotations

import numpy as np

import fof_env
from fof_env.app.session import GameSession
from fof_env.core.view import view_for


def _finished(name: str, seed: int):
    state = fof_env.make_game(name).new_initial_state(seed)
    rng = np.random.default_rng(seed)
    while not state.is_terminal:
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
    return state


def test_a_view_carries_the_outcome_once_the_game_is_over():
    state = fof_env.make_game("lost_and_found").new_initial_state(2)
    rview = view_for(state.game.name)
    assert rview.view(state, 0)["outcome"] is None and rview.umpire_view(state)["outcome"] is None
    state = _finished("lost_and_found", 2)
    for v in (rview.view(state, 0), rview.view(state, 1), rview.umpire_view(state)):
        assert v["outcome"] == state.outcome_dict()
        assert v["outcome"]["termination"] in ("turn limit", "auto victory", "air strike")
        assert (v["outcome"]["winner"], v["outcome"]["returns"]) == (v["result"]["winner"], v["result"]["returns"])


def test_a_resignation_is_the_outcome_of_the_sessions_views():
    session = GameSession(fof_env.make_game("strike_force_one").new_initial_state(0), {})
    assert session.view(0)["outcome"] is None
    session.resign("us")
    for player in (0, 1):
        assert session.view(player)["outcome"] == {"termination": "resignation", "winner": "soviet",
                                                   "returns": [1.0, -1.0]}  # fmt: skip
