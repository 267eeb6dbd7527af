"""Game registry: ``make_game(name, **options)`` and ``list_games()``."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from fof_env.core.errors import OptionError

# name -> "module:factory"; imported lazily so listing games costs nothing.
_REGISTRY: dict[str, str] = {
    "strike_force_one": "fof_env.strike_force_one.game:StrikeForceOneGame",
    "lost_and_found": "fof_env.force_on_force.game:LostAndFoundGame",
    "compound_raid": "fof_env.force_on_force.game:CompoundRaidGame",
    "wwii_hedgerow_hamlet": "fof_env.force_on_force.game:WwiiHedgerowHamletGame",
    "fubar": "fof_env.fubar.game:FubarGame",
    "fubar_lost_and_found": "fof_env.fubar.game:FubarLostAndFoundGame",
    "fubar_village_patrol": "fof_env.fubar.game:FubarVillagePatrolGame",
    "force_on_force": "fof_env.force_on_force.game:ForceOnForceGame",
}


def register_game(name: str, target: str | Callable[..., Any]) -> None:
    """Register a game factory under ``name`` ("module:attr" string or a callable)."""
    _REGISTRY[name] = target  # type: ignore[assignment]


def list_games() -> list[str]:
    """Names accepted by :func:`make_game`, sorted."""
    return sorted(_REGISTRY)


def make_game(name: str, **options: Any):
    """Build the game ``name`` with its scenario ``options``.

    Raises :class:`OptionError` for an unknown name or option.
    """
    try:
        target = _REGISTRY[name]
    except KeyError:
        raise OptionError(f"unknown game {name!r}; known games: {', '.join(list_games())}") from None
    if isinstance(target, str):
        module, _, attr = target.partition(":")
        target = getattr(importlib.import_module(module), attr)
    return target(**options)
