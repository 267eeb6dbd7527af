"""The agents that play the single-agent env's opponent when it is named by a spec (``"heuristic"``,
``"random"``, ``"mcts:200"`` ...).

The agents live a floor above the environments, so the environments never import them: the agents
package offers its ``build_agent(spec, game, player, seed=...)`` (:mod:`agents.specs`) as the ``fof_env.agents`` entry point
of this distribution (``pyproject.toml``) and registers it here when imported
(:func:`register_agent_factory`), the way a plugin registers itself. :func:`make_opponent` finds it
either way.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import EntryPoint, distributions
from typing import Any

ENTRY_POINT_GROUP = "fof_env.agents"

AgentFactory = Callable[..., Any]  # (spec, game, player, seed=...) -> an agent with act(state)

_factory: AgentFactory | None = None


def register_agent_factory(factory: AgentFactory) -> None:
    """Make ``factory(spec, game, player, seed=...)`` build the opponents named by a spec."""
    global _factory
    _factory = factory


def agent_factory() -> AgentFactory:
    """The registered agent factory, else the one a ``fof_env.agents`` entry point names (looked up in
    every installed distribution's metadata: a stale ``*.egg-info`` of a source checkout may shadow the
    installed one)."""
    if _factory is None:
        for point in _entry_points():
            register_agent_factory(point.load())
            break
    if _factory is None:
        raise LookupError(
            f"no agents to play an opponent named by a spec: install the package (its {ENTRY_POINT_GROUP!r} "
            "entry point) or import agents first, or pass an agent object"
        )
    return _factory


def _entry_points() -> list[EntryPoint]:
    return [p for dist in distributions() for p in dist.entry_points if p.group == ENTRY_POINT_GROUP]


def make_opponent(spec: str, game, player: int, seed: int | None) -> Any:
    """The agent ``spec`` names, for ``player`` of ``game``, seeded with ``seed``."""
    return agent_factory()(spec, game, player, seed=seed)
