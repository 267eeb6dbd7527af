"""Gymnasium ids: registered by ``import fof_env``, or on demand with the ``module:id`` form."""

from __future__ import annotations

import subprocess
import sys

from fof_env.envs.registration import env_id, register_envs


def test_ids():
    assert env_id("strike_force_one") == "fof_env/StrikeForceOne-v0"
    assert env_id("lost_and_found") == "fof_env/LostAndFound-v0"
    ids = register_envs()  # idempotent
    assert "fof_env/StrikeForceOne-v0" in ids and "fof_env/LostAndFound-v0" in ids


def test_module_prefix_finds_the_id_without_importing_fof_env():
    code = (
        "import sys, gymnasium as gym\n"
        "assert 'fof_env/StrikeForceOne-v0' not in gym.registry\n"
        "env = gym.make('fof_env:fof_env/StrikeForceOne-v0', side='us')\n"
        "obs, info = env.reset(seed=0)\n"
        "assert obs.shape == env.observation_space.shape\n"
        "env = gym.make('fof_env:fof_env/LostAndFound-v0', side='usmc', rules='quick')\n"
        "obs, info = env.reset(seed=0)\n"
        "assert obs.shape == env.observation_space.shape == (2252,)\n"
        "assert 'pettingzoo' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
