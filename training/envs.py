"""Training environments: one side (a :class:`WargameEnv`) or both sides of a game.

:class:`TwoSidedEnv` trains one policy for both sides of an asymmetric game: each
episode it plays one side, drawn from its ``np_random``, and appends the side as a
one-hot pair to the observation (:func:`agents.ppo.side_features`), so one network
learns both roles and its snapshots can be its own opponent (``self``).

:func:`env_factory` returns picklable constructors for ``SubprocVecEnv``; every
env keeps ``action_masks()`` on itself (what MaskablePPO calls through
``env_method``).
"""

from __future__ import annotations

import functools
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from agents.ppo import BOTH_SIDES, side_features
from fof_env.envs.gym_env import WargameEnv
from training.opponents import OpponentPool


class TwoSidedEnv(gym.Env):
    """Both sides of ``game``: each episode the learner plays a side drawn at random.

    Spaces: the game's action space; the observation of the side played followed by
    its one-hot (two entries). ``info["side"]`` names the side of the episode.
    ``envs[p]`` is the :class:`WargameEnv` of side ``p``.
    """

    metadata = {"render_modes": []}

    def __init__(self, envs: tuple[WargameEnv, WargameEnv]):
        self.envs = envs
        inner = envs[0].observation_space
        low = np.concatenate([inner.low, np.zeros(2, np.float32)])
        high = np.concatenate([inner.high, np.ones(2, np.float32)])
        self.observation_space = spaces.Box(low, high, dtype=np.float32)
        self.action_space = envs[0].action_space
        self.player = 0

    def _obs(self, obs: np.ndarray) -> np.ndarray:
        return np.concatenate([obs, side_features(self.player)])

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        self.player = int(self.np_random.integers(2))
        obs, info = self.envs[self.player].reset(seed=int(self.np_random.integers(2**62)), options=options)
        info["side"] = self.envs[self.player].side
        return self._obs(obs), info

    def step(self, action):
        obs, reward, terminated, truncated, info = self.envs[self.player].step(action)
        info["side"] = self.envs[self.player].side
        return self._obs(obs), reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self.envs[self.player].action_masks()


def build_env(game_name: str, side: str, options: dict[str, Any], pool: list[tuple[str, float]],
              reward: str, checkpoint_dir: str | None, learner_setup: str | None = None) -> gym.Env:
    """One training env: ``side`` (a side name or ``"both"``) against the opponent pool;
    ``learner_setup`` plays the learner's unseen placements (:class:`WargameEnv`'s)."""
    from fof_env.core.registry import make_game

    game = make_game(game_name, **options)

    def one_side(player: int) -> WargameEnv:
        opponents = OpponentPool(game, 1 - player, pool, checkpoint_dir)
        return WargameEnv(game, side=player, opponent=opponents, reward=reward, learner_setup=learner_setup)

    if side == BOTH_SIDES:
        return TwoSidedEnv((one_side(0), one_side(1)))
    return one_side(game.player_index(side))


def env_factory(*args: Any) -> functools.partial:
    """A picklable no-argument constructor of :func:`build_env` (for ``SubprocVecEnv``)."""
    return functools.partial(build_env, *args)


def in_one_thread(make: functools.partial) -> gym.Env:
    """Build an env in a ``SubprocVecEnv`` worker limited to one torch thread: the worker only steps
    the env (and a ``ppo`` opponent's small network), so more threads would only compete for cores."""
    import torch

    torch.set_num_threads(1)
    return make()
