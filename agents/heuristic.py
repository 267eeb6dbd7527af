"""The ``heuristic`` agent kind: one scripted bot per ruleset and side.

``make_heuristic(game, player, seed)`` looks up ``game.name`` and builds that
ruleset's heuristic for ``player``. Rulesets without one raise a ``ValueError``
that names the games that have one.
"""

from __future__ import annotations

import importlib

from agents.base import Agent

# game name -> "module:factory(game, player, seed)"; imported lazily.
_HEURISTICS: dict[str, str] = {
    "strike_force_one": "agents.strike_force_one_heuristic:make_strike_force_one_heuristic",
    "lost_and_found": "agents.lost_and_found_heuristic:make_lost_and_found_heuristic",
    "compound_raid": "agents.force_on_force_heuristic:make_force_on_force_heuristic",
    "wwii_hedgerow_hamlet": "agents.force_on_force_heuristic:make_force_on_force_heuristic",
    "force_on_force": "agents.force_on_force_heuristic:make_force_on_force_heuristic",
    "fubar": "agents.fubar_heuristic:make_fubar_heuristic",
    "fubar_lost_and_found": "agents.fubar_heuristic:make_fubar_heuristic",
    "fubar_village_patrol": "agents.fubar_heuristic:make_fubar_heuristic",
}


def heuristic_games() -> list[str]:
    """Names of the games that have a heuristic bot."""
    return sorted(_HEURISTICS)


def make_heuristic(game, player: int, seed: int | None = None, **kwargs) -> Agent:
    """The scripted heuristic bot of ``game`` for ``player`` (0/1), with a seeded RNG for tie-breaks.

    Keyword arguments (from an agent spec ``"heuristic:key=value"``) go to the game's factory.
    """
    try:
        target = _HEURISTICS[game.name]
    except KeyError:
        raise ValueError(
            f"no heuristic agent for game {game.name!r}; games with one: {', '.join(heuristic_games())}"
        ) from None
    module, _, attr = target.partition(":")
    factory = getattr(importlib.import_module(module), attr)
    return factory(game, player, seed=seed, **kwargs)
