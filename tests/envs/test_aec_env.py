"""The PettingZoo AEC adapter."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from fof_env.core.errors import IllegalActionError, OptionError
from fof_env.envs.aec_env import WargameAECEnv, env, raw_env
from tests.envs.conftest import GAME, SIDES


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        # api_test recommends agent names like "player_0"; ours are the side names.
        warnings.filterwarnings("ignore", message=".*agents to be named.*")
        yield


@pytest.mark.parametrize("kwargs", [{}, {"optional_rules": True, "reward": "shaped", "auto_single": True}])
def test_api_test(kwargs):
    api_test(env(game=GAME, **kwargs), num_cycles=1000)


def test_api_test_raw():
    api_test(raw_env(game=GAME), num_cycles=200)


@pytest.mark.parametrize("optional_rules", [False, True])
def test_seed_test(optional_rules):
    seed_test(lambda: env(game=GAME, optional_rules=optional_rules), num_cycles=500)


@pytest.mark.parametrize("auto_single", [False, True])
def test_agent_selection_follows_the_engine(auto_single):
    e = WargameAECEnv(GAME, auto_single=auto_single)
    rng = np.random.default_rng(0)
    assert e.possible_agents == list(SIDES)
    for seed in range(4):
        e.reset(seed=seed)
        runs = same = 0
        previous = None
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, info = e.last()
            if terminated or truncated:
                assert info["winner"] in SIDES
                assert reward == pytest.approx(info["returns"][SIDES.index(agent)])
                e.step(None)
                continue
            state = e.game_state
            assert SIDES[state.current_player] == agent
            assert np.array_equal(obs["action_mask"].astype(bool), state.legal_mask())
            assert np.array_equal(obs["observation"], state.observation(SIDES.index(agent)))
            other = e.observe(SIDES[1 - SIDES.index(agent)])
            assert not other["action_mask"].any()
            if auto_single:
                assert obs["action_mask"].sum() > 1
            same += agent == previous
            runs += 1
            previous = agent
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert e.agents == []
        assert same > runs / 2  # turns do not alternate: most decisions follow one by the same side


def test_illegal_action_raises_state_unchanged():
    e = WargameAECEnv(GAME)
    e.reset(seed=0)
    record = e.game_state.to_json()
    with pytest.raises(IllegalActionError, match="select_unit .soviet to decide.*78=pass"):
        e.step(0)
    assert e.game_state.to_json() == record


def test_unknown_option():
    with pytest.raises(OptionError, match="bogus"):
        WargameAECEnv(GAME, bogus=True)


def test_render_modes():
    e = WargameAECEnv(GAME, render_mode="ansi")
    e.reset(seed=0)
    assert "0101" in e.render()
    e = WargameAECEnv(GAME, render_mode="rgb_array")
    e.reset(seed=0)
    image = e.render()
    assert image.ndim == 3 and image.shape[2] == 3 and image.dtype == np.uint8
