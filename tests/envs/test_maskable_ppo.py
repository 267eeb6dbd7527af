"""MaskablePPO (sb3-contrib) trains on the env and, given the mask, only plays legal actions."""

from __future__ import annotations

import pytest

pytest.importorskip("sb3_contrib")

import torch  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402

from fof_env.envs.gym_env import WargameEnv  # noqa: E402
from tests.envs.conftest import GAME, LAF  # noqa: E402


def test_maskable_ppo_smoke():
    torch.set_num_threads(1)
    env = WargameEnv(GAME, side="soviet", opponent="random", reward="shaped")
    model = MaskablePPO("MlpPolicy", env, n_steps=256, batch_size=64, seed=0, verbose=0)
    model.learn(total_timesteps=2048)
    assert model.num_timesteps >= 2048
    chosen = 0
    for episode in range(20):
        obs, info = env.reset(seed=1000 + episode)
        done = False
        while not done:
            mask = env.action_masks()
            action, _ = model.predict(obs, action_masks=mask, deterministic=episode % 2 == 0)
            assert mask[int(action)], f"illegal action {action} chosen"
            obs, reward, terminated, truncated, info = env.step(action)
            chosen += 1
            done = terminated or truncated
    assert chosen > 20


@pytest.mark.parametrize("side", ["taliban", "usmc"])
def test_maskable_ppo_smoke_lost_and_found(side):
    torch.set_num_threads(1)
    env = WargameEnv(LAF, side=side, opponent="random", reward="shaped")
    model = MaskablePPO("MlpPolicy", env, n_steps=256, batch_size=64, n_epochs=2, seed=0, verbose=0)
    model.learn(total_timesteps=1024)
    assert model.num_timesteps >= 1024
    chosen = 0
    for episode in range(20):
        obs, info = env.reset(seed=2000 + episode)
        done = False
        while not done:
            mask = env.action_masks()
            action, _ = model.predict(obs, action_masks=mask, deterministic=episode % 2 == 0)
            assert mask[int(action)], f"illegal action {action} chosen in {env.game_state.decision_kind}"
            obs, reward, terminated, truncated, info = env.step(action)
            chosen += 1
            done = terminated or truncated
        assert terminated and not truncated
    assert chosen > 20
