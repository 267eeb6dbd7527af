"""Gymnasium vector envs: masks in both autoreset modes, errors across processes."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
import torch
from gymnasium.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv

from fof_env.envs.gym_env import LearnerIllegalActionError
from tests.integrations.conftest import GAMES, IDS, LONGER, SIDES

N_ENVS = 3
STEPS = 80


def _make(game: str, side: str):
    # "fof_env:" imports fof_env in a spawned worker (TorchRL sets the "spawn" start method)
    return lambda: gym.make(f"fof_env:{IDS[game]}", side=side, opponent="random")


def _masked_sample(masks: np.ndarray, generator: torch.Generator) -> np.ndarray:
    """What a policy does: logits at -inf outside the mask (an all-False row crashes here)."""
    logits = torch.zeros(masks.shape).masked_fill(~torch.as_tensor(masks), float("-inf"))
    return torch.distributions.Categorical(logits=logits).sample().numpy()


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP], ids=["next", "same"])
@pytest.mark.parametrize("vector", [SyncVectorEnv, AsyncVectorEnv], ids=["sync", "async"])
@pytest.mark.parametrize("game", GAMES)
def test_masked_sampling_in_every_autoreset_mode(game, vector, mode):
    side = SIDES[game][0]
    envs = vector([_make(game, side) for _ in range(N_ENVS)], autoreset_mode=mode)
    generator = torch.Generator().manual_seed(0)
    try:
        _, infos = envs.reset(seed=0)
        ended = np.zeros(N_ENVS, dtype=bool)
        episodes = 0
        for _ in range(STEPS * LONGER.get(game, 1)):
            masks = infos["action_mask"]
            assert masks.any(axis=1).all(), "an all-False mask for a live sub-env"
            held = masks.copy()
            _, _, terminated, truncated, infos = envs.step(_masked_sample(masks, generator))
            if mode == AutoresetMode.NEXT_STEP:
                # the reset step (ignored action): its mask is the one the end reported
                for i in np.flatnonzero(ended):
                    assert np.array_equal(infos["action_mask"][i], held[i])
            else:
                for i in np.flatnonzero(terminated | truncated):
                    assert infos["_final_info"][i] and infos["final_info"]["decision"][i] == "terminal"
            ended = terminated | truncated
            episodes += int(ended.sum())
        assert episodes >= N_ENVS  # several episodes ended and restarted in each run
    finally:
        envs.close()


@pytest.mark.parametrize("game", GAMES)
def test_async_vector_env_reraises_illegal_actions_with_their_message(game):
    side = SIDES[game][0]
    envs = AsyncVectorEnv([_make(game, side) for _ in range(2)])
    try:
        _, infos = envs.reset(seed=0)
        illegal = np.array([int(np.flatnonzero(~m)[0]) for m in infos["action_mask"]])
        with pytest.raises(LearnerIllegalActionError, match=rf"illegal action {illegal[1]} .*legal: \[\d+=") as err:
            envs.step(illegal)
        assert "to decide" in str(err.value)
    finally:
        envs.close(terminate=True)
