"""Agents that play any registered game: ``make_agent(kind, game, player, seed=...)``.

Kinds: ``random``; ``heuristic`` (per ruleset and side). Every agent chooses only
from ``state.legal_actions()`` and uses only what its player may know.
"""

from agents.base import Agent, make_agent, register_agent

__all__ = ["Agent", "make_agent", "register_agent"]
