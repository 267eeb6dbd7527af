"""FUBAR through the Gymnasium and PettingZoo adapters: ids, masks, checkers, rendering, rewards."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import fof_env
from fof_env.envs.aec_env import env as aec_env
from fof_env.envs.gym_env import WargameEnv
from fof_env.envs.registration import env_id
from fof_env.fubar.potential import potential as fubar_potential

GAMES = {"fubar_lost_and_found": ("taliban", "usmc"), "fubar_village_patrol": ("patrol", "insurgents")}


def test_every_fubar_game_has_a_gymnasium_id():
    ids = {g: env_id(g) for g in ("fubar", "fubar_lost_and_found", "fubar_village_patrol")}
    assert ids == {"fubar": "fof_env/Fubar-v0", "fubar_lost_and_found": "fof_env/FubarLostAndFound-v0",
                   "fubar_village_patrol": "fof_env/FubarVillagePatrol-v0"}  # fmt: skip
    for gid in ids.values():
        assert gid in gym.registry


@pytest.mark.parametrize(("game", "side"), [(g, s) for g, sides in GAMES.items() for s in sides])
def test_check_env(game, side):
    env = WargameEnv(game, side=side, illegal_action="loss", render_mode="rgb_array")
    check_env(env.unwrapped)


@pytest.mark.parametrize("game", list(GAMES))
def test_pettingzoo_api_and_seed(game):
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*agents to be named.*")
        api_test(aec_env(game=game), num_cycles=300)
        seed_test(lambda: aec_env(game=game), num_cycles=200)


@pytest.mark.parametrize("game", list(GAMES))
def test_masks_equal_the_engine_and_the_result_reaches_the_learner(game):
    side = GAMES[game][1]
    env = gym.make(env_id(game), side=side, opponent="heuristic", reward="shaped")
    rng = np.random.default_rng(1)
    obs, info = env.reset(seed=3)
    total = 0.0
    for _ in range(2000):
        mask = env.unwrapped.action_masks()
        state = env.unwrapped.game_state
        assert (mask == state.legal_mask()).all() and (mask == info["action_mask"]).all()
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        total += reward
        if terminated or truncated:
            break
    assert terminated and info["winner"] in (*GAMES[game], None)
    assert env.observation_space.contains(obs)


def test_shaping_potential_counts_the_vp_lead_and_the_rescue():
    """``fubar_potential``: 0.3 x clip(VP lead / 20) (+ 0.2 x the pilot's progress for his side)."""
    g = fof_env.make_game("fubar_lost_and_found")
    units = {"usmc.A": {"at": "x03y17", "figures": ["casualty", "ok", "ok", "ok"]}, "tal.1": {"at": "x19y11"}}
    s = g.state_from_position({"stage": "activation", "units": units, "pilot": {"with": "usmc.A"}})
    assert s.victory_points() == (1, 3)
    assert fubar_potential(s, 0) == pytest.approx(0.3 * -2 / 20)
    # with the pilot 3" from the West edge: 0.5 + 0.5 x (1 - 3/36)
    assert fubar_potential(s, 1) == pytest.approx(0.3 * 2 / 20 + 0.2 * (0.5 + 0.5 * (1 - 3 / 36)))
