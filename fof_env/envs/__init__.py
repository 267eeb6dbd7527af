"""Environment adapters: Gymnasium (one learner vs an opponent) and PettingZoo AEC (both sides).

Ruleset-agnostic: they work for every game of ``fof_env.list_games()``. Names are
imported lazily so that ``import fof_env`` (which registers the Gymnasium ids)
does not import PettingZoo, the agents or a renderer.

* :class:`~fof_env.envs.gym_env.WargameEnv`, :class:`~fof_env.envs.gym_env.IllegalActionLoss`
* :class:`~fof_env.envs.aec_env.WargameAECEnv`, :func:`~fof_env.envs.aec_env.env`, ``raw_env``
* :func:`~fof_env.envs.registration.register_envs`, :func:`~fof_env.envs.registration.env_id`
* :func:`~fof_env.envs.support.register_game_support` (bounds, shaping, renderer per game)
* :class:`~fof_env.envs.rllib.RLlibObservationKeys`, :func:`~fof_env.envs.rllib.rllib_env` (RLlib)
* :mod:`fof_env.envs.infos` (``infos="full"`` / ``"minimal"``)
* :class:`~fof_env.envs._common.TorchThreadsWarning`: warned once at a reset when torch runs on several
  threads (small policies crawl; ``torch.set_num_threads(1)``)
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "WargameEnv": "fof_env.envs.gym_env",
    "IllegalActionLoss": "fof_env.envs.gym_env",
    "LearnerIllegalActionError": "fof_env.envs.gym_env",
    "TorchThreadsWarning": "fof_env.envs._common",
    "WargameAECEnv": "fof_env.envs.aec_env",
    "env": "fof_env.envs.aec_env",
    "raw_env": "fof_env.envs.aec_env",
    "register_envs": "fof_env.envs.registration",
    "env_id": "fof_env.envs.registration",
    "GameSupport": "fof_env.envs.support",
    "register_game_support": "fof_env.envs.support",
    "RLlibObservationKeys": "fof_env.envs.rllib",
    "rllib_env": "fof_env.envs.rllib",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    try:
        module = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'fof_env.envs' has no attribute {name!r}") from None
    return getattr(importlib.import_module(module), name)
