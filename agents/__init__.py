"""Agents that play any registered game: ``make_agent(kind, game, player, seed=...)``.

Kinds: ``random``; ``heuristic`` (per ruleset and side). Every agent chooses only
from ``state.legal_actions()`` and uses only what its player may know.
"""

import fof_env.compiled_guard  # noqa: F401 - first: a compiled build of agents runs only while fresh

# isort: split
from agents.base import Agent, make_agent, register_agent
from agents.specs import build_agent
from fof_env.envs.opponents import register_agent_factory

register_agent_factory(build_agent)  # the environments' opponents (and learner set-ups) named by a spec

__all__ = ["Agent", "make_agent", "register_agent"]
