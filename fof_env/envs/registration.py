"""Gymnasium ids for every registered game: ``fof_env/<Game>-v0``.

``import fof_env`` calls :func:`register_envs` (when gymnasium is installed), so::

    import fof_env, gymnasium as gym
    env = gym.make(env_id(name), side=1, **options)   # env_id(name) is "fof_env/<Game>-v0"

Without importing ``fof_env`` first, name the module in the id and gymnasium
imports it for you::

    gym.make("fof_env:fof_env/<Game>-v0")

(Gymnasium 1.x has no plugin entry points any more; the ``module:id`` form is
its supported way to register on demand.) Games registered later with
``fof_env.register_game`` get ids by calling :func:`register_envs` again.
"""

from __future__ import annotations

import gymnasium

from fof_env.core.registry import list_games
from fof_env.envs.support import game_support

NAMESPACE = "fof_env"
VERSION = 0
ENTRY_POINT = "fof_env.envs.gym_env:WargameEnv"


def env_id(game_name: str) -> str:
    """The Gymnasium id of ``game_name``: ``"a_game"`` -> ``"fof_env/AGame-v0"`` (or the name its ruleset gives it)."""
    return f"{NAMESPACE}/{game_support(game_name).env_name}-v{VERSION}"


def register_envs() -> list[str]:
    """Register an id for every game in ``fof_env.list_games()`` (idempotent); return the ids."""
    ids = []
    for name in list_games():
        gid = env_id(name)
        if gid not in gymnasium.registry:
            gymnasium.register(id=gid, entry_point=ENTRY_POINT, kwargs={"game": name})
        ids.append(gid)
    return ids
