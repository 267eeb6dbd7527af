"""The ``heuristic`` agent kind: one scripted bot per ruleset and side.

``make_heuristic(game, player, seed)`` builds the bot its ruleset names for the game (the
``heuristic`` hook of :class:`fof_env.core.ruleset.Ruleset` or of the game's own spec: an agents
module, part of that ruleset's plugin). A game without one raises a ``ValueError`` that names the
games that have one.
"""

from __future__ import annotations

from agents.base import Agent
from fof_env.core.registry import game_hook, game_specs, ruleset_of


def heuristic_games() -> list[str]:
    """Names of the games that have a heuristic bot."""
    return [spec.name for spec in game_specs() if has_heuristic(spec.name)]


def has_heuristic(game) -> bool:
    """Whether ``game`` (a game or its name) has a heuristic bot."""
    name = game if isinstance(game, str) else game.name
    ruleset = ruleset_of(name)
    return ruleset is not None and (ruleset.game(name).heuristic or ruleset.heuristic) is not None


def make_heuristic(game, player: int, seed: int | None = None, **kwargs) -> Agent:
    """The scripted heuristic bot of ``game`` for ``player`` (0/1), with a seeded RNG for tie-breaks.

    Keyword arguments (from an agent spec ``"heuristic:key=value"``) go to the game's factory.
    """
    factory = game_hook(game, "heuristic")
    if factory is None:
        raise ValueError(
            f"no heuristic agent for game {game.name!r}; games with one: {', '.join(heuristic_games())}"
        )
    return factory(game, player, seed=seed, **kwargs)
