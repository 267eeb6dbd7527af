"""The Agent protocol and the agent registry."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable


class DecisionStopped(RuntimeError):
    """An agent's ``act`` gave up because its ``stop`` event was set (a server's time limit ran out,
    or its client left): no action, and the state it was given is as it was."""


@runtime_checkable
class Agent(Protocol):
    """Plays one side of one game.

    ``act(state)`` returns one of ``state.legal_actions()`` for
    ``state.current_player == self.player``. Agents own a seeded RNG and never
    touch the state's dice. An agent whose decision may take long (a search) reads an optional
    ``stop`` attribute, a ``threading.Event``: once it is set, ``act`` raises
    :class:`DecisionStopped` within a few milliseconds.
    """

    player: int

    def act(self, state) -> int: ...


class RandomAgent:
    """Uniformly random among the legal actions (its own ``random.Random(seed)``)."""

    def __init__(self, game, player: int, seed: int | None = None):
        self.game = game
        self.player = player
        self.rng = random.Random(seed)

    def act(self, state) -> int:
        legal = state.legal_actions()
        return legal[self.rng.randrange(len(legal))]

    def __repr__(self) -> str:
        return "random"


# kind -> factory(game, player, seed, **kwargs); strings are "module:attr", imported lazily.
_AGENTS: dict[str, str | Callable[..., Agent]] = {
    "random": RandomAgent,
    "heuristic": "agents.heuristic:make_heuristic",
    "mcts": "agents.mcts:MCTSAgent",
    "ppo": "agents.ppo:PPOAgent",
}

# kind -> the keyword a bare spec argument fills: "mcts:200" is simulations=200,
# "ppo:runs/x/model.zip" is path="runs/x/model.zip".
_POSITIONAL: dict[str, str] = {"mcts": "simulations", "ppo": "path"}


def register_agent(kind: str, factory: str | Callable[..., Agent], positional: str | None = None) -> None:
    """Add (or replace) agent ``kind``; ``positional`` names the keyword of a bare spec argument."""
    _AGENTS[kind] = factory
    if positional is not None:
        _POSITIONAL[kind] = positional


def positional_keyword(kind: str) -> str | None:
    """The keyword a bare argument in the spec ``"kind:value"`` stands for (None: the kind takes none)."""
    return _POSITIONAL.get(kind)


def agent_kinds() -> list[str]:
    return sorted(_AGENTS)


def make_agent(kind: str, game, player: int | str, seed: int | None = None, **kwargs: Any) -> Agent:
    """Build an agent of ``kind`` playing ``player`` (index or side name) in ``game``."""
    try:
        factory = _AGENTS[kind]
    except KeyError:
        raise ValueError(f"unknown agent kind {kind!r}; kinds: {', '.join(agent_kinds())}") from None
    if isinstance(factory, str):
        module, _, attr = factory.partition(":")
        factory = getattr(importlib.import_module(module), attr)
    return factory(game, game.player_index(player), seed=seed, **kwargs)
