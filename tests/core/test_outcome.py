"""Every finished game carries an Outcome: why it ended, who won, each side's result."""

from __future__ import annotations

import json

import numpy as np
import pytest

import fof_env
from fof_env.core.outcome import Outcome, Termination
from fof_env.core.registry import ruleset_of


def _random_game(name: str, seed: int, **options):
    state = fof_env.make_game(name, **options).new_initial_state(seed)
    rng = np.random.default_rng(seed)
    while not state.is_terminal:
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
    return state


def test_a_running_game_has_no_outcome():
    state = fof_env.make_game("strike_force_one").new_initial_state(0)
    assert state.outcome() is None and state.outcome_dict() is None


def test_strike_force_one_always_ends_at_the_turn_limit():
    """001_8616da5a6ffeaaf0.txt: "At the end of four complete turns, the Soviet Player has won if his units
    physically occupy at least two out of three of the Town hexes on the map. ... There are no tie-games." """
    for seed in range(4):
        state = _random_game("strike_force_one", seed)
        outcome = state.outcome()
        assert outcome == Outcome("turn limit", state.winner, state.returns()) and outcome.winner in (0, 1)
        assert state.turn == 4 and outcome.to_dict(state.game.player_names)["winner"] == state.result()["winner"]


@pytest.mark.parametrize("name", fof_env.list_games())
def test_every_games_termination_is_one_its_ruleset_declares(name):
    state = _random_game(name, 1)
    outcome = state.outcome()
    assert outcome.termination in ruleset_of(name).terminations
    assert (outcome.winner, outcome.returns) == (state.winner, tuple(state.returns()))
    assert json.loads(state.to_json())["final"]["outcome"] == outcome.to_dict(state.game.player_names)


def test_a_forfeit_is_a_loss_for_the_side_that_forfeits():
    assert Outcome.forfeit(1, Termination.RESIGNATION) == Outcome("resignation", 0, (1.0, -1.0))
    assert Outcome.forfeit(0, Termination.ILLEGAL_ACTION).to_dict(("a", "b")) == {
        "termination": "illegal action", "winner": "b", "returns": [-1.0, 1.0]}
