"""The RLlib adapter's key renaming, without Ray (``make test-rllib`` trains with it)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test

from fof_env.envs.aec_env import env
from fof_env.envs.rllib import RLlibObservationKeys
from tests.integrations.conftest import GAMES


@pytest.mark.parametrize("game", GAMES)
def test_rllib_observation_keys(game):
    wrapped = RLlibObservationKeys(env(game=game, illegal_action="loss"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(wrapped, num_cycles=50)
    plain = env(game=game)
    wrapped.reset(seed=2)
    plain.reset(seed=2)
    for agent in plain.possible_agents:
        obs, expected = wrapped.observe(agent), plain.observe(agent)
        assert set(obs) == {"observations", "action_mask"} == set(wrapped.observation_space(agent).spaces)
        assert np.array_equal(obs["observations"], expected["observation"])
        assert obs["action_mask"].dtype == np.int8 and np.array_equal(obs["action_mask"], expected["action_mask"])
        assert wrapped.observation_space(agent).contains(obs)
    assert wrapped.observe(wrapped.agent_selection)["action_mask"].any()
