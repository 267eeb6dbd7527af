"""Wargame rules engines as game-AI environments.

Public entry points::

    import fof_env
    name = fof_env.list_games()[0]
    game = fof_env.make_game(name)            # options: make_game(name, **options)
    state = game.new_initial_state(seed=1)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])

``fof_env.list_games()`` names every game of every registered ruleset (each rules package declares
its :class:`~fof_env.core.ruleset.Ruleset`). Importing ``fof_env`` also registers the Gymnasium ids
``fof_env/<Game>-v0`` when gymnasium is installed; see ``fof_env.envs``.
"""

import fof_env.compiled_guard  # noqa: F401 - first: its guard lets a compiled build run only while it is fresh
from fof_env.core.dice import ScriptedDice, SeededDice
from fof_env.core.errors import IllegalActionError, PositionError
from fof_env.core.registry import list_games, make_game, register_game

__all__ = [
    "IllegalActionError",
    "PositionError",
    "ScriptedDice",
    "SeededDice",
    "list_games",
    "make_game",
    "register_game",
]


try:  # Gymnasium ids; the rules engines themselves never import gymnasium.
    from fof_env.envs.registration import register_envs as _register_envs
except ModuleNotFoundError as _exc:  # pragma: no cover - gymnasium not installed
    if _exc.name != "gymnasium":
        raise
else:
    _register_envs()
