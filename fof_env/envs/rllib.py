"""RLlib adapter: the AEC env as RLlib's action-masking RLModule expects it.

RLlib's ``ActionMaskingTorchRLModule`` (``ray.rllib.examples.rl_modules.classes``) reads a
``Dict`` observation with the keys ``"observations"`` and ``"action_mask"``; our AEC env says
``"observation"``. RLlib's env checker also steps unmasked random actions, so the env is built
with ``illegal_action="loss"`` (an illegal action ends the game as a loss for whoever played
it) unless you pass ``illegal_action`` yourself::

    from ray.tune.registry import register_env
    from fof_env.envs.rllib import rllib_env

    register_env("fof", lambda config: rllib_env(**config))   # config: {"game": name, ...options}

:class:`RLlibObservationKeys` (the renaming, a PettingZoo wrapper) needs no Ray; only
:func:`rllib_env` imports ``ray.rllib``. ``docs/examples/rllib_ppo.py`` is a whole PPO config.
"""

from __future__ import annotations

from typing import Any

from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import BaseWrapper

from fof_env.envs.aec_env import env as aec_env

OBSERVATIONS = "observations"
ACTION_MASK = "action_mask"


class RLlibObservationKeys(BaseWrapper):
    """An AEC env whose observations are ``{"observations": ..., "action_mask": ...}``: the
    wrapped env's ``"observation"`` renamed, the mask unchanged (``int8`` 0/1, PettingZoo's
    convention; RLlib's module takes its log, which torch computes in float). Everything else
    passes through."""

    def __init__(self, env: AECEnv):
        super().__init__(env)
        self._spaces: dict[str, spaces.Dict] = {}
        for agent in env.possible_agents:
            inner = env.observation_space(agent)
            self._spaces[agent] = spaces.Dict({OBSERVATIONS: inner["observation"], ACTION_MASK: inner[ACTION_MASK]})

    def observation_space(self, agent: str) -> spaces.Space:
        return self._spaces[agent]

    def observe(self, agent: str) -> dict[str, Any]:
        obs = super().observe(agent)
        return {OBSERVATIONS: obs["observation"], ACTION_MASK: obs[ACTION_MASK]}


def rllib_env(**kwargs: Any):
    """``PettingZooEnv(RLlibObservationKeys(env(**kwargs)))`` with ``illegal_action="loss"``
    unless ``kwargs`` says otherwise (keyword arguments: those of
    :class:`~fof_env.envs.aec_env.WargameAECEnv`). Imports ``ray.rllib``."""
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    kwargs.setdefault("illegal_action", "loss")
    return PettingZooEnv(RLlibObservationKeys(aec_env(**kwargs)))
